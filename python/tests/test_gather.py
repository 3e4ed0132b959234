"""hk.gather and hk.scatter of rows picked by an index vector, on both
chips in the emulator, against numpy: every layout family, an outer
(batch) index, a bf16 view read into f32 tiles and written back, row
indices outside the matrix (negative and past its end), and ragged column
tiles. Gathers and scatters move values unchanged, so results are exact.
"""

import numpy as np
import pytest

import hk
from conftest import CHIPS

LAYOUTS = {
    "row": "row",
    "col": "col",
    "acc16": "#hk.mfma<acc, 16x16x16>",
    "acc32": "#hk.mfma<acc, 32x32x8>",
}

SOURCE = """
hk.kernel @rows(%src: !hk.gl<?x?x?xbf16>, %ids: !hk.gl<?xi32>,
                %out: !hk.gl<?x?x?xf32>, %dst: !hk.gl<?x?x?xbf16>) waves(1) {{
  %b = hk.block_id x
  %j = hk.block_id y
  %c0 = arith.constant 0 : index
  %idx = hk.load %ids[%c0] : !hk.gl<?xi32> -> !hk.rv<32xi32>
  %t = hk.gather %src[%b, %j] rows %idx
      : !hk.gl<?x?x?xbf16>, !hk.rv<32xi32> -> !hk.rt<32x32xf32, {L}>
  hk.store %t, %out[%b, %c0, %j] : !hk.rt<32x32xf32, {L}> -> !hk.gl<?x?x?xf32>
  hk.scatter %t, %dst[%b, %j] rows %idx
      : !hk.rt<32x32xf32, {L}>, !hk.rv<32xi32> -> !hk.gl<?x?x?xbf16>
  hk.return
}}
"""

BATCH, ROWS = 2, 45


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("cols", [64, 40])
def test_gather_scatter_rows(chip, layout, cols):
    mod = hk.compile(SOURCE.format(L=LAYOUTS[layout]), chip)
    rng = np.random.default_rng(11)
    values = rng.standard_normal((BATCH, ROWS, cols)).astype(np.float32)
    src = hk.to_bf16(values)
    exact = hk.from_bf16(src)
    # Distinct rows in a random order, and rows outside the matrix.
    ids = rng.permutation(ROWS)[:32].astype(np.int32)
    ids[[3, 17, 30]] = [-1, ROWS, 1 << 30]
    tiles = (cols + 31) // 32
    out = np.full((BATCH, 32, 32 * tiles), np.nan, np.float32)
    dst = np.full((BATCH, ROWS, cols), 0x7FC0, np.uint16)  # bf16 NaN
    res = mod.launch(hk.Device(chip), "rows", grid=(BATCH, tiles),
                     args=[src, ids, out, dst])
    assert res.ok and res.reports == ()

    valid = (ids >= 0) & (ids < ROWS)
    want = np.zeros_like(out)
    want[:, valid, :cols] = exact[:, ids[valid], :]
    np.testing.assert_array_equal(out, want)
    want_dst = np.full_like(dst, 0x7FC0)
    want_dst[:, ids[valid], :] = src[:, ids[valid], :]
    np.testing.assert_array_equal(dst, want_dst)
