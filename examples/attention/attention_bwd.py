"""Cases and float64 references of the attention backward kernels
(attention_bwd.mlir, attention_bwd_d128.mlir).

A case's shape is BHxNqxNkxd, or BHxNqxNkxdxKVH for grouped-query
attention (BH query heads over KVH key/value heads, BH a multiple of
KVH); `causal=1` on the HK-RUN line makes query i attend to keys 0..i
(top-left aligned, as the forward examples).

Every reference is computed in float64 from the inputs as the kernel
receives them (rounded to bf16, or f32 for L and Delta), by NumPy alone:
nothing is taken from the program under test. Each bound adds up, per
element, the errors of the kernel's arithmetic as the kernel orders it:

  u = 2^-24   one f32 rounding; a sum of n terms in f32, in any order
              (MFMA chains, running accumulators, atomic additions), is
              within n u sum|term|;
  b = 2^-8    one rounding to bf16 (P and dS before their MFMAs, the bf16
              outputs);
  exp2        2^-22 relative (v_exp_f32, about one ulp on the hardware),
              and an argument error e turns into a relative error ln2 e.

Terms of second order (products of two relative errors, all below 2^-14
here) are covered by a factor 1 + 2^-6 on the f32 part of each bound.
"""

import numpy as np

F32 = 2.0**-24  # unit roundoff of f32
BF16 = 2.0**-8  # unit roundoff of bf16
EXP2 = 2.0**-22  # relative error of v_exp_f32 / v_log_f32
LN2 = np.log(2.0)
LOG2E = 1.0 / LN2
SECOND = 1.0 + 2.0**-6  # room for second-order terms
TILE = 64  # keys per forward step, keys per backward block


def round_bf16(a):
    """Round to the nearest bf16 (ties to even), as hk-run rounds inputs."""
    b = np.asarray(a, np.float64).astype(np.float32).view(np.uint32)
    b = b.astype(np.uint64)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return b.astype(np.uint32).view(np.float32).astype(np.float64)


def round_f32(a):
    return np.asarray(a, np.float64).astype(np.float32).astype(np.float64)


def parse(shape, params):
    if len(shape) not in (4, 5):
        raise SystemExit("attention backward cases are BHxNqxNkxd or "
                         f"BHxNqxNkxdxKVH, got {shape}")
    bh, nq, nk, d = shape[:4]
    kvh = shape[4] if len(shape) == 5 else bh
    if min(bh, nq, nk, d, kvh) < 1:
        raise SystemExit(f"every size must be at least 1, got {shape}")
    if bh % kvh:
        raise SystemExit(f"{bh} query heads do not split into groups over "
                         f"{kvh} KV heads")
    causal = params.get("causal", "0")
    if causal not in ("0", "1"):
        raise SystemExit(f"causal must be 0 or 1, got {causal}")
    return bh, nq, nk, d, kvh, causal == "1"


def describe(bh, nq, nk, d, kvh, causal):
    gqa = f" KVH={kvh}" if kvh != bh else ""
    return f"BH={bh}{gqa} Nq={nq} Nk={nk} d={d}" + (" causal" if causal else "")


def mask(nq, nk, causal):
    """True where query i sees key j."""
    if not causal:
        return np.ones((nq, nk), bool)
    return np.arange(nk)[None, :] <= np.arange(nq)[:, None]


