#include "hip_shim.h"
// Single-pass inclusive prefix sum with decoupled look-back: each
// workgroup takes a tile id from a global counter (an atomic add), scans
// its tile in LDS, publishes its aggregate with a release store, then
// reads its predecessors' status words with acquire loads until one holds
// an inclusive prefix. Workgroups talk only through atomics: the race
// sanitizer must stay quiet.
#define TILE 256
extern "C" __global__ void scan(const int *in, int *out, int *status, int *counter, int n) {
  __shared__ int tile;
  __shared__ int data[TILE];
  __shared__ int prefix;
  unsigned t = threadIdxX();
  if (t == 0)
    tile = __hip_atomic_fetch_add(counter, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  syncThreads();
  int id = tile;
  int g = id * TILE + t;
  data[t] = g < n ? in[g] : 0;
  syncThreads();
  for (unsigned off = 1; off < TILE; off <<= 1) {
    int v = t >= off ? data[t - off] : 0;
    syncThreads();
    data[t] += v;
    syncThreads();
  }
  if (t == 0) {
    int aggregate = data[TILE - 1];
    // status: bits 30-31 a flag (1: aggregate, 2: inclusive prefix), the
    // low bits the value.
    if (id == 0)
      __hip_atomic_store(&status[0], (2 << 30) | aggregate, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    else
      __hip_atomic_store(&status[id], (1 << 30) | aggregate, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    int excl = 0;
    for (int p = id - 1; p >= 0;) {
      int s = __hip_atomic_load(&status[p], __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
      int flag = (unsigned)s >> 30;
      if (flag == 0) continue;
      excl += s & 0x3fffffff;
      if (flag == 2) break;
      --p;
    }
    if (id != 0)
      __hip_atomic_store(&status[id], (2 << 30) | (excl + aggregate), __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    prefix = excl;
  }
  syncThreads();
  if (g < n) out[g] = data[t] + prefix;
}
