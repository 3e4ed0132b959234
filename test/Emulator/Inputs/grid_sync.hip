// Software grid barriers: every workgroup adds itself to a counter, then
// polls it until all `n` have arrived. They need every workgroup running
// at once, as a cooperative launch guarantees on the device. `gridsync`
// sleeps between polls (s_sleep), `gridsync_spin` does not.
#include "hip_shim.h"

template <bool Sleep> __device__ void gridBarrier(int *counter, int n) {
  __hip_atomic_fetch_add(counter, 1, __ATOMIC_RELEASE,
                         __HIP_MEMORY_SCOPE_AGENT);
  while (__hip_atomic_load(counter, __ATOMIC_ACQUIRE,
                           __HIP_MEMORY_SCOPE_AGENT) < n)
    if (Sleep)
      __builtin_amdgcn_s_sleep(1);
}

extern "C" __global__ void gridsync(int *counter, int *out, int n) {
  unsigned t = threadIdxX(), b = blockIdxX();
  if (t == 0) {
    gridBarrier<true>(counter, n);
    out[b] = __hip_atomic_load(counter, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
  }
}

extern "C" __global__ void gridsync_spin(int *counter, int *out, int n) {
  unsigned t = threadIdxX(), b = blockIdxX();
  if (t == 0) {
    gridBarrier<false>(counter, n);
    out[b] = __hip_atomic_load(counter, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
  }
}
