// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// A gathered row-layout tile: when the tile's columns lie inside the view,
// each lane reads its runs of four columns with 16-byte buffer loads from
// the row its index names (an out-of-range row reads zeros through an
// out-of-range offset); at the right edge it reads element by element.
// CHECK-LABEL: llvm.func @gather_row
// CHECK: scf.if %{{.*}} -> (vector<16xf32>)
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xf32>
// CHECK: } else {
// CHECK-COUNT-16: rocdl.raw.ptr.buffer.load {{.*}} : f32
// CHECK: }
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @gather_row(%x: !hk.gl<?x?xf32>, %r: i32) waves(1) {
  %c0 = arith.constant 0 : index
  %ids = hk.fill %r : i32 -> !hk.rv<16xi32, #hk.vec<rows, row>>
  %t = hk.gather %x[%c0] rows %ids : !hk.gl<?x?xf32>, !hk.rv<16xi32, #hk.vec<rows, row>> -> !hk.rt<16x64xf32, row>
  hk.return
}
}

// -----

// A scatter writes the same units; rows outside the view are dropped by
// the buffer's range check.
// CHECK-LABEL: llvm.func @scatter_row
// CHECK: scf.if
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.store {{.*}} : vector<4xf32>
// CHECK: } else {
// CHECK-COUNT-16: rocdl.raw.ptr.buffer.store {{.*}} : f32
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @scatter_row(%x: !hk.gl<?x?xf32>, %r: i32, %v: f32) waves(1) {
  %c0 = arith.constant 0 : index
  %ids = hk.fill %r : i32 -> !hk.rv<16xi32, #hk.vec<rows, row>>
  %t = hk.fill %v : f32 -> !hk.rt<16x64xf32, row>
  hk.scatter %t, %x[%c0] rows %ids : !hk.rt<16x64xf32, row>, !hk.rv<16xi32, #hk.vec<rows, row>> -> !hk.gl<?x?xf32>
  hk.return
}
}
