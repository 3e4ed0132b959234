// A kernel whose loop structure and instruction mix are known by
// construction, for hk-report's loop analysis (test/Tools/hk-report-loops.test):
//
//   outer loop (depth 1): one buffer load into registers, one direct-to-LDS
//     buffer load, 4 v_mfma_f32_16x16x16_bf16 (4 x 2*16*16*16 = 32768 flop),
//     one s_barrier, and
//   inner loop (depth 2): s_setprio 2, 2 v_mfma_f32_16x16x16_bf16
//     (16384 flop), a sched_group_barrier hint, s_setprio 0;
//   after the loops: one 16-byte global store per lane.
//
// Unrolling is disabled so that each loop body appears once. The MFMAs
// chain through `acc`, so none can be dropped or merged; the same builtin
// is v_mfma_f32_16x16x16_bf16 on gfx942 and gfx950.
#include "hip_shim.h"

extern "C" __global__ void loops(const uint32_t *in, float4_t *out, int n,
                                 int m) {
  __shared__ uint32_t tile[256];
  unsigned t = threadIdxX();
  __amdgpu_buffer_rsrc_t rsrc =
      __builtin_amdgcn_make_buffer_rsrc((void *)in, 0, 4096, 0x00020000);
  float4_t acc = {0, 0, 0, 0};
#pragma clang loop unroll(disable)
  for (int i = 0; i < n; ++i) {
    uint32_t v =
        __builtin_amdgcn_raw_buffer_load_b32(rsrc, (i * 256 + t) * 4, 0, 0);
    __builtin_amdgcn_raw_ptr_buffer_load_lds(
        rsrc,
        (__attribute__((address_space(3))) void *)(tile + (t / 64) * 64), 4,
        (i * 256 + t) * 4, 0, 0, 0);
    short4_t a = {short(v), short(v >> 16), short(v + 1), short(v + 2)};
    acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, a, acc, 0, 0, 0);
    acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, a, acc, 0, 0, 0);
    acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, a, acc, 0, 0, 0);
    acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, a, acc, 0, 0, 0);
    __builtin_amdgcn_s_barrier();
#pragma clang loop unroll(disable)
    for (int j = 0; j < m; ++j) {
      __builtin_amdgcn_s_setprio(2);
      acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, a, acc, 0, 0, 0);
      acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, a, acc, 0, 0, 0);
      // A compiler directive: it shapes the schedule and leaves no
      // instruction in the code object.
      __builtin_amdgcn_sched_group_barrier(0x008, 1, 0);
      __builtin_amdgcn_s_setprio(0);
    }
  }
  out[t] = acc;
}
