// Minimal HIP-style definitions for the foreign kernels of the emulator
// tests: no HIP headers exist here, so the attributes and builtins are used
// directly, as clang's HIP headers would.
#pragma once

#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))

typedef unsigned int uint32_t;
typedef unsigned short uint16_t;
typedef short short4_t __attribute__((ext_vector_type(4)));
typedef float float4_t __attribute__((ext_vector_type(4)));

__device__ static inline unsigned threadIdxX() {
  return __builtin_amdgcn_workitem_id_x();
}
__device__ static inline unsigned blockIdxX() {
  return __builtin_amdgcn_workgroup_id_x();
}
__device__ static inline unsigned blockIdxY() {
  return __builtin_amdgcn_workgroup_id_y();
}

// __syncthreads as HIP defines it: release fence, barrier, acquire fence.
__device__ static inline void syncThreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// Cross-lane read of `v` from lane `src` (ds_bpermute).
__device__ static inline float shuffle(float v, unsigned src) {
  return __builtin_bit_cast(
      float,
      __builtin_amdgcn_ds_bpermute(int(src * 4), __builtin_bit_cast(int, v)));
}

__device__ static inline short toBf16Bits(float x) {
  return __builtin_bit_cast(short, (__bf16)x);
}
