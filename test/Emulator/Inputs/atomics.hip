// Atomics clang emits for HIP code beyond 32-bit integers: f64 add, min and
// max on global memory and LDS, 64-bit integer atomics on LDS, atomics
// through flat (generic) pointers into global memory and LDS, and packed
// f16 adds. Every value is exact in its format, so the results do not
// depend on the order in which lanes and workgroups apply their updates.
#include "hip_shim.h"

typedef unsigned long long u64;
typedef _Float16 half2_t __attribute__((ext_vector_type(2)));

#define AGENT __HIP_MEMORY_SCOPE_AGENT
#define WG __HIP_MEMORY_SCOPE_WORKGROUP
#define RELAXED __ATOMIC_RELAXED

// d: [0] sum, [1] max, [2] min, [3] flat adds, [4 + 3b ..) workgroup b's
// LDS f64 results. u: [0] flat adds, [1 + 10b ..) workgroup b's LDS
// integers. h: [0] global packed adds, [1 + b] workgroup b's LDS ones.
extern "C" __global__ void atomics(double *d, u64 *u, half2_t *h,
                                   int useLds) {
  unsigned t = threadIdxX(), b = blockIdxX();
  unsigned i = b * 64 + t;
  double x = double(i + 1) * 0.5;
  // Global f64: add, max, min.
  __hip_atomic_fetch_add(d, x, RELAXED, AGENT);
  __hip_atomic_fetch_max(d + 1, x - 40.0, RELAXED, AGENT);
  __hip_atomic_fetch_min(d + 2, 40.0 - x, RELAXED, AGENT);

  __shared__ double sd[3];
  __shared__ u64 su[8];
  __shared__ half2_t sh;
  if (t < 3)
    sd[t] = 0.0;
  if (t < 8)
    su[t] = t == 3 ? ~0ull : t == 4 ? 0ull : t == 5 ? ~0ull : 0ull;
  if (t == 0)
    sh = half2_t{(_Float16)0.0f, (_Float16)0.0f};
  syncThreads();
  // LDS f64 and 64-bit integers.
  __hip_atomic_fetch_add(sd, x, RELAXED, WG);
  __hip_atomic_fetch_max(sd + 1, x, RELAXED, WG);
  __hip_atomic_fetch_min(sd + 2, -x, RELAXED, WG);
  u64 big = (u64(i + 1) << 33) | u64(t);
  __hip_atomic_fetch_add(su, big, RELAXED, WG);
  __hip_atomic_fetch_max(su + 1, big, RELAXED, WG);
  __hip_atomic_fetch_min((long long *)su + 2, -(long long)big, RELAXED, WG);
  __hip_atomic_fetch_and(su + 3, ~(1ull << (t % 64)), RELAXED, WG);
  __hip_atomic_fetch_or(su + 4, 1ull << (63 - t % 64), RELAXED, WG);
  __hip_atomic_fetch_xor(su + 5, u64(t) << 40, RELAXED, WG);
  // A compare-and-swap chain: lane t can only swap t for t + 1, so the
  // lanes succeed in order, each retrying until its turn has come.
  u64 expected = t;
  while (!__hip_atomic_compare_exchange_strong(su + 6, &expected, u64(t) + 1,
                                               RELAXED, RELAXED, WG))
    expected = t;
  u64 swapped = __hip_atomic_exchange(su + 7, u64(t) * 3, RELAXED, WG);
  // Packed f16 adds into LDS and global memory.
  half2_t one = {(_Float16)1.0f, (_Float16)0.25f};
  __builtin_amdgcn_ds_atomic_fadd_v2f16((half2_t __attribute__((address_space(3))) *)&sh, one);
  __builtin_amdgcn_global_atomic_fadd_v2f16((half2_t __attribute__((address_space(1))) *)h, one);
  // Flat atomics: the pointer's space is known only at run time.
  u64 *target = useLds ? su + 0 : u;
  __hip_atomic_fetch_add(target, u64(i) << 32 | 1, RELAXED, AGENT);
  double *dtarget = useLds ? sd : d + 3;
  __hip_atomic_fetch_add(dtarget, 0.25, RELAXED, AGENT);
  syncThreads();
  // u[1 + 10 * b + k]: su[k] for k < 8, then the sum of the values the
  // exchanges returned.
  u64 *out = u + 1 + 10 * b;
  if (t == 0) {
    for (int k = 0; k < 3; ++k)
      d[4 + b * 3 + k] = sd[k];
    for (int k = 0; k < 8; ++k)
      out[k] = su[k];
    out[8] = 0;
    h[1 + b] = sh;
  }
  syncThreads();
  // Each exchange returned the value of the one before it (the first, the
  // initial zero): with the final value they are the values written.
  __hip_atomic_fetch_add(out + 8, swapped, RELAXED, AGENT);
}
