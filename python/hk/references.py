"""Double-precision references of the example kernels, with error bounds.

The same references and bounds hk-run checks the examples with (the C++
launch library's References.h): each function takes the exact values of
the kernel's inputs (decode bf16 and fp8 bits first, e.g. with
:func:`hk.from_bf16`) and returns ``(values, bound, rule)``: the result in
float64, the largest error each element may have (from the element types
and the order-independent error of f32 arithmetic) and that bound in
words. A kernel is right where ``abs(got - values) <= bound``.

``out_dtype`` is the element type of the kernel's output ("bf16", "f32"...):
a narrow output adds one rounding.
"""

import numpy as np

from . import _hk


def _values(*arrays):
    return [np.asarray(a, dtype=np.float64) for a in arrays]


def gemm(a, b, out_dtype, *, transpose_b=False):
    """``a @ b`` (``a @ b.T`` with ``transpose_b``) accumulated in f32."""
    return _hk.reference("gemm", _values(a, b), out_dtype, 0.0,
                         bool(transpose_b))


def scale_add(x, b, alpha):
    """``alpha * x + b`` in f32."""
    return _hk.reference("scale_add", _values(x, b), "f32", float(alpha),
                         False)


def layernorm(x, gamma, beta, eps, out_dtype):
    """LayerNorm of each row of ``x``, scaled by ``gamma``, shifted by
    ``beta``, statistics in f32."""
    return _hk.reference("layernorm", _values(x, gamma, beta), out_dtype,
                         float(eps), False)


def rmsnorm(x, gamma, eps, out_dtype):
    """RMSNorm of each row of ``x``, scaled by ``gamma``."""
    return _hk.reference("rmsnorm", _values(x, gamma), out_dtype, float(eps),
                         False)


def attention(q, k, v, out_dtype, *, causal=False):
    """``softmax(q k^T / sqrt(d)) v`` per head (q: BH x Nq x d; k, v:
    KVH x Nk x d with KVH dividing BH), P rounded to bf16 before P V as the
    kernels do; ``causal`` lets query i see keys j <= i only."""
    return _hk.reference("attention", _values(q, k, v), out_dtype, 0.0,
                         bool(causal))
