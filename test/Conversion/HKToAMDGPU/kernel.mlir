// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// The compact ABI: pointers of every view, then each view's runtime sizes,
// then each view's strides (all but the innermost dimension), then scalars.
// Each argument is named for the code object's metadata after its kernel
// argument's source name; sizes and strides by the view dimension they
// describe.
// CHECK-LABEL: llvm.func @abi
// CHECK-SAME: (%{{[a-z0-9]+}}: !llvm.ptr<1> {hk.name = "a"},
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr<1> {hk.name = "b"},
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {hk.name = "a_size0"},
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {hk.name = "a_size1"},
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {hk.name = "b_size1"},
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {hk.name = "a_stride0"},
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {hk.name = "b_stride0"},
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {hk.name = "b_stride1"},
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {hk.name = "n"},
// CHECK-SAME: %{{[a-z0-9]+}}: f32 {hk.name = "x"})
// CHECK-SAME: rocdl.flat_work_group_size = "512,512"
// CHECK-SAME: rocdl.kernel
// CHECK-SAME: rocdl.reqd_work_group_size = array<i32: 512, 1, 1>
hk.kernel @abi(%a: !hk.gl<?x?xbf16>, %n: i32, %b: !hk.gl<4x?x32xf32>,
               %x: f32) waves(8) {
  // CHECK: llvm.return
  hk.return
}

// -----

// CHECK-LABEL: llvm.func @ids
hk.kernel @ids(%a: !hk.gl<?x?xf32>) waves(4) {
  // CHECK: %[[T:.*]] = rocdl.workitem.id.x
  // CHECK: %[[W:.*]] = arith.shrui %[[T]]
  // CHECK: rocdl.readfirstlane %[[W]]
  %w = hk.wave_id
  // CHECK: rocdl.workgroup.id.y
  %b = hk.block_id y
  // Blocks per grid come from the dispatch packet, not a device library:
  // its grid size in work-items over the block size the kernel requires
  // (256 work-items in x, 1 in y), not the packet's block size.
  // CHECK: llvm.call_intrinsic "llvm.amdgcn.dispatch.ptr"
  // CHECK-NOT: __ockl
  // CHECK: %[[GX:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<4> -> i32
  // CHECK-NOT: -> i16
  // CHECK: %[[C256:.*]] = arith.constant 256 : i32
  // CHECK: arith.divui %[[GX]], %[[C256]] : i32
  %g = hk.grid_dim x
  // CHECK: %[[GY:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<4> -> i32
  // CHECK-NOT: -> i16
  // CHECK: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK: arith.divui %[[GY]], %[[C1]] : i32
  %gy = hk.grid_dim y
  %d = hk.dim %a[1] : !hk.gl<?x?xf32>
  hk.return
}
