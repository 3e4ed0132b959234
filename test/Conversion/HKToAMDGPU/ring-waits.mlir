// The waits of a three-stage ring (hk-double-buffer's `stages = 3`): the
// prologue waits for tile 0 and leaves tile 1's load in flight, and each
// iteration waits for tile k+1 (a token the loop carries) and leaves tile
// k+2's in flight, which it issued in one of the two versions of its
// compute cluster (results of an scf.if and a cluster). A 64x32 bf16 tile
// is 4 KiB: one 16-byte-per-lane instruction per wave of four. After the
// loop everything drains.
// RUN: hk-opt %s --hk-double-buffer --hk-buffer-loads --convert-hk-to-amdgpu | FileCheck %s
// RUN: hk-opt %s --hk-double-buffer --hk-buffer-loads --convert-hk-to-amdgpu=exact-waits=false | FileCheck %s --check-prefix=DRAIN
// CHECK-LABEL: llvm.func @ring
// CHECK: amdgpu.memory_counter_wait load(1) ds(0)
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK-NEXT: llvm.inline_asm
// CHECK-NEXT: rocdl.s.barrier
// CHECK: scf.for
// CHECK: rocdl.raw.ptr.buffer.load.lds
// CHECK: } else {
// CHECK: amdgpu.memory_counter_wait load(1) ds(0)
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK-NEXT: llvm.inline_asm
// CHECK-NEXT: rocdl.s.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: amdgpu.memory_counter_wait load(0) store(0) ds(0)
// CHECK-NEXT: llvm.inline_asm
// CHECK-NEXT: rocdl.s.barrier
// DRAIN-LABEL: llvm.func @ring
// DRAIN-NOT: amdgpu.memory_counter_wait load({{[1-9]}}
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @ring(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) schedule(#hk.interleave<waves = 4, stages = 3>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.barrier
      scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.gl<?x?xf32>
    hk.return
  }
}
