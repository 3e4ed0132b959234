// gfx950 instructions checked against references written from their
// definitions in check_gfx950_ops.py: the transposing LDS reads of 8-, 4-
// and 6-bit elements, v_permlane16_swap_b32, and the scaled f8f6f4 MFMAs
// with fp6, bf6 and fp4 operands (both shapes). One wave per launch.
#include "hip_shim.h"

typedef int int2_t __attribute__((ext_vector_type(2)));
typedef int int3_t __attribute__((ext_vector_type(3)));
typedef int int8_t_ __attribute__((ext_vector_type(8)));
typedef float float16_t __attribute__((ext_vector_type(16)));

#define LDS __attribute__((address_space(3)))

// in[0:128) is a 64-lane image of 8 bytes per lane, read by
// ds_read_b64_tr_b8 (out[0:128)) and ds_read_b64_tr_b4 (out[128:256));
// in[128:384) holds 16 bytes per lane, of which ds_read_b96_tr_b6 reads the
// first 12 (out[256:448)). swapped gets both results of
// v_permlane16_swap_b32 of (lane, 100 + lane).
extern "C" __global__ void moves(const unsigned *in, unsigned *out,
                                 unsigned *swapped) {
  __shared__ unsigned image64[64 * 2];
  __shared__ unsigned image96[64 * 4];
  unsigned lane = threadIdxX();
  for (int e = 0; e < 2; ++e)
    image64[2 * lane + e] = in[2 * lane + e];
  for (int e = 0; e < 4; ++e)
    image96[4 * lane + e] = in[128 + 4 * lane + e];
  __builtin_amdgcn_s_waitcnt(0xc07f); // lgkmcnt(0)
  int2_t t8 = __builtin_amdgcn_ds_read_tr8_b64_v2i32(
      (LDS int2_t *)(image64 + 2 * lane));
  int2_t t4 = __builtin_amdgcn_ds_read_tr4_b64_v2i32(
      (LDS int2_t *)(image64 + 2 * lane));
  int3_t t6 = __builtin_amdgcn_ds_read_tr6_b96_v3i32(
      (LDS int3_t *)(image96 + 4 * lane));
  for (int e = 0; e < 2; ++e) {
    out[2 * lane + e] = t8[e];
    out[128 + 2 * lane + e] = t4[e];
  }
  for (int e = 0; e < 3; ++e)
    out[256 + 3 * lane + e] = t6[e];
  auto pair = __builtin_amdgcn_permlane16_swap(lane, 100 + lane, false, false);
  swapped[2 * lane] = pair[0];
  swapped[2 * lane + 1] = pair[1];
}

// One scaled MFMA: lane L's eight A and B registers are A[r * 64 + L] and
// B[r * 64 + L] as the host packed them, its E8M0 scales scaleA[L] and
// scaleB[L] (byte 0). D[r * 64 + L] is result register r of lane L.
#define SCALED_MFMA(NAME, BUILTIN, ACC, REGS, FMT_A, FMT_B)                    \
  extern "C" __global__ void NAME(const int *A, const int *B,                  \
                                  const int *scaleA, const int *scaleB,        \
                                  float *D) {                                  \
    unsigned lane = threadIdxX();                                              \
    int8_t_ a, b;                                                              \
    for (int r = 0; r < 8; ++r) {                                              \
      a[r] = A[r * 64 + lane];                                                 \
      b[r] = B[r * 64 + lane];                                                 \
    }                                                                          \
    ACC acc =                                                                  \
        BUILTIN(a, b, ACC{}, FMT_A, FMT_B, 0, scaleA[lane], 0, scaleB[lane]);  \
    for (int r = 0; r < REGS; ++r)                                             \
      D[r * 64 + lane] = acc[r];                                               \
  }

// Format codes (cbsz for A, blgp for B): 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4.
SCALED_MFMA(scaled32_fp6_bf6, __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4,
            float16_t, 16, 2, 3)
SCALED_MFMA(scaled32_fp4_bf8, __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4,
            float16_t, 16, 4, 1)
SCALED_MFMA(scaled16_bf6_fp6, __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4,
            float4_t, 4, 3, 2)
