// A register vector loaded from a one-dimensional global view moves each
// run of elements its lanes hold consecutively with one buffer load (at
// most 16 bytes).
// RUN: hk-opt %s -split-input-file --hk-target=chip=gfx950 --convert-hk-to-amdgpu | FileCheck %s

// The 16x16x32 A layout gives a lane 4 runs of 8 columns of a 128-wide
// vector: 4 loads of 16 bytes. A 2-byte element at the line's end may share
// a dword with one past it, which the range check zeroes whole: the line's
// last element is loaded on its own and put back into the dword where a
// lane holds it (a compare and a select per dword, no branch).
// CHECK-LABEL: llvm.func @bf16_runs
// CHECK-NOT: scf.if
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
// CHECK-NOT: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
// CHECK: rocdl.raw.ptr.buffer.load {{.*}} : bf16
// CHECK-NOT: rocdl.raw.ptr.buffer.load
// CHECK-COUNT-16: arith.select
// CHECK-NOT: scf.if
// CHECK: llvm.return
hk.kernel @bf16_runs(%g: !hk.gl<?xbf16>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %v = hk.load %g[%c0] : !hk.gl<?xbf16> -> !hk.rv<128xf32, #hk.vec<cols, #hk.mfma<a, 16x16x32>>>
  hk.store %v, %out[%c0] : !hk.rv<128xf32, #hk.vec<cols, #hk.mfma<a, 16x16x32>>> -> !hk.gl<?xf32>
  hk.return
}

// -----

// The `row` layout's runs of 4 f32 are 16 bytes; a dword is one element,
// so nothing is lost at the line's end.
// CHECK-LABEL: llvm.func @f32_runs
// CHECK-COUNT-8: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xf32>
// CHECK-NOT: rocdl.raw.ptr.buffer.load {{.*}} : f32
// CHECK: llvm.return
hk.kernel @f32_runs(%g: !hk.gl<?xf32>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %v = hk.load %g[%c0] : !hk.gl<?xf32> -> !hk.rv<128xf32, #hk.vec<cols, row>>
  hk.store %v, %out[%c0] : !hk.rv<128xf32, #hk.vec<cols, row>> -> !hk.gl<?xf32>
  hk.return
}

// -----

// A row of a matrix loads element by element: whether its runs are
// aligned depends on the row stride, and a branch on it in a main loop
// costs more than the runs save.
// CHECK-LABEL: llvm.func @matrix_row
// CHECK-NOT: scf.if
// CHECK-NOT: vector<4xi32>
// CHECK-COUNT-32: rocdl.raw.ptr.buffer.load {{.*}} : bf16
// CHECK-NOT: rocdl.raw.ptr.buffer.load
// CHECK: llvm.return
hk.kernel @matrix_row(%g: !hk.gl<?x?xbf16>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = hk.load %g[%c1, %c0] : !hk.gl<?x?xbf16> -> !hk.rv<128xf32, #hk.vec<cols, #hk.mfma<a, 16x16x32>>>
  hk.store %v, %out[%c0] : !hk.rv<128xf32, #hk.vec<cols, #hk.mfma<a, 16x16x32>>> -> !hk.gl<?xf32>
  hk.return
}
