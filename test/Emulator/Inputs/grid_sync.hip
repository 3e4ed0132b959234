// A software grid barrier: every workgroup adds itself to a counter, then
// polls it until all `n` have arrived. It needs every workgroup running at
// once, as a cooperative launch guarantees on the device.
#include "hip_shim.h"

extern "C" __global__ void gridsync(int *counter, int *out, int n) {
  unsigned t = threadIdxX(), b = blockIdxX();
  if (t == 0) {
    __hip_atomic_fetch_add(counter, 1, __ATOMIC_RELEASE,
                           __HIP_MEMORY_SCOPE_AGENT);
    while (__hip_atomic_load(counter, __ATOMIC_ACQUIRE,
                             __HIP_MEMORY_SCOPE_AGENT) < n)
      __builtin_amdgcn_s_sleep(1);
    out[b] = __hip_atomic_load(counter, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
  }
}
