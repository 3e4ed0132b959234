// Microkernels for the timing model's sensitivity checks
// (check_sensitivity.py): each isolates one effect whose direction is known
// without the model.
#include "hip_shim.h"

typedef __bf16 bf16x8_t __attribute__((ext_vector_type(8)));

// Eight waves per workgroup, two per SIMD (waves go round-robin over the
// SIMDs): waves 0-3 run 32 independent VALU instructions per iteration,
// waves 4-7 eight independent MFMA chains, the same 128 cycles per
// iteration on their own. Both kinds issue through the SIMD's one vector
// ALU port. Waves 0-3 are older, so oldest-first arbitration lets their
// always-ready VALU stream take the port ahead of the MFMAs; with
// s_setprio 1 the MFMA waves win it whenever the matrix pipe is free and
// the VALU work fills the slots in between.
#define HK_PRIORITY_KERNEL(name, raise)                                        \
  extern "C" __global__ void name(float *out, int iters) {                    \
    unsigned t = threadIdxX();                                                 \
    float result;                                                              \
    if (t / 64 < 4) {                                                          \
      float x0 = 0, x1 = 1, x2 = 2, x3 = 3;                                    \
      for (int i = 0; i < iters; ++i)                                          \
        asm volatile(".rept 8\n"                                               \
                     "v_add_f32 %0, 1.0, %0\n"                                 \
                     "v_add_f32 %1, 1.0, %1\n"                                 \
                     "v_add_f32 %2, 1.0, %2\n"                                 \
                     "v_add_f32 %3, 1.0, %3\n"                                 \
                     ".endr"                                                   \
                     : "+v"(x0), "+v"(x1), "+v"(x2), "+v"(x3));                \
      result = x0 + x1 + x2 + x3;                                              \
    } else {                                                                   \
      if (raise)                                                               \
        __builtin_amdgcn_s_setprio(1);                                         \
      float4_t acc[8] = {};                                                    \
      HK_MFMA_OPERANDS;                                                        \
      for (int i = 0; i < iters; ++i)                                          \
        for (int j = 0; j < 8; ++j)                                            \
          acc[j] = HK_MFMA(a, b, acc[j]);                                      \
      if (raise)                                                               \
        __builtin_amdgcn_s_setprio(0);                                         \
      float4_t sum = acc[0];                                                   \
      for (int j = 1; j < 8; ++j)                                              \
        sum += acc[j];                                                         \
      result = sum[0] + sum[1] + sum[2] + sum[3];                              \
    }                                                                          \
    out[blockIdxX() * 512 + t] = result;                                       \
  }
#if defined(__gfx950__)
#define HK_MFMA_OPERANDS                                                       \
  bf16x8_t a, b;                                                               \
  for (int e = 0; e < 8; ++e) {                                                \
    a[e] = (__bf16)(float)(t + e);                                             \
    b[e] = (__bf16)(float)(t - e);                                             \
  }
#define HK_MFMA(a, b, c) __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0)
#else
#define HK_MFMA_OPERANDS                                                       \
  short4_t a, b;                                                               \
  for (int e = 0; e < 4; ++e) {                                                \
    a[e] = toBf16Bits(float(t + e));                                           \
    b[e] = toBf16Bits(float(t - e));                                           \
  }
#define HK_MFMA(a, b, c)                                                       \
  __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0)
#endif
HK_PRIORITY_KERNEL(mfma_with_setprio, 1)
HK_PRIORITY_KERNEL(mfma_without_setprio, 0)

// `iters` dependent loads per lane (each address is the value the previous
// load returned; the table is zeros, so every load hits one cached line):
// the loop waits a load latency per iteration whatever the bandwidth, so
// only more waves in flight hide it.
extern "C" __global__ void load_chain(unsigned *out, const unsigned *next,
                                      int iters) {
  unsigned t = threadIdxX();
  unsigned i = t;
  for (int k = 0; k < iters; ++k)
    i = next[i];
  out[blockIdxX() * 256 + t] = i;
}
