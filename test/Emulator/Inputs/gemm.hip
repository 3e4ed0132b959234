// bf16 GEMM C[M,N] = A[M,K] * Bt[N,K]^T with buffer loads, an LDS tile and
// v_mfma_f32_16x16x16_bf16. 256 threads (4 waves) compute a 32x32 tile.
#include "hip_shim.h"

extern "C" __global__ void gemm(const uint16_t *A, const uint16_t *Bt, float *C,
                                int M, int N, int K) {
  __shared__ uint32_t As[32 * 8], Bs[32 * 8]; // 32 rows x 16 bf16
  unsigned t = threadIdxX(), wave = t / 64, lane = t % 64;
  unsigned bm = blockIdxX() * 32, bn = blockIdxY() * 32;
  unsigned wr = wave / 2, wc = wave % 2;
  __amdgpu_buffer_rsrc_t ra =
      __builtin_amdgcn_make_buffer_rsrc((void *)A, 0, M * K * 2, 0x00020000);
  __amdgpu_buffer_rsrc_t rb =
      __builtin_amdgcn_make_buffer_rsrc((void *)Bt, 0, N * K * 2, 0x00020000);
  float4_t acc = {0, 0, 0, 0};
  unsigned r = t / 8, c2 = (t % 8) * 2;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[t] = __builtin_amdgcn_raw_buffer_load_b32(ra, ((bm + r) * K + k0 + c2) * 2, 0, 0);
    Bs[t] = __builtin_amdgcn_raw_buffer_load_b32(rb, ((bn + r) * K + k0 + c2) * 2, 0, 0);
    syncThreads();
    const uint16_t *as = (const uint16_t *)As, *bs = (const uint16_t *)Bs;
    short4_t av, bv;
    for (int e = 0; e < 4; ++e) {
      av[e] = as[(wr * 16 + lane % 16) * 16 + 4 * (lane / 16) + e];
      bv[e] = bs[(wc * 16 + lane % 16) * 16 + 4 * (lane / 16) + e];
    }
    // Scheduling hints as tile kernels use them: priority around the MFMA,
    // a scheduling group (no instruction of its own) and a short sleep.
    __builtin_amdgcn_s_setprio(1);
    acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(av, bv, acc, 0, 0, 0);
    __builtin_amdgcn_sched_group_barrier(0x008, 1, 0);
    __builtin_amdgcn_s_setprio(0);
    __builtin_amdgcn_s_sleep(1);
    syncThreads();
  }
  for (int e = 0; e < 4; ++e) {
    unsigned i = 4 * (lane / 16) + e, j = lane % 16;
    C[(bm + wr * 16 + i) * N + bn + wc * 16 + j] = acc[e];
  }
}
