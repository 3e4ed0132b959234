// Device globals of every kind a code object holds: zeroed (.bss),
// initialised (.data), constant tables (.rodata beyond the kernel
// descriptors), pointers between globals (relative relocations) and an
// exported symbol reached through the GOT (an absolute relocation).
#include "hip_shim.h"

__device__ unsigned launches;
__device__ int table[8] = {100, 200, 300, 400, 500, 600, 700, 800};
__device__ const unsigned short primes[16] = {2,  3,  5,  7,  11, 13, 17, 19,
                                              23, 29, 31, 37, 41, 43, 47, 53};
__device__ const int *views[2] = {&table[2], &table[5]};
__attribute__((visibility("default"))) __device__ int exported[4] = {-1, -2, -3,
                                                                     -4};

// Each launch counts itself and adds t to table[t]: globals persist from
// one launch of the module to the next.
extern "C" __global__ void count_launches(int *out) {
  unsigned t = threadIdxX();
  if (t == 0)
    out[0] = ++launches;
  if (t < 8) {
    table[t] += t;
    out[1 + t] = table[t];
  }
}

// Reads the constant table, the pointer table and the exported array.
extern "C" __global__ void lookup(const int *idx, int *out) {
  unsigned t = threadIdxX();
  int i = idx[t];
  out[t] = primes[i & 15] + *views[i & 1] + exported[i & 3];
}
