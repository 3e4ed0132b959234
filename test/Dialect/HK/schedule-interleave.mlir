// hk-schedule on a plain 4-wave interleave main loop: every wave reads its
// fragments of the tile, then prefetches the next tile; reads, prefetch and
// MFMAs form one compute cluster ending in the instruction groups LLVM interleaves
// (sched_group_barrier mask 0x8: MFMA, 0x100: LDS read, 0x20: vector-memory
// read); the iteration ends by waiting for the prefetch and a barrier.
// hk-double-buffer versions only the prefetch of a GEMM body (branch-free
// steady state, else branch-free or guarded); vector-memory groups need the loads in the MFMAs' basic
// block, so with some (the first RUN) hk-interleave versions the whole
// cluster again, and without (PAIRS) the prefetch stays versioned alone.
// RUN: hk-opt %s --hk-mfma-layout --hk-schedule="mfma-per-group=1 ds-reads-per-group=1 vmem-per-group=1" | FileCheck %s
// RUN: hk-opt %s --hk-mfma-layout --hk-schedule="mfma-per-group=2 ds-reads-per-group=1 vmem-per-group=0" | FileCheck %s --check-prefix=PAIRS
// The same group sizes from the kernel's schedule, which wins over the
// pass options, and from hk-pipeline's options.
// RUN: sed 's/#hk.interleave<waves = 4>/#hk.interleave<waves = 4, mfma = 2, vmem = 0>/' %s | hk-opt --hk-mfma-layout --hk-schedule="mfma-per-group=4 ds-reads-per-group=1" | FileCheck %s --check-prefix=PAIRS
// RUN: hk-opt %s --hk-pipeline="chip=gfx950 mfma-per-group=2 ds-reads-per-group=1 vmem-per-group=0" | FileCheck %s --check-prefix=LOWERED
// LOWERED-COUNT-16: rocdl.sched.group.barrier 8, 2, 0
// LOWERED-NOT: rocdl.sched.group.barrier 32,
// Sizes the cost function chooses (gfx950: 1 MFMA, no LDS or memory group)
// leave the reads and the prefetch unclaimed: leading groups place each of
// the 16 reads ahead of the prefetch (8 of A's fragments, 8 of B's) with
// its share of the prefetch's 8 loads (two 128x64 bf16 tiles, 16 bytes a
// lane, 4 waves), so that once hk-unswitch-loops folds the steady state's
// branch into the MFMAs' block, LLVM does not move the reads down to their
// MFMAs.
// RUN: hk-opt %s --hk-target=chip=gfx950 --hk-mfma-layout --hk-schedule | FileCheck %s --check-prefix=LEAD
// Sizes all given get no leading groups, with remarks or without: remarks
// do not change the code.
// RUN: hk-opt %s --hk-target=chip=gfx950 --hk-mfma-layout --hk-double-buffer --hk-interleave="mfma-per-group=2 ds-reads-per-group=1 vmem-per-group=0 remarks=true" 2>/dev/null > %t.remarks
// RUN: hk-opt %s --hk-target=chip=gfx950 --hk-mfma-layout --hk-double-buffer --hk-interleave="mfma-per-group=2 ds-reads-per-group=1 vmem-per-group=0" > %t.plain
// RUN: diff %t.remarks %t.plain
// RUN: FileCheck %s --check-prefix=PAIRS < %t.plain
// LEAD-LABEL: hk.kernel @gemm
// LEAD: hk.mma
// LEAD-COUNT-8: rocdl.sched.group.barrier 256, 1, 0{{[[:space:]]*}}rocdl.sched.group.barrier 32, 1, 0
// LEAD-COUNT-8: rocdl.sched.group.barrier 256, 1, 0
// LEAD-NEXT: rocdl.sched.group.barrier 8, 1, 0
// LEAD-NOT: rocdl.sched.group.barrier 256
// LEAD-NOT: rocdl.sched.group.barrier 32
// LEAD: hk.yield

