// At -O0 nothing is inlined: the kernel calls a function, and LLVM asks
// for a dynamic stack for the call.
#include "hip_shim.h"

__device__ int square(int x) { return x * x; }

extern "C" __global__ void squares(int *out) {
  unsigned t = threadIdxX();
  out[t] = square(int(t));
}
