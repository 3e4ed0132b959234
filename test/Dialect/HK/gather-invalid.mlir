// Every diagnostic of hk.gather and hk.scatter, one case each.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

hk.kernel @k(%x: !hk.gl<?xf32>, %r: i32) waves(1) {
  %c0 = arith.constant 0 : index
  %ids = hk.fill %r : i32 -> !hk.rv<16xi32>
  // expected-error @below {{addresses rows of a matrix, which needs a global view of rank 2 or more, got rank 1}}
  %t = hk.gather %x[%c0] rows %ids : !hk.gl<?xf32>, !hk.rv<16xi32> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: !hk.gl<?x?x?xf32>, %r: i32) waves(1) {
  %c0 = arith.constant 0 : index
  %ids = hk.fill %r : i32 -> !hk.rv<16xi32>
  // expected-error @below {{expects 2 indices (outer dimensions and the tile column) for a rank-3 global view, got 1}}
  %t = hk.gather %x[%c0] rows %ids : !hk.gl<?x?x?xf32>, !hk.rv<16xi32> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: !hk.gl<?x?xi32>, %r: i32) waves(1) {
  %c0 = arith.constant 0 : index
  %ids = hk.fill %r : i32 -> !hk.rv<16xi32>
  // expected-error @below {{converts only between float element types, got 'i32' and 'f32'}}
  %t = hk.gather %x[%c0] rows %ids : !hk.gl<?x?xi32>, !hk.rv<16xi32> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: !hk.gl<?x?xf32>, %r: f32) waves(1) {
  %c0 = arith.constant 0 : index
  %ids = hk.fill %r : f32 -> !hk.rv<16xf32>
  // expected-error @below {{takes i32 row indices, got 'f32'}}
  %t = hk.gather %x[%c0] rows %ids : !hk.gl<?x?xf32>, !hk.rv<16xf32> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: !hk.gl<?x?xf32>, %r: i32) waves(1) {
  %c0 = arith.constant 0 : index
  %ids = hk.fill %r : i32 -> !hk.rv<32xi32>
  // expected-error @below {{needs one row index per tile row (16), got a vector of 32}}
  %t = hk.gather %x[%c0] rows %ids : !hk.gl<?x?xf32>, !hk.rv<32xi32> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: !hk.gl<?x?xf32>, %r: i32, %v: f32) waves(1) {
  %c0 = arith.constant 0 : index
  %ids = hk.fill %r : i32 -> !hk.rv<16xi32, #hk.vec<cols, row>>
  %t = hk.fill %v : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{row indices in layout #hk.vec<cols, row> are not aligned with the rows of a tile in layout #hk.layout<row>}}
  hk.scatter %t, %x[%c0] rows %ids : !hk.rt<16x16xf32, row>, !hk.rv<16xi32, #hk.vec<cols, row>> -> !hk.gl<?x?xf32>
  hk.return
}
