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
