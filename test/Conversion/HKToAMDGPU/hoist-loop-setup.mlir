// RUN: hk-opt --allow-unregistered-dialect --hk-hoist-loop-setup --split-input-file %s | FileCheck %s

// A prologue's wait: the lane arithmetic between it and the loop, and the
// loop's invariants (also those inside its scf.if), move above the wait;
// what the loop uses is pinned there. What depends on the induction
// variable, what may fault (a division by a runtime value) and what
// depends on the running lanes (readfirstlane) stays.

// CHECK-LABEL: func.func @prologue
// CHECK: llvm.load
// CHECK: %[[LANE:.*]] = rocdl.workitem.id.x : i32
// CHECK: %[[BETWEEN:.*]] = arith.muli %[[LANE]], %{{.*}} : i32
// CHECK: %[[INV:.*]] = arith.addi %[[LANE]], %{{.*}} : i32
// CHECK: %[[NESTED:.*]] = arith.xori %[[INV]], %{{.*}} : i32
// CHECK-DAG: llvm.call_intrinsic "llvm.fake.use"(%[[BETWEEN]]) : (i32) -> ()
// CHECK-DAG: llvm.call_intrinsic "llvm.fake.use"(%[[NESTED]]) : (i32) -> ()
// CHECK-NOT: llvm.call_intrinsic "llvm.fake.use"(%[[INV]])
// CHECK: rocdl.sched.barrier 0
// CHECK-NEXT: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: rocdl.s.barrier
// CHECK-NEXT: scf.for %[[IV:.*]] =
// CHECK:   rocdl.readfirstlane
// CHECK:   arith.index_cast %[[IV]]
// CHECK:   scf.if
// CHECK:     arith.divui
// CHECK:     llvm.store %[[NESTED]]
// CHECK:     llvm.store %[[BETWEEN]]
func.func @prologue(%p: !llvm.ptr<3>, %n: index, %d: i32, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  %v = llvm.load %p : !llvm.ptr<3> -> i32
  rocdl.sched.barrier 0
  amdgpu.memory_counter_wait load(0)
  rocdl.s.barrier
  %lane = rocdl.workitem.id.x : i32
  %between = arith.muli %lane, %c7 : i32
  scf.for %i = %c0 to %n step %c1 {
    %first = rocdl.readfirstlane %v : i32
    %inv = arith.addi %lane, %c7 : i32
    %ii = arith.index_cast %i : index to i32
    %dep = arith.addi %ii, %first : i32
    scf.if %c {
      %nested = arith.xori %inv, %c7 : i32
      %q = arith.divui %dep, %d : i32
      llvm.store %q, %p : i32, !llvm.ptr<3>
      llvm.store %nested, %p : i32, !llvm.ptr<3>
      llvm.store %between, %p : i32, !llvm.ptr<3>
    }
  }
  return
}

// -----

// Without a wait before it, a loop is left alone.

// CHECK-LABEL: func.func @no_wait
// CHECK: rocdl.s.barrier
// CHECK-NEXT: %[[LANE:.*]] = rocdl.workitem.id.x
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.addi %[[LANE]]
// CHECK-NOT: fake.use
func.func @no_wait(%p: !llvm.ptr<3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  rocdl.s.barrier
  %lane = rocdl.workitem.id.x : i32
  scf.for %i = %c0 to %n step %c1 {
    %inv = arith.addi %lane, %c7 : i32
    llvm.store %inv, %p : i32, !llvm.ptr<3>
  }
  return
}

// -----

// A wait held in a wave-group branch (the ping-pong's extra barrier) is
// part of the run; index values are pinned as i32.

// CHECK-LABEL: func.func @group_barrier
// CHECK: %[[X:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[CAST:.*]] = arith.index_cast %[[X]] : index to i32
// CHECK: llvm.call_intrinsic "llvm.fake.use"(%[[CAST]]) : (i32) -> ()
// CHECK: amdgpu.memory_counter_wait load(0)
// CHECK: scf.if
// CHECK: amdgpu.memory_counter_wait ds(0)
// CHECK: scf.for
func.func @group_barrier(%p: !llvm.ptr<3>, %n: index, %m: index, %g: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  amdgpu.memory_counter_wait load(0)
  rocdl.s.barrier
  scf.if %g {
    amdgpu.memory_counter_wait ds(0)
    rocdl.s.barrier
  }
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.muli %m, %n : index
    %j = arith.addi %x, %i : index
    %v = arith.index_cast %j : index to i32
    llvm.store %v, %p : i32, !llvm.ptr<3>
  }
  return
}

// -----

// A vector of index has no LLVM type to pin: it moves, unpinned.

// CHECK-LABEL: func.func @index_vector
// CHECK: %[[S:.*]] = vector.step : vector<4xindex>
// CHECK-NOT: fake.use
// CHECK: amdgpu.memory_counter_wait load(0)
// CHECK-NOT: fake.use
// CHECK: scf.for
// CHECK: vector.extract %[[S]]
func.func @index_vector(%p: !llvm.ptr<3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  amdgpu.memory_counter_wait load(0)
  scf.for %i = %c0 to %n step %c1 {
    %s = vector.step : vector<4xindex>
    %e = vector.extract %s[%i] : index from vector<4xindex>
    %v = arith.index_cast %e : index to i32
    llvm.store %v, %p : i32, !llvm.ptr<3>
  }
  return
}

// -----

// Ops of unregistered dialects (allowed only on request) stay where they
// are: nothing is known of their effects.

// CHECK-LABEL: func.func @unregistered
// CHECK: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: "test.pure"
// CHECK-NEXT: scf.for
// CHECK-NEXT: "test.other"
func.func @unregistered(%p: !llvm.ptr<3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = "test.unknown"() : () -> i32
  amdgpu.memory_counter_wait load(0)
  %y = "test.pure"(%x) : (i32) -> i32
  scf.for %i = %c0 to %n step %c1 {
    %z = "test.other"(%y) : (i32) -> i32
    llvm.store %z, %p : i32, !llvm.ptr<3>
  }
  return
}
