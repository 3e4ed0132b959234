// Every diagnostic of hk.transpose, one case each.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  // expected-error @below {{keeps the element type, but '!hk.rt<16x64xf32, row>' and '!hk.rt<64x16xbf16>' differ}}
  %u = hk.transpose %t : !hk.rt<16x64xf32, row> -> !hk.rt<64x16xbf16>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  // expected-error @below {{of '!hk.rt<16x64xf32, row>' is 64x16, got '!hk.rt<16x64xf32>'}}
  %u = hk.transpose %t : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xf32>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x32xf32, row>
  // expected-error @below {{keeps every element in its lane, so the result's layout is the source's transposed (#hk.layout<col>), got #hk.layout<row>; convert the layout before or after}}
  %u = hk.transpose %t : !hk.rt<32x32xf32, row> -> !hk.rt<32x32xf32, row>
  hk.return
}
