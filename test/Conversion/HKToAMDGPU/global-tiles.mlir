// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// A row-layout f32 tile: each lane reads runs of four columns, so the
// in-bounds path is 16-byte vector loads (4 per 16x64 tile and lane); the
// edge path loads element by element through a buffer resource spanning
// the view, with out-of-range offsets for masked elements (no branches).
// CHECK-LABEL: llvm.func @load_row
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : <1> to <8>
// CHECK: scf.if %{{.*}} -> (vector<16xf32>)
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK-COUNT-16: rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: }
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @load_row(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  hk.store %t, %y[%c0, %c0] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// Accumulator tiles hold columns of a row in consecutive lanes: element
// stores, converted to the view's bf16 on the way out; masked stores go
// through the buffer resource, which drops writes outside the view.
// CHECK-LABEL: llvm.func @store_acc
// CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK: scf.if
// CHECK-COUNT-16: llvm.store %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<1>
// CHECK: } else {
// CHECK-COUNT-16: rocdl.raw.ptr.buffer.store %{{.*}} : bf16
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @store_acc(%y: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.zero : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
  hk.store %t, %y[%c0, %c0] : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>> -> !hk.gl<?x?xbf16>
  hk.return
}
}

// -----

// fp8 travels through memory as bytes.
// CHECK-LABEL: llvm.func @load_fp8
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<8xi8>
// CHECK: arith.bitcast %{{.*}} : vector<16xi8> to vector<16xf8E4M3FN>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @load_fp8(%x: !hk.gl<?x?xf8E4M3FN>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf8E4M3FN> -> !hk.rt<16x64xf8E4M3FN, #hk.mfma<a, 16x16x32>>
  hk.return
}
}
