// hk-double-buffer alone: a plain main loop becomes a software-pipelined
// loop of clusters shaped for the kernel's schedule, with none of the
// schedule's own barriers, priorities or instruction groups.
// RUN: hk-opt %s -split-input-file --hk-double-buffer | FileCheck %s

// Ping-pong, with the kernel asking for two cluster pairs (`clusters = 2`,
// which the cost function would not choose for these small tiles): one
// cluster per run of reads or computation; the first memory
// cluster prefetches the next tile from wave group 0 (waves = 4); the
// iteration ends with the wait and one barrier; the tiles swap. Before the
// loop, one flag says whether every iteration's tile lies inside its view:
// there is an iteration, and the first and the last one's tiles (lb +
// (ub - 1 - lb) / step * step; the tile index grows with k, so these two
// bound all others) are inside. Where it is, the
// prefetch is tile min(k + step, last), `inbounds`, with no guard;
// otherwise the guarded prefetch with its edge path.
// CHECK-LABEL: hk.kernel @pingpong
// CHECK: %[[SA:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK-NEXT: %[[SA2:.*]] = hk.alloc : !hk.st<64x32xbf16>
// The prologue issues every load of the first tile before one wait, from
// wave group 0 alone, as the prefetch.
// CHECK: %[[T0:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[C0:.*]]], %[[SA]] {waves = 4 : i32} : !hk.gl
// CHECK-NEXT: hk.wait [%[[T0]]]
// CHECK-NEXT: hk.barrier
// CHECK: %[[SPAN:.*]] = arith.subi %{{.*}}, %[[C0]]
// CHECK-NEXT: %[[STEPS:.*]] = arith.divui %[[SPAN]], %[[STEP:.*]] :
// CHECK-NEXT: %[[SCALED:.*]] = arith.muli %[[STEPS]], %[[STEP]]
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[C0]], %[[SCALED]]
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi slt, %[[C0]], %[[N:.*]] :
// CHECK-NEXT: %[[IN0:.*]] = hk.in_bounds %{{.*}}[%{{.*}}, %[[C0]]], %[[SA]]
// CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[ANY]], %[[IN0]]
// CHECK-NEXT: %[[IN:.*]] = hk.in_bounds %{{.*}}[%{{.*}}, %[[LAST]]], %[[SA]]
// CHECK-NEXT: %[[STEADY:.*]] = arith.andi %[[FIRST]], %[[IN]]
// CHECK-NEXT: %[[LOOP:.*]]:3 = scf.for %[[K:.*]] = %[[C0]] to %[[N]] step %[[STEP]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[CUR:.*]] = %[[SA]], %[[SPARE:.*]] = %[[SA2]])
// The first memory cluster reads tile k, then prefetches tile k+1 in a
// cluster of its own, which keeps the prefetch after the reads.
// CHECK-NEXT: %[[R0:.*]] = hk.cluster memory {
// CHECK-NEXT: %[[READ0:.*]] = hk.load %[[CUR]]
// CHECK-NEXT: hk.cluster memory {
// CHECK-NEXT: scf.if %[[STEADY]] {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]]
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[NEXT]], %[[LAST]]
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[CLAMPED]]], %[[SPARE]] inbounds {waves = 4 : i32}
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[NEXT2:.*]] = arith.addi %[[K]], %[[STEP]]
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[NEXT2]], %[[N]]
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[NEXT2]]], %[[SPARE]] {waves = 4 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: hk.yield %[[READ0]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[D0:.*]] = hk.cluster compute {
// CHECK-NEXT: hk.mma abt %[[R0]], %[[R0]], %[[ACC]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[R1:.*]] = hk.cluster memory {
// CHECK-NEXT: hk.load %[[CUR]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[D1:.*]] = hk.cluster compute {
// CHECK-NEXT: hk.mma abt %[[R1]], %[[R1]], %[[D0]]
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.wait
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield %[[D1]], %[[SPARE]], %[[CUR]]
// CHECK-NEXT: }
// CHECK-NOT: hk.barrier group
// CHECK: hk.store %[[LOOP]]#0
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @pingpong(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8, clusters = 2>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d0 = hk.mma abt %a0, %a0, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      %a1 = hk.load %sA[%c0, %c1] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d1 = hk.mma abt %a1, %a1, %d0 : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d1 : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// Interleave: one compute cluster whose prefetch comes in three versions.
// When every iteration's tile lies inside its view (%[[ALL]], decided
// before the loop, as for ping-pong), tile min(k+1, last), branch-free and
// `inbounds`: hk-unswitch-loops later gives that version a loop of its
// own. Otherwise, chosen per iteration by whether the next tile exists
// and lies inside its view: the branch-free version loads it `inbounds`,
// the other guards it. The MFMAs follow all (the accumulator is not merged
// at the end of a branch). The cluster reads the current tile before the
// prefetch. No instruction groups yet. Before the loop, the last
// iteration whose tile lies inside its view (the tile index grows with k,
// so the tiles inside are those up to it): the last one (%[[LAST]]) when
// its tile is inside, else the one before when its tile is (a ragged last
// tile), else one below the first; an iteration compares its next k with
// that bound.
// CHECK-LABEL: hk.kernel @interleave
// CHECK: %[[LAST:.*]] = arith.addi %[[C0:.*]], %{{.*}} : index
// CHECK-NEXT: %[[NONEMPTY:.*]] = arith.cmpi slt, %[[C0]], %[[N:.*]] : index
// CHECK-NEXT: %[[IN0:.*]] = hk.in_bounds %{{.*}}[%{{.*}}, %[[C0]]]
// CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[NONEMPTY]], %[[IN0]]
// CHECK-NEXT: %[[INL:.*]] = hk.in_bounds %{{.*}}[%{{.*}}, %[[LAST]]]
// CHECK-NEXT: %[[ALL:.*]] = arith.andi %[[FIRST]], %[[INL]]
// CHECK-NEXT: %[[BEFORE:.*]] = arith.subi %[[LAST]], %[[STEP:.*]] : index
// CHECK-NEXT: %[[HASBEFORE:.*]] = arith.cmpi sle, %[[C0]], %[[BEFORE]]
// CHECK-NEXT: %[[FIRSTB:.*]] = arith.andi %[[FIRST]], %[[HASBEFORE]]
// CHECK-NEXT: %[[INB:.*]] = hk.in_bounds %{{.*}}[%{{.*}}, %[[BEFORE]]]
// CHECK-NEXT: %[[BUTLAST:.*]] = arith.andi %[[FIRSTB]], %[[INB]]
// CHECK-NEXT: %[[NONE:.*]] = arith.subi %[[C0]], %[[STEP]]
// CHECK-NEXT: %[[B2:.*]] = arith.select %[[BUTLAST]], %[[BEFORE]], %[[NONE]]
// CHECK-NEXT: %[[BOUND:.*]] = arith.select %[[ALL]], %[[LAST]], %[[B2]]
// CHECK-NEXT: scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[CUR:.*]] = %{{.*}}, %[[SPARE:.*]] = %{{.*}})
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]]
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi sle, %[[NEXT]], %[[BOUND]]
// CHECK-NEXT: %[[D:.*]] = hk.cluster compute {
// CHECK-NEXT: hk.load %[[CUR]]
// CHECK-NEXT: scf.if %[[ALL]] {
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[NEXT]], %[[LAST]]
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[CLAMPED]]], %[[SPARE]] inbounds
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: hk.group_load async %{{.*}}[%{{.*}}, %[[NEXT]]], %[[SPARE]] inbounds
// CHECK-NEXT: } else {
// CHECK-NEXT: arith.addi %[[K]]
// CHECK-NEXT: %[[MORE2:.*]] = arith.cmpi slt
// CHECK-NEXT: scf.if %[[MORE2]] {
// CHECK-NEXT: hk.group_load async %{{.*}}, %[[SPARE]] :
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.yield
// CHECK-NOT: rocdl.sched.group.barrier
// CHECK: hk.wait
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield %[[D]], %[[SPARE]], %[[CUR]]
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @interleave(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// An hk.priority in the loop goes with the computation around it, in
// place, in the compute cluster.
// CHECK-LABEL: hk.kernel @priority
// CHECK: hk.cluster compute {
// CHECK-NEXT: hk.load
// CHECK-NEXT: scf.if
// CHECK: hk.mma
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.exp2
// CHECK-NEXT: hk.priority 1
// CHECK-NEXT: hk.yield
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @priority(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      hk.priority 0
      %e = hk.exp2 %d : !hk.rt<16x16xf32>
      hk.priority 1
      hk.barrier
      scf.yield %e : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// Tile indices that shrink as the loop goes on (K tiles walked backwards)
// do not let the last iteration stand for all: no flag, and only the
// guarded prefetch.
// CHECK-LABEL: hk.kernel @backwards
// CHECK-NOT: hk.in_bounds
// CHECK-NOT: inbounds
// CHECK: scf.for
// CHECK: hk.cluster memory {
// CHECK: arith.cmpi slt
// CHECK-NEXT: scf.if
// CHECK-NOT: inbounds
// CHECK: hk.group_load async {{.*}} {waves = 4 : i32}
// CHECK-NOT: inbounds
// CHECK: hk.return
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @backwards(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      %kk = arith.subi %K, %k : index
      %kr = arith.subi %kk, %c1 : index
      hk.group_load %A[%c0, %kr], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d0 = hk.mma abt %a0, %a0, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d0 : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// Tile indices clamped to the first or the last tile (signed minima and
// maxima of growing values, as a loop one iteration longer than its tiles
// reads them) still grow with k: the flag is computed once and the
// prefetch is `inbounds` where it holds.
// CHECK-LABEL: hk.kernel @clamped
// CHECK: hk.in_bounds
// CHECK: scf.for
// CHECK: hk.cluster memory {
// CHECK: hk.group_load async {{.*}} inbounds
// CHECK: hk.return
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @clamped(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %last = arith.subi %K, %c1 : index
    %iters = arith.addi %K, %c1 : index
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %sB = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %iters step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      %ka = arith.minsi %k, %last : index
      %km1 = arith.subi %k, %c1 : index
      %kb = arith.maxsi %km1, %c0 : index
      hk.group_load %A[%c0, %ka], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.group_load %A[%c0, %kb], %sB : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a0 = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %b0 = hk.load %sB[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d0 = hk.mma abt %a0, %b0, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d0 : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// A kernel without a schedule, and a loop already made of clusters, are
// left as written.
// CHECK-LABEL: hk.kernel @unscheduled
// CHECK-NOT: hk.cluster
// CHECK-NOT: async
// CHECK: hk.return
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @unscheduled(%A: !hk.gl<?x?xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      scf.yield %d : !hk.rt<16x16xf32>
    }
    hk.return
  }
}

// -----

// CHECK-LABEL: hk.kernel @clusters
// CHECK: hk.alloc
// CHECK-NOT: hk.alloc
// CHECK: scf.for
// CHECK-NEXT: hk.cluster memory {
// CHECK-NEXT: hk.load
// CHECK-NOT: async
// CHECK: hk.cluster compute {
// CHECK-NOT: hk.wait
// CHECK: scf.yield
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @clusters() waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      %a = hk.cluster memory {
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
        hk.yield %x : !hk.rt<16x16xbf16>
      } : !hk.rt<16x16xbf16>
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
        hk.yield %y : !hk.rt<16x16xf32>
      } : !hk.rt<16x16xf32>
      scf.yield %d : !hk.rt<16x16xf32>
    }
    hk.return
  }
}

