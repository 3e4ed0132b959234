// Microkernels whose predicted rates have published ceilings: the matrix
// pipe's peak, HBM's bandwidth, the LDS's bytes per clock. Each is written
// so that one resource bounds it and the model's figure can be checked
// against that resource's figure in the device table.
#include "hip_shim.h"

typedef __bf16 bf16x8_t __attribute__((ext_vector_type(8)));

// Eight independent accumulator chains per wave, `iters` rounds: the
// matrix pipe of every SIMD never waits on a result.
static __device__ __attribute__((always_inline)) float mfmaChains(unsigned t,
                                                                  int iters) {
  float4_t acc[8] = {};
#if defined(__gfx950__)
  bf16x8_t a, b;
  for (int e = 0; e < 8; ++e) {
    a[e] = (__bf16)(float)(t + e);
    b[e] = (__bf16)(float)(t - e);
  }
  for (int i = 0; i < iters; ++i)
    for (int j = 0; j < 8; ++j)
      acc[j] = __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, acc[j], 0, 0, 0);
#else
  short4_t a, b;
  for (int e = 0; e < 4; ++e) {
    a[e] = toBf16Bits(float(t + e));
    b[e] = toBf16Bits(float(t - e));
  }
  for (int i = 0; i < iters; ++i)
    for (int j = 0; j < 8; ++j)
      acc[j] = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, acc[j], 0, 0, 0);
#endif
  float4_t sum = acc[0];
  for (int j = 1; j < 8; ++j)
    sum += acc[j];
  return sum[0] + sum[1] + sum[2] + sum[3];
}

extern "C" __global__ void mfma_peak(float *out, int iters) {
  unsigned t = threadIdxX();
  out[blockIdxX() * 256 + t] = mfmaChains(t, iters);
}

// mfma_peak's work added in place to what `inout` held: a launch that must
// run once, whatever the timing model does with its sample.
extern "C" __global__ void mfma_accumulate(float *inout, int iters) {
  unsigned t = threadIdxX();
  inout[blockIdxX() * 256 + t] += mfmaChains(t, iters);
}

// The same work in workgroups of four lengths, as in causal attention:
// workgroup i runs 1 + (i / 8) % 4 times `iters` rounds, so each XCD (which
// gets every eighth workgroup) sees the four lengths in turn.
extern "C" __global__ void mfma_ragged(float *out, int iters) {
  unsigned t = threadIdxX();
  int rounds = iters * int(1 + (blockIdxX() / 8) % 4);
  out[blockIdxX() * 256 + t] = mfmaChains(t, rounds);
}

// A grid-stride copy of `n` float4s: HBM-bound.
extern "C" __global__ void stream_copy(const float4_t *src, float4_t *dst,
                                       unsigned n) {
  unsigned stride = __builtin_amdgcn_grid_size_x();
  for (unsigned i = blockIdxX() * 256 + threadIdxX(); i < n; i += stride)
    dst[i] = src[i];
}

// `iters` rounds of eight ds_read_b128 per lane, conflict-free, waited for
// together and used by no VALU instruction: LDS-bound.
extern "C" __global__ void lds_read(float *out, int iters) {
  __shared__ float4_t tile[2048];
  unsigned t = threadIdxX();
  for (unsigned i = t; i < 2048; i += 256)
    tile[i] = float4_t{float(i), 1, 2, 3};
  syncThreads();
  // The LDS address of the lane's element (the cast also keeps the tile
  // alive: the compiler cannot see the assembly read it).
  auto *address = (__attribute__((address_space(3))) float4_t *)&tile[t];
  float4_t x;
  for (int i = 0; i < iters; ++i)
    asm volatile(".rept 8\n"
                 "ds_read_b128 %0, %1\n"
                 ".endr\n"
                 "s_waitcnt lgkmcnt(0)"
                 : "=v"(x)
                 : "v"(address)
                 : "memory");
  out[blockIdxX() * 256 + t] = x[0];
}
