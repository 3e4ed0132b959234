// hk-schedule on a plain ping-pong main loop: double-buffered tiles, the
// first tile loaded before the loop, group 1 one barrier behind, memory and
// compute clusters alternating with a barrier after each, group 0 alone
// prefetching the next tile in the first memory cluster and waiting for it
// after the last compute cluster; the buffers trade places every
// iteration, so the loop is unrolled by two over fixed buffers. The kernel
// keeps its two runs of reads as two memory clusters (`clusters = 2`);
// double-buffer-pingpong-clusters.mlir tests the cost function's choice.
// Its memory clusters only read, so the compute clusters keep the wave's
// priority (ping-pong-priority.mlir tests that choice).
// RUN: hk-opt %s --hk-mfma-layout --hk-schedule | FileCheck %s

// CHECK-LABEL: hk.kernel @gemm
// CHECK: %[[SA:.*]] = hk.alloc : !hk.st<256x32xbf16>
// CHECK-NEXT: %[[SA2:.*]] = hk.alloc : !hk.st<256x32xbf16>
// CHECK-NEXT: %[[SB:.*]] = hk.alloc : !hk.st<256x32xbf16>
// CHECK-NEXT: %[[SB2:.*]] = hk.alloc : !hk.st<256x32xbf16>
// Prologue: tile 0 by wave group 0, as the prefetch, then the phase shift.
// The prologue's loads overlap: one wait for both.
// CHECK: %[[TA:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[C0:.*]]], %[[SA]] {waves = 4 : i32} : !hk.gl
// CHECK-NEXT: %[[TB:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[C0]]], %[[SB]] {waves = 4 : i32} : !hk.gl
// CHECK-NEXT: hk.wait [%[[TA]], %[[TB]]]
// CHECK-NEXT: hk.barrier
// Every tile inside its view when A's and B's first and last tiles are.
// CHECK: %[[LAST:.*]] = arith.addi
// CHECK-COUNT-4: hk.in_bounds
// CHECK: %[[STEADY:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: hk.barrier group 1
// The buffers trade places every iteration, so the loop is unrolled by two
// and each half works on fixed buffers: only the accumulator is carried.
// CHECK-NEXT: %[[STEP2:.*]] = arith.addi %[[STEP:.*]], %[[STEP]] : index
// CHECK-NEXT: %[[LOOP:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[N:.*]] step %[[STEP2]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (!hk.rt
// CHECK: %[[READS:.*]]:2 = hk.cluster memory {
// CHECK-NEXT: %[[FA:.*]] = hk.load %[[SA]]
// CHECK-NEXT: %[[FB:.*]] = hk.load %[[SB]]
// After the reads, in a cluster of its own that keeps it there: every tile
// inside its view (a flag set before the loop), the next tile, clamped to
// the last, without bounds checks; otherwise guarded.
// CHECK-NEXT: hk.cluster memory {
// CHECK-NEXT: scf.if %[[STEADY]] {
// CHECK-NEXT: %[[NEXTS:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[NEXTS]], %[[LAST]] : index
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[CLAMPED]]], %[[SA2]] inbounds {waves = 4 : i32}
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[CLAMPED]]], %[[SB2]] inbounds {waves = 4 : i32}
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : index
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[NEXT]]], %[[SA2]] {waves = 4 : i32}
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[NEXT]]], %[[SB2]] {waves = 4 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: hk.yield %[[FA]], %[[FB]]
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: %[[D0:.*]] = hk.cluster compute {
// CHECK-NEXT: hk.mma abt %[[READS]]#0, %[[READS]]#1, %[[ACC]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: %[[READS1:.*]]:2 = hk.cluster memory {
// CHECK-NEXT: hk.load %[[SA]]
// CHECK-NEXT: hk.load %[[SB]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: %[[D1:.*]] = hk.cluster compute {
// CHECK-NEXT: hk.mma abt %[[READS1]]#0, %[[READS1]]#1, %[[D0]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.wait
// CHECK-NEXT: hk.barrier
// The second half, when its iteration exists, with the buffers' roles
// exchanged.
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT: %[[HALF:.*]] = arith.cmpi slt, %[[K1]], %[[N]] : index
// CHECK-NEXT: %[[SECOND:.*]] = scf.if %[[HALF]] -> (!hk.rt
// CHECK: hk.load %[[SA2]]
// CHECK-NEXT: hk.load %[[SB2]]
// CHECK: hk.group_load async %{{.*}}, %[[SA]] inbounds
// CHECK-NEXT: hk.group_load async %{{.*}}, %[[SB]] inbounds
// CHECK: hk.mma abt %{{.*}}, %{{.*}}, %[[D1]]
// CHECK: hk.load %[[SA2]]
// CHECK-NEXT: hk.load %[[SB2]]
// CHECK: %[[D3:.*]] = hk.cluster compute {
// CHECK: hk.wait
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield %[[D3]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[D1]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[SECOND]]
// CHECK-NEXT: }
// Group 0 stores under group 1's last compute cluster
// (ping-pong-epilogue.mlir).
// CHECK-NEXT: hk.priority 0
// CHECK: hk.store %[[LOOP]]
// CHECK-NEXT: hk.barrier group 0 reads_in_flight
module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @gemm(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>)
      waves(8) schedule(#hk.pingpong<waves = 8, clusters = 2>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c4 : index
    %wn = arith.remui %w, %c4 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<256x32xbf16>
    %sB = hk.alloc : !hk.st<256x32xbf16>
    %zero = hk.zero : !hk.rt<128x64xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<128x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.barrier
      %a0 = hk.load %sA[%wm, %c0] : !hk.st<256x32xbf16> -> !hk.rt<128x16xbf16>
      %b0 = hk.load %sB[%wn, %c0] : !hk.st<256x32xbf16> -> !hk.rt<64x16xbf16>
      %d0 = hk.mma abt %a0, %b0, %c : !hk.rt<128x16xbf16>, !hk.rt<64x16xbf16>, !hk.rt<128x64xf32>
      %a1 = hk.load %sA[%wm, %c1] : !hk.st<256x32xbf16> -> !hk.rt<128x16xbf16>
      %b1 = hk.load %sB[%wn, %c1] : !hk.st<256x32xbf16> -> !hk.rt<64x16xbf16>
      %d1 = hk.mma abt %a1, %b1, %d0 : !hk.rt<128x16xbf16>, !hk.rt<64x16xbf16>, !hk.rt<128x64xf32>
      hk.barrier
      scf.yield %d1 : !hk.rt<128x64xf32>
    }
    hk.store %acc, %C[%wm, %wn] : !hk.rt<128x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}
