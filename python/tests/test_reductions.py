"""Row and column reductions and broadcasts of one 32x64 tile in every
register layout family, on both chips, against numpy.

Each lane combines its own elements, then the lanes holding the same rows
(columns) trade values (DPP, ds_swizzle, permlane/bpermute depending on the
lane bits), so every layout exercises a different set of cross-lane moves.
Max and min are exact; sums of 64 (32) f32 terms in any order are within
(n - 1) * 2^-24 * sum|x| of the exact sum.
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
    "a16": "#hk.mfma<a, 16x16x32>",
    "b32": "#hk.mfma<b, 32x32x16>",
}

SOURCE = """
hk.kernel @reduce(%x: !hk.gl<?x?xf32>, %rs: !hk.gl<?xf32>, %rm: !hk.gl<?xf32>,
                  %cs: !hk.gl<?xf32>, %cm: !hk.gl<?xf32>,
                  %y: !hk.gl<?x?xf32>, %r2: !hk.gl<?x?xf32>) waves(1) {{
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<32x64xf32, {L}>
  %s = hk.row_sum %t : !hk.rt<32x64xf32, {L}> -> !hk.rv<32xf32>
  %m = hk.row_max %t : !hk.rt<32x64xf32, {L}> -> !hk.rv<32xf32>
  %c = hk.col_sum %t : !hk.rt<32x64xf32, {L}> -> !hk.rv<64xf32>
  %n = hk.col_min %t : !hk.rt<32x64xf32, {L}> -> !hk.rv<64xf32>
  hk.store %s, %rs[%c0] : !hk.rv<32xf32> -> !hk.gl<?xf32>
  hk.store %m, %rm[%c0] : !hk.rv<32xf32> -> !hk.gl<?xf32>
  hk.store %c, %cs[%c0] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  hk.store %n, %cm[%c0] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  // Row 1, second run of 32 columns of a 2-D view: past its last column
  // nothing is written.
  hk.store %s, %r2[%c1, %c1] : !hk.rv<32xf32> -> !hk.gl<?x?xf32>
  %d = hk.sub_row %t, %m : !hk.rt<32x64xf32, {L}>, !hk.rv<32xf32>
  %e = hk.div_col %d, %c : !hk.rt<32x64xf32, {L}>, !hk.rv<64xf32>
  hk.store %e, %y[%c0, %c0] : !hk.rt<32x64xf32, {L}> -> !hk.gl<?x?xf32>
  hk.return
}}
"""


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_reductions(chip, layout):
    mod = hk.compile(SOURCE.format(L=LAYOUTS[layout]), chip)
    rng = np.random.default_rng(3)
    x = rng.uniform(0.5, 1.5, (32, 64)).astype(np.float32)
    x *= rng.choice([-1, 1], x.shape).astype(np.float32)
    rs, rm = np.full(32, np.nan, np.float32), np.full(32, np.nan, np.float32)
    cs, cm = np.full(64, np.nan, np.float32), np.full(64, np.nan, np.float32)
    y = np.full((32, 64), np.nan, np.float32)
    r2 = np.full((2, 40), -7.0, np.float32)
    res = mod.launch(hk.Device(chip), "reduce", grid=(1,),
                     args=[x, rs, rm, cs, cm, y, r2])
    assert res.ok and res.reports == ()

    x64 = x.astype(np.float64)
    u = 2.0**-24
    np.testing.assert_array_equal(rm, x.max(axis=1))
    np.testing.assert_array_equal(cm, x.min(axis=0))
    assert np.all(np.abs(rs - x64.sum(axis=1)) <=
                  63 * u * np.abs(x64).sum(axis=1))
    col_bound = 31 * u * np.abs(x64).sum(axis=0)
    assert np.all(np.abs(cs - x64.sum(axis=0)) <= col_bound)
    np.testing.assert_array_equal(r2[1, 32:], rs[:8])
    assert np.all(r2[0] == -7.0) and np.all(r2[1, :32] == -7.0)
    # The broadcasts, against the kernel's own (checked) statistics: one
    # rounding for the subtraction and one for the division.
    want = (x64 - rm[:, None].astype(np.float64)) / cs[None, :]
    assert np.all(np.abs(y - want) <= 2 * u * np.abs(want) + 1e-30)
