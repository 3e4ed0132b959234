// hk.mma becomes a grid of MFMAs: (M/m) x (N/n) accumulator blocks, each a
// chain of K/k instructions.
// RUN: hk-opt %s -split-input-file --hk-mfma-layout --convert-hk-to-amdgpu | FileCheck %s

// 64x64x64 bf16 on gfx942: 4 x 4 x 4 instructions of 16x16x16, fed from
// operand layouts holding 8 consecutive K elements per lane (two
// instructions' worth).
// CHECK-LABEL: llvm.func @bf16_gfx942
// CHECK-COUNT-64: amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @bf16_gfx942() waves(1) {
  %a = hk.zero : !hk.rt<64x64xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// The same on gfx950: 4 x 4 x 2 of the double-rate 16x16x32.
// CHECK-LABEL: llvm.func @bf16_gfx950
// CHECK-COUNT-32: amdgpu.mfma 16x16x32 {{.*}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @bf16_gfx950() waves(1) {
  %a = hk.zero : !hk.rt<64x64xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// A pinned 32x32x8 on a 64x64x64 f16 A*B: 2 x 2 x 8 instructions, each
// reading 16 accumulator registers.
// CHECK-LABEL: llvm.func @pinned_32x32x8
// CHECK-COUNT-32: amdgpu.mfma 32x32x8 {{.*}} : vector<4xf16>, vector<4xf16>, vector<16xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @pinned_32x32x8() waves(1) {
  %a = hk.zero : !hk.rt<64x64xf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma ab %a, %a, %c {instr = #hk.mfma_shape<32x32x8>} : !hk.rt<64x64xf16>, !hk.rt<64x64xf16>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// OCP fp8 on gfx950: the scaled 16x16x128 with unit (2^0) scales.
// CHECK-LABEL: llvm.func @fp8_gfx950
// CHECK: arith.constant 1.000000e+00 : f8E8M0FNU
// CHECK-COUNT-4: amdgpu.scaled_mfma 16x16x128 (%{{.*}}[0] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : f8E8M0FNU, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf8E4M3FN>, vector<4xf32>
// CHECK-NOT: amdgpu.scaled_mfma
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @fp8_gfx950() waves(1) {
  %a = hk.zero : !hk.rt<32x128xf8E4M3FN>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<32x128xf8E4M3FN>, !hk.rt<32x128xf8E4M3FN>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

// FNUZ fp8 on gfx942: one 32x32 block; each lane holds 16 consecutive K
// bytes (one LDS read) and feeds them to two 32x32x16 instructions.
// CHECK-LABEL: llvm.func @fp8_gfx942
// CHECK-COUNT-2: amdgpu.mfma 32x32x16 {{.*}} : vector<8xf8E4M3FNUZ>, vector<8xf8E4M3FNUZ>, vector<16xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @fp8_gfx942() waves(1) {
  %a = hk.zero : !hk.rt<32x32xf8E4M3FNUZ>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<32x32xf8E4M3FNUZ>, !hk.rt<32x32xf8E4M3FNUZ>, !hk.rt<32x32xf32>
  hk.return
}
}

// -----

// Every count below is (M/m) x (N/n) x (K/k), worked out from the tile and
// instruction shapes; the operand vectors hold m*k/64 elements per lane and
// the accumulators m*n/64.

