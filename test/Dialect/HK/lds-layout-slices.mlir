// RUN: hk-opt %s --hk-lds-layout | FileCheck %s

// A row slice views its tile's LDS with the tile's swizzle, which must
// repeat with a period (per_phase * max_phase rows) dividing the slice's
// first row: here 8, while the same tile unsliced gets a 16-row period.
// CHECK-LABEL: hk.kernel @sliced
// CHECK: hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
// CHECK: hk.slice %{{.*}} [8, 0] : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>> -> !hk.st<32x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
// CHECK-LABEL: hk.kernel @whole
// CHECK: hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 2, max_phase = 8>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @sliced(%x: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  %part = hk.slice %s [8, 0] : !hk.st<64x64xbf16> -> !hk.st<32x64xbf16>
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<32x64xbf16, row>
  hk.store %t, %part : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  %r = hk.load %s[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
  hk.store %r, %x[%c0, %c0] : !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?xbf16>
  hk.return
}
hk.kernel @whole(%x: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<64x64xbf16, row>
  hk.store %t, %s : !hk.rt<64x64xbf16, row> -> !hk.st<64x64xbf16>
  %r = hk.load %s[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
  hk.store %r, %x[%c0, %c0] : !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?xbf16>
  hk.return
}
}
