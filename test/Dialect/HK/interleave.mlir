
// hk-interleave: instruction groups at the end of every compute cluster,
// one round (MFMA 0x8, LDS read 0x100, vector-memory read 0x20) per
// mfma-per-group MFMAs; the kernel's #hk.interleave sizes win over the
// options. (Sizes neither gives: interleave-cost.mlir.)
// RUN: hk-opt %s -split-input-file --hk-interleave="mfma-per-group=1 ds-reads-per-group=1 vmem-per-group=1" | FileCheck %s
// RUN: hk-opt %s -split-input-file --hk-interleave="mfma-per-group=1 ds-reads-per-group=1 vmem-per-group=1" | hk-opt --hk-interleave | FileCheck %s
// RUN: hk-opt %s -split-input-file --hk-interleave="mfma-per-group=2 ds-reads-per-group=3 vmem-per-group=0" | FileCheck %s --check-prefix=OPTS

// CHECK-LABEL: hk.kernel @interleave
// CHECK-NOT: hk.barrier
// CHECK: hk.cluster compute {
// CHECK: hk.mma
// CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 0
// CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
// CHECK-NEXT: rocdl.sched.group.barrier 32, 1, 0
// CHECK-NEXT: hk.yield
// CHECK-NOT: rocdl.sched.group.barrier
// OPTS-LABEL: hk.kernel @interleave
// OPTS: hk.mma
// OPTS-NEXT: rocdl.sched.group.barrier 8, 2, 0
// OPTS-NEXT: rocdl.sched.group.barrier 256, 3, 0
// OPTS-NEXT: hk.yield
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @interleave() waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %a = hk.zero : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}

// -----

// The versions hk-double-buffer makes, in an scf.if: both compute clusters
// get their groups (16x16x32 MFMAs on a 32x32 tile with K = 64: 8); the
// memory cluster and the ping-pong kernel get none. The kernel's sizes
// (mfma = 4, vmem = 0) win over the options.
// CHECK-LABEL: hk.kernel @versions
// CHECK: scf.if
// CHECK-NEXT: hk.cluster compute {
// CHECK: hk.mma
// CHECK-NEXT: rocdl.sched.group.barrier 8, 4, 0
// CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
// CHECK-NEXT: rocdl.sched.group.barrier 8, 4, 0
// CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
// CHECK-NEXT: hk.yield
// CHECK: } else {
// CHECK-NEXT: hk.cluster compute {
// CHECK: hk.mma
// CHECK-NEXT: rocdl.sched.group.barrier 8, 4, 0
// CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
// CHECK-NEXT: rocdl.sched.group.barrier 8, 4, 0
// CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
// CHECK-NEXT: hk.yield
// CHECK: hk.cluster memory {
// CHECK-NEXT: hk.load
// CHECK-NEXT: }
// OPTS-LABEL: hk.kernel @versions
// OPTS: hk.mma
// OPTS-NEXT: rocdl.sched.group.barrier 8, 4, 0
// OPTS-NEXT: rocdl.sched.group.barrier 256, 3, 0
// OPTS-NEXT: rocdl.sched.group.barrier 8, 4, 0
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @versions() waves(4) schedule(#hk.interleave<waves = 4, mfma = 4, vmem = 0>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %zero = hk.zero : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>> {
      %p = arith.cmpi slt, %k, %c1 : index
      %r = scf.if %p -> !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>> {
        %d = hk.cluster compute {
          %x = hk.load %s[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>
          %y = hk.mma abt %x, %x, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
          hk.yield %y : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
        } : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
        scf.yield %d : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
      } else {
        %d = hk.cluster compute {
          %x = hk.load %s[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>
          %y = hk.mma abt %x, %x, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
          hk.yield %y : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
        } : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
        scf.yield %d : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
      }
      hk.cluster memory {
        %x = hk.load %s[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield
      }
      scf.yield %r : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}
