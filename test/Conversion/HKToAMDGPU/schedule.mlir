// Schedule constructs: wave-group barriers become barriers that only the
// waves of one group reach; clusters are fenced by scheduling barriers and
// raise the issue priority while they run.
// RUN: hk-opt %s --convert-hk-to-amdgpu | FileCheck %s

// CHECK-LABEL: llvm.func @pingpong
// Waves [4, 8) form group 1.
// CHECK: %[[WAVE:.*]] = rocdl.readfirstlane
// CHECK: %[[WAVEIDX:.*]] = arith.index_castui %[[WAVE]] : i32 to index
// CHECK: %[[GROUP:.*]] = arith.divui %[[WAVEIDX]], %c4 : index
// CHECK: %[[IN1:.*]] = arith.cmpi eq, %[[GROUP]], %c1 : index
// CHECK: scf.if %[[IN1]] {
// CHECK: rocdl.s.barrier
// CHECK: }
// CHECK: rocdl.sched.barrier 0
// CHECK-NEXT: rocdl.s.setprio 1
// CHECK: math.exp2
// CHECK: rocdl.s.setprio 0
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK: %[[IN0:.*]] = arith.cmpi eq, %{{.*}}, %c0{{.*}} : index
// CHECK: scf.if %[[IN0]] {
// CHECK: rocdl.s.barrier
// CHECK: }
// CHECK: llvm.return
hk.kernel @pingpong() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %a = hk.zero : !hk.rt<16x16xf32, row>
  hk.barrier group 1
  %r = hk.cluster compute priority 1 {
    %e = hk.exp2 %a : !hk.rt<16x16xf32, row>
    hk.yield %e : !hk.rt<16x16xf32, row>
  } : !hk.rt<16x16xf32, row>
  hk.barrier group 0
  hk.return
}
