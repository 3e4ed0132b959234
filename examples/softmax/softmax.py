"""Cases and float64 reference of the row softmax (softmax.mlir)."""

import numpy as np

F32 = 2.0**-24  # unit roundoff of f32
BF16 = 2.0**-8  # unit roundoff of bf16


def softmax(shape, params, rng):
    if len(shape) != 2:
        raise SystemExit(f"softmax cases are MxN, got {shape}")
    m, n = shape
    # Logits of a few units: rows neither flat nor one-hot.
    x = rng.uniform(-8.0, 8.0, (m, n))
    tiles = -(-n // 128)

    def reference(x):
        mx = x.max(axis=1, keepdims=True)
        e = np.exp(x - mx)
        value = e / e.sum(axis=1, keepdims=True)
        # f32 error, relative: each exponential (4 + 2|x - m|) u (the
        # rounding of x - m, scaled by exp, plus the exponential's own few
        # ulps); the sum: its largest term's error, each running rescale
        # exp(m_old - m_new) (at most one per tile, 4 + 2 (m_new - m_old)
        # u, the growths adding up to at most R = max |x - m|), and N
        # roundings of the additions; then the reciprocal and the product.
        r = np.abs(x - mx).max(axis=1, keepdims=True)
        rel = F32 * (4 + 2 * np.abs(x - mx) + (4 + 2 * r) + (4 * tiles + 2 * r)
                     + n + 2)
        f32_err = rel * value
        bound = BF16 * (value + f32_err) + f32_err
        rule = ("|got - ref| <= 2^-8 (|ref| + e) + e, e = (4 + 2|x - m| + 8 + "
                "4R + 4 tiles + N) 2^-24 |ref| (R = max |x - m| of the row; "
                "bf16 output)")
        return {"y": (value, bound, rule)}

    return {
        "inputs": {"x": x},
        "outputs": {"y": (m, n)},
        "reference": reference,
        "description": f"M={m} N={n}",
        "grid": (max(1, -(-m // 64)),),
    }
