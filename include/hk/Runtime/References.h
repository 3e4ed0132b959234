//===- References.h - CPU references of the example kernels -------*- C++
//-*-===//
//
// Double-precision references of what the example kernels compute, each
// with a per-element error bound derived from the element types and the
// order-independent error of f32 arithmetic (the rule says how, in words).
// hk-run's workloads and the Python tests check the kernels against them.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_REFERENCES_H
#define HK_RUNTIME_REFERENCES_H

#include "hk/Runtime/Check.h"
#include "hk/Runtime/HostArray.h"

#include "llvm/Support/Error.h"

namespace hk {

/// C = A B (A: M x K, B: K x N) or A B^T (B: N x K), accumulated in f32
/// and rounded once to `out`.
llvm::Expected<Reference> gemmReference(const HostArray &a, const HostArray &b,
                                        bool transposeB,
                                        const ElementType &out);

/// y = alpha x + b in f32.
llvm::Expected<Reference> scaleAddReference(const HostArray &x,
                                            const HostArray &b, float alpha);

/// LayerNorm (with `beta`) or RMSNorm (`beta` null) of each row of the
/// M x N `x`, scaled by the N-vector `gamma`, statistics in f32.
llvm::Expected<Reference> normReference(const HostArray &x,
                                        const HostArray &gamma,
                                        const HostArray *beta, float eps,
                                        const ElementType &out);

/// O = softmax(Q K^T / sqrt(d)) V per head; Q: BH x Nq x d, K and V:
/// KVH x Nk x d with KVH dividing BH (query head h reads KV head
/// h / (BH / KVH)); optionally causal (query i sees keys j <= i). P is
/// rounded to bf16 before P V, as the kernels do. With `roundedSum` the
/// kernel divides by the sum of the rounded P (taken by the MFMAs, P times
/// a column of ones) instead of the f32 one, which doubles the bound of
/// P's rounding.
llvm::Expected<Reference> attentionReference(const HostArray &q,
                                             const HostArray &k,
                                             const HostArray &v, bool causal,
                                             const ElementType &out,
                                             bool roundedSum = false);

} // namespace hk

#endif // HK_RUNTIME_REFERENCES_H
