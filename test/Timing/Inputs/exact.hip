// Microkernels whose loop bodies are written in assembly, so the timing
// model's cycles per iteration follow from a handful of constants: MFMA
// cycles, the VALU's four cycles per wave64 instruction, the LDS bank
// model's conflict cycles, memory latency under exact or blanket waits.
// check_exact.py runs each at two iteration counts and divides the
// difference in predicted cycles by the difference in iterations, which
// cancels launch, prologue and write-back.
#include "hip_shim.h"

typedef __bf16 bf16x8_t __attribute__((ext_vector_type(8)));

// N MFMAs per iteration (N = 4 or 8), each accumulating into the previous
// one's result: the matrix pipe forwards the accumulator, so the four more
// of mfma_chain8 cost four MFMAs' cycles. gfx950 runs its double-rate bf16
// shape.
#if defined(__gfx950__)
#define HK_MFMA "v_mfma_f32_16x16x32_bf16 %0, %1, %2, %0\n"
#define HK_OPERANDS bf16x8_t a = {}, b = {}
#define HK_MFMA_FIXED "v_mfma_f32_16x16x32_bf16 v[10:13], v[20:23], v[20:23], "
#else
#define HK_MFMA "v_mfma_f32_16x16x16_bf16 %0, %1, %2, %0\n"
#define HK_OPERANDS short4_t a = {1, 2, 3, 4}, b = {5, 6, 7, 8}
#define HK_MFMA_FIXED "v_mfma_f32_16x16x16_bf16 v[10:13], v[20:21], v[20:21], "
#endif
#define HK_MFMA_CHAIN(name, n)                                                 \
  extern "C" __global__ void name(float *out, int iters) {                    \
    float4_t acc = {0, 0, 0, 0};                                               \
    HK_OPERANDS;                                                               \
    for (int i = 0; i < iters; ++i)                                            \
      asm volatile(".rept " #n "\n" HK_MFMA ".endr"                           \
                   : "+v"(acc)                                                 \
                   : "v"(a), "v"(b));                                          \
    out[threadIdxX()] = acc[0];                                                \
  }
HK_MFMA_CHAIN(mfma_chain4, 4)
HK_MFMA_CHAIN(mfma_chain8, 8)

// N pairs of an MFMA and a VALU instruction reading its result: the VALU
// waits for the whole MFMA, the next MFMA for the VALU. (Fixed registers:
// inline assembly cannot name one register of a tuple; their values do not
// matter.)
#define HK_MFMA_VALU(name, n)                                                  \
  extern "C" __global__ void name(float *out, int iters) {                    \
    for (int i = 0; i < iters; ++i)                                            \
      asm volatile(".rept " #n "\n" HK_MFMA_FIXED "v[10:13]\n"               \
                   "v_add_f32 v10, 1.0, v10\n"                                \
                   ".endr" ::                                                  \
                       : "v10", "v11", "v12", "v13", "v20", "v21", "v22",      \
                         "v23");                                               \
    out[threadIdxX()] = 0;                                                     \
  }
HK_MFMA_VALU(mfma_valu2, 2)
HK_MFMA_VALU(mfma_valu4, 4)

// 32 VALU instructions per iteration, four independent chains of eight.
extern "C" __global__ void valu_independent(float *out, int iters) {
  float x0 = 0, x1 = 1, x2 = 2, x3 = 3;
  for (int i = 0; i < iters; ++i)
    asm volatile(".rept 8\n"
                 "v_add_f32 %0, 1.0, %0\n"
                 "v_add_f32 %1, 1.0, %1\n"
                 "v_add_f32 %2, 1.0, %2\n"
                 "v_add_f32 %3, 1.0, %3\n"
                 ".endr"
                 : "+v"(x0), "+v"(x1), "+v"(x2), "+v"(x3));
  out[blockIdxX() * 512 + threadIdxX()] = x0 + x1 + x2 + x3;
}

// One LDS read per iteration, waited for at once; each lane reads dword
// `lane * stride`. Stride 1 is conflict-free; stride 64 puts every lane on
// one bank.
extern "C" __global__ void lds_stride(float *out, int iters, int stride) {
  __shared__ float tile[64 * 64];
  unsigned t = threadIdxX();
  for (unsigned i = t; i < 64 * 64; i += 64)
    tile[i] = float(i);
  syncThreads();
  // The LDS address of the lane's element (the cast also keeps the tile
  // alive: the compiler cannot see the assembly read it).
  auto *address = (__attribute__((address_space(3))) float *)&tile[
      t * unsigned(stride) % (64 * 64)];
  float sum = 0, x;
  for (int i = 0; i < iters; ++i) {
    asm volatile("ds_read_b32 %0, %1\n"
                 "s_waitcnt lgkmcnt(0)"
                 : "=v"(x)
                 : "v"(address)
                 : "memory");
    sum += x;
  }
  out[t] = sum;
}

// Four global loads of one line per iteration: waited for together
// (exact) or each on its own (blanket vmcnt(0) after every load).
extern "C" __global__ void loads_exact(float *out, const float *in,
                                       int iters) {
  const float *p = in + threadIdxX();
  float a, b, c, d, sum = 0;
  for (int i = 0; i < iters; ++i) {
    asm volatile("global_load_dword %0, %4, off\n"
                 "global_load_dword %1, %4, off offset:256\n"
                 "global_load_dword %2, %4, off offset:512\n"
                 "global_load_dword %3, %4, off offset:768\n"
                 "s_waitcnt vmcnt(0)"
                 : "=&v"(a), "=&v"(b), "=&v"(c), "=&v"(d)
                 : "v"(p)
                 : "memory");
    sum += a + b + c + d;
  }
  out[threadIdxX()] = sum;
}

extern "C" __global__ void loads_blanket(float *out, const float *in,
                                         int iters) {
  const float *p = in + threadIdxX();
  float a, b, c, d, sum = 0;
  for (int i = 0; i < iters; ++i) {
    asm volatile("global_load_dword %0, %4, off\n"
                 "s_waitcnt vmcnt(0)\n"
                 "global_load_dword %1, %4, off offset:256\n"
                 "s_waitcnt vmcnt(0)\n"
                 "global_load_dword %2, %4, off offset:512\n"
                 "s_waitcnt vmcnt(0)\n"
                 "global_load_dword %3, %4, off offset:768\n"
                 "s_waitcnt vmcnt(0)"
                 : "=&v"(a), "=&v"(b), "=&v"(c), "=&v"(d)
                 : "v"(p)
                 : "memory");
    sum += a + b + c + d;
  }
  out[threadIdxX()] = sum;
}

// Two waves (on two SIMDs) meet at a barrier every iteration: wave 0 runs
// 32 dependent VALU instructions first, wave 1 nothing, so wave 1's SIMD
// spends the iteration waiting at the barrier, inside the loop.
extern "C" __global__ void barrier_wait(float *out, int iters) {
  float x = float(threadIdxX());
  for (int i = 0; i < iters; ++i) {
    if (threadIdxX() < 64)
      asm volatile(".rept 32\n"
                   "v_add_f32 %0, 1.0, %0\n"
                   ".endr"
                   : "+v"(x));
    syncThreads();
  }
  out[threadIdxX()] = x;
}
