// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// f32: one relaxed device-scope fadd per element, marked as device memory
// so that LLVM keeps the hardware atomic; elements at the view's edge are
// added one by one under their own bounds check.
// CHECK-LABEL: llvm.func @add_f32
hk.kernel @add_f32(%x: f32, %y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK-COUNT-4: llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("agent") monotonic {alignment = 4 : i64, rocdl.no_fine_grained_memory, rocdl.no_remote_memory} : !llvm.ptr<1>, f32
  // CHECK: } else {
  // CHECK-COUNT-4: llvm.atomicrmw fadd {{.*}} : !llvm.ptr<1>, f32
  hk.atomic_add %t, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.return
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
