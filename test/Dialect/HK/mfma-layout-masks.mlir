// RUN: hk-opt %s --hk-mfma-layout | FileCheck %s

// Index tiles, compares, masks and selects take the layout of the tiles
// they meet: here the MFMA accumulator's, with no conversion.
// CHECK-LABEL: hk.kernel @causal_scores
// CHECK: hk.iota rows : !hk.rt<32x32xi32, #hk.mfma<acc, 16x16x16>>
// CHECK: hk.iota cols : !hk.rt<32x32xi32, #hk.mfma<acc, 16x16x16>>
// CHECK: hk.cmpi sge, {{.*}} : !hk.rt<32x32xi32, #hk.mfma<acc, 16x16x16>>
// CHECK: hk.select {{.*}} : !hk.rt<32x32xi1, #hk.mfma<acc, 16x16x16>>, !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x16>>
// CHECK-NOT: hk.convert_layout
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @causal_scores(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>, %ninf: f32) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<32x32xbf16>
  %z = hk.zero : !hk.rt<32x32xf32>
  %s = hk.mma abt %a, %a, %z : !hk.rt<32x32xbf16>, !hk.rt<32x32xbf16>, !hk.rt<32x32xf32>
  %r = hk.iota rows : !hk.rt<32x32xi32>
  %c = hk.iota cols : !hk.rt<32x32xi32>
  %keep = hk.cmpi sge, %r, %c : !hk.rt<32x32xi32>
  %f = hk.fill %ninf : f32 -> !hk.rt<32x32xf32>
  %m = hk.select %keep, %s, %f : !hk.rt<32x32xi1>, !hk.rt<32x32xf32>
  hk.store %m, %C[%c0, %c0] : !hk.rt<32x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}
