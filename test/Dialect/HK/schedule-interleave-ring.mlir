// hk-schedule on an interleave main loop with `stages = 3`: each shared
// tile gets two more buffers; the prologue loads tiles 0 and 1; iteration
// k reads tile k and then prefetches tile k+2 into the buffers tile k-1
// used (tile min(k+2, last) when every tile lies inside its view, else
// branch-free while tile k+2 does: only the prefetch is versioned, the
// MFMAs follow it).
// The buffers rotate with period three, so hk-interleave unrolls the loop
// by three: each copy reads and fills fixed buffers, and the second and
// third copies run when their iterations exist (nested uniform branches).
// RUN: hk-opt %s --hk-mfma-layout --hk-schedule="mfma-per-group=2 ds-reads-per-group=1 vmem-per-group=0" | FileCheck %s
// RUN: hk-opt %s --hk-pipeline=chip=gfx950 | FileCheck %s --check-prefix=LOWERED
// With vector-memory groups every version of the prefetch becomes a whole
// cluster: the steady state's, the branch-free one, and the guarded one,
// whose own branch past the end (on a condition it computes itself) stays
// inside it.
// RUN: hk-opt %s --hk-mfma-layout --hk-schedule="mfma-per-group=2 ds-reads-per-group=1 vmem-per-group=1" | FileCheck %s --check-prefix=WHOLE
// WHOLE: scf.for
// WHOLE: %[[OK:.*]] = arith.cmpi sle
// WHOLE-NEXT: scf.if %{{.*}} -> (
// WHOLE-NEXT: hk.cluster compute {
// WHOLE-NEXT: hk.load
// WHOLE-NEXT: hk.load
// WHOLE-NEXT: arith.minsi
// WHOLE: } else {
// WHOLE-NEXT: scf.if %[[OK]] -> (
// WHOLE-NEXT: hk.cluster compute {
// WHOLE: } else {
// WHOLE-NEXT: hk.cluster compute {
// WHOLE-NEXT: hk.load
// WHOLE-NEXT: hk.load
// WHOLE-NEXT: arith.cmpi sge
// WHOLE-NEXT: arith.cmpi sge
// WHOLE-NEXT: %[[AGAIN:.*]] = arith.andi
// WHOLE-NEXT: scf.if %[[AGAIN]] -> (!hk.token, !hk.token) {
// CHECK-LABEL: hk.kernel @gemm
// CHECK: %[[A0:.*]] = hk.alloc : !hk.st<128x64xbf16>
// CHECK-NEXT: %[[A2:.*]] = hk.alloc : !hk.st<128x64xbf16>
// CHECK-NEXT: %[[A1:.*]] = hk.alloc : !hk.st<128x64xbf16>
// CHECK-NEXT: %[[B0:.*]] = hk.alloc : !hk.st<128x64xbf16>
// CHECK-NEXT: %[[B2:.*]] = hk.alloc : !hk.st<128x64xbf16>
// CHECK-NEXT: %[[B1:.*]] = hk.alloc : !hk.st<128x64xbf16>
// CHECK: hk.group_load async %{{.*}}[%{{.*}}, %[[C0:.*]]], %[[A0]] :
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[C0]]], %[[B0]] :
// CHECK-NEXT: %[[ONE:.*]] = arith.addi %[[C0]], %[[STEP:.*]] : index
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[ONE]]], %[[A1]] :
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[ONE]]], %[[B1]] :
// CHECK: %[[STEP2:.*]] = arith.addi %[[STEP]], %[[STEP]] : index
// CHECK-NEXT: %[[STEP3:.*]] = arith.addi %[[STEP2]], %[[STEP]] : index
// CHECK-NEXT: scf.for %[[K:[^ ]*]] = %[[C0]] to %[[N:[^ ]*]] step %[[STEP3]]
// Copy 0: reads buffers 0, fills buffers 2.
// CHECK: hk.load %[[A0]][
// CHECK-NEXT: hk.load %[[B0]][
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: hk.group_load async {{.*}}, %[[A2]] inbounds
// CHECK-NEXT: hk.group_load async {{.*}}, %[[B2]] inbounds
// CHECK: hk.wait [
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT: %[[HAS1:.*]] = arith.cmpi slt, %[[K1]], %[[N]] : index
// CHECK-NEXT: scf.if %[[HAS1]]
// Copy 1: reads buffers 1, fills buffers 0.
// CHECK: hk.load %[[A1]][
// CHECK-NEXT: hk.load %[[B1]][
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: hk.group_load async {{.*}}, %[[A0]] inbounds
// CHECK-NEXT: hk.group_load async {{.*}}, %[[B0]] inbounds
// CHECK: hk.wait [
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: %[[K2:.*]] = arith.addi %[[K1]], %[[STEP]] : index
// CHECK-NEXT: %[[HAS2:.*]] = arith.cmpi slt, %[[K2]], %[[N]] : index
// CHECK-NEXT: scf.if %[[HAS2]]
// Copy 2: reads buffers 2, fills buffers 1.
// CHECK: hk.load %[[A2]][
// CHECK-NEXT: hk.load %[[B2]][
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: hk.group_load async {{.*}}, %[[A1]] inbounds
// CHECK-NEXT: hk.group_load async {{.*}}, %[[B1]] inbounds
// CHECK: hk.wait [
// CHECK-NEXT: hk.barrier
// CHECK: hk.wait{{$}}
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.store
// Lowered: three copies of the two 16 KiB tiles.
// LOWERED: llvm.mlir.global internal @gemm__lds() {{.*}} : !llvm.array<98304 x i8>
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @gemm(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>)
      waves(4) schedule(#hk.interleave<waves = 4, stages = 3>) {
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
