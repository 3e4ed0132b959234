// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu -verify-diagnostics

hk.kernel @k() waves(1) {
  // expected-error @below {{register tile '!hk.rt<16x16xf32>' has no layout; run hk-mfma-layout first}}
  %t = hk.zero : !hk.rt<16x16xf32>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  // expected-error @below {{register vector '!hk.rv<16xf32>' has no layout; run hk-mfma-layout first}}
  %v = hk.zero : !hk.rv<16xf32>
  hk.return
}

// -----

// Layouts written by hand do not choose the instruction.
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @k() waves(1) {
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %c = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{'hk.mma' op has no MFMA instruction; run hk-mfma-layout first}}
  %d = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  hk.return
}
}

// -----

// Without hk.target the lowering cannot tell which chip's MFMA to emit.
hk.kernel @k() waves(1) {
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %c = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{'hk.mma' op needs a target chip to lower its MFMA; run hk-target first}}
  %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  hk.return
}