// -----

// `stages = 3`: a ring of three buffers. The prologue loads tile 0 into the
// original buffer and tile 1 into the next one, and waits for tile 0 only.
// Iteration k reads the current buffer and then (so that its MFMAs wait
// for their fragments, not behind the prefetch) prefetches tile k+2 into the
// free one (tile min(k+2, last), inbounds, when every tile lies inside;
// else inbounds while k+2 is at most the bound; otherwise with its
// edge path, or, past the end, the last tile inside again, inbounds from
// loop-invariant indices: a buffer nothing reads, loaded so that every
// version gives its token), then waits for tile
// k+1's token, which it was given, leaving tile k+2's loads in flight. The
// buffers rotate: next -> current, free -> next, current -> free. After
// the loop every load has landed before LDS is used again.
// CHECK-LABEL: hk.kernel @ring
// CHECK: %[[BUF:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK-NEXT: %[[FREE:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK-NEXT: %[[NEXT:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK: %[[T0:.*]] = hk.group_load async %{{.*}}[%[[C0:.*]], %[[C0]]], %[[BUF]] :
// CHECK-NEXT: %[[ONE:.*]] = arith.addi %[[C0]], %[[STEP:.*]] : index
// CHECK-NEXT: %[[T1:.*]] = hk.group_load async %{{.*}}[%[[C0]], %[[ONE]]], %[[NEXT]] :
// CHECK-NEXT: hk.wait [%[[T0]]]
// CHECK-NEXT: hk.barrier
// CHECK: arith.select
// CHECK-NEXT: %[[BOUND:.*]] = arith.select
// CHECK-NEXT: scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[CUR_A:.*]] = %[[BUF]], %[[NEXT_A:.*]] = %[[NEXT]], %[[FREE_A:.*]] = %[[FREE]], %[[TOK_A:.*]] = %[[T1]])
// CHECK-NEXT: %[[TWO:.*]] = arith.addi %[[STEP]], %[[STEP]] : index
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[K]], %[[TWO]] : index
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi sle, %[[AHEAD]], %[[BOUND]]
// CHECK-NEXT: %[[V:.*]]:2 = hk.cluster compute {
// CHECK-NEXT: hk.load %[[CUR_A]]
// CHECK-NEXT: %[[TOK:.*]] = scf.if %{{.*}} -> (!hk.token) {
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[AHEAD]], %{{.*}} : index
// CHECK-NEXT: %[[TSTEADY:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[CLAMPED]]], %[[FREE_A]] inbounds
// CHECK-NEXT: scf.yield %[[TSTEADY]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[TCHOSEN:.*]] = scf.if %[[OK]] -> (!hk.token) {
// CHECK-NEXT: %[[TIN:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[AHEAD]]], %[[FREE_A]] inbounds
// CHECK-NEXT: scf.yield %[[TIN]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[PAST:.*]] = arith.cmpi sge, %[[AHEAD]], %[[UB:.*]] : index
// CHECK-NEXT: %[[SOME:.*]] = arith.cmpi sge, %[[BOUND]], %[[C0]] : index
// CHECK-NEXT: %[[AGAIN:.*]] = arith.andi %[[PAST]], %[[SOME]] : i1
// CHECK-NEXT: %[[TEDGE:.*]] = scf.if %[[AGAIN]] -> (!hk.token) {
// CHECK-NEXT: %[[TLAST:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[BOUND]]], %[[FREE_A]] inbounds
// CHECK-NEXT: scf.yield %[[TLAST]] : !hk.token
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[TPATH:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[AHEAD]]], %[[FREE_A]] :
// CHECK-NEXT: scf.yield %[[TPATH]] : !hk.token
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[TEDGE]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[TCHOSEN]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:.*]] = hk.mma
// CHECK-NEXT: hk.yield %[[D]], %[[TOK]]
// CHECK: hk.wait [%[[TOK_A]]]
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield %[[V]]#0, %[[NEXT_A]], %[[FREE_A]], %[[CUR_A]], %[[V]]#1
// CHECK: hk.wait{{$}}
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.store
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @ring(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) schedule(#hk.interleave<waves = 4, stages = 3>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// A ping-pong ring of four: wave group 0 alone loads tiles 0-2 before the
// loop (so that the wait for tile 0, which every wave runs, leaves tiles 1
// and 2 in flight), iteration k prefetches tile k+3 into the free buffers
// and waits for tile k+1's loads only, and the ring turns by one.
// CHECK-LABEL: hk.kernel @pingpong_ring
// CHECK: %[[BUF:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK-NEXT: %[[FREE:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK-NEXT: %[[THIRD:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK-NEXT: %[[SECOND:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK: %[[T0:.*]] = hk.group_load async %{{.*}}[%[[C0:.*]], %[[C0]]], %[[BUF]] {waves = 4 : i32}
// CHECK-NEXT: %[[ONE:.*]] = arith.addi %[[C0]], %[[STEP:.*]] : index
// CHECK-NEXT: %[[T1:.*]] = hk.group_load async %{{.*}}[%[[C0]], %[[ONE]]], %[[SECOND]] {waves = 4 : i32}
// CHECK-NEXT: %[[TWO:.*]] = arith.addi %[[ONE]], %[[STEP]] : index
// CHECK-NEXT: %[[T2:.*]] = hk.group_load async %{{.*}}[%[[C0]], %[[TWO]]], %[[THIRD]] {waves = 4 : i32}
// CHECK-NEXT: hk.wait [%[[T0]]]
// CHECK-NEXT: hk.barrier
// CHECK: %[[LAST:.*]] = arith.addi %[[C0]], %{{.*}} : index
// CHECK: hk.in_bounds %{{.*}}[%[[C0]], %[[LAST]]]
// CHECK-NEXT: %[[STEADY:.*]] = arith.andi
// CHECK-NEXT: scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[CUR_A:.*]] = %[[BUF]], %[[SECOND_A:.*]] = %[[SECOND]], %[[THIRD_A:.*]] = %[[THIRD]], %[[FREE_A:.*]] = %[[FREE]], %[[TOK1:.*]] = %[[T1]], %[[TOK2:.*]] = %[[T2]])
// CHECK-NEXT: %[[MEM:.*]]:2 = hk.cluster memory {
// CHECK-NEXT: hk.load %[[CUR_A]]
// CHECK-NEXT: %[[FENCED:.*]] = hk.cluster memory {
// CHECK-NEXT: %[[TOK:.*]] = scf.if %[[STEADY]] -> (!hk.token) {
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[AHEAD]], %[[LAST]] : index
// CHECK-NEXT: %[[TIN:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[CLAMPED]]], %[[FREE_A]] inbounds {waves = 4 : i32}
// CHECK-NEXT: scf.yield %[[TIN]]
// CHECK-NEXT: } else {
// CHECK: %[[AHEAD2:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT: %[[TEDGE:.*]] = hk.group_load async %{{.*}}[%{{.*}}, %[[AHEAD2]]], %[[FREE_A]] {waves = 4 : i32}
// CHECK-NEXT: scf.yield %[[TEDGE]]
// CHECK-NEXT: }
// CHECK-NEXT: hk.yield %[[TOK]] : !hk.token
// CHECK-NEXT: } : !hk.token
// CHECK-NEXT: hk.yield %{{.*}}, %[[FENCED]]
// CHECK: hk.cluster compute
// CHECK: hk.wait [%[[TOK1]]]
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield %{{.*}}, %[[SECOND_A]], %[[THIRD_A]], %[[FREE_A]], %[[CUR_A]], %[[TOK2]], %[[MEM]]#1
// CHECK: hk.wait{{$}}
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.store
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @pingpong_ring(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8, stages = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// A register tile loaded from global memory before the loop and read in it
// (attention's Q) is waited for before the prologue's first group load, so
// that no wait for it lands inside the loop. A tile the loop reads from
// LDS or that is built in registers asks for none.
// CHECK-LABEL: hk.kernel @register_operand
// CHECK: %[[Q:.*]] = hk.load %{{.*}}[%{{.*}}, %{{.*}}] : !hk.gl<?x?xbf16> -> !hk.rt<16x32xbf16>
// CHECK-NEXT: hk.alloc
// CHECK-NEXT: hk.alloc
// CHECK-NEXT: hk.zero
// CHECK-NEXT: hk.wait{{$}}
// CHECK-NEXT: %[[FIRST:.*]] = hk.group_load async
// CHECK-NEXT: hk.wait [%[[FIRST]]]
// CHECK-NOT: hk.wait{{$}}
// CHECK: scf.for
// CHECK: hk.mma abt %{{.*}}, %[[Q]]
// CHECK-LABEL: hk.kernel @no_register_operand
// CHECK-NOT: hk.wait{{$}}
// CHECK: hk.group_load async
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @register_operand(%A: !hk.gl<?x?xbf16>, %Q: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %q = hk.load %Q[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<16x32xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d = hk.mma abt %a, %q, %c : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  hk.kernel @no_register_operand(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %one = arith.constant 1.0 : bf16
    %b = hk.fill %one : bf16 -> !hk.rt<16x32xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16>
      %d = hk.mma abt %a, %b, %c : !hk.rt<16x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// -----

// A body that reads shared tiles after its first MFMAs (attention's V)
// keeps the whole compute cluster in two versions, each with its own
// prefetch, chosen per iteration: with the prefetch versioned alone, the
// gfx942 attention kernels stalled on their loads, and with a steady-state
// version of its own (as a GEMM body gets), the gfx950 d128 attention was
// predicted slower once unswitched.
// CHECK-LABEL: hk.kernel @reads_after_compute
// CHECK: scf.for
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi sle
// CHECK-NEXT: %{{.*}} = scf.if %[[OK]] -> (!hk.rt<16x16xf32>) {
// CHECK-NEXT: hk.cluster compute {
// CHECK-NEXT: hk.load
// CHECK-NEXT: hk.group_load async {{.*}} inbounds
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.load
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.yield
// CHECK: } else {
// CHECK-NEXT: hk.cluster compute {
// CHECK-NEXT: hk.load
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.cmpi slt
// CHECK-NEXT: scf.if
// CHECK-NEXT: hk.group_load async
// CHECK-NEXT: }
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.load
// CHECK-NEXT: hk.mma
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @reads_after_compute(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %K step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32> {
      hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      hk.barrier
      %a = hk.load %sA[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %d = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      %b = hk.load %sA[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x16xbf16>
      %e = hk.mma abt %b, %b, %d : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %e : !hk.rt<16x16xf32>
    }
    hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}
