"""hk.div on f32 tiles against numpy's correctly rounded division, bit for
bit, over the cases the chips' division sequence (v_div_scale, v_rcp,
v_fma, v_div_fmas, v_div_fixup) scales for: quotients that are subnormal
or overflow, subnormal and huge denominators, zeros, infinities and NaNs.

The sequence rounds once, so every finite result must equal IEEE division
exactly; a quotient of 1.2e-38 / 2 once came out 2^128 too large.
"""

import numpy as np
import pytest

import hk
from conftest import CHIPS

SOURCE = """
hk.kernel @divide(%x: !hk.gl<?x?xf32>, %d: !hk.gl<?x?xf32>,
                  %y: !hk.gl<?x?xf32>) waves(1) {
  %b = hk.block_id x
  %c0 = arith.constant 0 : index
  %tx = hk.load %x[%b, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  %td = hk.load %d[%b, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  %q = hk.div %tx, %td : !hk.rt<16x64xf32, row>
  hk.store %q, %y[%b, %c0] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}
"""

TINY = np.finfo(np.float32).tiny  # 2^-126, the smallest normal
MAX = np.finfo(np.float32).max
SPECIAL = [
    (1.2e-38, 2.0),        # subnormal quotient (the regression)
    (5.88e-39, 2.0),       # subnormal numerator and quotient
    (TINY, 3.0), (-TINY, 7.0), (TINY, -1.0 + 2**-23),
    (1e-38, 1e30), (1e-45, 4.0), (3e-45, 2.0),
    (1.0, 3e38), (2.0, MAX), (-5.0, 1e38),  # huge denominators
    (1.0, 1e-39), (1e-30, 1e-39), (1e-40, 1e-40),  # subnormal denominators
    (3e38, 0.5), (1e38, 1e-3), (-MAX, 0.25),  # overflow
    (MAX, MAX), (MAX, 1.0), (1e30, 1e-8),
    (0.0, 2.0), (-0.0, 2.0), (2.0, 0.0), (2.0, -0.0), (0.0, 0.0),
    (np.inf, 2.0), (2.0, np.inf), (-np.inf, -np.inf), (np.inf, 0.0),
    (np.nan, 1.0), (1.0, np.nan), (1.0, 1.0), (1.0, 3.0), (-7.0, 0.1),
]


def inputs(rows):
    rng = np.random.default_rng(11)
    n = rows * 64
    x = np.empty(n, np.float32)
    d = np.empty(n, np.float32)
    x[:len(SPECIAL)] = [a for a, _ in SPECIAL]
    d[:len(SPECIAL)] = [b for _, b in SPECIAL]
    # The rest: random signs, mantissas and exponents across the whole
    # range, so that quotients land everywhere from zero to overflow.
    rest = n - len(SPECIAL)
    for out in (x, d):
        mant = rng.uniform(1.0, 2.0, rest)
        exp = rng.integers(-149, 128, rest)
        sign = rng.choice([-1.0, 1.0], rest)
        out[len(SPECIAL):] = (sign * np.ldexp(mant, exp)).astype(np.float32)
    return x.reshape(rows, 64), d.reshape(rows, 64)


@pytest.mark.parametrize("chip", CHIPS)
def test_f32_division_is_correctly_rounded(device, chip):
    mod = hk.compile(SOURCE, chip)
    x, d = inputs(64)
    y = np.zeros_like(x)
    res = mod.launch(device(chip), "divide", grid=(x.shape[0] // 16,),
                     args=[x, d, y])
    assert res.ok and res.reports == ()
    with np.errstate(all="ignore"):
        ref = x / d
    nan = np.isnan(ref)
    assert np.array_equal(np.isnan(y), nan)
    bad = np.flatnonzero((y.view(np.uint32) != ref.view(np.uint32)) & ~nan)
    assert bad.size == 0, "%d wrong, first: %r / %r = %r, expected %r" % (
        bad.size, x.flat[bad[0]], d.flat[bad[0]], y.flat[bad[0]],
        ref.flat[bad[0]])
