// hk-grid-swizzle replaces the kernel's block ids with a permutation of the
// grid computed once at entry. The arithmetic itself is checked block by
// block, on many grids, by the GridSwizzle unit tests.
// RUN: hk-opt %s --hk-grid-swizzle="chunk=4 group=8" | FileCheck %s
// RUN: hk-opt %s --hk-grid-swizzle="chunk=0 group=3" | FileCheck %s --check-prefix=GROUP
// RUN: hk-opt %s --hk-grid-swizzle | FileCheck %s --check-prefix=NONE
// Each z slice is permuted within itself: z is kept, the grid's z size is
// not needed, nor a division by the slice's size.
// RUN: hk-opt %s --hk-grid-swizzle="chunk=4 group=8" | FileCheck %s --check-prefix=SLICE
// SLICE-NOT: hk.grid_dim z
// Applying it again changes nothing.
// RUN: hk-opt %s --hk-grid-swizzle="chunk=4 group=8" | hk-opt --hk-grid-swizzle="chunk=2 group=2" | FileCheck %s

// CHECK-LABEL: hk.kernel @gemm_tiles
// CHECK-SAME: attributes {hk.grid_swizzle = #hk.grid_swizzle<chunk = 4, group = 8, xcds = 8>}
// CHECK-DAG: %[[GX:.*]] = hk.grid_dim x
// CHECK-DAG: %[[GY:.*]] = hk.grid_dim y
// CHECK-DAG: %[[X:.*]] = hk.block_id x
// CHECK-DAG: %[[Y:.*]] = hk.block_id y
// The XCD remap works in runs of 8 XCDs x 4 blocks of the slice; past the
// last whole run, ids are kept.
// CHECK-DAG: %[[SPAN:.*]] = arith.constant 32 : index
// CHECK: %[[WHOLE:.*]] = arith.muli %{{.*}}, %[[SPAN]] : index
// CHECK: %[[TAIL:.*]] = arith.cmpi ult, %[[PID:.*]], %[[WHOLE]] : index
// CHECK: %[[REMAPPED:.*]] = arith.select %[[TAIL]], %{{.*}}, %[[PID]] : index
// Groups of 8 block rows; the last group takes the rows that remain. A
// whole group's block divides its id by 8, then by gy; the last group's
// divides its place in that group by the group's rows: one division serves
// both.
// CHECK: %[[WHOLEGROUP:.*]] = arith.cmpi ult
// CHECK: %[[DIVISOR:.*]] = arith.select %[[WHOLEGROUP]], %[[GY]], %{{.*}} : index
// CHECK: arith.divui %{{.*}}, %[[DIVISOR]] : index
// CHECK: arith.remui %{{.*}}, %[[DIVISOR]] : index
// The new ids are uniform, read from the first lane so that the backend
// keeps them in scalar registers.
// CHECK: %[[RX:.*]] = rocdl.readfirstlane %{{.*}} : i32
// CHECK: %[[NEWX:.*]] = arith.index_castui %[[RX]] : i32 to index
// CHECK: %[[RY:.*]] = rocdl.readfirstlane %{{.*}} : i32
// CHECK: %[[NEWY:.*]] = arith.index_castui %[[RY]] : i32 to index
// CHECK-NOT: hk.block_id
// CHECK: hk.group_load %{{.*}}[%[[NEWX]], %[[NEWY]]], %{{.*}}
// CHECK: hk.return

// GROUP-LABEL: hk.kernel @gemm_tiles
// GROUP-SAME: #hk.grid_swizzle<chunk = 0, group = 3, xcds = 1>
// GROUP-NOT: arith.constant 8 : index
// GROUP: arith.constant 3 : index
// GROUP-NOT: arith.constant 8 : index
// GROUP: %[[WHOLEGROUP:.*]] = arith.cmpi ult
// GROUP: arith.divui %{{.*}}, %{{.*}} : index
// GROUP-NOT: arith.divui
// GROUP: rocdl.readfirstlane

// NONE-LABEL: hk.kernel @gemm_tiles(%{{.*}}: !hk.gl<?x?xbf16>) waves(4) {
// NONE-NEXT: %[[X:.*]] = hk.block_id x
// NONE-NEXT: %[[Y:.*]] = hk.block_id y
// NONE-NOT: arith
// NONE: hk.group_load %{{.*}}[%[[X]], %[[Y]]]
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @gemm_tiles(%a: !hk.gl<?x?xbf16>) waves(4) {
  %bx = hk.block_id x
  %by = hk.block_id y
  %s = hk.alloc : !hk.st<64x64xbf16>
  hk.group_load %a[%bx, %by], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.return
}
}
