// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// f32: one no-return buffer atomic per element on the view's resource.
// Inside the view the offsets are the elements'; at its edge an element
// outside gets num_records as its offset, which the range check drops:
// no branch per element.
// CHECK-LABEL: llvm.func @add_f32
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc
// CHECK: scf.if
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.atomic.fadd %{{.*}}, %[[RSRC]], %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: llvm.atomicrmw
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK: %[[OFF:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: rocdl.raw.ptr.buffer.atomic.fadd %{{.*}}, %[[RSRC]], %[[OFF]], %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-3: rocdl.raw.ptr.buffer.atomic.fadd
// CHECK-NOT: llvm.atomicrmw
// CHECK: llvm.return
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @add_f32(%x: f32, %y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  hk.atomic_add %t, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// bf16 from a row tile: a lane's 4 consecutive columns are 2 aligned pairs
// inside the view (even origin and row stride), single halves at its edge.
// CHECK-LABEL: llvm.func @add_bf16_pairs
hk.kernel @add_bf16_pairs(%x: f32, %y: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xbf16>
  // CHECK: arith.remui
  // CHECK-COUNT-2: llvm.atomicrmw fadd {{.*}} : !llvm.ptr<1>, vector<2xbf16>
  // CHECK-NOT: llvm.atomicrmw
  // CHECK: } else {
  // CHECK-COUNT-4: llvm.atomicrmw fadd {{.*}} : !llvm.ptr<1>, vector<2xbf16>
  hk.atomic_add %t, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xbf16>
  hk.return
}

// -----

// An accumulator tile holds one column per lane: every element goes alone,
// next to -0.0 in the half its parity leaves free.
// CHECK-LABEL: llvm.func @add_bf16_halves
hk.kernel @add_bf16_halves(%x: f32, %y: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // CHECK: arith.constant -0.000000e+00 : bf16
  // CHECK: arith.select
  // CHECK: arith.select
  // CHECK: vector.from_elements {{.*}} : vector<2xbf16>
  // CHECK-COUNT-4: llvm.atomicrmw fadd {{.*}} : !llvm.ptr<1>, vector<2xbf16>
  // CHECK-NOT: llvm.atomicrmw
  // CHECK: } else {
  hk.atomic_add %t, %y[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xbf16>
  hk.return
}
