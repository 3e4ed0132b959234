// hk-schedule on a plain ping-pong main loop: double-buffered tiles, the
// first tile loaded before the loop, group 1 one barrier behind, memory and
// compute clusters alternating with a barrier after each, group 0 alone
// prefetching the next tile in the first memory cluster and waiting for it
// after the last compute cluster, and the buffers swapped.
// RUN: hk-opt %s --hk-mfma-layout --hk-schedule | FileCheck %s

// CHECK-LABEL: hk.kernel @gemm
// CHECK: %[[SA:.*]] = hk.alloc : !hk.st<256x32xbf16>
// CHECK-NEXT: %[[SA2:.*]] = hk.alloc : !hk.st<256x32xbf16>
// CHECK-NEXT: %[[SB:.*]] = hk.alloc : !hk.st<256x32xbf16>
// CHECK-NEXT: %[[SB2:.*]] = hk.alloc : !hk.st<256x32xbf16>
// Prologue: tile 0 by every wave, then the phase shift.
// CHECK: hk.group_load %{{.*}}[%{{.*}}, %[[C0:.*]]], %[[SA]] : !hk.gl
// CHECK-NEXT: hk.group_load %{{.*}}[%{{.*}}, %[[C0]]], %[[SB]] : !hk.gl
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.barrier group 1
// CHECK-NEXT: %[[LOOP:.*]]:5 = scf.for %[[K:.*]] = %{{.*}} to %[[N:.*]] step %[[STEP:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[CA:.*]] = %[[SA]], %[[CB:.*]] = %[[SB]], %[[NA:.*]] = %[[SA2]], %[[NB:.*]] = %[[SB2]])
// CHECK: %[[READS:.*]]:2 = hk.cluster memory {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : index
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[NEXT]]], %[[NA]] {waves = 4 : i32}
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[NEXT]]], %[[NB]] {waves = 4 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: hk.load %[[CA]]
// CHECK-NEXT: hk.load %[[CB]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: %[[D0:.*]] = hk.cluster compute priority 1 {
// CHECK-NEXT: hk.mma abt %[[READS]]#0, %[[READS]]#1, %[[ACC]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: %[[READS1:.*]]:2 = hk.cluster memory {
// CHECK-NEXT: hk.load %[[CA]]
// CHECK-NEXT: hk.load %[[CB]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: %[[D1:.*]] = hk.cluster compute priority 1 {
// CHECK-NEXT: hk.mma abt %[[READS1]]#0, %[[READS1]]#1, %[[D0]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.wait
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield %[[D1]], %[[NA]], %[[NB]], %[[CA]], %[[CB]]
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
// CHECK: hk.store %[[LOOP]]#0
module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @gemm(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>)
      waves(8) schedule(#hk.pingpong<waves = 8>) {
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
