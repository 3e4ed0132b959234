// RUN: hk-opt %s -split-input-file --hk-mfma-layout -verify-diagnostics | FileCheck %s

// bf16 on gfx942: 16x16x16, with A and B holding 32 K elements per block
// (16 bytes per lane, two instructions' worth); every tile takes the layout
// its MFMA reads, the loop-carried accumulator included.
// CHECK-LABEL: hk.kernel @bf16_gfx942
// CHECK: hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x16>>
// CHECK: scf.for {{.*}} -> (!hk.rt<64x64xf32, #hk.mfma<acc, 16x16x16>>)
// CHECK: hk.load {{.*}} -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
// CHECK: hk.load {{.*}} -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
// CHECK: hk.mma abt {{.*}} {instr = #hk.mfma_shape<16x16x16>}
// CHECK-NOT: hk.convert_layout
// CHECK: hk.relu %{{.*}} : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x16>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @bf16_gfx942(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = hk.zero : !hk.rt<64x64xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %z) -> !hk.rt<64x64xf32> {
    %a = hk.load %A[%c0, %k] : !hk.gl<?x?xbf16> -> !hk.rt<64x32xbf16>
    %b = hk.load %A[%c1, %k] : !hk.gl<?x?xbf16> -> !hk.rt<64x32xbf16>
    %d = hk.mma abt %a, %b, %c : !hk.rt<64x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<64x64xf32>
    scf.yield %d : !hk.rt<64x64xf32>
  }
  %r = hk.relu %acc : !hk.rt<64x64xf32>
  hk.store %r, %C[%c0, %c0] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// bf16 on gfx950: the double-rate 16x16x32; operands stored K x M / K x N
// (atb) take the B-operand layout.
// CHECK-LABEL: hk.kernel @bf16_gfx950_atb
// CHECK: hk.mma atb {{.*}} {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x32xbf16, #hk.mfma<b, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<b, 16x16x32>>, !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @bf16_gfx950_atb() waves(4) {
  %a = hk.zero : !hk.rt<64x32xbf16>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma atb %a, %a, %c : !hk.rt<64x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

