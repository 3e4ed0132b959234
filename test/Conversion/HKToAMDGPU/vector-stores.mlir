// A register vector stored to a one-dimensional global view moves each run
// of elements its lanes hold consecutively with one buffer store (at most
// 16 bytes), as its loads do (vector-loads.mlir).
// RUN: hk-opt %s -split-input-file --hk-target=chip=gfx950 --convert-hk-to-amdgpu | FileCheck %s

// The 16x16x32 A layout gives a lane 4 runs of 8 columns of a 128-wide
// vector: 4 stores of 16 bytes. The range check drops a dword holding the
// view's last element and one past it whole, so that element is selected
// from the even positions (64 of 128, 16 per lane: a compare and a select
// each, no branch) and stored again on its own.
// CHECK-LABEL: llvm.func @bf16_runs
// CHECK-NOT: scf.if
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.store {{.*}} : vector<4xi32>
// CHECK-COUNT-16: arith.select {{.*}} : bf16
// CHECK-NOT: arith.select {{.*}} : bf16
// CHECK: rocdl.raw.ptr.buffer.store {{.*}} : bf16
// CHECK-NOT: rocdl.raw.ptr.buffer.store
// CHECK: llvm.return
hk.kernel @bf16_runs(%g: !hk.gl<?xf32>, %out: !hk.gl<?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %v = hk.load %g[%c0] : !hk.gl<?xf32> -> !hk.rv<128xf32, #hk.vec<cols, #hk.mfma<a, 16x16x32>>>
  hk.store %v, %out[%c0] : !hk.rv<128xf32, #hk.vec<cols, #hk.mfma<a, 16x16x32>>> -> !hk.gl<?xbf16>
  hk.return
}

// -----

// The `row` layout's runs of 4 f32 are 16 bytes; a dword is one element,
// so nothing past the view's end is lost with it.
// CHECK-LABEL: llvm.func @f32_runs
// CHECK-COUNT-8: rocdl.raw.ptr.buffer.store {{.*}} : vector<4xf32>
// CHECK-NOT: rocdl.raw.ptr.buffer.store
// CHECK: llvm.return
hk.kernel @f32_runs(%g: !hk.gl<?xf32>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %v = hk.load %g[%c0] : !hk.gl<?xf32> -> !hk.rv<128xf32, #hk.vec<cols, row>>
  hk.store %v, %out[%c0] : !hk.rv<128xf32, #hk.vec<cols, row>> -> !hk.gl<?xf32>
  hk.return
}

// -----

// One-byte elements go one by one: a dword the view's end splits could
// lose three of them.
// CHECK-LABEL: llvm.func @fp8_elements
// CHECK-NOT: vector<4xi8>
// CHECK-COUNT-32: rocdl.raw.ptr.buffer.store {{.*}} : i8
// CHECK-NOT: rocdl.raw.ptr.buffer.store
// CHECK: llvm.return
hk.kernel @fp8_elements(%g: !hk.gl<?xf32>, %out: !hk.gl<?xf8E4M3FN>) waves(1) {
  %c0 = arith.constant 0 : index
  %v = hk.load %g[%c0] : !hk.gl<?xf32> -> !hk.rv<128xf32, #hk.vec<cols, row>>
  hk.store %v, %out[%c0] : !hk.rv<128xf32, #hk.vec<cols, row>> -> !hk.gl<?xf8E4M3FN>
  hk.return
}

// -----

// A row of a matrix is stored element by element, as it is loaded.
// CHECK-LABEL: llvm.func @matrix_row
// CHECK-NOT: vector<4xi32>
// CHECK-COUNT-32: rocdl.raw.ptr.buffer.store {{.*}} : bf16
// CHECK-NOT: rocdl.raw.ptr.buffer.store
// CHECK: llvm.return
hk.kernel @matrix_row(%g: !hk.gl<?xf32>, %out: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %v = hk.load %g[%c0] : !hk.gl<?xf32> -> !hk.rv<128xf32, #hk.vec<cols, row>>
  hk.store %v, %out[%c0, %c0] : !hk.rv<128xf32, #hk.vec<cols, row>> -> !hk.gl<?x?xbf16>
  hk.return
}
