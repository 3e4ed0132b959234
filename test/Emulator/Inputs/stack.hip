// Kernels with a dynamic stack: recursion, whose depth LLVM cannot bound,
// makes the code object ask the runtime for a stack (.uses_dynamic_stack).
#include "hip_shim.h"

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// Each level keeps a small array on the stack: about 64 bytes per level.
__device__ int sumTo(int n) {
  volatile int pad[8];
  pad[n & 7] = n;
  return n == 0 ? pad[0] : sumTo(n - 1) + pad[n & 7];
}

extern "C" __global__ void fibs(int *out) {
  unsigned t = threadIdxX();
  out[t] = fib(int(t));
}

// out[t] = 0 + 1 + ... + (n + t)
extern "C" __global__ void sums(int *out, int n) {
  unsigned t = threadIdxX();
  out[t] = sumTo(n + int(t));
}
