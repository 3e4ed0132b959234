"""Cases and float64 references of gemm_epilogue.mlir: the GEMM with a
bias and GELU epilogue, and the batched GEMM."""

import math

import numpy as np

F32 = 2.0**-24  # unit roundoff of f32
BF16 = 2.0**-8  # unit roundoff of bf16


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _accumulation(a, b, k):
    """A B^T (batched over leading dimensions) and the bound of its f32
    accumulation in any order: K 2^-23 sum |a b| (bf16 products are exact
    in f32)."""
    value = a @ np.swapaxes(b, -1, -2)
    return value, k * 2 * F32 * (np.abs(a) @ np.swapaxes(np.abs(b), -1, -2))


def _bf16_output(value, f32_err):
    return BF16 * (np.abs(value) + f32_err) + f32_err


def bias_gelu(shape, params, rng):
    if len(shape) != 3:
        raise SystemExit(f"gemm cases are MxNxK, got {shape}")
    m, n, k = shape

    def reference(A, B, bias):
        acc, acc_err = _accumulation(A, B, k)
        z = acc + bias
        value = 0.5 * z * (1.0 + _erf(z / math.sqrt(2.0)))
        # The accumulation's error and the bias add's rounding pass through
        # gelu, whose slope is at most 1.13 (at z = 2.42); hk.gelu's own
        # error is (4 + 2 z^2) 2^-24 |gelu(z)| + 2^-24.
        f32_err = (1.13 * (acc_err + F32 * np.abs(z))
                   + (4 + 2 * z * z) * F32 * np.abs(value) + F32)
        rule = ("2^-8 (|C| + e) + e, e = 1.13 (K 2^-23 sum|a b| + 2^-24 |z|) "
                "+ (4 + 2 z^2) 2^-24 |C| + 2^-24, z = A B^T + bias")
        return {"C": (value, _bf16_output(value, f32_err), rule)}

    return {
        "inputs": {"A": rng.uniform(-1.0, 1.0, (m, k)),
                   "B": rng.uniform(-1.0, 1.0, (n, k)),
                   "bias": rng.uniform(-1.0, 1.0, n)},
        "outputs": {"C": (m, n)},
        "reference": reference,
        "grid": (max(1, -(-m // 128)), max(1, -(-n // 128))),
        "description": f"M={m} N={n} K={k}",
    }


def batched(shape, params, rng):
    if len(shape) != 4:
        raise SystemExit(f"batched gemm cases are BxMxNxK, got {shape}")
    batch, m, n, k = shape

    def reference(A, B):
        value, f32_err = _accumulation(A, B, k)
        rule = "2^-8 (|C| + e) + e, e = K 2^-23 sum|a b| (bf16 output)"
        return {"C": (value, _bf16_output(value, f32_err), rule)}

    return {
        "inputs": {"A": rng.uniform(-1.0, 1.0, (batch, m, k)),
                   "B": rng.uniform(-1.0, 1.0, (batch, n, k))},
        "outputs": {"C": (batch, m, n)},
        "reference": reference,
        "grid": (max(1, -(-m // 128)), max(1, -(-n // 128)), max(1, batch)),
        "description": f"batch={batch} M={m} N={n} K={k}",
    }
