// hk-double-buffer's cost function for ping-pong: how many memory/compute
// cluster pairs an iteration is cut into. Figures on gfx950 (the timing
// model's): an LDS read of a wave 4 cycles (64 lanes, 16 per phase of
// ds_read_b128), 4 waves of a group reading at once, 64 cycles of LDS
// latency, 16 per barrier, a 16x16x32 bf16 MFMA 16 cycles; 256 VGPRs per
// wave (512 per SIMD lane, two waves), 64 of them the estimate's reserve.
// RUN: hk-opt %s -split-input-file --hk-mfma-layout --hk-double-buffer=remarks=true -verify-diagnostics | FileCheck %s

// Two runs of one 16x32 read (4 VGPRs, one LDS read) and one MFMA each. As
// written: memory clusters of 1 * 4 * 4 + 64 = 80 cycles beside compute
// ones of 16, four intervals of 80 and four barriers, 384 cycles; 4 VGPRs
// carried + 4 of fragments + 64. Joined: reads 2 * 16 + 64 = 96 beside
// MFMAs of 32, 2 * 96 + 2 * 16 = 224 cycles, 4 + 8 + 64 VGPRs. Both reads
// move into one memory cluster, both MFMAs into one compute cluster.
// CHECK-LABEL: hk.kernel @small
// CHECK: hk.cluster memory {
// CHECK: hk.load
// CHECK-NEXT: hk.load
// CHECK-NEXT: hk.cluster memory {
// CHECK: hk.group_load async
// CHECK: hk.yield %{{.*}}, %{{.*}} :
// CHECK: hk.cluster compute {
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.yield
// CHECK-NOT: hk.cluster
// CHECK: hk.wait
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @small(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    // expected-remark @below {{hk-double-buffer: 1 memory/compute cluster pair per iteration, read runs {0, 1}, 224 cycles per iteration, 76 of 256 VGPRs estimated (the cost function's best of 2; as written: 384 cycles, 72 VGPRs)}}
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d0 = hk.mma abt %a0, %a0, %c : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a1 = hk.load %sA[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d1 = hk.mma abt %a1, %a1, %d0 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d1 : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// gemm_pingpong_gfx950.mlir's loop: two halves, each reading 128x32 of A
// (32 VGPRs, 8 LDS reads) and 64x32 of B (16, 4) for 32 MFMAs. As written:
// 12 * 16 + 64 = 256 cycles of reads beside 512 of MFMAs, 4 * 512 + 4 * 16
// = 2112 cycles, 128 VGPRs of accumulator + 48 + 64 = 240. Joined, the
// fragments alone would be 96: 128 + 96 + 64 = 288 VGPRs, over the 256 of
// a wave, so the halves stay apart.
// CHECK-LABEL: hk.kernel @halves
// CHECK: hk.cluster memory {
// CHECK: hk.cluster compute {
// CHECK: hk.cluster memory {
// CHECK: hk.cluster compute {
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @halves(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<256x64xbf16>
    %sB = hk.alloc : !hk.st<256x64xbf16>
    %zero = hk.zero : !hk.rt<128x64xf32>
    // expected-remark @below {{hk-double-buffer: 2 memory/compute cluster pairs per iteration, read runs {0} {1}, 2112 cycles per iteration, 240 of 256 VGPRs estimated (the cost function's best of 2; as written: 2112 cycles, 240 VGPRs)}}
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<128x64xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<256x64xbf16>
      hk.group_load %B[%c0, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<256x64xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<256x64xbf16> -> !hk.rt<128x32xbf16>
      %b0 = hk.load %sB[%c0, %c0] : !hk.st<256x64xbf16> -> !hk.rt<64x32xbf16>
      %d0 = hk.mma abt %a0, %b0, %c : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      %a1 = hk.load %sA[%c0, %c1] : !hk.st<256x64xbf16> -> !hk.rt<128x32xbf16>
      %b1 = hk.load %sB[%c0, %c1] : !hk.st<256x64xbf16> -> !hk.rt<64x32xbf16>
      %d1 = hk.mma abt %a1, %b1, %d0 : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      hk.barrier
      scf.yield %d1 : !hk.rt<128x64xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<128x64xf32> -> !hk.gl<?x?xbf16>
    hk.return
  }
}

// -----

// The kernel decides: `clusters = 1` joins the halves even over the
// estimate's budget. Reads 24 * 16 + 64 = 448 beside 1024 cycles of
// MFMAs: 2 * 1024 + 2 * 16 = 2080 cycles.
// CHECK-LABEL: hk.kernel @given
// CHECK: hk.cluster memory {
// CHECK: hk.cluster compute {
// CHECK-NOT: hk.cluster memory
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @given(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, clusters = 1>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<256x64xbf16>
    %sB = hk.alloc : !hk.st<256x64xbf16>
    %zero = hk.zero : !hk.rt<128x64xf32>
    // expected-remark @below {{hk-double-buffer: 1 memory/compute cluster pair per iteration, read runs {0, 1}, 2080 cycles per iteration, 288 of 256 VGPRs estimated, over the budget (given; as written: 2112 cycles, 240 VGPRs)}}
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<128x64xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<256x64xbf16>
      hk.group_load %B[%c0, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<256x64xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<256x64xbf16> -> !hk.rt<128x32xbf16>
      %b0 = hk.load %sB[%c0, %c0] : !hk.st<256x64xbf16> -> !hk.rt<64x32xbf16>
      %d0 = hk.mma abt %a0, %b0, %c : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      %a1 = hk.load %sA[%c0, %c1] : !hk.st<256x64xbf16> -> !hk.rt<128x32xbf16>
      %b1 = hk.load %sB[%c0, %c1] : !hk.st<256x64xbf16> -> !hk.rt<64x32xbf16>
      %d1 = hk.mma abt %a1, %b1, %d0 : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      hk.barrier
      scf.yield %d1 : !hk.rt<128x64xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<128x64xf32> -> !hk.gl<?x?xbf16>
    hk.return
  }
}

// -----

// @small with its tile loaded transposed: the prefetch is staged through
// registers, and group 0's first memory cluster waits an L2 hit's latency
// (250 cycles) for it before writing LDS. As written, group 0's clusters
// take 80 + 250, 16, 80, 16 beside group 1's 80, 16, 80, 16 one cluster
// behind: intervals of 330, 80, 80, 80 and four barriers, 634 cycles.
// Joined: 96 + 250 beside 32, then 32 beside 96, two barriers, 474.
// CHECK-LABEL: hk.kernel @staged
// CHECK: hk.cluster memory {
// CHECK: hk.group_load async {{.*}} transpose inbounds
// CHECK: hk.cluster compute {
// CHECK-NOT: hk.cluster
// CHECK: hk.wait
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @staged(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    // expected-remark @below {{hk-double-buffer: 1 memory/compute cluster pair per iteration, read runs {0, 1}, 474 cycles per iteration, 76 of 256 VGPRs estimated (the cost function's best of 2; as written: 634 cycles, 72 VGPRs)}}
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%k, %c0], %sA transpose : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d0 = hk.mma abt %a0, %a0, %c : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a1 = hk.load %sA[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d1 = hk.mma abt %a1, %a1, %d0 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d1 : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// More pairs than the body has runs of reads.
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @too_many(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8, clusters = 3>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    // expected-error @below {{cannot be cut into 3 memory/compute cluster pairs (the kernel's #hk.pingpong clusters): its body has 2 runs of shared-tile reads}}
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d0 = hk.mma abt %a0, %a0, %c : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a1 = hk.load %sA[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d1 = hk.mma abt %a1, %a1, %d0 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d1 : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// Past 8 runs of reads only all of them joined or none are tried, so a
// count in between is refused.
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @nine_runs(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8, clusters = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    // expected-error @below {{has 9 runs of shared-tile reads: past 8 its ping-pong clusters are either all joined (clusters = 1) or as written (clusters = 9), not 4}}
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d0 = hk.mma abt %a0, %a0, %c : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a1 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d1 = hk.mma abt %a1, %a1, %d0 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a2 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d2 = hk.mma abt %a2, %a2, %d1 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a3 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d3 = hk.mma abt %a3, %a3, %d2 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a4 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d4 = hk.mma abt %a4, %a4, %d3 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a5 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d5 = hk.mma abt %a5, %a5, %d4 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a6 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d6 = hk.mma abt %a6, %a6, %d5 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a7 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d7 = hk.mma abt %a7, %a7, %d6 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      %a8 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d8 = hk.mma abt %a8, %a8, %d7 : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d8 : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}