def forward(q, k, v, causal):
    """Per query head: scores S (scaled by 1/sqrt(d)), the base-2
    log-sum-exp L, the probabilities P and the output O, in float64."""
    bh, nq, d = q.shape
    kvh, nk, _ = k.shape
    group = bh // kvh
    keep = mask(nq, nk, causal)
    out = {"s": [], "l2": np.zeros((bh, nq)), "p": [], "o": np.zeros(q.shape)}
    for h in range(bh):
        kk, vv = k[h // group], v[h // group]
        s = np.where(keep, q[h] @ kk.T / np.sqrt(d), -np.inf)
        mx = s.max(axis=1, keepdims=True)
        e = np.exp(s - mx)
        total = e.sum(axis=1, keepdims=True)
        p = e / total
        out["s"].append(s)
        out["l2"][h] = ((mx + np.log(total)) * LOG2E)[:, 0]
        out["p"].append(p)
        out["o"][h] = p @ vv
    return out


def inputs(bh, nq, nk, d, kvh, rng):
    q = round_bf16(rng.uniform(-2.0, 2.0, (bh, nq, d)))
    k = round_bf16(rng.uniform(-2.0, 2.0, (kvh, nk, d)))
    v = round_bf16(rng.uniform(-2.0, 2.0, (kvh, nk, d)))
    do = round_bf16(rng.uniform(-1.0, 1.0, (bh, nq, d)))
    return q, k, v, do


def fwd_lse(shape, params, rng):
    """attention_fwd_lse: O (bf16) and L (f32, base 2)."""
    bh, nq, nk, d, kvh, causal = parse(shape, params)
    q, k, v, _ = inputs(bh, nq, nk, d, kvh, rng)
    group = bh // kvh
    keep = mask(nq, nk, causal)

    def reference(Q, K, V):
        f = forward(Q, K, V, causal)
        o_bound = np.zeros(Q.shape)
        l_bound = np.zeros((bh, nq))
        c = LOG2E / np.sqrt(d)
        for h in range(bh):
            kk, vv = K[h // group], V[h // group]
            dots = Q[h] @ kk.T
            mag = np.abs(Q[h]) @ np.abs(kk).T
            # The scaled score x = S log2(e)/sqrt(d) in f32: d roundings of
            # the dot product, the constant's and the product's rounding.
            x_err = np.where(keep, c * d * F32 * mag + 2 * F32 * c * np.abs(dots),
                             0.0).max(axis=1)
            x = np.where(keep, c * dots, -np.inf)
            seen = keep.sum(axis=1)
            tiles = -(-seen // TILE)
            spread_x = np.where(keep, x.max(axis=1, keepdims=True) - x,
                                0.0).max(axis=1)
            # Relative error of the running sum l: exp2 of each weight,
            # one rescale per tile (exp2 of a difference of maxima, whose
            # rounding grows with the spread R), Nk f32 additions.
            sum_rel = (EXP2 * (1 + tiles) + F32 * (4 + 2 * spread_x) * tiles
                       + seen * F32)
            # L = max + log2(l): the scores' error passes through at most
            # once (log-sum-exp is 1-Lipschitz); log2 of l adds its
            # relative error times log2(e), v_log_f32's error and the
            # addition's rounding.
            lval = f["l2"][h]
            l_bound[h] = SECOND * (x_err + LOG2E * sum_rel
                                   + EXP2 * np.abs(lval - x.max(axis=1))
                                   + F32 * np.abs(lval)) + 2.0**-40
            # O as the forward examples bound it: the weights' relative
            # error (2 x_err ln2 + exp2 per rescale) times max|v|, P in
            # bf16 before P V, sums over the keys in f32, bf16 output.
            p = f["p"][h]
            spread = p @ np.abs(vv)
            weight_err = LN2 * 2 * x_err + EXP2 * (1 + tiles)
            max_v = np.abs(vv).max()
            o_bound[h] = (BF16 * np.abs(f["o"][h])
                          + (1 + BF16) * (BF16 * spread
                                          + 2 * weight_err[:, None] * max_v
                                          + 2 * seen[:, None] * F32 * spread)
                          + 2.0**-40)
        o_rule = ("2^-8 |O| + (1 + 2^-8)(2^-8 sum(p|v|) + 2 w max|v| + "
                  "2 Nk 2^-24 sum(p|v|)), w = the weights' f32 error")
        l_rule = ("(1 + 2^-6)(e_x + log2(e) (2^-22 (1 + tiles) + 2^-24 ((4 + "
                  "2R) tiles + Nk)) + 2^-22 |log2 l| + 2^-24 |L|), e_x = "
                  "max_j (d 2^-24 c sum|q k| + 2^-23 c |q.k|)")
        return {"O": (f["o"], o_bound, o_rule), "L": (f["l2"], l_bound, l_rule)}

    return {
        "inputs": {"Q": q, "K": k, "V": v},
        "outputs": {"O": (bh, nq, d), "L": (bh, nq)},
        "scalars": {"causal": int(causal)},
        "reference": reference,
        "grid": (-(-nq // 64), bh),
        "description": describe(bh, nq, nk, d, kvh, causal),
    }


def prep(shape, params, rng):
    """attention_bwd_prep: Delta = rowsum(dO o O) in f32. The shape is
    BHxNqxd."""
    if len(shape) != 3 or min(shape) < 1:
        raise SystemExit(f"attention_bwd_prep cases are BHxNqxd, got {shape}")
    bh, nq, d = shape
    o = round_bf16(rng.uniform(-2.0, 2.0, (bh, nq, d)))
    do = round_bf16(rng.uniform(-1.0, 1.0, (bh, nq, d)))

    def reference(O, dO):
        prod = O * dO
        value = prod.sum(axis=2)
        # d products, each exact in f32 (bf16 x bf16), added in f32.
        bound = SECOND * d * F32 * np.abs(prod).sum(axis=2) + 2.0**-40
        return {"Delta": (value, bound, "d 2^-24 sum|dO o O| (f32 sum of d "
                                        "exact products)")}

    return {
        "inputs": {"O": o, "dO": do},
        "outputs": {"Delta": (bh, nq)},
        "reference": reference,
        "grid": (-(-nq // 64), bh),
        "description": f"BH={bh} Nq={nq} d={d}",
    }


def bwd(shape, params, rng):
    """attention_bwd: dQ (f32, accumulated atomically into zeros), dK and
    dV (bf16). L and Delta are what the forward and the prep kernel would
    give, computed here in float64 and rounded to f32; the reference then
    takes them as given inputs."""
    bh, nq, nk, d, kvh, causal = parse(shape, params)
    q, k, v, do = inputs(bh, nq, nk, d, kvh, rng)
    group = bh // kvh
    keep = mask(nq, nk, causal)
    f = forward(q, k, v, causal)
    l2 = round_f32(f["l2"])
    delta = round_f32((round_bf16(f["o"]) * do).sum(axis=2))
    blocks = -(-nk // TILE)
    q_padded = -(-nq // 64) * 64

    def reference(Q, K, V, dO, L, Delta):
        r = 1.0 / np.sqrt(d)
        c = LOG2E * r
        want = {n: np.zeros(a.shape) for n, a in
                (("dQ", Q), ("dK", K), ("dV", V))}
        err = {n: np.zeros(a.shape) for n, a in
               (("dQ", Q), ("dK", K), ("dV", V))}
        for h in range(bh):
            kv = h // group
            kk, vv = K[kv], V[kv]
            dots = Q[h] @ kk.T
            mag = np.abs(Q[h]) @ np.abs(kk).T
            x = c * dots
            y = np.where(keep, x - L[h][:, None], -np.inf)
            p = np.exp2(y)
            # P's relative error: the exponent's (d roundings of the dot
            # product, the constant's and the product's, the subtraction
            # of L) times ln2, then exp2's own.
            y_err = c * d * F32 * mag + 2 * F32 * np.abs(x) + F32 * np.abs(
                np.where(keep, y, 0.0))
            rel_p = np.where(keep, LN2 * y_err + EXP2, 0.0)
            dp = dO[h] @ vv.T
            dp_err = d * F32 * (np.abs(dO[h]) @ np.abs(vv).T)
            t = dp - Delta[h][:, None]
            ds = p * t
            # dS = P (dP - Delta) in f32, then rounded to bf16.
            ds_err = p * (dp_err + 2 * F32 * np.abs(t)) + rel_p * p * np.abs(t)
            ds_err = ds_err + BF16 * (np.abs(ds) + ds_err)
            ds_mag = np.abs(ds) + ds_err
            # dV += P^T dO with P in bf16, f32 sums over the group's padded
            # query rows.
            want["dV"][kv] += p.T @ dO[h]
            pa = p.T @ np.abs(dO[h])
            err["dV"][kv] += ((rel_p + BF16).T * p.T) @ np.abs(dO[h]) + \
                group * q_padded * F32 * (1 + BF16) * pa
            # dK += dS^T Q / sqrt(d), same sums.
            want["dK"][kv] += r * ds.T @ Q[h]
            err["dK"][kv] += r * (ds_err.T @ np.abs(Q[h])
                                  + group * q_padded * F32
                                  * (ds_mag.T @ np.abs(Q[h])))
            # dQ = dS K / sqrt(d): per block an f32 sum over its 64 keys,
            # the scaling, then one atomic f32 addition per block, in
            # whatever order the blocks arrive.
            want["dQ"][h] = r * ds @ kk
            err["dQ"][h] = r * (ds_err @ np.abs(kk)
                                + (TILE + 1 + blocks) * F32
                                * (ds_mag @ np.abs(kk)))
        out = {}
        for name in ("dK", "dV"):
            value = want[name]
            e = SECOND * err[name]
            if name == "dK":
                e = e + F32 * np.abs(value)
            out[name] = (value, BF16 * np.abs(value) + (1 + BF16) * e
                         + 2.0**-40,
                         "2^-8 |ref| + (1 + 2^-8) e, e = f32 error of the "
                         "sums over G Nq rows of bf16 P^T dO / dS^T Q")
        out["dQ"] = (want["dQ"], SECOND * err["dQ"] + 2.0**-40,
                     "f32 error of dS K / sqrt(d): P, dP and dS errors, dS "
                     "in bf16, (64 + 1 + Nk/64) 2^-24 sum|dS K| (MFMA sums, "
                     "atomic additions in any order)")
        return out

    return {
        "inputs": {"Q": q, "K": k, "V": v, "dO": do, "L": l2, "Delta": delta},
        "outputs": {"dQ": np.zeros((bh, nq, d)), "dK": (kvh, nk, d),
                    "dV": (kvh, nk, d)},
        "scalars": {"causal": int(causal)},
        "reference": reference,
        "grid": (blocks, kvh),
        "description": describe(bh, nq, nk, d, kvh, causal),
    }
