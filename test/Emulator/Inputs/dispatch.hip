// What the dispatch model hands a kernel: work-item ids (packed in v0),
// workgroup ids (system SGPRs), the COV5 hidden arguments (block counts and
// group sizes at their implicit-argument offsets), the dispatch packet's
// grid size, and dynamic LDS after the static LDS.
#include "hip_shim.h"

extern __attribute__((shared)) unsigned dynamicLds[];

extern "C" __global__ void ids(unsigned *out, int marker) {
  __shared__ unsigned staticLds[64];
  unsigned x = __builtin_amdgcn_workitem_id_x();
  unsigned y = __builtin_amdgcn_workitem_id_y();
  unsigned z = __builtin_amdgcn_workitem_id_z();
  unsigned bx = __builtin_amdgcn_workgroup_id_x();
  unsigned by = __builtin_amdgcn_workgroup_id_y();
  unsigned bz = __builtin_amdgcn_workgroup_id_z();
  const unsigned *implicit =
      (const unsigned *)__builtin_amdgcn_implicitarg_ptr();
  const unsigned short *sizes = (const unsigned short *)(implicit + 3);
  unsigned gx = implicit[0], gy = implicit[1];
  unsigned sx = sizes[0], sy = sizes[1], sz = sizes[2];
  unsigned local = (z * sy + y) * sx + x;
  unsigned group = (bz * gy + by) * gx + bx;
  unsigned linear = group * (sx * sy * sz) + local;
  // Dynamic LDS lives after the static LDS and is private to the group.
  if (local < 64)
    staticLds[local] = local;
  dynamicLds[local] = marker + local;
  syncThreads();
  unsigned *o = out + linear * 14;
  o[0] = x;
  o[1] = y;
  o[2] = z;
  o[3] = bx;
  o[4] = by;
  o[5] = bz;
  o[6] = gx * 1000000 + gy * 1000 + implicit[2];
  o[7] = sx * 1000000 + sy * 1000 + sz;
  o[8] = __builtin_amdgcn_grid_size_x();
  o[9] = dynamicLds[(local + 1) % (sx * sy * sz)];
  o[10] = marker;
  o[11] = staticLds[local % 64];
  // COV5 implicit-argument offsets: hidden_grid_dims at 64 (u16) and
  // hidden_dynamic_lds_size at 120.
  o[12] = ((const unsigned short *)implicit)[32];
  o[13] = implicit[30];
}
