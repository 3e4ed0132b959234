// Every diagnostic of hk.slice and hk.concat, one case each.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x64xf32, row>
  // expected-error @below {{cuts '!hk.rt<32x64xf32, row>' at row 8 with extent 16; its layout keeps blocks of 16 together}}
  %p = hk.slice %t [8, 0] : !hk.rt<32x64xf32, row> -> !hk.rt<16x64xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<64x64xf32, #hk.mfma<acc, 32x32x8>>
  // expected-error @below {{cuts '!hk.rt<64x64xf32, #hk.mfma<acc, 32x32x8>>' at row 16 with extent 32; its layout keeps blocks of 32 together (slice at multiples of the block, or convert the layout first)}}
  %p = hk.slice %t [16, 0] : !hk.rt<64x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x64xf32, row>
  // expected-error @below {{part at offset 32 of extent 48 lies outside '!hk.rt<32x64xf32, row>'}}
  %p = hk.slice %t [0, 32] : !hk.rt<32x64xf32, row> -> !hk.rt<16x48xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x64xf32, row>
  // expected-error @below {{needs 2 offsets for '!hk.rt<32x64xf32, row>', got 1}}
  %p = hk.slice %t [0] : !hk.rt<32x64xf32, row> -> !hk.rt<16x64xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x64xf32, row>
  // expected-error @below {{slices keep the kind of value}}
  %p = hk.slice %t [0, 0] : !hk.rt<32x64xf32, row> -> !hk.rv<32xf32>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x64xf32, row>
  // expected-error @below {{keeps the layout, but '!hk.rt<32x64xf32, row>' and '!hk.rt<16x64xf32, col>' differ}}
  %p = hk.slice %t [0, 0] : !hk.rt<32x64xf32, row> -> !hk.rt<16x64xf32, col>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<32x64xf32, row>
  // expected-error @below {{keeps the element type}}
  %p = hk.slice %t [0, 0] : !hk.rt<32x64xf32, row> -> !hk.rt<16x64xbf16, row>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  %s = hk.alloc : !hk.st<64x64xbf16>
  // expected-error @below {{a shared tile slices whole rows (column offset 0, all 64 columns)}}
  %r = hk.slice %s [0, 32] : !hk.st<64x64xbf16> -> !hk.st<64x32xbf16>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  %s = hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  // expected-error @below {{a shared slice keeps the tile's swizzle #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>, got #hk.swizzle<none>}}
  %r = hk.slice %s [0, 0] : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>> -> !hk.st<32x64xbf16, #hk.swizzle<none>>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  // expected-error @below {{of tiles needs 'rows' or 'cols'}}
  %c = hk.concat %t, %t : !hk.rt<16x64xf32, row>, !hk.rt<16x64xf32, row> -> !hk.rt<32x64xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %v = hk.fill %x : f32 -> !hk.rv<16xf32>
  // expected-error @below {{of vectors joins them end to end; 'rows' or 'cols' applies to tiles}}
  %c = hk.concat rows %v, %v : !hk.rv<16xf32>, !hk.rv<16xf32> -> !hk.rv<32xf32>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  // expected-error @below {{joins two or more values, got 1}}
  %c = hk.concat rows %t : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  %u = hk.fill %x : f32 -> !hk.rt<16x32xf32, row>
  // expected-error @below {{joins along rows, so every input has 64 columns, got '!hk.rt<16x32xf32, row>'}}
  %c = hk.concat rows %t, %u : !hk.rt<16x64xf32, row>, !hk.rt<16x32xf32, row> -> !hk.rt<32x64xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  // expected-error @below {{inputs add up to 32 along the rows, but the result has 48}}
  %c = hk.concat rows %t, %t : !hk.rt<16x64xf32, row>, !hk.rt<16x64xf32, row> -> !hk.rt<48x64xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %t = hk.fill %x : f32 -> !hk.rt<16x64xf32, row>
  %u = hk.fill %x : f32 -> !hk.rt<16x64xf32, col>
  // expected-error @below {{input '!hk.rt<16x64xf32, col>' differs from the result '!hk.rt<32x64xf32, row>' in kind, element type or layout}}
  %c = hk.concat rows %t, %u : !hk.rt<16x64xf32, row>, !hk.rt<16x64xf32, col> -> !hk.rt<32x64xf32, row>
  hk.return
}
