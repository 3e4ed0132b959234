// Cross-lane data movement: DPP controls (with row/bank masks and
// bound_ctrl), ds_swizzle, ds_bpermute/ds_permute, readlane, readfirstlane
// in a divergent branch and mbcnt. One wave; row k of `out` holds case k.
#include "hip_shim.h"

extern "C" __global__ void lanes(const int *in, int *out) {
  unsigned l = threadIdxX();
  int v = in[l];
  int *o = out + l;
  o[0 * 64] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, false);
  o[1 * 64] = __builtin_amdgcn_update_dpp(-1, v, 0x101, 0xf, 0xf, true);
  o[2 * 64] = __builtin_amdgcn_update_dpp(-1, v, 0x1b, 0xf, 0xf, false);
  o[3 * 64] = __builtin_amdgcn_update_dpp(-1, v, 0x128, 0xf, 0xf, false);
  o[4 * 64] = __builtin_amdgcn_update_dpp(-1, v, 0x140, 0xf, 0xf, false);
  o[5 * 64] = __builtin_amdgcn_update_dpp(-1, v, 0x141, 0xf, 0xf, false);
  o[6 * 64] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0x5, 0x3, false);
  o[7 * 64] = __builtin_amdgcn_update_dpp(-1, v, 0x155, 0xf, 0xf, false);
  o[8 * 64] = __builtin_amdgcn_ds_swizzle(v, 0x8000 | 0x1b);
  o[9 * 64] = __builtin_amdgcn_ds_swizzle(v, 0x1f | (1 << 10));
  o[10 * 64] = __builtin_amdgcn_ds_bpermute(int(((l * 5) % 64) * 4), v);
  o[11 * 64] = __builtin_amdgcn_readlane(v, 37);
  o[12 * 64] = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0));
  o[13 * 64] = __builtin_amdgcn_ds_permute(int(((l * 3) % 64) * 4), v);
  int first = 0;
  if (l >= 20)
    first = __builtin_amdgcn_readfirstlane(v);
  o[14 * 64] = first;
}
