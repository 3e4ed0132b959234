// Compares, masks, selects, index tiles, integer ops and bit casts print and
// parse back to themselves, in the custom and in the generic form.
// RUN: hk-opt %s | hk-opt | FileCheck %s
// RUN: hk-opt %s --mlir-print-op-generic | hk-opt | FileCheck %s

// CHECK-LABEL: hk.kernel @masks
hk.kernel @masks(%x: f32, %n: i32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  // CHECK: hk.cmpf olt, %{{.*}}, %{{.*}} : !hk.rt<16x64xf32, row>{{$}}
  %m0 = hk.cmpf olt, %f, %f : !hk.rt<16x64xf32, row>
  // CHECK: hk.cmpf uno, %{{.*}}, %{{.*}} : !hk.rt<16x64xf32, row>, f32
  %m1 = hk.cmpf uno, %f, %x : !hk.rt<16x64xf32, row>, f32
  // CHECK: hk.and %{{.*}}, %{{.*}} : !hk.rt<16x64xi1, row>
  %m2 = hk.and %m0, %m1 : !hk.rt<16x64xi1, row>
  // CHECK: hk.select %{{.*}}, %{{.*}}, %{{.*}} : !hk.rt<16x64xi1, row>, !hk.rt<16x64xf32, row>
  %s = hk.select %m2, %f, %f : !hk.rt<16x64xi1, row>, !hk.rt<16x64xf32, row>
  // CHECK: hk.iota rows : !hk.rt<16x64xi32, row>
  // CHECK: hk.iota cols : !hk.rt<16x64xi32, row>
  // CHECK: hk.iota : !hk.rv<16xf32>
  %r = hk.iota rows : !hk.rt<16x64xi32, row>
  %c = hk.iota cols : !hk.rt<16x64xi32, row>
  %v = hk.iota : !hk.rv<16xf32>
  // CHECK: hk.cmpi sge, %{{.*}}, %{{.*}} : !hk.rt<16x64xi32, row>
  // CHECK: hk.cmpi ult, %{{.*}}, %{{.*}} : !hk.rt<16x64xi32, row>, i32
  %m3 = hk.cmpi sge, %r, %c : !hk.rt<16x64xi32, row>
  %m4 = hk.cmpi ult, %r, %n : !hk.rt<16x64xi32, row>, i32
  // CHECK: hk.fill %{{.*}} : i32 -> !hk.rt<16x64xi32, row>
  %k = hk.fill %n : i32 -> !hk.rt<16x64xi32, row>
  // CHECK: hk.add
  // CHECK: hk.or
  // CHECK: hk.xor
  // CHECK: hk.shl
  // CHECK: hk.shrs
  // CHECK: hk.shru %{{.*}}, %{{.*}} : !hk.rt<16x64xi32, row>, i32
  // CHECK: hk.umax
  // CHECK: hk.umin
  %i0 = hk.add %r, %k : !hk.rt<16x64xi32, row>
  %i1 = hk.or %i0, %c : !hk.rt<16x64xi32, row>
  %i2 = hk.xor %i1, %c : !hk.rt<16x64xi32, row>
  %i3 = hk.shl %i2, %c : !hk.rt<16x64xi32, row>
  %i4 = hk.shrs %i3, %c : !hk.rt<16x64xi32, row>
  %i5 = hk.shru %i4, %n : !hk.rt<16x64xi32, row>, i32
  %i6 = hk.umax %i5, %i4 : !hk.rt<16x64xi32, row>
  %i7 = hk.umin %i6, %i4 : !hk.rt<16x64xi32, row>
  // CHECK: hk.convert %{{.*}} : !hk.rt<16x64xi1, row> -> !hk.rt<16x64xf32, row>
  // CHECK: hk.convert %{{.*}} : !hk.rt<16x64xi32, row> -> !hk.rt<16x64xf32, row>
  // CHECK: hk.convert %{{.*}} : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi8, row>
  %w = hk.convert %m4 : !hk.rt<16x64xi1, row> -> !hk.rt<16x64xf32, row>
  %fi = hk.convert %i7 : !hk.rt<16x64xi32, row> -> !hk.rt<16x64xf32, row>
  %q = hk.convert %fi : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi8, row>
  // CHECK: hk.bitcast %{{.*}} : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi32, row>
  %b = hk.bitcast %s : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi32, row>
  hk.return
}

// CHECK-LABEL: hk.kernel @activations
hk.kernel @activations(%x: f32) waves(1) {
  %f32 = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  %f = hk.convert %f32 : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xbf16, row>
  // CHECK: hk.tanh %{{.*}} : !hk.rt<16x64xbf16, row>
  // CHECK: hk.sigmoid
  // CHECK: hk.silu
  // CHECK: hk.erf
  // CHECK: hk.gelu %
  // CHECK: hk.gelu_tanh
  // CHECK: hk.sin
  // CHECK: hk.cos %{{.*}} : !hk.rt<16x64xbf16, row>
  %a = hk.tanh %f : !hk.rt<16x64xbf16, row>
  %b = hk.sigmoid %a : !hk.rt<16x64xbf16, row>
  %c = hk.silu %b : !hk.rt<16x64xbf16, row>
  %d = hk.erf %c : !hk.rt<16x64xbf16, row>
  %e = hk.gelu %d : !hk.rt<16x64xbf16, row>
  %g = hk.gelu_tanh %e : !hk.rt<16x64xbf16, row>
  %h = hk.sin %g : !hk.rt<16x64xbf16, row>
  %i = hk.cos %h : !hk.rt<16x64xbf16, row>
  hk.return
}

// CHECK-LABEL: hk.kernel @slices
hk.kernel @slices(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x64xf32, row>
  // CHECK: hk.slice %{{.*}} [16, 32] : !hk.rt<32x64xf32, row> -> !hk.rt<16x32xf32, row>
  %p = hk.slice %t [16, 32] : !hk.rt<32x64xf32, row> -> !hk.rt<16x32xf32, row>
  // CHECK: hk.concat cols %{{.*}}, %{{.*}} : !hk.rt<16x32xf32, row>, !hk.rt<16x32xf32, row> -> !hk.rt<16x64xf32, row>
  %q = hk.concat cols %p, %p : !hk.rt<16x32xf32, row>, !hk.rt<16x32xf32, row> -> !hk.rt<16x64xf32, row>
  %v = hk.fill %x : f32 -> !hk.rv<32xf32>
  // CHECK: hk.slice %{{.*}} [16] : !hk.rv<32xf32> -> !hk.rv<16xf32>
  // CHECK: hk.concat %{{.*}}, %{{.*}} : !hk.rv<16xf32>, !hk.rv<16xf32> -> !hk.rv<32xf32>
  %w = hk.slice %v [16] : !hk.rv<32xf32> -> !hk.rv<16xf32>
  %u = hk.concat %w, %w : !hk.rv<16xf32>, !hk.rv<16xf32> -> !hk.rv<32xf32>
  %s = hk.alloc : !hk.st<64x64xbf16>
  // CHECK: hk.slice %{{.*}} [32, 0] : !hk.st<64x64xbf16> -> !hk.st<32x64xbf16>
  %r = hk.slice %s [32, 0] : !hk.st<64x64xbf16> -> !hk.st<32x64xbf16>
  hk.return
}