// A 64x64 accumulator with 16x16x32 MFMAs over K = 64: 16 x 2 = 32 MFMAs,
// so 32 rounds of three groups.
// CHECK-LABEL: hk.kernel @gemm
// CHECK-NOT: hk.barrier group
// Before the loop, the last iteration whose tiles lie inside their views:
// the last one, the one before (a ragged last tile) or none.
// CHECK: arith.select
// CHECK-NEXT: %[[BOUND:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: arith.addi
// CHECK-NEXT: scf.for %[[K:[^ ]*]] =
// When every tile lies inside its view (a flag decided before the loop,
// which hk-unswitch-loops later gives a loop of its own): the branch-free
// version of tile min(k+1, last), with the prefetch inside the cluster that
// LLVM interleaves; no comparison, no bounds arithmetic per iteration.
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]]
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi sle, %[[NEXT]], %[[BOUND]]
// CHECK-NEXT: %[[D:.*]] = scf.if %[[STEADY:[^ ]*]]
// CHECK-NEXT: hk.cluster compute {
// CHECK-NEXT: hk.load %[[CA:[0-9]+]][
// CHECK-NEXT: hk.load %[[CB:[0-9]+]][
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[NEXT]], %{{.*}} : index
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[CLAMPED]]], %[[NA:[^ ]*]] inbounds : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[CLAMPED]]], %[[NB:[^ ]*]] inbounds : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
// CHECK-NEXT: hk.mma
// CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 0
// CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
// CHECK-NEXT: rocdl.sched.group.barrier 32, 1, 0
// CHECK-COUNT-31: rocdl.sched.group.barrier 8, 1, 0
// CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
// CHECK-NEXT: rocdl.sched.group.barrier 32, 1, 0
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// Otherwise one comparison per iteration decides: while the next tiles
// exist and lie inside their views the same branch-free version of tile
// k+1, else (the last iteration, an edge tile) the guarded prefetch with
// its edge path, after the reads.
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.if %[[OK]]
// CHECK-NEXT: hk.cluster compute {
// CHECK-NEXT: hk.load %[[CA]][
// CHECK-NEXT: hk.load %[[CB]][
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[NEXT]]], %[[NA]] inbounds : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[NEXT]]], %[[NB]] inbounds : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
// CHECK-NEXT: hk.mma
// CHECK-COUNT-32: rocdl.sched.group.barrier 8, 1, 0
// CHECK: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: hk.cluster compute {
// CHECK-NEXT: hk.load
// CHECK-NEXT: hk.load
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[MORE2:.*]] = arith.cmpi slt
// CHECK-NEXT: scf.if %[[MORE2]] {
// CHECK-NEXT: hk.group_load async {{.*}} : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
// CHECK-NEXT: hk.group_load async {{.*}} : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
// CHECK-NEXT: }
// CHECK-NEXT: hk.mma
// CHECK-COUNT-32: rocdl.sched.group.barrier 8, 1, 0
// CHECK: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.wait
// CHECK-NEXT: hk.barrier
// The buffers trade places every iteration, so the loop is unrolled by two:
// the second half, run when its iteration exists, prefetches into the
// buffers the first half read and reads the ones it filled.
// CHECK-NEXT: %[[SECOND:.*]] = arith.addi %[[K]], %[[STEP:.*]] : index
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi slt, %[[SECOND]]
// CHECK-NEXT: %[[D2:.*]] = scf.if %[[HAS]]
// CHECK: scf.if %[[STEADY]]
// CHECK: hk.load %[[NA]][
// CHECK-NEXT: hk.load %[[NB]][
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: hk.group_load async %{{.*}}, %[[CA]] inbounds
// CHECK-NEXT: hk.group_load async %{{.*}}, %[[CB]] inbounds
// CHECK-NEXT: hk.mma abt {{.*}}, %[[D]]
// CHECK: hk.wait
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[D]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[D2]]

// Pairs of MFMAs, one LDS read after each pair, no memory group: 16 rounds.
// PAIRS: scf.for
// PAIRS: hk.cluster compute {
// PAIRS-NEXT: hk.load
// PAIRS-NEXT: hk.load
// PAIRS-NEXT: scf.if %{{.*}} {
// PAIRS-NEXT: arith.minsi
// PAIRS-NEXT: hk.group_load async {{.*}} inbounds
// PAIRS-NEXT: hk.group_load async {{.*}} inbounds
// PAIRS-NEXT: } else {
// PAIRS-NEXT: scf.if %{{.*}} {
// PAIRS-NEXT: hk.group_load async {{.*}} inbounds
// PAIRS-NEXT: hk.group_load async {{.*}} inbounds
// PAIRS-NEXT: } else {
// PAIRS: hk.mma
// PAIRS-NEXT: rocdl.sched.group.barrier 8, 2, 0
// PAIRS-NEXT: rocdl.sched.group.barrier 256, 1, 0
// PAIRS-COUNT-15: rocdl.sched.group.barrier 8, 2, 0
// PAIRS-NEXT: rocdl.sched.group.barrier 256, 1, 0
// PAIRS-NEXT: hk.yield
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @gemm(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>)
      waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c2 : index
    %wn = arith.remui %w, %c2 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<128x64xbf16>
    %sB = hk.alloc : !hk.st<128x64xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %b = hk.load %sB[%wn, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %d = hk.mma abt %a, %b, %c : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%wm, %wn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}
