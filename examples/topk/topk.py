"""Cases and reference of the row top-k (topk.mlir)."""

import numpy as np


def topk(shape, params, rng):
    if len(shape) != 3:
        raise SystemExit(f"top-k cases are MxNxK, got {shape}")
    m, n, k = shape
    if not 1 <= k <= n:
        raise SystemExit(f"top-k needs 1 <= k <= N, got k={k}, N={n}")
    # Quarters in [-8, 8): 64 distinct values, so rows hold many ties.
    x = np.round(rng.uniform(-8.0, 8.0, (m, n)) * 4) / 4

    def reference(x):
        # The first k of a stable descending sort: equal values by
        # increasing index. Selection compares and copies: exact.
        order = np.argsort(-x, axis=1, kind="stable")[:, :k]
        values = np.take_along_axis(x, order, axis=1)
        exact = "exact (a selection)"
        return {"values": (values, 0.0, exact), "indices": (order, 0.0, exact)}

    return {
        "inputs": {"x": x},
        "outputs": {"values": (m, k), "indices": (m, k)},
        "reference": reference,
        "grid": (max(1, -(-m // 64)),),
        "description": f"M={m} N={n} k={k}",
    }
