// Transposing group loads: the K-major operand of C = A B is copied into
// LDS as B^T so that the MFMAs read it along its rows (form abt).
// RUN: hk-opt %s --hk-target=chip=gfx942 --hk-mfma-layout --hk-schedule | FileCheck %s --check-prefix=SCHED
// On gfx942 (gfx950's LDS reads transpose, so hk-mfma-layout keeps B
// untransposed there: mfma-layout-untranspose.mlir):
// RUN: hk-opt %s --hk-target=chip=gfx942 --hk-mfma-layout --hk-buffer-loads --hk-lds-layout --convert-hk-to-amdgpu | FileCheck %s --check-prefix=LOWER

// hk-schedule's prefetch keeps the transposition in all three versions
// (steady state, branch-free, guarded).
// SCHED-LABEL: hk.kernel @gemm_ab
// SCHED: hk.in_bounds {{.*}} transpose : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
// SCHED: hk.group_load async {{.*}} inbounds : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
// SCHED-NEXT: hk.group_load async {{.*}} transpose inbounds : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
// SCHED: hk.group_load async {{.*}} inbounds : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
// SCHED-NEXT: hk.group_load async {{.*}} transpose inbounds : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
// SCHED: hk.group_load async {{.*}} : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
// SCHED-NEXT: hk.group_load async {{.*}} transpose : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token

// Lowered: each lane reads 16-byte chunks of B's rows and writes their
// eight elements one by one down the columns of the shared tile.
// LOWER-LABEL: llvm.func @gemm_ab
// LOWER: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
// LOWER-COUNT-8: llvm.store {{.*}} : bf16, !llvm.ptr<3>
module {
hk.kernel @gemm_ab(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                   %C: !hk.gl<?x?xf32>) waves(4)
    schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %sBt = hk.alloc : !hk.st<64x64xbf16>
  %zero = hk.zero : !hk.rt<64x64xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %zero)
      -> !hk.rt<64x64xf32> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    // B is K x N: its (k, 0) tile of 64x64 lands in LDS as N x K.
    hk.group_load %B[%k, %c0], %sBt transpose
        : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    hk.barrier
    %a = hk.load %sA : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
    %bt = hk.load %sBt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
    %d = hk.mma abt %a, %bt, %c
        : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
    hk.barrier
    scf.yield %d : !hk.rt<64x64xf32>
  }
  hk.store %acc, %C[%c0, %c0] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}
