// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// Masks are vectors of i1 per lane; selects are arith.select on them.
// CHECK-LABEL: llvm.func @masks
hk.kernel @masks(%x: f32) waves(1) {
  // CHECK: %[[F:.*]] = vector.broadcast %arg0 : f32 to vector<4xf32>
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: %[[S:.*]] = vector.broadcast %arg0 : f32 to vector<4xf32>
  // CHECK: %[[M:.*]] = arith.cmpf ult, %[[F]], %[[S]] : vector<4xf32>
  %m = hk.cmpf ult, %f, %x : !hk.rt<16x16xf32, row>, f32
  // CHECK: arith.select %[[M]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
  %s = hk.select %m, %f, %f : !hk.rt<16x16xi1, row>, !hk.rt<16x16xf32, row>
  // CHECK: arith.uitofp %[[M]] : vector<4xi1> to vector<4xf32>
  %w = hk.convert %m : !hk.rt<16x16xi1, row> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

// Index tiles: the lane's row (row layout: lane % 16) or column
// (4 * (lane / 16)) plus the slot's offset.
// CHECK-LABEL: llvm.func @iota
hk.kernel @iota() waves(1) {
  // CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %{{.*}} : i32
  // CHECK: arith.constant dense<0> : vector<4xi32>
  // CHECK: arith.addi
  %r = hk.iota rows : !hk.rt<16x16xi32, row>
  // CHECK: arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
  // CHECK: %[[C:.*]] = arith.addi
  // CHECK: arith.sitofp %[[C]] : vector<4xi32> to vector<4xf32>
  %c = hk.iota cols : !hk.rt<16x16xf32, row>
  // A 32-row vector aligned with the rows of a row-layout tile: two rows
  // per lane, 16 apart.
  // CHECK: arith.constant dense<[0, 16]> : vector<2xi32>
  %v = hk.iota : !hk.rv<32xi32, #hk.vec<rows, row>>
  hk.return
}

// -----

// Shift counts are taken modulo 32; unsigned max/min and bitwise ops map
// onto arith.
// CHECK-LABEL: llvm.func @integers
hk.kernel @integers(%n: i32) waves(1) {
  %r = hk.iota rows : !hk.rt<16x16xi32, row>
  // CHECK: %[[K:.*]] = vector.broadcast %arg0 : i32 to vector<4xi32>
  // CHECK: %[[C31:.*]] = arith.constant dense<31> : vector<4xi32>
  // CHECK: %[[AMT:.*]] = arith.andi %[[K]], %[[C31]]
  // CHECK: arith.shli %{{.*}}, %[[AMT]]
  %a = hk.shl %r, %n : !hk.rt<16x16xi32, row>, i32
  // CHECK: arith.shrsi
  %b = hk.shrs %a, %r : !hk.rt<16x16xi32, row>
  // CHECK: arith.shrui
  %c = hk.shru %b, %r : !hk.rt<16x16xi32, row>
  // CHECK: arith.maxui
  %d = hk.umax %c, %r : !hk.rt<16x16xi32, row>
  // CHECK: arith.minui
  %e = hk.umin %d, %r : !hk.rt<16x16xi32, row>
  // CHECK: arith.maxsi
  %f = hk.max %e, %r : !hk.rt<16x16xi32, row>
  // CHECK: arith.xori
  %g = hk.xor %f, %r : !hk.rt<16x16xi32, row>
  hk.return
}

// -----

// hk.convert converts values: f32 -> i32 rounds half to even, then
// saturates (NaN -> 0); i32 -> i8 saturates; hk.bitcast keeps the bits.
// CHECK-LABEL: llvm.func @conversions
hk.kernel @conversions(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: %[[R:.*]] = math.roundeven %{{.*}} : vector<4xf32>
  // CHECK: llvm.call_intrinsic "llvm.fptosi.sat"(%[[R]]) : (vector<4xf32>) -> vector<4xi32>
  %i = hk.convert %f : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xi32, row>
  // CHECK: arith.maxsi
  // CHECK: arith.minsi
  // CHECK: arith.trunci %{{.*}} : vector<4xi32> to vector<4xi8>
  %b = hk.convert %i : !hk.rt<16x16xi32, row> -> !hk.rt<16x16xi8, row>
  // CHECK: arith.sitofp %{{.*}} : vector<4xi32> to vector<4xf32>
  %g = hk.convert %i : !hk.rt<16x16xi32, row> -> !hk.rt<16x16xf32, row>
  // CHECK: arith.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
  %c = hk.bitcast %g : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xi32, row>
  hk.return
}

// -----

// Float max and min are IEEE maximum/minimum (a NaN wins), reductions too.
// CHECK-LABEL: llvm.func @nan_max
hk.kernel @nan_max(%x: f32) waves(1) attributes {} {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: arith.maximumf
  // CHECK: arith.minimumf
  %a = hk.max %f, %f : !hk.rt<16x16xf32, row>
  %b = hk.min %a, %f : !hk.rt<16x16xf32, row>
  hk.return
}
