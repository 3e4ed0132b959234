// A private array indexed at run time lives in scratch memory.
#include "hip_shim.h"

extern "C" __global__ void private_array(const int *idx, float *out,
                                         int mask) {
  float a[64];
  unsigned t = threadIdxX();
  for (int i = 0; i < 64; ++i)
    a[i] = float(t * i);
  out[t] = a[idx[t] & mask];
}