// gfx950's 32x32x16 bf16, pinned on a 64x64x64 A*B: 2 x 2 x 4 = 16, with
// 8 bf16 per lane and 16 accumulator registers.
// CHECK-LABEL: llvm.func @bf16_32x32x16_gfx950
// CHECK-COUNT-16: amdgpu.mfma 32x32x16 {{.*}} : vector<8xbf16>, vector<8xbf16>, vector<16xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @bf16_32x32x16_gfx950() waves(1) {
  %a = hk.zero : !hk.rt<64x64xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma ab %a, %a, %c {instr = #hk.mfma_shape<32x32x16>} : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// gfx950's 32x32x16 f16, chosen unpinned: K = 48 is no multiple of
// 16x16x32's K, and 32x32x16 reads twice 16x16x16's K per register. A 96x64
// accumulator: 3 x 2 x 3 = 18.
// CHECK-LABEL: llvm.func @f16_32x32x16_gfx950
// CHECK-COUNT-18: amdgpu.mfma 32x32x16 {{.*}} : vector<8xf16>, vector<8xf16>, vector<16xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @f16_32x32x16_gfx950() waves(1) {
  %a = hk.zero : !hk.rt<96x48xf16>
  %b = hk.zero : !hk.rt<64x48xf16>
  %c = hk.zero : !hk.rt<96x64xf32>
  %d = hk.mma abt %a, %b, %c : !hk.rt<96x48xf16>, !hk.rt<64x48xf16>, !hk.rt<96x64xf32>
  hk.return
}
}

// -----

// FNUZ fp8 on gfx942 with K = 128: 16x16x32 (8 bytes per lane) on a 64x64
// accumulator, 4 x 4 x 4 = 64.
// CHECK-LABEL: llvm.func @fp8_16x16x32_gfx942
// CHECK-COUNT-64: amdgpu.mfma 16x16x32 {{.*}} : vector<8xf8E4M3FNUZ>, vector<8xf8E4M3FNUZ>, vector<4xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @fp8_16x16x32_gfx942() waves(1) {
  %a = hk.zero : !hk.rt<64x128xf8E4M3FNUZ>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<64x128xf8E4M3FNUZ>, !hk.rt<64x128xf8E4M3FNUZ>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// A pinned gfx942 32x32x16 multiplying E4M3 by E5M2 (both FNUZ): a 64x32
// accumulator with K = 64, 2 x 1 x 4 = 8; the instruction keeps each
// operand's format.
// CHECK-LABEL: llvm.func @fp8_bf8_32x32x16_gfx942
// CHECK-COUNT-8: amdgpu.mfma 32x32x16 {{.*}} : vector<8xf8E4M3FNUZ>, vector<8xf8E5M2FNUZ>, vector<16xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @fp8_bf8_32x32x16_gfx942() waves(1) {
  %a = hk.zero : !hk.rt<64x64xf8E4M3FNUZ>
  %b = hk.zero : !hk.rt<32x64xf8E5M2FNUZ>
  %c = hk.zero : !hk.rt<64x32xf32>
  %d = hk.mma abt %a, %b, %c {instr = #hk.mfma_shape<32x32x16>} : !hk.rt<64x64xf8E4M3FNUZ>, !hk.rt<32x64xf8E5M2FNUZ>, !hk.rt<64x32xf32>
  hk.return
}
}

// -----

// OCP fp8 on gfx950, scaled 16x16x128 on a 32x48 accumulator with K = 256:
// 2 x 3 x 2 = 12, 32 bytes per lane.
// CHECK-LABEL: llvm.func @scaled_16x16x128_gfx950
// CHECK-COUNT-12: amdgpu.scaled_mfma 16x16x128 {{.*}} : f8E8M0FNU, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf8E4M3FN>, vector<4xf32>
// CHECK-NOT: amdgpu.scaled_mfma
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @scaled_16x16x128_gfx950() waves(1) {
  %a = hk.zero : !hk.rt<32x256xf8E4M3FN>
  %b = hk.zero : !hk.rt<48x256xf8E4M3FN>
  %c = hk.zero : !hk.rt<32x48xf32>
  %d = hk.mma abt %a, %b, %c : !hk.rt<32x256xf8E4M3FN>, !hk.rt<48x256xf8E4M3FN>, !hk.rt<32x48xf32>
  hk.return
}
}

// -----

