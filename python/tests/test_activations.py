"""The activation and transcendental ops on both chips, over dense sweeps
of their inputs and special values, against float64 references, within
the error bounds their documentation states (docs/generated/HKDialect.md).

The emulator computes v_exp_f32, v_rcp_f32, v_rsq_f32 and v_sin_f32
correctly rounded; the documented bounds leave room for the 1-ULP
instructions of the chips, so a result here that comes near a bound would
be a warning even when it passes.
"""

import math

import numpy as np
import pytest

import hk
from conftest import CHIPS

U = 2.0**-24

SOURCE = """
hk.kernel @apply(%x: !hk.gl<?x?x{T}>, %y: !hk.gl<?x?x{T}>) waves(1) {{
  %b = hk.block_id x
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%b, %c0] : !hk.gl<?x?x{T}> -> !hk.rt<16x64x{T}, row>
  %r = hk.{OP} %t : !hk.rt<16x64x{T}, row>
  hk.store %r, %y[%b, %c0] : !hk.rt<16x64x{T}, row> -> !hk.gl<?x?x{T}>
  hk.return
}}
"""

_erf = np.vectorize(math.erf)
_erfc = np.vectorize(math.erfc)


def sigmoid(x):
    return np.where(x >= 0, 1 / (1 + np.exp(-np.abs(x))),
                    np.exp(-np.abs(x)) / (1 + np.exp(-np.abs(x))))


def gelu_tanh_v(x):
    return 2 * math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)


# op -> (reference, bound(x, ref), input range)
FUNCTIONS = {
    "tanh": (np.tanh, lambda x, r: 2.0**-21 * np.abs(r), 12),
    "sigmoid": (sigmoid, lambda x, r: (6 + 2 * np.abs(x)) * U * r, 100),
    "silu": (lambda x: x * sigmoid(x),
             lambda x, r: (7 + 2 * np.abs(x)) * U * np.abs(r), 100),
    "erf": (_erf, lambda x, r: 2.0**-22 * np.abs(r), 6),
    "gelu": (lambda x: 0.5 * x * _erfc(-x / math.sqrt(2)),
             lambda x, r: (4 + 2 * x * x) * U * np.abs(r) + U, 12),
    "gelu_tanh": (lambda x: x * sigmoid(gelu_tanh_v(x)),
                  lambda x, r: (8 + 5 * np.abs(gelu_tanh_v(x))) * U *
                  np.abs(r), 12),
    "sin": (np.sin, lambda x, r: np.full_like(x, 2.0**-21), 2000),
    "cos": (np.cos, lambda x, r: np.full_like(x, 2.0**-21), 2000),
    "rsqrt": (lambda x: 1 / np.sqrt(x), lambda x, r: 2.0**-23 * np.abs(r),
              1e6),
}

SPECIALS = [0.0, -0.0, 1e-30, -1e-30, 1e-40, 0.5, -0.5, 0.625, -0.625, 1.0,
            -1.0, 4.0, -4.0, 5.6, -5.6, 88.0, -88.0, 3e5, -3e5,
            np.inf, -np.inf, np.nan]


def inputs(limit, rows):
    rng = np.random.default_rng(12)
    n = rows * 64
    dense = np.linspace(-limit, limit, n // 2)
    small = np.concatenate(
        [np.geomspace(1e-6, 2.0, n // 8), -np.geomspace(1e-6, 2.0, n // 8)])
    rest = rng.uniform(-limit, limit, n - dense.size - small.size - 22)
    x = np.concatenate([SPECIALS, dense, small, rest]).astype(np.float32)
    return x.reshape(rows, 64)


def reference(name, x):
    with np.errstate(all="ignore"):
        x64 = x.astype(np.float64)
        if name == "rsqrt":
            x64 = np.where(x64 < 0, np.nan, x64)
        return FUNCTIONS[name][0](x64)


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_f32_bounds(chip, name):
    ref_fn, bound_fn, limit = FUNCTIONS[name]
    rows = 256
    x = inputs(limit, rows)
    if name == "rsqrt":
        x = np.abs(x)
        x[0, :4] = [-1.0, -0.0, 0.0, 1e-44]
    y = np.full_like(x, 12345.0)
    mod = hk.compile(SOURCE.format(T="f32", OP=name), chip)
    res = mod.launch(hk.Device(chip), "apply", grid=(rows // 16,),
                     args=[x, y])
    assert res.ok and res.reports == ()
    ref = reference(name, x)
    x64 = x.astype(np.float64)
    with np.errstate(all="ignore"):
        finite = np.isfinite(ref)
        bound = bound_fn(x64, ref)
        err = np.abs(y.astype(np.float64) - ref)
    # Results below the normal range may be flushed to zero, and so may a
    # sigmoid below it inside silu and gelu_tanh (v_exp_f32 flushes
    # denormal results).
    tiny = np.abs(ref) < 2.0**-126
    if name == "silu":
        tiny |= x64 < -87.3
    if name == "gelu_tanh":
        with np.errstate(all="ignore"):
            tiny |= gelu_tanh_v(x64) < -87.3
    ok = finite & ~tiny
    worst = np.max(np.where(ok, err / np.where(bound > 0, bound, 1), 0))
    bad = ok & ~(err <= bound)
    assert not bad.any(), (
        f"{name}: x={x[bad][:4]} got {y[bad][:4]} want {ref[bad][:4]} "
        f"worst err/bound {worst:.3g}")
    assert np.all(np.abs(y[tiny & finite]) <=
                  2.0**-125 * np.maximum(1, np.abs(x[tiny & finite])))
    # Infinities and NaN: the limits the functions have.
    nan_in = np.isnan(x)
    assert np.isnan(y[nan_in]).all()
    inf_ref = np.isinf(ref) & ~nan_in
    np.testing.assert_array_equal(y[inf_ref], ref[inf_ref].astype(np.float32))
    if name in ("tanh", "sigmoid", "erf"):
        for v in (np.inf, -np.inf):
            np.testing.assert_array_equal(y[x == v],
                                          np.float32(ref_fn(np.float64(v))))


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("name", ["tanh", "gelu", "silu"])
def test_narrow_types(chip, name):
    """bf16 and f16 tiles compute in f32 and round once."""
    ref_fn, bound_fn, limit = FUNCTIONS[name]
    rows = 32
    xf = inputs(min(limit, 8), rows)
    xf = xf[np.isfinite(xf).all(axis=1)][:16]
    for dtype, roundoff in (("bf16", 2.0**-8), ("f16", 2.0**-11)):
        if dtype == "bf16":
            xb = hk.to_bf16(xf)
            xv = hk.from_bf16(xb)
            y = np.zeros_like(xb)
        else:
            xb = xf.astype(np.float16)
            xv = xb.astype(np.float32)
            y = np.zeros_like(xb)
        mod = hk.compile(SOURCE.format(T=dtype, OP=name), chip)
        res = mod.launch(hk.Device(chip), "apply", grid=(1,), args=[xb, y])
        assert res.ok and res.reports == ()
        got = hk.from_bf16(y) if dtype == "bf16" else y.astype(np.float32)
        x64 = xv.astype(np.float64)
        ref = reference(name, xv)
        bound = (1 + roundoff) * bound_fn(x64, ref) + roundoff * np.abs(ref) \
            + 2.0**-24
        err = np.abs(got.astype(np.float64) - ref)
        assert np.all(err <= bound), f"{dtype}: worst {np.max(err / bound)}"
