// A generic pointer that may point to LDS or to global memory: the compiler
// must use flat instructions, whose address decides the memory.
#include "hip_shim.h"

extern "C" __global__ void flat_select(float *out, const float *in,
                                       int useShared) {
  __shared__ float tile[64];
  unsigned t = threadIdxX();
  tile[t] = float(t) * 2.0f;
  syncThreads();
  const float *p = useShared ? (const float *)tile : in;
  float *q = useShared ? tile : out;
  float v = p[63 - t] + 1.0f;
  syncThreads();
  q[t] = v;
  syncThreads();
  out[64 + t] = useShared ? tile[t] : v;
}
