// Workgroups of one launch run in any order, at once: two that write the
// same bytes, or one that reads bytes another writes, race unless they use
// atomics. Each planted race has a twin that must stay quiet. Launch with
// 64 work-items per workgroup and an n of 64 * workgroups.
#include "hip_shim.h"

// Every workgroup writes the same 64 elements.
extern "C" __global__ void overlap_bug(float *out) {
  out[threadIdxX()] = float(blockIdxX());
}
extern "C" __global__ void overlap_ok(float *out) {
  out[blockIdxX() * 64 + threadIdxX()] = float(blockIdxX());
}

// Each workgroup writes its own 64 elements, then reads the next
// workgroup's.
extern "C" __global__ void neighbour_bug(float *data, float *copy,
                                         unsigned n) {
  unsigned i = blockIdxX() * 64 + threadIdxX();
  data[i] = float(i);
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
  copy[i] = data[(i + 64) % n];
}
extern "C" __global__ void neighbour_ok(float *data, float *copy,
                                        unsigned n) {
  unsigned i = blockIdxX() * 64 + threadIdxX();
  data[i] = float(i);
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
  copy[i] = data[i];
}

// Every workgroup adds to the same counter, atomically.
extern "C" __global__ void count_ok(unsigned *counter) {
  __hip_atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED,
                         __HIP_MEMORY_SCOPE_AGENT);
}
