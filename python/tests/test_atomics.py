"""hk.atomic_add from many blocks into one tile of f32, bf16 and f16 views,
on both chips in the emulator, against numpy: every layout family (a row
tile adds bf16 pairs, the others single halves next to -0.0), views whose
odd row stride leaves no aligned pairs, ragged edges, and elements that
share a 32-bit word with the tile but lie outside it, which must keep
their bits. The contributions are small integers, so every partial sum is
exact in every type and any order of arrival gives the same result.
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
hk.kernel @accumulate(%x: !hk.gl<?x?x?xf32>, %f: !hk.gl<?x?xf32>,
                      %h: !hk.gl<?x?xbf16>, %g: !hk.gl<?x?xf16>) waves(1) {{
  %b = hk.block_id x
  %i = hk.block_id y
  %j = hk.block_id z
  %t = hk.load %x[%b, %i, %j] : !hk.gl<?x?x?xf32> -> !hk.rt<32x32xf32, {L}>
  hk.atomic_add %t, %f[%i, %j] : !hk.rt<32x32xf32, {L}> -> !hk.gl<?x?xf32>
  hk.atomic_add %t, %h[%i, %j] : !hk.rt<32x32xf32, {L}> -> !hk.gl<?x?xbf16>
  hk.atomic_add %t, %g[%i, %j] : !hk.rt<32x32xf32, {L}> -> !hk.gl<?x?xf16>
  hk.return
}}
"""

BLOCKS = 6  # Contributions per element.


@pytest.fixture(scope="module")
def modules():
    cache = {}

    def get(chip, layout):
        if (chip, layout) not in cache:
            cache[chip, layout] = hk.compile(
                SOURCE.format(L=LAYOUTS[layout]), chip)
        return cache[chip, layout]

    return get


# (rows, cols) of the views and the tiles (32x32 each) the grid covers.
SHAPES = {
    "aligned": (64, 64, 2, 2),
    "ragged": (50, 37, 2, 2),      # odd row stride, partial edge tiles
    "partial": (40, 37, 1, 1),     # rows 32.. and columns 32.. untouched
}


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_atomic_add(modules, chip, layout, shape):
    rows, cols, ti, tj = SHAPES[shape]
    rng = np.random.default_rng(7)
    x = rng.integers(-8, 9, (BLOCKS, 32 * ti, 32 * tj)).astype(np.float32)
    f = rng.integers(-64, 65, (rows, cols)).astype(np.float32)
    start = rng.integers(-64, 65, (rows, cols)).astype(np.float32)
    # Negative zeros next to the covered part must stay negative zeros
    # (adding +0.0 to a neighbour would make them positive).
    start[start == 0] = -0.0
    start[:, 32 * tj:] = -0.0
    start[32 * ti:, :] = -0.0
    h = hk.to_bf16(start)
    g = start.astype(np.float16)
    f0, h0, g0 = f.copy(), h.copy(), g.copy()
    res = modules(chip, layout).launch(hk.Device(chip), "accumulate",
                                       grid=(BLOCKS, ti, tj), args=[x, f, h, g])
    assert res.ok and res.reports == ()

    r, c = min(rows, 32 * ti), min(cols, 32 * tj)
    total = x[:, :r, :c].sum(axis=0)
    want_f, want_h, want_g = f0.copy(), start.copy(), start.copy()
    want_f[:r, :c] += total
    want_h[:r, :c] += total
    want_g[:r, :c] += total
    np.testing.assert_array_equal(f, want_f)
    # Covered elements compare as values; the rest keep their exact bits.
    np.testing.assert_array_equal(hk.from_bf16(h), want_h)
    np.testing.assert_array_equal(g.astype(np.float32), want_g)
    outside = np.ones((rows, cols), bool)
    outside[:r, :c] = False
    np.testing.assert_array_equal(h[outside], h0[outside])
    np.testing.assert_array_equal(g.view(np.uint16)[outside],
                                  g0.view(np.uint16)[outside])


ROUNDING_SOURCE = """
hk.kernel @round(%x: !hk.gl<?x?xf32>, %h: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  hk.atomic_add %t, %h[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xbf16>
  hk.return
}
"""


@pytest.mark.parametrize("chip", CHIPS)
def test_bf16_sums_round_to_nearest_even(chip):
    """The value rounds to bf16 before the add, the sum rounds again."""
    mod = hk.compile(ROUNDING_SOURCE, chip)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((16, 16)).astype(np.float32)
    start = rng.standard_normal((16, 16)).astype(np.float32)
    h = hk.to_bf16(start)
    base = hk.from_bf16(h)
    res = mod.launch(hk.Device(chip), "round", grid=(1,), args=[x, h])
    assert res.ok and res.reports == ()
    want = hk.to_bf16(base + hk.from_bf16(hk.to_bf16(x)))
    np.testing.assert_array_equal(h, want)
