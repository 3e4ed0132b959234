"""Cases and float64 reference of RoPE with gathered positions (rope.mlir)."""

import numpy as np

F32 = 2.0**-24  # unit roundoff of f32
BF16 = 2.0**-8  # unit roundoff of bf16


def rope(shape, params, rng):
    if len(shape) != 4:
        raise SystemExit(f"rope cases are BxHxSxD, got {shape}")
    b, h, s, d = shape
    half = d // 2
    # Positions gathered at random from a cache longer than the sequence:
    # any order, repeats, as packed batches and KV-cache offsets give.
    max_pos = s + 64
    pos = rng.integers(0, max_pos, (b, s))
    inv_freq = 10000.0 ** (-np.arange(half) * 2.0 / d)
    angles = np.arange(max_pos)[:, None] * inv_freq[None, :]
    cos_sin = np.concatenate([np.cos(angles), np.sin(angles)], axis=1)

    def reference(x, pos, cos_sin):
        c = cos_sin[pos, :half][:, None]  # b x 1 x s x half
        sn = cos_sin[pos, half:][:, None]
        x1, x2 = x[..., :half], x[..., half:]
        y = np.concatenate([x1 * c - x2 * sn, x2 * c + x1 * sn], axis=-1)
        # f32: two rounded products and their rounded sum, then bf16.
        terms = np.concatenate([np.abs(x1 * c) + np.abs(x2 * sn)] * 2, axis=-1)
        f32_err = F32 * (2 * terms + np.abs(y))
        bound = BF16 * (np.abs(y) + f32_err) + f32_err
        rule = ("2^-8 (|y| + e) + e, e = 2^-24 (2 (|x1 c| + |x2 s|) + |y|) "
                "(bf16 output)")
        return {"y": (y, bound, rule)}

    return {
        "inputs": {"x": rng.uniform(-1.0, 1.0, (b, h, s, d)), "pos": pos,
                   "cos_sin": cos_sin},
        "outputs": {"y": (b, h, s, d)},
        "reference": reference,
        "grid": (max(1, -(-s // 64)), max(1, b)),
        "description": f"B={b} H={h} S={s} D={d}",
    }
