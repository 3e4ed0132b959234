// RUN: hk-opt %s --hk-mfma-layout | FileCheck %s

// A slice that would cut the 32x32 blocks of the accumulator layout keeps
// its tiles in `row` (16x16 blocks): the product converts once after the
// MFMA, and the slice stays legal.
// CHECK-LABEL: hk.kernel @slice_acc
// CHECK: hk.mma {{.*}}{instr = #hk.mfma_shape<32x32x8>}
// CHECK: hk.convert_layout %{{.*}} : !hk.rt<64x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.rt<64x64xf32, row>
// CHECK: hk.slice %{{.*}} [16, 0] : !hk.rt<64x64xf32, row> -> !hk.rt<16x64xf32, row>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @slice_acc(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<64x32xbf16>
  %z = hk.zero : !hk.rt<64x64xf32>
  %s = hk.mma abt %a, %a, %z {instr = #hk.mfma_shape<32x32x8>} : !hk.rt<64x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<64x64xf32>
  %p = hk.slice %s [16, 0] : !hk.rt<64x64xf32> -> !hk.rt<16x64xf32>
  hk.store %p, %C[%c0, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}
