"""The row-statistics examples from Python: LayerNorm (f32) and attention
(bf16) against the launch library's references in float64
(hk.references, the ones hk-run checks with: their docstrings and
lib/Runtime/References.cpp derive each bound).
"""

import numpy as np
import pytest

import hk
from conftest import CHIPS, ceil_div


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

    ref, bound, _ = hk.references.layernorm(x, gamma, beta, eps, "f32")
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

    ref, bound, _ = hk.references.attention(
        hk.from_bf16(q), hk.from_bf16(k), hk.from_bf16(v), "bf16")
    err = np.abs(hk.from_bf16(o) - ref)
    assert np.all(err <= bound), f"max err/bound {np.max(err / bound)}"
