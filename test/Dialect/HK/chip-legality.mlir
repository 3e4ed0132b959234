// The same kernel is legal on one chip and rejected on the other: bf16
// 16x16x32 MFMAs exist on gfx950 only.
// RUN: hk-opt %s --hk-target=chip=gfx950 --hk-check-chip | FileCheck %s
// RUN: not hk-opt %s --hk-target=chip=gfx942 --hk-check-chip 2>&1 | FileCheck %s --check-prefix=GFX942

// The op alone is valid: its verifier does not look for a target, so the
// kernel parses with or without one, and naming the chip is not checking
// it.
// RUN: hk-opt %s | FileCheck %s
// RUN: hk-opt %s --hk-target=chip=gfx942 | FileCheck %s

// The pipeline checks right after naming the chip, and the lowering checks
// before it lowers, with the same message.
// RUN: not hk-opt %s --hk-pipeline=chip=gfx942 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: not hk-opt %s --hk-target=chip=gfx942 --convert-hk-to-amdgpu 2>&1 | FileCheck %s --check-prefix=GFX942

// CHECK: hk.mma abt
// GFX942: error: 'hk.mma' op MFMA #hk.mfma_shape<16x16x32> for 'bf16' operands is not available on gfx942 (available: 32x32x8, 16x16x16)
// GFX942-NOT: error:
hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x64xbf16>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>}
      : !hk.rt<32x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<32x32xf32>
  hk.return
}
