"""The row-statistics examples from Python: LayerNorm (f32) and attention
(bf16) against numpy references in float64.

Tolerances, per element:

* LayerNorm: the statistics are sums of N f32 terms, each within
  N * 2^-24 of the sum of magnitudes; the mean is then off by at most
  N * 2^-24 * mean|x|, the variance relatively by N * 2^-24 + 4 * 2^-24,
  rsqrt by half that plus 2^-23; the final scale and shift cost four f32
  roundings. We allow the sum of those terms, as hk-run does.
* Attention: P is rounded to bf16 before P V, which moves each output by
  at most 2^-8 * sum(p |v|) / sum(p); the f32 scores (d * 2^-24 * sum|q k|)
  perturb the weights through exp by twice that relatively (plus 2^-22
  for exp2 and each rescale), which moves the weighted mean by at most
  twice the weights' relative error times max|v|; f32 sums over Nk keys
  add Nk * 2^-24; the bf16 output adds 2^-8 * |ref|.
"""

import numpy as np
import pytest

import hk
from conftest import CHIPS, ceil_div

U_F32 = 2.0**-24


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("shape", [(64, 128), (70, 300)])
def test_layernorm(example, device, chip, shape):
    mod = example("normalization/layernorm.mlir", chip)
    m, n = shape
    rng = np.random.default_rng(11)
    x = (rng.uniform(-1, 1, shape) + 2.0).astype(np.float32)
    gamma = rng.uniform(-1, 1, n).astype(np.float32)
    beta = rng.uniform(-1, 1, n).astype(np.float32)
    y = np.full(shape, np.nan, np.float32)
    eps = 1e-5
    res = mod.launch(device(chip), "layernorm_f32", grid=(ceil_div(m, 64),),
                     args=[x, gamma, beta, y, eps])
    assert res.ok and res.reports == ()

    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    scale = 1.0 / np.sqrt(var + np.float32(eps))
    z = (x64 - mean) * scale
    ref = z * gamma + beta
    gamma_n = n * U_F32
    mean_err = gamma_n * np.abs(x64).mean(axis=1, keepdims=True) + \
        U_F32 * np.abs(mean)
    scale_err = (gamma_n + 4 * U_F32) / 2 + 2 * U_F32 + 2.0**-23
    bound = np.abs(gamma) * (scale * mean_err + np.abs(z) * scale_err) + \
        4 * U_F32 * (np.abs(z * gamma) + np.abs(beta))
    err = np.abs(y - ref)
    assert np.all(np.isfinite(y))
    assert np.all(err <= bound), f"max err/bound {np.max(err / bound)}"


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("kv_heads", [2, 1])
def test_attention(example, device, chip, kv_heads):
    """Two query heads over two KV heads, or grouped over one."""
    mod = example("attention/attention.mlir", chip)
    heads, nq, nk, d = 2, 70, 100, 64
    rng = np.random.default_rng(5)
    q = hk.to_bf16(rng.uniform(-2, 2, (heads, nq, d)))
    k = hk.to_bf16(rng.uniform(-2, 2, (kv_heads, nk, d)))
    v = hk.to_bf16(rng.uniform(-2, 2, (kv_heads, nk, d)))
    o = np.zeros((heads, nq, d), np.uint16)
    res = mod.launch(device(chip), "attention_fwd",
                     grid=(ceil_div(nq, 64), heads), args=[q, k, v, o])
    assert res.ok and res.reports == ()

    qf, kf, vf = (hk.from_bf16(t).astype(np.float64) for t in (q, k, v))
    kf, vf = (np.repeat(t, heads // kv_heads, axis=0) for t in (kf, vf))
    s = np.einsum("hqd,hkd->hqk", qf, kf) / np.sqrt(d)
    p = np.exp(s - s.max(axis=2, keepdims=True))
    l = p.sum(axis=2, keepdims=True)
    ref = np.einsum("hqk,hkd->hqd", p, vf) / l
    spread = np.einsum("hqk,hkd->hqd", p, np.abs(vf)) / l
    score_err = (d * U_F32 * np.einsum("hqd,hkd->hqk", np.abs(qf), np.abs(kf))
                 / np.sqrt(d)).max(axis=2, keepdims=True)
    bound = 2.0**-8 * np.abs(ref) + (1 + 2.0**-8) * (
        2.0**-8 * spread +
        2 * (2 * score_err + 2.0**-22 * (1 + ceil_div(nk, 64))) *
        np.abs(vf).max() + 2 * nk * U_F32 * spread)
    err = np.abs(hk.from_bf16(o) - ref)
    assert np.all(err <= bound), f"max err/bound {np.max(err / bound)}"
