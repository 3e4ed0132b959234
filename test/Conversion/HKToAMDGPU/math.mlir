// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// Activations use the chips' v_exp_f32 and v_rcp_f32 (rocdl.exp2,
// rocdl.rcp) one lane element at a time, never a full-precision division.
// CHECK-LABEL: llvm.func @sigmoid
hk.kernel @sigmoid(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: math.absf
  // CHECK-COUNT-4: rocdl.exp2
  // CHECK-COUNT-4: rocdl.rcp
  // CHECK: arith.cmpf oge
  // CHECK: arith.select
  // CHECK-NOT: arith.divf
  %s = hk.sigmoid %f : !hk.rt<16x16xf32, row>
  hk.return
}

// -----

// bf16 tiles compute in f32 and round once.
// CHECK-LABEL: llvm.func @tanh_bf16
hk.kernel @tanh_bf16(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  %b = hk.convert %f : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xbf16, row>
  // CHECK: arith.extf %{{.*}} : vector<4xbf16> to vector<4xf32>
  // CHECK: math.fma
  // CHECK: rocdl.exp2
  // CHECK: math.copysign
  // CHECK: arith.cmpf olt
  // CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
  %t = hk.tanh %b : !hk.rt<16x16xbf16, row>
  hk.return
}

// -----

// sin reduces to revolutions (the product's error kept apart) for
// v_sin_f32; cos likewise for v_cos_f32.
// CHECK-LABEL: llvm.func @trig
hk.kernel @trig(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: math.fma
  // CHECK: math.floor
  // CHECK: rocdl.sin
  %s = hk.sin %f : !hk.rt<16x16xf32, row>
  // CHECK: rocdl.cos
  %c = hk.cos %f : !hk.rt<16x16xf32, row>
  hk.return
}

// -----

// rsqrt is v_rsq_f32 with tiny inputs scaled into its range.
// CHECK-LABEL: llvm.func @rsqrt
hk.kernel @rsqrt(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : vector<4xf32>
  // CHECK: llvm.call_intrinsic "llvm.amdgcn.rsq"
  // CHECK-NOT: math.rsqrt
  %r = hk.rsqrt %f : !hk.rt<16x16xf32, row>
  hk.return
}

// -----

// erf and gelu share the polynomial pieces: an odd polynomial below 1 and
// 2^q(t) for the tail.
// CHECK-LABEL: llvm.func @gelus
hk.kernel @gelus(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: rocdl.exp2
  // CHECK: arith.cmpf oge
  %e = hk.erf %f : !hk.rt<16x16xf32, row>
  // CHECK: rocdl.exp2
  %g = hk.gelu %e : !hk.rt<16x16xf32, row>
  // CHECK: rocdl.rcp
  %h = hk.gelu_tanh %g : !hk.rt<16x16xf32, row>
  // CHECK: rocdl.rcp
  %s = hk.silu %h : !hk.rt<16x16xf32, row>
  hk.return
}
