// Flash-attention-like forward pass, head dim 16: one wave per 16 query rows
// walks the keys in blocks of 16 with an online softmax (exp2, running
// max/sum reduced across lanes with ds_bpermute) and two bf16 MFMAs per
// block (S = Q K^T, O += P V). Q, K, V are bf16 [rows, 16]; O is f32.
#include "hip_shim.h"

extern "C" __global__ void attention(const uint16_t *Q, const uint16_t *Kt,
                                     const uint16_t *V, float *O, int L,
                                     float scaleLog2) {
  __shared__ float P[16 * 16];
  unsigned lane = threadIdxX(), qb = blockIdxX() * 16;
  unsigned row = lane % 16, quad = lane / 16;
  short4_t q;
  for (int e = 0; e < 4; ++e)
    q[e] = Q[(qb + row) * 16 + 4 * quad + e];
  float m[4], l[4];
  float4_t o = {0, 0, 0, 0};
  for (int e = 0; e < 4; ++e) {
    m[e] = -__builtin_inff();
    l[e] = 0;
  }
  for (int kb = 0; kb < L; kb += 16) {
    short4_t k;
    for (int e = 0; e < 4; ++e)
      k[e] = Kt[(kb + row) * 16 + 4 * quad + e];
    float4_t s = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(
        q, k, (float4_t){0, 0, 0, 0}, 0, 0, 0);
    // Lane holds S[4*quad+e][row]; rows are spread over 16 lanes.
    for (int e = 0; e < 4; ++e) {
      float x = s[e] * scaleLog2;
      float mx = x;
      for (unsigned off = 8; off > 0; off /= 2)
        mx = __builtin_fmaxf(mx, shuffle(mx, lane ^ off));
      float mNew = __builtin_fmaxf(m[e], mx);
      float p = __builtin_amdgcn_exp2f(x - mNew);
      float sum = p;
      for (unsigned off = 8; off > 0; off /= 2)
        sum += shuffle(sum, lane ^ off);
      float alpha = __builtin_amdgcn_exp2f(m[e] - mNew);
      l[e] = l[e] * alpha + sum;
      o[e] *= alpha;
      m[e] = mNew;
      P[(4 * quad + e) * 16 + row] = p;
    }
    // P in the A layout: lane holds P[row][4*quad + e].
    short4_t pa, vb;
    for (int e = 0; e < 4; ++e) {
      pa[e] = toBf16Bits(P[row * 16 + 4 * quad + e]);
      vb[e] = V[(kb + 4 * quad + e) * 16 + row];
    }
    o = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(pa, vb, o, 0, 0, 0);
  }
  for (int e = 0; e < 4; ++e)
    O[(qb + 4 * quad + e) * 16 + row] = o[e] / l[e];
}
