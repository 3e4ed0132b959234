// Matrix-core and conversion variants beyond the bf16 16x16x16 path:
// fp8 MFMA (FNUZ formats on gfx942, OCP on gfx950), the fp8 conversions,
// and on gfx950 the double-rate bf16 MFMA, the scaled f8f6f4 MFMA, the
// transposing LDS read and v_permlane32_swap. One wave per launch.
#include "hip_shim.h"

typedef long long2_t __attribute__((ext_vector_type(1)));
typedef int int8_t_ __attribute__((ext_vector_type(8)));
typedef __bf16 bf16x8_t __attribute__((ext_vector_type(8)));

// C[16,16] = A[16,K] * Bt[16,K]^T with fp8 (E4M3) bytes, K = 32 * steps.
extern "C" __global__ void fp8_gemm(const unsigned char *A,
                                    const unsigned char *Bt, float *C, int K) {
  unsigned lane = threadIdxX(), row = lane % 16, quad = lane / 16;
  float4_t acc = {0, 0, 0, 0};
  for (int k0 = 0; k0 < K; k0 += 32) {
    long a = 0, b = 0;
    for (int e = 0; e < 8; ++e) {
      a |= (long)A[row * K + k0 + 8 * quad + e] << (8 * e);
      b |= (long)Bt[row * K + k0 + 8 * quad + e] << (8 * e);
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, acc, 0, 0, 0);
  }
  for (int e = 0; e < 4; ++e)
    C[(4 * quad + e) * 16 + row] = acc[e];
}

// out[2i], out[2i+1] = fp8(in[2i]), fp8(in[2i+1]) packed by
// v_cvt_pk_fp8_f32, and back[i] = f32 of each byte by v_cvt_f32_fp8.
extern "C" __global__ void fp8_convert(const float *in, unsigned *packed,
                                       float *back) {
  unsigned lane = threadIdxX();
  float x0 = in[4 * lane], x1 = in[4 * lane + 1];
  float x2 = in[4 * lane + 2], x3 = in[4 * lane + 3];
  int word = __builtin_amdgcn_cvt_pk_fp8_f32(x0, x1, 0, false);
  word = __builtin_amdgcn_cvt_pk_fp8_f32(x2, x3, word, true);
  packed[lane] = word;
  back[4 * lane] = __builtin_amdgcn_cvt_f32_fp8(word, 0);
  back[4 * lane + 1] = __builtin_amdgcn_cvt_f32_fp8(word, 1);
  back[4 * lane + 2] = __builtin_amdgcn_cvt_f32_fp8(word, 2);
  back[4 * lane + 3] = __builtin_amdgcn_cvt_f32_fp8(word, 3);
}

#if defined(__gfx950__)
// C[16,16] = A[16,32] * Bt[16,32]^T in one v_mfma_f32_16x16x32_bf16.
extern "C" __global__ void bf16_x32(const uint16_t *A, const uint16_t *Bt,
                                    float *C) {
  unsigned lane = threadIdxX(), row = lane % 16, quad = lane / 16;
  bf16x8_t a, b;
  for (int e = 0; e < 8; ++e) {
    a[e] = __builtin_bit_cast(__bf16, A[row * 32 + 8 * quad + e]);
    b[e] = __builtin_bit_cast(__bf16, Bt[row * 32 + 8 * quad + e]);
  }
  float4_t acc = __builtin_amdgcn_mfma_f32_16x16x32_bf16(
      a, b, (float4_t){0, 0, 0, 0}, 0, 0, 0);
  for (int e = 0; e < 4; ++e)
    C[(4 * quad + e) * 16 + row] = acc[e];
}

// Scaled MFMA with fp8 A and fp4 B, one E8M0 scale per lane for each:
// lane L's registers hold what the host packed for it (the host decides
// the K order, see check_variants.py).
extern "C" __global__ void scaled(const int *A, const int *B,
                                  const int *scaleA, const int *scaleB,
                                  float *C) {
  unsigned lane = threadIdxX();
  int8_t_ a, b;
  for (int r = 0; r < 8; ++r) {
    a[r] = A[r * 64 + lane];
    b[r] = r < 4 ? B[r * 64 + lane] : 0;
  }
  float4_t acc = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(
      a, b, (float4_t){0, 0, 0, 0}, /*A fp8*/ 0, /*B fp4*/ 4, 0,
      scaleA[lane], 0, scaleB[lane]);
  for (int e = 0; e < 4; ++e)
    C[e * 64 + lane] = acc[e];
}

// ds_read_b64_tr_b16 on a 64-lane LDS image, and v_permlane32_swap.
extern "C" __global__ void lane_moves(const uint16_t *in, uint16_t *tr,
                                      unsigned *swapped) {
  __shared__ uint16_t tile[64 * 4];
  unsigned lane = threadIdxX();
  for (int e = 0; e < 4; ++e)
    tile[4 * lane + e] = in[4 * lane + e];
  __builtin_amdgcn_s_waitcnt(0xc07f); // lgkmcnt(0)
  short4_t v = __builtin_amdgcn_ds_read_tr16_b64_v4i16(
      (__attribute__((address_space(3))) short4_t *)(tile + 4 * lane));
  for (int e = 0; e < 4; ++e)
    tr[4 * lane + e] = v[e];
  auto pair = __builtin_amdgcn_permlane32_swap(lane, 100 + lane, false, false);
  swapped[2 * lane] = pair[0];
  swapped[2 * lane + 1] = pair[1];
}

// gfx950 additions: v_minimum3/v_maximum3_f32 (NaN-propagating) and
// v_cvt_pk_f16_f32 (round to nearest even), by inline assembly.
extern "C" __global__ void minmax3(const float *in, float *out,
                                   unsigned *packed) {
  unsigned lane = threadIdxX();
  float a = in[lane], b = in[64 + lane], c = in[128 + lane], r;
  asm volatile("v_minimum3_f32 %0, %1, %2, %3"
               : "=v"(r) : "v"(a), "v"(b), "v"(c));
  out[lane] = r;
  asm volatile("v_maximum3_f32 %0, %1, %2, %3"
               : "=v"(r) : "v"(a), "v"(b), "v"(c));
  out[64 + lane] = r;
  unsigned p;
  asm volatile("v_cvt_pk_f16_f32 %0, %1, %2" : "=v"(p) : "v"(a), "v"(b));
  packed[lane] = p;
}

// v_bitop3_b32 with a few truth tables (inline assembly: the compiler only
// forms it from patterns).
extern "C" __global__ void bitop3(const unsigned *in, unsigned *out) {
  unsigned lane = threadIdxX();
  unsigned a = in[lane], b = in[64 + lane], c = in[128 + lane], r;
  asm volatile("v_bitop3_b32 %0, %1, %2, %3 bitop3:0x6c"
               : "=v"(r) : "v"(a), "v"(b), "v"(c));
  out[lane] = r;
  asm volatile("v_bitop3_b32 %0, %1, %2, %3 bitop3:0xe8"
               : "=v"(r) : "v"(a), "v"(b), "v"(c));
  out[64 + lane] = r;
  asm volatile("v_bitop3_b32 %0, %1, %2, %3 bitop3:0x96"
               : "=v"(r) : "v"(a), "v"(b), "v"(c));
  out[128 + lane] = r;
}
#endif
