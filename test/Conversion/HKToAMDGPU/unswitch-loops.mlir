// RUN: hk-opt --hk-unswitch-loops --split-input-file %s | FileCheck %s
// RUN: hk-opt --hk-unswitch-loops=max-copies=2 --split-input-file %s | FileCheck %s --check-prefix=TWO
// RUN: hk-opt --hk-unswitch-loops=max-copies=1 --split-input-file %s | FileCheck %s --check-prefix=ONE

// Two invariant, wave-uniform conditions (one from the workgroup id, one
// from a readfirstlane'd wave id): four copies of the loop, each with the
// rest of the function, and no branch left in any of them. With at most
// two copies only the first condition is taken; with one, nothing moves.

// CHECK-LABEL: llvm.func @steady
// CHECK: %[[INSIDE:.*]] = arith.cmpi slt
// CHECK: %[[GROUP:.*]] = arith.cmpi ult
// CHECK: scf.if %[[INSIDE]] {
// CHECK-NEXT: scf.if %[[GROUP]] {
// CHECK-NEXT: %[[R1:.*]] = scf.for
// CHECK-NEXT: llvm.store %[[V1:[^,]*]],
// CHECK-NEXT: llvm.store %[[V3:[^,]*]],
// CHECK-NEXT: arith.addf
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: llvm.store %[[R1]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[R2:.*]] = scf.for
// CHECK-NEXT: llvm.store %[[V1]],
// CHECK-NEXT: arith.addf
// CHECK: llvm.store %[[R2]]
// CHECK: } else {
// CHECK-NEXT: scf.if %[[GROUP]] {
// CHECK-NEXT: %[[R3:.*]] = scf.for
// CHECK-NEXT: llvm.store %[[V2:[^,]*]],
// CHECK-NEXT: llvm.store %[[V3]],
// CHECK-NEXT: arith.addf
// CHECK: llvm.store %[[R3]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[R4:.*]] = scf.for
// CHECK-NEXT: llvm.store %[[V2]],
// CHECK-NEXT: arith.addf
// CHECK: llvm.store %[[R4]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: llvm.return

// TWO-LABEL: llvm.func @steady
// TWO: scf.if %{{.*}} {
// TWO-NEXT: scf.for
// TWO-NEXT: llvm.store
// TWO-NEXT: scf.if
// TWO: } else {
// TWO-NEXT: scf.for
// TWO-NEXT: llvm.store
// TWO-NEXT: scf.if
// TWO-NOT: scf.for
// TWO: llvm.return

// ONE-LABEL: llvm.func @steady
// ONE: scf.for
// ONE-NEXT: scf.if
// ONE-NOT: scf.for
// ONE: llvm.return
llvm.func @steady(%p: !llvm.ptr<3>, %n: i32, %size: i32) attributes {rocdl.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c64 = arith.constant 64 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %one = arith.constant dense<1.0> : vector<4xf32>
  %wg = rocdl.workgroup.id.x : i32
  %inside = arith.cmpi slt, %wg, %size : i32
  %lane = rocdl.workitem.id.x : i32
  %wave = arith.divui %lane, %c64 : i32
  %first = rocdl.readfirstlane %wave : i32
  %group0 = arith.cmpi ult, %first, %c4 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) : i32 {
    scf.if %inside {
      llvm.store %c1_i32, %p : i32, !llvm.ptr<3>
    } else {
      llvm.store %c2_i32, %p : i32, !llvm.ptr<3>
    }
    scf.if %group0 {
      llvm.store %c3_i32, %p : i32, !llvm.ptr<3>
    }
    %next = arith.addf %acc, %one : vector<4xf32>
    scf.yield %next : vector<4xf32>
  }
  llvm.store %r, %p : vector<4xf32>, !llvm.ptr<3>
  llvm.return
}

// -----

// Conditions a loop must keep: one that differs between the lanes of a
// wave (a lane id), one read from memory, one the loop computes, and an
// invariant one that only a branch taken on some iterations holds.

