// hk-interleave's cost function chooses the group sizes neither the kernel
// nor the options give, and remarks=true reports the choice. One 16x16x32
// bf16 MFMA (16 cycles on gfx950) and nothing to read: it issues at 0 and
// ends at 16 whatever the groups; the MFMA size can only be 1 (larger
// groups than the cluster's MFMAs are not tried), so 4 x 4 candidates.
// RUN: hk-opt %s --hk-interleave=remarks=true -verify-diagnostics | FileCheck %s
// With every size given the remark reports their cost.
// RUN: hk-opt %s --hk-interleave="remarks=true mfma-per-group=2 ds-reads-per-group=1 vmem-per-group=1" 2>&1 | FileCheck %s --check-prefix=GIVEN
// GIVEN: remark: hk-interleave: groups of 2 MFMA / 1 LDS read / 1 vector-memory read, 16 cycles per wave (given; 1/1/1: 16); the cluster issues 1 MFMAs of 16 cycles, 0 LDS reads and 0 vector-memory reads

// The choice: MFMAs one by one, the loads left to LLVM's scheduler.
// CHECK: hk.mma
// CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 0
// CHECK-NEXT: hk.yield
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @one_mfma() waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %a = hk.zero : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
      // expected-remark @below {{hk-interleave: groups of 1 MFMA / 0 LDS read / 0 vector-memory read, 16 cycles per wave (the cost function's best of 16; 1/1/1: 16); the cluster issues 1 MFMAs of 16 cycles, 0 LDS reads and 0 vector-memory reads}}
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}
