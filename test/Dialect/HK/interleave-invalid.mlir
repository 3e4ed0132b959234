// RUN: hk-opt %s -split-input-file --hk-interleave -verify-diagnostics
// hk-interleave rejects a group without MFMAs, or a size below -1 (the
// cost function's choice), before it looks at any kernel.
// RUN: not hk-opt %s --hk-interleave="mfma-per-group=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not hk-opt %s --hk-interleave="ds-reads-per-group=-2" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: hk-interleave: mfma-per-group must be at least 1, and every group size a count or -1 (chosen by the cost function)

// A plain loop is hk-double-buffer's to turn into clusters.
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @plain(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{is the main loop of an interleave kernel but holds no hk.cluster ops; run hk-double-buffer first, or write its clusters}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    %a = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

hk.kernel @no_instr() waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    %d = hk.cluster compute {
      // expected-error @below {{has no MFMA instruction yet; run hk-mfma-layout before hk-interleave}}
      %y = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}

// -----

// Without a target chip the cost function has no figures: the sizes must
// all be given.
// expected-error @below {{needs a target chip for hk-interleave's cost function (run hk-target first), or every group size given}}
hk.kernel @no_chip() waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
