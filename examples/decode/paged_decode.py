"""Cases and float64 reference of the paged-KV decode attention
(paged_decode.mlir)."""

import numpy as np

F32 = 2.0**-24  # unit roundoff of f32
BF16 = 2.0**-8  # unit roundoff of bf16 (P before P V, and the output)
D = 128


def decode(shape, params, rng):
    if len(shape) != 5:
        raise SystemExit("decode cases are BxKVHxGxLxP: batch, KV heads, "
                         f"query heads per KV head, longest length, page "
                         f"size; got {shape}")
    b, kvh, g, max_len, page = shape
    if not 1 <= g <= 16:
        raise SystemExit(f"a KV head serves 1 to 16 query heads, got G={g}")
    if page < 1 or page & (page - 1):
        raise SystemExit(f"the page size must be a power of two, got {page}")
    if max_len < 1:
        raise SystemExit("sequences hold at least one token")
    max_pages = -(-max_len // page)
    # Lengths from 1 to max_len (the last sequence the longest); pages
    # scattered over a cache with spares, in random order.
    lens = rng.integers(1, max_len + 1, b)
    lens[-1] = max_len
    num_pages = b * max_pages + 3
    table = rng.permutation(num_pages)[:b * max_pages].reshape(b, max_pages)
    # vLLM's cache layout: pages x page size x KV heads x d.
    k_cache = rng.uniform(-2.0, 2.0, (num_pages, page, kvh, D))
    v_cache = rng.uniform(-2.0, 2.0, (num_pages, page, kvh, D))
    q = rng.uniform(-2.0, 2.0, (b, kvh, g, D))
    scale = 1.0 / np.sqrt(D)

    def reference(q, k_cache, v_cache, block_table, seq_lens):
        out = np.zeros((b, kvh, g, D))
        bound = np.zeros((b, kvh, g, D))
        for i in range(b):
            n = int(seq_lens[i])
            pos = np.arange(n)
            slots = block_table[i, pos // page].astype(np.int64)
            for h in range(kvh):
                keys = k_cache[slots, pos % page, h]   # n x D
                vals = v_cache[slots, pos % page, h]
                dots = q[i, h] @ keys.T                # g x n
                mag = np.abs(q[i, h]) @ np.abs(keys).T
                s = dots * scale
                p = np.exp(s - s.max(axis=1, keepdims=True))
                l = p.sum(axis=1, keepdims=True)
                out[i, h] = p @ vals / l
                spread = p @ np.abs(vals) / l
                # As the attention examples' bound: the scores' f32 dot
                # product and scaling error, which exp turns into a
                # relative error of the weights (plus exp's and each
                # rescale's, one per tile of 32 keys); P in bf16 before
                # P V; sums over n keys in f32; the bf16 output.
                score_err = (scale * (D * F32 * mag + F32 * np.abs(dots))
                             + F32 * np.abs(s)).max(axis=1, keepdims=True)
                tiles = -(-n // 32)
                weight_err = 2 * score_err + 2.0**-22 * (1 + tiles)
                max_v = np.abs(vals).max()
                bound[i, h] = (BF16 * np.abs(out[i, h])
                               + (1 + BF16) * (BF16 * spread
                                               + 2 * weight_err * max_v
                                               + 2 * n * F32 * spread)
                               + 2.0**-40)
        rule = ("2^-8 |O| + (1 + 2^-8)(2^-8 sum(p|v|)/l + 2 w max|v| + "
                "2 n 2^-24 sum(p|v|)/l), w = the weights' f32 error")
        return {"out": (out, bound, rule)}

    slot_stride = kvh * D
    return {
        "inputs": {"q": q, "k_cache": k_cache, "v_cache": v_cache,
                   "block_table": table, "seq_lens": lens},
        "views": {
            # KV head h's cache rows, slot = page * page_size + offset.
            "k": ("k_cache", (kvh, num_pages * page, D), (D, slot_stride, 1)),
            "v": ("v_cache", (kvh, num_pages * page, D), (D, slot_stride, 1)),
            # The kernel gathers rows of one column: a table entry or a
            # length per row.
            "table": ("block_table", (b, max_pages, 1), (max_pages, 1, 1)),
            "lens": ("seq_lens", (b, 1), (1, 1)),
        },
        "outputs": {"out": (b, kvh, g, D)},
        "scalars": {"scale": scale, "log2_page": int(np.log2(page))},
        "reference": reference,
        "grid": (kvh, b),
        "description": (f"B={b} KVH={kvh} G={g} lengths {lens.min()}.."
                        f"{lens.max()} page={page}"),
    }