// OCP E5M2 on gfx950 with K = 192, no multiple of 128: scaled 32x32x64,
// 2 x 2 x 3 = 12, 32 bytes per lane and 16 accumulator registers.
// CHECK-LABEL: llvm.func @scaled_32x32x64_gfx950
// CHECK-COUNT-12: amdgpu.scaled_mfma 32x32x64 {{.*}} : f8E8M0FNU, vector<32xf8E5M2>, f8E8M0FNU, vector<32xf8E5M2>, vector<16xf32>
// CHECK-NOT: amdgpu.scaled_mfma
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @scaled_32x32x64_gfx950() waves(1) {
  %a = hk.zero : !hk.rt<64x192xf8E5M2>
  %c = hk.zero : !hk.rt<64x64xf32>
  %d = hk.mma abt %a, %a, %c : !hk.rt<64x192xf8E5M2>, !hk.rt<64x192xf8E5M2>, !hk.rt<64x64xf32>
  hk.return
}
}

// -----

// A^T * B on gfx942: A is 32x64 (K x M), B 32x48 (K x N); both take the
// B-operand layout. M x N x K = 64x48x32 in 16x16x16: 4 x 3 x 2 = 24.
// CHECK-LABEL: llvm.func @atb_gfx942
// CHECK-COUNT-24: amdgpu.mfma 16x16x16 {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @atb_gfx942() waves(1) {
  %a = hk.zero : !hk.rt<32x64xbf16>
  %b = hk.zero : !hk.rt<32x48xbf16>
  %c = hk.zero : !hk.rt<64x48xf32>
  %d = hk.mma atb %a, %b, %c : !hk.rt<32x64xbf16>, !hk.rt<32x48xbf16>, !hk.rt<64x48xf32>
  hk.return
}
}

// -----

// A^T * B^T on gfx950: A is 64x32 (K x M), B 64x64 (N x K). M x N x K =
// 32x64x64 in 16x16x32: 2 x 4 x 2 = 16.
// CHECK-LABEL: llvm.func @atbt_gfx950
// CHECK-COUNT-16: amdgpu.mfma 16x16x32 {{.*}} : vector<8xf16>, vector<8xf16>, vector<4xf32>
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @atbt_gfx950() waves(1) {
  %a = hk.zero : !hk.rt<64x32xf16>
  %b = hk.zero : !hk.rt<64x64xf16>
  %c = hk.zero : !hk.rt<32x64xf32>
  %d = hk.mma atbt %a, %b, %c : !hk.rt<64x32xf16>, !hk.rt<64x64xf16>, !hk.rt<32x64xf32>
  hk.return
}
}

// -----

// Operands in the 16x16 accumulator layout: each 16x16x32 instruction takes
// the lane's 4 rows of two consecutive 16-row blocks of A (64x16: blocks
// at slots 0 and 4) and of B's column block (64x32: blocks (2kk, n) and
// (2kk+1, n), slots 0 and 8 for n = 0).
// CHECK-LABEL: llvm.func @acc_operands
// CHECK-COUNT-8: vector.extract %{{.*}}[{{[0-7]}}] : bf16 from vector<16xbf16>
// CHECK: %[[A:.*]] = vector.from_elements {{.*}} : vector<8xbf16>
// CHECK: vector.extract %{{.*}}[0] : bf16 from vector<32xbf16>
// CHECK: vector.extract %{{.*}}[3] : bf16 from vector<32xbf16>
// CHECK: vector.extract %{{.*}}[8] : bf16 from vector<32xbf16>
// CHECK: vector.extract %{{.*}}[11] : bf16 from vector<32xbf16>
// CHECK: %[[B:.*]] = vector.from_elements {{.*}} : vector<8xbf16>
// CHECK: amdgpu.mfma 16x16x32 %[[A]] * %[[B]]
// CHECK-COUNT-3: amdgpu.mfma 16x16x32
// CHECK-NOT: amdgpu.mfma
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @acc_operands() waves(1) {
  %a = hk.zero : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>
  %b = hk.zero : !hk.rt<64x32xbf16, #hk.mfma<acc, 16x16x32>>
  %c = hk.zero : !hk.rt<16x32xf32>
  %d = hk.mma atb %a, %b, %c : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<16x32xf32>
  hk.return
}
}
