// Schedule constructs: wave-group barriers become barriers that only the
// waves of one group reach; clusters are fenced by scheduling barriers and
// raise the issue priority while they run.
// RUN: hk-opt %s --convert-hk-to-amdgpu | FileCheck %s

// CHECK-LABEL: llvm.func @pingpong
// The wave id is computed once, at the top of the kernel: readfirstlane is
// convergent, so LLVM would leave a copy inside a loop where it sits, and
// every address computed from it with it.
// CHECK-NEXT: %[[TID:.*]] = rocdl.workitem.id.x
// CHECK-NEXT: %[[C6:.*]] = arith.constant 6
// CHECK-NEXT: %[[SHIFT:.*]] = arith.shrui %[[TID]], %[[C6]]
// CHECK-NEXT: %[[WAVE:.*]] = rocdl.readfirstlane %[[SHIFT]]
// CHECK-NOT: rocdl.readfirstlane
// Waves [4, 8) form group 1.
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
// CHECK: %[[WAVEIDX0:.*]] = arith.index_castui %[[WAVE]] : i32 to index
// CHECK: %[[GROUP0:.*]] = arith.divui %[[WAVEIDX0]]
// CHECK: %[[IN0:.*]] = arith.cmpi eq, %[[GROUP0]], %c0{{.*}} : index
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

// hk.priority sets the priority between scheduling barriers.
// CHECK-LABEL: llvm.func @priority
// CHECK: rocdl.sched.barrier 0
// CHECK-NEXT: rocdl.s.setprio 2
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK: math.exp2
// CHECK: rocdl.sched.barrier 0
// CHECK-NEXT: rocdl.s.setprio 0
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK: llvm.return
hk.kernel @priority() waves(4) {
  %a = hk.zero : !hk.rt<16x16xf32, row>
  hk.priority 2
  %e = hk.exp2 %a : !hk.rt<16x16xf32, row>
  hk.priority 0
  hk.return
}

// A wave id used inside a loop is computed before it.
// CHECK-LABEL: llvm.func @wave_id_in_loop
// CHECK-NEXT: %[[TID:.*]] = rocdl.workitem.id.x
// CHECK-NEXT: arith.constant 6
// CHECK-NEXT: arith.shrui %[[TID]]
// CHECK-NEXT: %[[WAVE:.*]] = rocdl.readfirstlane
// CHECK: scf.for
// CHECK-NOT: rocdl.readfirstlane
// CHECK: arith.index_castui %[[WAVE]]
// CHECK-NOT: rocdl.readfirstlane
// CHECK: scf.yield
hk.kernel @wave_id_in_loop() waves(4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %c0) -> index {
    %w = hk.wave_id
    %next = arith.addi %acc, %w : index
    scf.yield %next : index
  }
  hk.return
}

// A barrier waits for the wave's LDS accesses (lgkmcnt(0)) unless its reads
// may stay in flight.
// CHECK-LABEL: llvm.func @barriers
// CHECK: amdgpu.memory_counter_wait ds(0)
// CHECK-NEXT: rocdl.s.barrier
// CHECK-NOT: amdgpu.memory_counter_wait
// CHECK: rocdl.s.barrier
// CHECK-NEXT: llvm.inline_asm
// CHECK-NEXT: llvm.return
hk.kernel @barriers() waves(1) {
  hk.barrier
  hk.barrier reads_in_flight
  hk.return
}

// A ping-pong loop's `hk.wait fence` drains every counter between
// scheduling barriers; a wave-group barrier that leaves the wave's LDS
// accesses in flight waits for none, the others drain LDS first.
// CHECK-LABEL: llvm.func @fence
// CHECK: scf.if
// CHECK: amdgpu.memory_counter_wait ds(0)
// CHECK-NEXT: rocdl.s.barrier
// CHECK: scf.for
// CHECK: }
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK-NEXT: amdgpu.memory_counter_wait load(0) store(0) ds(0)
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK: scf.if
// CHECK-NOT: amdgpu.memory_counter_wait
// CHECK: rocdl.s.barrier
// CHECK: llvm.return
hk.kernel @fence() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  hk.barrier group 1
  scf.for %k = %c0 to %c1 step %c1 {
  }
  hk.wait fence
  hk.barrier group 0 reads_in_flight
  hk.return
}
