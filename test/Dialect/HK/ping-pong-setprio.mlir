// hk-ping-pong's setprio option: with setprio=false the compute clusters
// get no priority (one written on a cluster is kept), with setprio=true
// all get priority 1, and the rest of the schedule (barriers, phase shift)
// is unchanged. The option reaches the pass through --hk-schedule and
// --hk-pipeline too; the lowered loop then has no s_setprio but the
// cluster's own. ping-pong-priority.mlir tests the default (auto).
// RUN: hk-opt %s --hk-ping-pong=setprio=false | FileCheck %s --check-prefix=OFF
// RUN: hk-opt %s --hk-schedule=setprio=false | FileCheck %s --check-prefix=OFF
// RUN: hk-opt %s --hk-ping-pong=setprio=true | FileCheck %s --check-prefix=ON
// RUN: hk-opt %s --hk-schedule=setprio=true | FileCheck %s --check-prefix=ON
// RUN: hk-opt %s --hk-pipeline="chip=gfx950 setprio=false" | FileCheck %s --check-prefix=LOWERED-OFF
// RUN: hk-opt %s --hk-pipeline="chip=gfx950 setprio=true" | FileCheck %s --check-prefix=LOWERED-ON

// OFF-LABEL: hk.kernel @pingpong
// OFF: hk.barrier group 1
// OFF-NEXT: scf.for
// OFF-NEXT: hk.cluster memory {
// OFF: hk.barrier
// OFF-NEXT: hk.cluster compute {
// OFF: hk.barrier
// OFF-NEXT: hk.cluster memory {
// OFF: hk.barrier
// OFF-NEXT: hk.cluster compute priority 2 {
// OFF: hk.barrier
// OFF-NEXT: scf.yield
// OFF-NEXT: }
// OFF-NEXT: hk.barrier group 0

// ON-LABEL: hk.kernel @pingpong
// ON: hk.cluster compute priority 1 {
// ON: hk.cluster compute priority 2 {

// Lowered, the user's priority 2 is all that is left of s_setprio.
// LOWERED-OFF-LABEL: llvm.func @pingpong
// LOWERED-OFF-NOT: rocdl.s.setprio 1
// LOWERED-OFF: rocdl.s.setprio 2
// LOWERED-OFF-NEXT: rocdl.s.setprio 0
// LOWERED-OFF-NOT: rocdl.s.setprio
// LOWERED-ON-LABEL: llvm.func @pingpong
// LOWERED-ON: rocdl.s.setprio 1
// LOWERED-ON-NEXT: rocdl.s.setprio 0
// LOWERED-ON: rocdl.s.setprio 2
// LOWERED-ON-NEXT: rocdl.s.setprio 0
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @pingpong(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
      %a = hk.cluster memory {
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      %b = hk.cluster memory {
        %x = hk.load %s[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %e = hk.cluster compute priority 2 {
        %y = hk.mma abt %b, %b, %d {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %e : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}
