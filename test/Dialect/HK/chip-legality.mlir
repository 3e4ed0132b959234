// The same kernel is legal on one chip and rejected on the other: bf16
// 16x16x32 MFMAs exist on gfx950 only.
// RUN: hk-opt %s --hk-target=chip=gfx950 | FileCheck %s
// RUN: not hk-opt %s --hk-target=chip=gfx942 2>&1 | FileCheck %s --check-prefix=GFX942

// CHECK: hk.mma abt
// GFX942: error: 'hk.mma' op MFMA #hk.mfma_shape<16x16x32> for 'bf16' operands is not available on gfx942 (available: 32x32x8, 16x16x16)
hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x64xbf16>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>}
      : !hk.rt<32x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<32x32xf32>
  hk.return
}
