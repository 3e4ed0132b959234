// Every diagnostic of hk.atomic_add, one case each.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

hk.kernel @k(%x: f32, %y: !hk.gl<?x?xi32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{adds into f32, bf16 or f16 global views, got 'i32'}}
  hk.atomic_add %t, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xi32>
  hk.return
}

// -----

hk.kernel @k(%x: i32, %y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.fill %x : i32 -> !hk.rt<16x16xi32, row>
  // expected-error @below {{adds a float register tile, got 'i32' elements}}
  hk.atomic_add %t, %y[%c0, %c0] : !hk.rt<16x16xi32, row> -> !hk.gl<?x?xf32>
  hk.return
}

// -----

hk.kernel @k(%x: f32, %y: !hk.gl<?x?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{expects 3 indices for a rank-3 global view, got 2}}
  hk.atomic_add %t, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?x?xbf16>
  hk.return
}

// -----

hk.kernel @k(%x: f32, %y: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{addresses a 2-D register tile, which needs a global view of rank 2 or more, got rank 1}}
  hk.atomic_add %t, %y[%c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?xf32>
  hk.return
}