// CHECK-LABEL: llvm.func @kept
// CHECK: scf.for
// CHECK-NEXT: scf.if %[[LANEC:.*]] {
// CHECK: scf.if %[[LOADED:.*]] {
// CHECK: %[[LAST:.*]] = arith.cmpi eq
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NOT: scf.for
llvm.func @kept(%p: !llvm.ptr<3>, %n: i32, %size: i32) attributes {rocdl.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1_i32 = arith.constant 1 : i32
  %lane = rocdl.workitem.id.x : i32
  %lanec = arith.cmpi slt, %lane, %size : i32
  %v = llvm.load %p : !llvm.ptr<3> -> i32
  %loaded = arith.cmpi slt, %v, %size : i32
  %wg = rocdl.workgroup.id.x : i32
  %inside = arith.cmpi slt, %wg, %size : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.if %lanec {
      llvm.store %c1_i32, %p : i32, !llvm.ptr<3>
    }
    scf.if %loaded {
      llvm.store %c1_i32, %p : i32, !llvm.ptr<3>
    }
    %last = arith.cmpi eq, %i, %n : i32
    scf.if %last {
      scf.if %inside {
        llvm.store %c1_i32, %p : i32, !llvm.ptr<3>
      }
    }
  }
  llvm.return
}

// -----

// An accumulator an earlier loop computes: the copies begin at that loop,
// so that no register vector flows into both, and what computes the
// condition (after the earlier loop) moves above it. A readfirstlane of an
// invariant value at the top level of a copy's body moves before the copy.

// CHECK-LABEL: llvm.func @fed
// CHECK: %[[WG:.*]] = rocdl.workgroup.id.x
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[WG]]
// CHECK-NEXT: scf.if %[[C]] {
// CHECK-NEXT: %[[A:.*]] = scf.for
// CHECK: %[[R:.*]] = rocdl.readfirstlane
// CHECK-NEXT: scf.for {{.*}} iter_args(%{{.*}} = %[[A]])
// CHECK-NOT: rocdl.readfirstlane
// CHECK: llvm.store %[[R]]
// CHECK: } else {
// CHECK-NEXT: %[[B:.*]] = scf.for
// CHECK: rocdl.readfirstlane
// CHECK-NEXT: scf.for {{.*}} iter_args(%{{.*}} = %[[B]])
// CHECK-NOT: llvm.store %{{.*}} : i32
// CHECK: llvm.store %{{.*}} : vector<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: llvm.return
llvm.func @fed(%p: !llvm.ptr<3>, %n: i32, %size: i32, %x: i32) attributes {rocdl.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1_i32 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %one = arith.constant dense<1.0> : vector<4xf32>
  %a = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) : i32 {
    %next = arith.addf %acc, %one : vector<4xf32>
    scf.yield %next : vector<4xf32>
  }
  %wg = rocdl.workgroup.id.x : i32
  %c = arith.cmpi slt, %wg, %size : i32
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (vector<4xf32>) : i32 {
    %r = rocdl.readfirstlane %x : i32
    scf.if %c {
      llvm.store %r, %p : i32, !llvm.ptr<3>
    }
    %next = arith.addf %acc, %one : vector<4xf32>
    scf.yield %next : vector<4xf32>
  }
  llvm.store %b, %p : vector<4xf32>, !llvm.ptr<3>
  llvm.return
}

// -----

// What the function returns from after the loop comes out of the branch.

// CHECK-LABEL: llvm.func @returns
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: scf.yield %{{.*}} : f32
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f32
// CHECK: llvm.return %[[R]] : f32
llvm.func @returns(%p: !llvm.ptr<3>, %n: i32, %c: i1) -> f32 attributes {rocdl.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    scf.if %c {
      llvm.store %acc, %p : f32, !llvm.ptr<3>
    }
    %next = arith.addf %acc, %one : f32
    scf.yield %next : f32
  }
  %t = arith.mulf %s, %s : f32
  llvm.return %t : f32
}

// -----

// A device function's arguments may differ between lanes (its caller's
// values): a branch on one stays.

// CHECK-LABEL: llvm.func @device
// CHECK: scf.for
// CHECK-NEXT: scf.if %arg2 {
// CHECK-NOT: scf.for
// CHECK: llvm.return
llvm.func @device(%p: !llvm.ptr<3>, %n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1_i32 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.if %c {
      llvm.store %c1_i32, %p : i32, !llvm.ptr<3>
    }
  }
  llvm.return
}
