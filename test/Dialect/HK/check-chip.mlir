// hk-check-chip: the chip's rules, checked once the target is known, for
// every op wherever it sits. Each illegal op gets its own error.
// RUN: hk-opt %s -split-input-file --hk-check-chip -verify-diagnostics

// expected-error @below {{hk-check-chip: the module names no target chip; run hk-target=chip=<chip> first (known chips: gfx942, gfx950)}}
module {
  hk.kernel @k() waves(4) {
    hk.return
  }
}

// -----

module attributes {hk.target = #hk.target<"gfx950">} {
  // expected-error @below {{allocates 196608 bytes of LDS, but gfx950 has 163840 per workgroup; use smaller tiles, or end one tile's use with `hk.wait` then `hk.barrier` before another's first use so that the two share bytes}}
  hk.kernel @k() waves(4) {
    %a = hk.alloc : !hk.st<256x128xbf16>
    %b = hk.alloc : !hk.st<256x128xbf16>
    %c = hk.alloc : !hk.st<256x128xbf16>
    hk.return
  }
}

// -----

// The same tiles, each separated from the next by a drain and a barrier,
// share their bytes: 64 KiB.
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @k() waves(4) {
    %a = hk.alloc : !hk.st<256x128xbf16>
    hk.wait
    hk.barrier
    %b = hk.alloc : !hk.st<256x128xbf16>
    hk.wait
    hk.barrier
    %c = hk.alloc : !hk.st<256x128xbf16>
    hk.return
  }
}

// -----

// A barrier alone is no fence: loads may still be landing in the first
// tile's bytes.
module attributes {hk.target = #hk.target<"gfx950">} {
  // expected-error @below {{allocates 196608 bytes of LDS, but gfx950 has 163840 per workgroup}}
  hk.kernel @k() waves(4) {
    %a = hk.alloc : !hk.st<256x128xbf16>
    hk.barrier
    %b = hk.alloc : !hk.st<256x128xbf16>
    hk.barrier
    %c = hk.alloc : !hk.st<256x128xbf16>
    hk.return
  }
}

// -----

module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @k() waves(4) {
    // expected-error @below {{needs 131072 bytes of LDS, but gfx942 has 65536 per workgroup}}
    %a = hk.alloc : !hk.st<256x256xbf16>
    hk.return
  }
}

// -----

module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @k() waves(4) {
    %a = hk.zero : !hk.rt<16x32xf8E4M3FNUZ>
    %c = hk.zero : !hk.rt<16x16xf32>
    // expected-error @below {{uses 'f8E4M3FNUZ', an FNUZ fp8 format, but gfx950 matrix cores read OCP fp8 (f8E4M3FN, f8E5M2)}}
    %d = hk.mma abt %a, %a, %c : !hk.rt<16x32xf8E4M3FNUZ>, !hk.rt<16x32xf8E4M3FNUZ>, !hk.rt<16x16xf32>
    hk.return
  }
}

// -----

module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @k() waves(4) {
    %a = hk.zero : !hk.rt<16x32xf8E5M2>
    %c = hk.zero : !hk.rt<16x16xf32>
    // expected-error @below {{uses 'f8E5M2', an OCP fp8 format, but gfx942 matrix cores read FNUZ fp8 (f8E4M3FNUZ, f8E5M2FNUZ)}}
    %d = hk.mma abt %a, %a, %c : !hk.rt<16x32xf8E5M2>, !hk.rt<16x32xf8E5M2>, !hk.rt<16x16xf32>
    hk.return
  }
}

// -----

module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @k() waves(4) {
    %a = hk.zero : !hk.rt<64x32xbf16>
    %b = hk.zero : !hk.rt<32x64xbf16>
    %c = hk.zero : !hk.rt<64x64xf32>
    // expected-error @below {{MFMA #hk.mfma_shape<16x16x32> for 'bf16' operands is not available on gfx942 (available: 32x32x8, 16x16x16)}}
    %d = hk.mma ab %a, %b, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x32xbf16>, !hk.rt<32x64xbf16>, !hk.rt<64x64xf32>
    hk.return
  }
}

// -----

module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @k() waves(4) {
    %a = hk.zero : !hk.rt<16x16xf8E4M3FNUZ>
    %c = hk.zero : !hk.rt<16x16xf32>
    // expected-error @below {{no MFMA on gfx942 for 'f8E4M3FNUZ' operands divides MxNxK = 16x16x16 (available: 16x16x32, 32x32x16)}}
    %d = hk.mma abt %a, %a, %c : !hk.rt<16x16xf8E4M3FNUZ>, !hk.rt<16x16xf8E4M3FNUZ>, !hk.rt<16x16xf32>
    hk.return
  }
}

// -----

// On gfx950 each lane of a direct load writes 16 consecutive LDS bytes; a
// swizzle moving 8-byte groups would scatter them.
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<16x64xbf16, #hk.swizzle<vec = 4, per_phase = 1, max_phase = 8>>
  // expected-error @below {{swizzle #hk.swizzle<vec = 4, per_phase = 1, max_phase = 8> moves groups of 8 bytes, but each lane of a direct-to-LDS load on gfx950 writes 16 consecutive bytes}}
  hk.group_load %a[%c0, %c0], %s {path = #hk.path<direct>} : !hk.gl<?x?xbf16>, !hk.st<16x64xbf16, #hk.swizzle<vec = 4, per_phase = 1, max_phase = 8>>
  hk.return
}
}

// -----

// Nested in a loop and in a kernel that also holds a second illegal op:
// both are reported.
module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @k() waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @below {{needs 131072 bytes of LDS, but gfx942 has 65536 per workgroup}}
    %s = hk.alloc : !hk.st<256x256xbf16>
    %a = hk.zero : !hk.rt<16x32xf8E5M2>
    %c = hk.zero : !hk.rt<16x16xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c) -> (!hk.rt<16x16xf32>) {
      // expected-error @below {{uses 'f8E5M2', an OCP fp8 format, but gfx942 matrix cores read FNUZ fp8 (f8E4M3FNUZ, f8E5M2FNUZ)}}
      %d = hk.mma abt %a, %a, %acc : !hk.rt<16x32xf8E5M2>, !hk.rt<16x32xf8E5M2>, !hk.rt<16x16xf32>
      scf.yield %d : !hk.rt<16x16xf32>
    }
    hk.return
  }
}

// -----

// What each chip can do passes: 64 KiB of LDS and the FNUZ fp8 MFMA on
// gfx942, 160 KiB and OCP fp8 through the scaled 16x16x128 MFMA on gfx950.
module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @k() waves(4) {
    %s = hk.alloc : !hk.st<128x256xbf16>
    %a = hk.zero : !hk.rt<16x32xf8E4M3FNUZ>
    %c = hk.zero : !hk.rt<16x16xf32>
    %d = hk.mma abt %a, %a, %c : !hk.rt<16x32xf8E4M3FNUZ>, !hk.rt<16x32xf8E4M3FNUZ>, !hk.rt<16x16xf32>
    hk.return
  }
}

// -----

module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @k() waves(4) {
    %s = hk.alloc : !hk.st<256x256xbf16>
    %t = hk.alloc : !hk.st<64x256xbf16>
    %a = hk.zero : !hk.rt<16x128xf8E4M3FN>
    %c = hk.zero : !hk.rt<16x16xf32>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x128>} : !hk.rt<16x128xf8E4M3FN>, !hk.rt<16x128xf8E4M3FN>, !hk.rt<16x16xf32>
    hk.return
  }
}
