"""Cases and float64 references of the gated activations (activation.mlir).

A case MxN is x of M x 2N bf16 values (gate, then up, per row) and y of
M x N. The kernels widen bf16 to f32, compute in f32 and round once to
bf16.
"""

import math

import numpy as np

# Unit roundoffs: f32 (24-bit significand) and bf16 (8-bit).
F32 = 2.0**-24
BF16 = 2.0**-8


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def silu_with_bound(g):
    """silu(g) and hk.silu's documented error: (7 + 2|g|) 2^-24 |silu|."""
    value = g / (1.0 + np.exp(-g))
    return value, (7.0 + 2.0 * np.abs(g)) * F32 * np.abs(value)


def gelu_with_bound(g):
    """gelu(g) (erf form) and hk.gelu's documented error:
    (4 + 2 g^2) 2^-24 |gelu| + 2^-24."""
    value = 0.5 * g * (1.0 + _erf(g / math.sqrt(2.0)))
    return value, (4.0 + 2.0 * g * g) * F32 * np.abs(value) + F32


ACTIVATIONS = {"silu": silu_with_bound, "gelu": gelu_with_bound}


def gated(shape, params, rng):
    if len(shape) != 2:
        raise SystemExit(f"gated activation cases are MxN, got {shape}")
    m, n = shape
    act = ACTIVATIONS[params.get("act", "silu")]
    # Gates of a few units reach both tails of the activation.
    x = rng.uniform(-6.0, 6.0, (m, 2 * n))

    def reference(x):
        gate, up = x[:, :n], x[:, n:]
        a, a_err = act(gate)
        value = a * up
        # f32: the activation's error times |up|, one rounding of the
        # product; then one bf16 rounding of the result.
        f32_err = a_err * np.abs(up) + F32 * np.abs(value)
        bound = BF16 * (np.abs(value) + f32_err) + f32_err
        rule = ("|got - ref| <= 2^-8 (|ref| + e) + e, e = the activation's "
                "f32 error * |up| + 2^-24 |ref| (bf16 output)")
        return {"y": (value, bound, rule)}

    return {
        "inputs": {"x": x},
        # x[0] is the gate, x[1] the up half: a 2 x M x N view of M x 2N.
        "views": {"xv": ("x", (2, m, n), (n, 2 * n, 1))},
        "outputs": {"y": (m, n)},
        "reference": reference,
        "description": f"M={m} N={n}",
    }
