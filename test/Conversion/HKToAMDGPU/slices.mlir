// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// A slice along base blocks selects registers: the lower-right 16x16
// block of a 32x32 row-layout tile is the lane's fourth block, slots 12-15.
// CHECK-LABEL: llvm.func @slice
hk.kernel @slice(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x32xf32, row>
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [12, 13, 14, 15] : vector<16xf32>, vector<16xf32>
  %p = hk.slice %t [16, 16] : !hk.rt<32x32xf32, row> -> !hk.rt<16x16xf32, row>
  // A 32-row vector aligned with rows of a row tile holds 2 values per
  // lane; its second half is the second.
  %v = hk.fill %x : f32 -> !hk.rv<32xf32, #hk.vec<rows, row>>
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [1] : vector<2xf32>, vector<2xf32>
  %w = hk.slice %v [16] : !hk.rv<32xf32, #hk.vec<rows, row>> -> !hk.rv<16xf32, #hk.vec<rows, row>>
  hk.return
}

// -----

// Side by side, two 16x16 blocks become one 16x32 tile's two blocks.
// CHECK-LABEL: llvm.func @concat
hk.kernel @concat(%x: f32, %y: f32) waves(1) {
  %a = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  %b = hk.fill %y : f32 -> !hk.rt<16x16xf32, row>
  // CHECK-COUNT-8: vector.extract
  // CHECK: vector.from_elements {{.*}} : vector<8xf32>
  %c = hk.concat cols %a, %b : !hk.rt<16x16xf32, row>, !hk.rt<16x16xf32, row> -> !hk.rt<16x32xf32, row>
  hk.return
}

// -----

// A shared row slice is a pointer into the same LDS: 32 rows of 64 bf16
// are 4096 bytes.
// CHECK-LABEL: llvm.func @shared_slice
hk.kernel @shared_slice(%x: f32) waves(1) {
  %s = hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<none>>
  // CHECK: llvm.getelementptr %{{.*}}[4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %r = hk.slice %s [32, 0] : !hk.st<64x64xbf16, #hk.swizzle<none>> -> !hk.st<32x64xbf16, #hk.swizzle<none>>
  %f = hk.fill %x : f32 -> !hk.rt<32x64xf32, row>
  %t = hk.convert %f : !hk.rt<32x64xf32, row> -> !hk.rt<32x64xbf16, row>
  hk.store %t, %r : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16, #hk.swizzle<none>>
  hk.return
}

// -----

// A transpose keeps every element in its lane: a 32x32 `row` tile's
// transpose in `col` holds the same slots, with the off-diagonal 16x16
// blocks (slots 4-7 and 8-11) trading places. No LDS.
// CHECK-LABEL: llvm.func @transpose
hk.kernel @transpose(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x32xf32, row>
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15] : vector<16xf32>, vector<16xf32>
  // CHECK-NOT: !llvm.ptr<3>
  %u = hk.transpose %t : !hk.rt<32x32xf32, row> -> !hk.rt<32x32xf32, col>
  // A 32x32 accumulator's runs of four rows are the 32x32x8 A operand's
  // runs of four columns, transposed.
  // CHECK: vector.shuffle
  // CHECK-NOT: !llvm.ptr<3>
  %a = hk.fill %x : f32 -> !hk.rt<64x32xf32, #hk.mfma<acc, 32x32x8>>
  %b = hk.transpose %a : !hk.rt<64x32xf32, #hk.mfma<acc, 32x32x8>>
      -> !hk.rt<32x64xf32, #hk.mfma<a, 32x32x8>>
  hk.return
}
