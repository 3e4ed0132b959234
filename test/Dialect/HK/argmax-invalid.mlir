// Every diagnostic of hk.row_argmax and kin, one case each.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

hk.kernel @k(%x: i32) waves(1) {
  %t = hk.fill %x : i32 -> !hk.rt<16x16xi32, row>
  // expected-error @below {{expects floating-point elements, got 'i32'}}
  %i = hk.row_argmax %t : !hk.rt<16x16xi32, row> -> !hk.rv<16xi32>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{result holds i32 indices, got 'f32'}}
  %i = hk.row_argmin %t : !hk.rt<16x16xf32, row> -> !hk.rv<16xf32>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x32xf32, row>
  // expected-error @below {{result needs one index per column (32), got a vector of 16}}
  %i = hk.col_argmax %t : !hk.rt<16x32xf32, row> -> !hk.rv<16xi32>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{result layout #hk.vec<cols, row> is not aligned with the rows of a tile in layout #hk.layout<row>}}
  %i = hk.row_argmax %t : !hk.rt<16x16xf32, row> -> !hk.rv<16xi32, #hk.vec<cols, row>>
  hk.return
}
