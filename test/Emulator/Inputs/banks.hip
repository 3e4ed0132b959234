// One wave writes LDS with a stride of two dwords (a 2-way bank conflict on
// both chips' bank models) and reads it back contiguously (conflict-free).
#include "hip_shim.h"

extern "C" __global__ void stride2(float *out) {
  __shared__ float tile[128];
  unsigned t = threadIdxX();
  tile[t * 2] = float(t);
  syncThreads();
  out[t] = tile[t];
}
