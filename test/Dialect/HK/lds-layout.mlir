// hk-lds-layout picks, per chip, the swizzle whose simulated LDS accesses
// take the fewest cycles under the chip's bank model.
// RUN: hk-opt %s -split-input-file --hk-lds-layout | FileCheck %s
// RUN: hk-opt %s -split-input-file --hk-lds-layout=swizzle=false | FileCheck %s --check-prefix=NONE

// 16-byte row runs read by 16 lanes a phase on gfx950's 64 banks. The
// phase's lanes are not consecutive: lanes 0-3, 12-15, 20-23 and 24-27
// read rows 0-3 and 12-15 of the first 16-byte group and rows 4-11 of the
// second, two 128-byte rows to the 64 banks; 16-byte groups XOR-ed with the
// row's low three bits keep all 16 apart.
// CHECK-LABEL: hk.kernel @b128_gfx950
// CHECK: hk.alloc : !hk.st<128x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
// NONE-LABEL: hk.kernel @b128_gfx950
// NONE: hk.alloc : !hk.st<128x64xbf16, #hk.swizzle<none>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @b128_gfx950(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<128x64xbf16>
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
  %t = hk.load %s[%c0, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
  hk.return
}
}

// -----

// fp8 operands of gfx950's 16x16x128 MFMA: 32 bytes a lane in two 16-byte
// reads, so one LDS phase pairs group 2j of rows 0-3 and 12-15 with group
// 2j + 2 of rows 4-11. No plain XOR of the row's bits separates them; the
// phase that keeps row bits 1 and 3 only does.
// CHECK-LABEL: hk.kernel @fp8_gfx950
// CHECK: hk.alloc : !hk.st<128x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 2, max_phase = 8, mask = 5>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @fp8_gfx950(%a: !hk.gl<?x?xf8E4M3FN>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<128x128xf8E4M3FN>
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xf8E4M3FN>, !hk.st<128x128xf8E4M3FN>
  %t = hk.load %s[%c0, %c0] : !hk.st<128x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN, #hk.mfma<a, 16x16x128>>
  hk.return
}
}

// -----

// The same reads on gfx942's 32 banks, 8 lanes a phase (lanes 0-3 with
// 20-23: rows 0-3 of one group, rows 4-7 of the next), one 128-byte row to
// the banks: the row's low three bits again.
// CHECK-LABEL: hk.kernel @b128_gfx942
// CHECK: hk.alloc : !hk.st<128x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @b128_gfx942(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<128x64xbf16>
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
  %t = hk.load %s[%c0, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
  hk.return
}
}

// -----

// 8-byte runs (16 lanes a phase on gfx942) need 16 distinct phases: 8-byte
// groups over 16 phases.
// CHECK-LABEL: hk.kernel @b64_gfx942
// CHECK: hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 4, per_phase = 1, max_phase = 16>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @b64_gfx942() waves(1) {
  %s = hk.alloc : !hk.st<64x64xbf16>
  %t = hk.load %s : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x16>>
  hk.return
}
}

// -----

// A written swizzle is kept.
// CHECK-LABEL: hk.kernel @pinned
// CHECK: hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 2, per_phase = 4, max_phase = 2>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @pinned() waves(1) {
  %s = hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 2, per_phase = 4, max_phase = 2>>
  %t = hk.load %s : !hk.st<64x64xbf16, #hk.swizzle<vec = 2, per_phase = 4, max_phase = 2>> -> !hk.rt<64x64xbf16, row>
  hk.return
}
}

// -----

// A tile nobody reads with conflicts stays unswizzled (the simplest of the
// equally cheap choices): consecutive 16-byte chunks per lane.
// CHECK-LABEL: hk.kernel @copy_only
// CHECK: hk.alloc : !hk.st<32x64xf32, #hk.swizzle<none>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @copy_only(%a: !hk.gl<?x?xf32>) waves(2) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<32x64xf32>
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xf32>, !hk.st<32x64xf32>
  hk.group_store %s, %a[%c0, %c0] : !hk.st<32x64xf32>, !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// gfx950 reads a row-major B operand with transposing reads, whose 32-lane
// phases take 32 bytes from each of rows r..r+3 and r+8..r+11: 32-byte
// groups, their phase flipped every other 8 rows so that all eight rows
// differ. gfx942 reads the same tile element by element.
// CHECK-LABEL: hk.kernel @transposed_b_gfx950
// CHECK: hk.alloc : !hk.st<64x128xbf16, #hk.swizzle<vec = 16, per_phase = 1, max_phase = 8, flip>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @transposed_b_gfx950(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x128xbf16>
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x128xbf16>
  %t = hk.load %s[%c0, %c0] : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16, #hk.mfma<b, 16x16x32>>
  hk.return
}
}

// -----

// CHECK-LABEL: hk.kernel @transposed_b_gfx942
// CHECK: hk.alloc : !hk.st<64x128xbf16, #hk.swizzle<vec = 8, per_phase = 2, max_phase = 8>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @transposed_b_gfx942(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x128xbf16>
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x128xbf16>
  %t = hk.load %s[%c0, %c0] : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16, #hk.mfma<b, 16x16x32>>
  hk.return
}
}
