"""Cases for divide.mlir: x (M x N) divided by a value per row r (M) and
per column c (N), exact and by reciprocals, against float64 quotients."""

import numpy as np


def _divisors(count, rng):
    # Both signs, magnitudes from 2^-100 to 2^100 (normal f32 numbers whose
    # reciprocals are normal too).
    signs = rng.choice([-1.0, 1.0], count)
    return signs * 2.0**rng.uniform(-100.0, 100.0, count)


def divide(shape, params, rng):
    m, n = shape
    x = rng.uniform(-1.0, 1.0, (m, n)) * 2.0 ** rng.uniform(-20, 20, (m, n))
    r, c = _divisors(m, rng), _divisors(n, rng)

    def ulp(q):
        # The spacing of f32 numbers at the quotient's magnitude.
        return np.spacing(np.abs(q).astype(np.float32)).astype(np.float64)

    def bound(q, ulps):
        # The float64 quotient is itself rounded, by at most 2^-53 of it.
        return ulps * ulp(q) + 2.0**-52 * np.abs(q)

    def reference(x, r, c):
        rows, cols = x / r[:, None], x / c[None, :]
        return {"y": (rows, bound(rows, 0.5), "0.5 f32 ulp"),
                "yr": (rows, bound(rows, 1.5), "1.5 f32 ulp"),
                "z": (cols, bound(cols, 0.5), "0.5 f32 ulp"),
                "zr": (cols, bound(cols, 1.5), "1.5 f32 ulp")}

    return {"inputs": {"x": x, "r": r, "c": c},
            "outputs": {"y": (m, n), "yr": (m, n), "z": (m, n), "zr": (m, n)},
            "reference": reference,
            "grid": (-(-m // 16), -(-n // 64)),
            "description": f"M={m} N={n}"}
