// Kernels with planted bugs for each sanitizer, each next to a correct twin
// that must stay quiet. Launch with 256 work-items (4 waves).
#include "hip_shim.h"

// Each wave writes its slice of LDS, then reads the next wave's slice.
// Without the barrier the read races with the other wave's write.
extern "C" __global__ void race_bug(float *out) {
  __shared__ float tile[256];
  unsigned t = threadIdxX();
  tile[t] = float(t);
  out[t] = tile[(t + 64) % 256];
}
extern "C" __global__ void race_ok(float *out) {
  __shared__ float tile[256];
  unsigned t = threadIdxX();
  tile[t] = float(t);
  syncThreads();
  out[t] = tile[(t + 64) % 256];
}

// The compiler cannot see inside inline assembly, so it inserts no
// s_waitcnt for this load: the bug version uses the result right away.
extern "C" __global__ void wait_bug(const float *in, float *out) {
  unsigned t = threadIdxX();
  const float *p = in + t;
  float x;
  asm volatile("global_load_dword %0, %1, off" : "=v"(x) : "v"(p) : "memory");
  out[t] = x + 1.0f;
}
extern "C" __global__ void wait_ok(const float *in, float *out) {
  unsigned t = threadIdxX();
  const float *p = in + t;
  float x;
  asm volatile("global_load_dword %0, %1, off\n\ts_waitcnt vmcnt(0)"
               : "=v"(x)
               : "v"(p)
               : "memory");
  out[t] = x + 1.0f;
}

// A direct-to-LDS load whose LDS data is read before vmcnt retires it.
extern "C" __global__ void dma_wait_bug(const float *in, float *out) {
  __shared__ float tile[256];
  unsigned t = threadIdxX(), wave = t / 64;
  const float *p = in + t;
  unsigned lds = unsigned(__builtin_amdgcn_readfirstlane(
      int((unsigned long)(__attribute__((address_space(3))) float *)(tile + wave * 64))));
  asm volatile("s_mov_b32 m0, %0\n\tglobal_load_lds_dword %1, off"
               :
               : "s"(lds), "v"(p)
               : "memory");
  out[t] = tile[t];
}
extern "C" __global__ void dma_wait_ok(const float *in, float *out) {
  __shared__ float tile[256];
  unsigned t = threadIdxX(), wave = t / 64;
  const float *p = in + t;
  unsigned lds = unsigned(__builtin_amdgcn_readfirstlane(
      int((unsigned long)(__attribute__((address_space(3))) float *)(tile + wave * 64))));
  asm volatile("s_mov_b32 m0, %0\n\tglobal_load_lds_dword %1, off\n\t"
               "s_waitcnt vmcnt(0)"
               :
               : "s"(lds), "v"(p)
               : "memory");
  out[t] = tile[t];
}

// Writes n floats; run with a buffer smaller than n to go out of bounds.
extern "C" __global__ void fill(float *out, int n) {
  unsigned t = threadIdxX() + blockIdxX() * 256;
  if (t < unsigned(n))
    out[t] = 1.0f;
}

// Reads LDS at an offset given by the host: beyond the 1 KiB tile it runs
// off the workgroup's LDS.
extern "C" __global__ void lds_index(float *out, int offset) {
  __shared__ float tile[256];
  unsigned t = threadIdxX();
  tile[t] = float(t);
  syncThreads();
  out[t] = tile[t + offset];
}

// Wave 0 skips the barrier the other waves wait at.
extern "C" __global__ void barrier_bug(float *out) {
  __shared__ float tile[256];
  unsigned t = threadIdxX();
  tile[t] = float(t);
  if (t >= 64)
    syncThreads();
  out[t] = tile[t];
}

// Spins on a flag nobody sets: the watchdog must stop it.
extern "C" __global__ void hang(volatile int *flag) {
  while (*flag == 0) {
  }
}

// An instruction the emulator does not implement (stochastic rounding).
extern "C" __global__ void unimplemented(float *out) {
  unsigned t = threadIdxX();
  int r;
  asm volatile("v_cvt_sr_bf8_f32 %0, %1, %2" : "=v"(r) : "v"(out[t]), "v"(t));
  out[t] = float(r);
}

// An LDS histogram: atomics of different waves on the same bins do not
// race with each other (ds_add_u32, and a flat atomic whose address the
// compiler cannot place), but a plain read of a bin another wave is still
// adding to does, without the barrier.
extern "C" __global__ void atomic_race_bug(float *out) {
  __shared__ unsigned bins[16];
  unsigned t = threadIdxX();
  if (t < 16)
    bins[t] = 0;
  syncThreads();
  __hip_atomic_fetch_add(&bins[(t * 7) % 16], 1u, __ATOMIC_RELAXED,
                         __HIP_MEMORY_SCOPE_WORKGROUP);
  out[t] = float(bins[(t + 64) % 16]);
}
extern "C" __global__ void atomic_race_ok(float *out) {
  __shared__ unsigned bins[16];
  unsigned t = threadIdxX();
  if (t < 16)
    bins[t] = 0;
  syncThreads();
  __hip_atomic_fetch_add(&bins[(t * 7) % 16], 1u, __ATOMIC_RELAXED,
                         __HIP_MEMORY_SCOPE_WORKGROUP);
  unsigned *any = t & 1 ? &bins[t % 16] : (unsigned *)out + 256;
  __hip_atomic_fetch_add(any, 2u, __ATOMIC_RELAXED,
                         __HIP_MEMORY_SCOPE_WORKGROUP);
  syncThreads();
  out[t] = float(bins[(t + 64) % 16]);
}