// A user-written `row` B operand of an A*B^T is the unpacked 16x16x16
// A-operand layout, so gfx950 takes 16x16x16 with 16 K per block rather than
// convert it.
// CHECK-LABEL: hk.kernel @pinned_row
// CHECK: hk.mma abt {{.*}} {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<32x32xbf16, row>
// CHECK-NOT: hk.convert_layout
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @pinned_row() waves(4) {
  %a = hk.zero : !hk.rt<32x32xbf16>
  %b = hk.zero : !hk.rt<32x32xbf16, row>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %b, %c : !hk.rt<32x32xbf16>, !hk.rt<32x32xbf16, row>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

// A pinned instruction is kept; layouts that disagree with it get
// conversions, and the product converts back to the accumulator's class.
// CHECK-LABEL: hk.kernel @pinned_instr
// CHECK: %[[A:.*]] = hk.zero : !hk.rt<32x32xbf16, row>
// CHECK: %[[C:.*]] = hk.zero : !hk.rt<32x32xf32, row>
// CHECK: %[[CA:.*]] = hk.convert_layout %[[A]] : !hk.rt<32x32xbf16, row> -> !hk.rt<32x32xbf16, #hk.mfma<a, 32x32x16>>
// CHECK: %[[CC:.*]] = hk.convert_layout %[[C]] : !hk.rt<32x32xf32, row> -> !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x16>>
// CHECK: %[[D:.*]] = hk.mma ab %[[CA]], %{{.*}}, %[[CC]] {instr = #hk.mfma_shape<32x32x16>}
// CHECK: %[[BACK:.*]] = hk.convert_layout %[[D]] : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x16>> -> !hk.rt<32x32xf32, row>
// CHECK: hk.exp2 %[[BACK]]
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @pinned_instr() waves(4) {
  %a = hk.zero : !hk.rt<32x32xbf16, row>
  %b = hk.zero : !hk.rt<32x32xbf16>
  %c = hk.zero : !hk.rt<32x32xf32, row>
  %d = hk.mma ab %a, %b, %c {instr = #hk.mfma_shape<32x32x16>} : !hk.rt<32x32xbf16, row>, !hk.rt<32x32xbf16>, !hk.rt<32x32xf32, row>
  %e = hk.exp2 %d : !hk.rt<32x32xf32, row>
  hk.return
}
}

// -----

// One tile multiplied twice in the same layout is converted once: the
// conversion before the first product serves the second (attention's
// probabilities times V and times a tile of ones).
// CHECK-LABEL: hk.kernel @shared_conversion
// CHECK: %[[P:.*]] = hk.zero : !hk.rt<32x32xbf16, row>
// CHECK: %[[CP:.*]] = hk.convert_layout %[[P]] : !hk.rt<32x32xbf16, row> -> !hk.rt<32x32xbf16, #hk.mfma<a, 32x32x16>>
// CHECK: hk.mma ab %[[CP]],
// CHECK-NOT: hk.convert_layout %[[P]]
// CHECK: hk.mma ab %[[CP]],
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @shared_conversion() waves(4) {
  %p = hk.zero : !hk.rt<32x32xbf16, row>
  %v = hk.zero : !hk.rt<32x32xbf16>
  %w = hk.zero : !hk.rt<32x32xbf16>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma ab %p, %v, %c {instr = #hk.mfma_shape<32x32x16>} : !hk.rt<32x32xbf16, row>, !hk.rt<32x32xbf16>, !hk.rt<32x32xf32>
  %e = hk.mma ab %p, %w, %d {instr = #hk.mfma_shape<32x32x16>} : !hk.rt<32x32xbf16, row>, !hk.rt<32x32xbf16>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

// atb with both operands in the 16x16 accumulator layout (hk.softmax cols
// probabilities, V read to match): no conversion, and a 16x16 instruction
// of the deepest K (gfx950's 16x16x32), whatever K the layouts name.
// CHECK-LABEL: hk.kernel @acc_operands
// CHECK-NOT: hk.convert_layout
// CHECK: hk.mma atb {{.*}} {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<64x128xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<16x128xf32, #hk.mfma<acc, 16x16x32>>
// CHECK-NOT: hk.convert_layout
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @acc_operands() waves(4) {
  %p = hk.zero : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>
  %v = hk.zero : !hk.rt<64x128xbf16, #hk.mfma<acc, 16x16x16>>
  %c = hk.zero : !hk.rt<16x128xf32>
  %d = hk.mma atb %p, %v, %c : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<64x128xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<16x128xf32>
  hk.return
}
}

// -----

// fp8: FNUZ 16x16x32 on gfx942; on gfx950 the scaled f8f6f4 shapes
// (16x16x128, or 32x32x64 when K is 64), which run at twice the rate.
// CHECK-LABEL: hk.kernel @fp8_gfx942
// CHECK: {instr = #hk.mfma_shape<16x16x32>}
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @fp8_gfx942() waves(4) {
  %a = hk.zero : !hk.rt<32x128xf8E4M3FNUZ>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<32x128xf8E4M3FNUZ>, !hk.rt<32x128xf8E4M3FNUZ>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

// CHECK-LABEL: hk.kernel @fp8_gfx950
// CHECK: {instr = #hk.mfma_shape<16x16x128>} : !hk.rt<32x128xf8E4M3FN, #hk.mfma<a, 16x16x128>>
// CHECK: {instr = #hk.mfma_shape<32x32x64>} : !hk.rt<32x64xf8E4M3FN, #hk.mfma<a, 32x32x64>>
// CHECK-NOT: hk.convert_layout
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @fp8_gfx950() waves(4) {
  %a = hk.zero : !hk.rt<32x128xf8E4M3FN>
  %a2 = hk.zero : !hk.rt<32x64xf8E4M3FN>
  %c = hk.zero : !hk.rt<32x32xf32>
  %c2 = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<32x128xf8E4M3FN>, !hk.rt<32x128xf8E4M3FN>, !hk.rt<32x32xf32>
  %e = hk.mma abt %a2, %a2, %c2 : !hk.rt<32x64xf8E4M3FN>, !hk.rt<32x64xf8E4M3FN>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

// f32 operands use 16x16x4, four per 16-byte run; tiles no MFMA reads
// default to `row`.
// CHECK-LABEL: hk.kernel @f32_and_default
// CHECK: {instr = #hk.mfma_shape<16x16x4>} : !hk.rt<16x16xf32, #hk.mfma<a, 16x16x16>>
// CHECK: hk.zero : !hk.rt<16x16xf16, row>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @f32_and_default() waves(4) {
  %a = hk.zero : !hk.rt<16x16xf32>
  %c = hk.zero : !hk.rt<16x16xf32>
  %d = hk.mma ab %a, %a, %c : !hk.rt<16x16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x16xf32>
  %u = hk.zero : !hk.rt<16x16xf16>
  hk.return
}
}

// -----

// f16 takes the shapes bf16 does: 16x16x16 with 32 K per operand block on
// gfx942, the double-rate 16x16x32 on gfx950.
// CHECK-LABEL: hk.kernel @f16_gfx942
// CHECK: hk.mma ab {{.*}} {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<64x64xf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x64xf16, #hk.mfma<b, 16x16x32>>, !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x16>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @f16_gfx942() waves(4) {
  %a = hk.zero : !hk.rt<64x64xf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma ab %a, %a, %c : !hk.rt<64x64xf16>, !hk.rt<64x64xf16>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// CHECK-LABEL: hk.kernel @f16_gfx950
// CHECK: hk.mma ab {{.*}} {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x64xf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x64xf16, #hk.mfma<b, 16x16x32>>, !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @f16_gfx950() waves(4) {
  %a = hk.zero : !hk.rt<64x64xf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma ab %a, %a, %c : !hk.rt<64x64xf16>, !hk.rt<64x64xf16>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// With K = 16 on gfx942, 16x16x16 and 32x32x8 read as much K per register,
// but only 32x32x8 can pack two instructions' K into one 16-byte run.
// CHECK-LABEL: hk.kernel @k16_gfx942
// CHECK: hk.mma abt {{.*}} {instr = #hk.mfma_shape<32x32x8>} : !hk.rt<64x16xbf16, #hk.mfma<a, 32x32x16>>, !hk.rt<64x16xbf16, #hk.mfma<a, 32x32x16>>, !hk.rt<64x64xf32, #hk.mfma<acc, 32x32x8>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @k16_gfx942() waves(4) {
  %a = hk.zero : !hk.rt<64x16xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<64x16xbf16>, !hk.rt<64x16xbf16>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// With K = 16 on gfx950, 16x16x32 does not divide K; 32x32x16 reads twice
// the K per register of 16x16x16 and 32x32x8 and is chosen unpinned.
// CHECK-LABEL: hk.kernel @k16_gfx950
// CHECK: hk.mma abt {{.*}} {instr = #hk.mfma_shape<32x32x16>} : !hk.rt<64x16xbf16, #hk.mfma<a, 32x32x16>>, !hk.rt<64x16xbf16, #hk.mfma<a, 32x32x16>>, !hk.rt<64x64xf32, #hk.mfma<acc, 32x32x16>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @k16_gfx950() waves(4) {
  %a = hk.zero : !hk.rt<64x16xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<64x16xbf16>, !hk.rt<64x16xbf16>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// E5M2 fp8 takes the E4M3 shapes: FNUZ on gfx942, 16x16x32 (two per
// 16-byte run) or, when K is 32, 32x32x16 ...
// CHECK-LABEL: hk.kernel @e5m2_gfx942
// CHECK: {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<32x128xf8E5M2FNUZ, #hk.mfma<a, 16x16x64>>
// CHECK: {instr = #hk.mfma_shape<32x32x16>} : !hk.rt<32x32xf8E5M2FNUZ, #hk.mfma<a, 32x32x32>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @e5m2_gfx942() waves(4) {
  %a = hk.zero : !hk.rt<32x128xf8E5M2FNUZ>
  %a2 = hk.zero : !hk.rt<32x32xf8E5M2FNUZ>
  %c = hk.zero : !hk.rt<32x32xf32>
  %c2 = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<32x128xf8E5M2FNUZ>, !hk.rt<32x128xf8E5M2FNUZ>, !hk.rt<32x32xf32>
  %e = hk.mma abt %a2, %a2, %c2 : !hk.rt<32x32xf8E5M2FNUZ>, !hk.rt<32x32xf8E5M2FNUZ>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

// ... and OCP on gfx950, the scaled 16x16x128, or 32x32x64 when K is 64.
// CHECK-LABEL: hk.kernel @e5m2_gfx950
// CHECK: {instr = #hk.mfma_shape<16x16x128>} : !hk.rt<32x128xf8E5M2, #hk.mfma<a, 16x16x128>>
// CHECK: {instr = #hk.mfma_shape<32x32x64>} : !hk.rt<32x64xf8E5M2, #hk.mfma<a, 32x32x64>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @e5m2_gfx950() waves(4) {
  %a = hk.zero : !hk.rt<32x128xf8E5M2>
  %a2 = hk.zero : !hk.rt<32x64xf8E5M2>
  %c = hk.zero : !hk.rt<32x32xf32>
  %c2 = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<32x128xf8E5M2>, !hk.rt<32x128xf8E5M2>, !hk.rt<32x32xf32>
  %e = hk.mma abt %a2, %a2, %c2 : !hk.rt<32x64xf8E5M2>, !hk.rt<32x64xf8E5M2>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

hk.kernel @no_target() waves(4) {
  %a = hk.zero : !hk.rt<16x16xbf16>
  %c = hk.zero : !hk.rt<16x16xf32>
  // expected-error @below {{needs a target chip to choose an MFMA; run hk-target first}}
  %d = hk.mma ab %a, %a, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
  hk.return
}

// -----

// An operand computed from an earlier product's accumulator counts as
// written in that layout: P (64 x 16, out of Q K^T) is the A operand of an
// `atbt`, whose K runs down P's columns as the 16x16 accumulator holds them
// when A has 16 K per block. gfx950 takes 16x16x16 for it rather than the
// double-rate 16x16x32, which would need P moved through LDS; the
// conversion left only renames the layout (no data moves).
// CHECK-LABEL: hk.kernel @accumulator_operand
// CHECK: %[[S:.*]] = hk.mma abt {{.*}} {instr = #hk.mfma_shape<16x16x32>}
// CHECK: %[[P:.*]] = hk.convert %[[S]] : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>
// CHECK: %[[PB:.*]] = hk.convert_layout %[[P]] : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>> -> !hk.rt<64x16xbf16, #hk.mfma<b, 16x16x16>>
// CHECK: hk.mma atbt %[[PB]], %{{.*}} {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<64x16xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x16>>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @accumulator_operand(%Q: !hk.gl<?x?xbf16>, %O: !hk.gl<?x?xf32>) waves(4) {
  %c0 = arith.constant 0 : index
  %q = hk.load %Q[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<64x64xbf16>
  %k = hk.load %Q[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<16x64xbf16>
  %z = hk.zero : !hk.rt<64x16xf32>
  %s = hk.mma abt %q, %k, %z : !hk.rt<64x64xbf16>, !hk.rt<16x64xbf16>, !hk.rt<64x16xf32>
  %p = hk.convert %s : !hk.rt<64x16xf32> -> !hk.rt<64x16xbf16>
  %zv = hk.zero : !hk.rt<16x64xf32>
  %ot = hk.load %Q[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<64x64xbf16>
  %dv = hk.mma atbt %p, %ot, %zv : !hk.rt<64x16xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
  hk.store %dv, %O[%c0, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// A transpose keeps its elements in their lanes: its result takes the
// source's layout transposed (the 16x16 accumulator's runs of four rows
// become `row`'s runs of four columns) unless an MFMA wants another, which
// then gets a conversion after the transpose. A transpose with no MFMA on
// either side goes from `row` to `col`.
// CHECK-LABEL: hk.kernel @transposes
// CHECK: %[[S:.*]] = hk.mma abt {{.*}} {instr = #hk.mfma_shape<16x16x16>}
// CHECK: hk.transpose %[[S]] : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<16x64xf32, row>
// CHECK: %[[T:.*]] = hk.transpose %{{.*}} : !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.rt<64x64xbf16, #hk.mfma<b, 16x16x32>>
// CHECK: %[[C:.*]] = hk.convert_layout %[[T]] : !hk.rt<64x64xbf16, #hk.mfma<b, 16x16x32>> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
// CHECK: hk.mma abt %[[C]],
// CHECK: hk.transpose %{{.*}} : !hk.rt<16x32xf32, row> -> !hk.rt<32x16xf32, col>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @transposes(%Q: !hk.gl<?x?xbf16>, %O: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %q = hk.load %Q[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<64x64xbf16>
  %k = hk.load %Q[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<16x64xbf16>
  %z = hk.zero : !hk.rt<64x16xf32>
  %s = hk.mma abt %q, %k, %z : !hk.rt<64x64xbf16>, !hk.rt<16x64xbf16>, !hk.rt<64x16xf32>
  %st = hk.transpose %s : !hk.rt<64x16xf32> -> !hk.rt<16x64xf32>
  hk.store %st, %O[%c0, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?xf32>
  %qt = hk.transpose %q : !hk.rt<64x64xbf16> -> !hk.rt<64x64xbf16>
  %z2 = hk.zero : !hk.rt<64x64xf32>
  %p = hk.mma abt %qt, %q, %z2 : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
  hk.store %p, %O[%c0, %c0] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
  %x = hk.load %O[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x32xf32>
  %xt = hk.transpose %x : !hk.rt<16x32xf32> -> !hk.rt<32x16xf32>
  hk.store %xt, %O[%c0, %c0] : !hk.rt<32x16xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}
