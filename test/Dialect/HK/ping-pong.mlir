// hk-ping-pong on a loop of clusters: a barrier after each cluster (one
// the user wrote is kept; after the waits that follow a cluster), priority
// 1 on compute clusters that have none (asked for here; the cost
// function's choice is ping-pong-priority.mlir's), and the phase shift
// around the loop.
// RUN: hk-opt %s -split-input-file --hk-ping-pong=setprio=true | FileCheck %s
// Scheduling twice changes nothing.
// RUN: hk-opt %s -split-input-file --hk-ping-pong=setprio=true --hk-ping-pong=setprio=true | FileCheck %s

// CHECK-LABEL: hk.kernel @pingpong
// CHECK: hk.barrier group 1
// CHECK-NEXT: scf.for
// CHECK-NEXT: hk.cluster memory {
// CHECK: {{^}} } : !hk.rt
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.cluster compute priority 1 {
// CHECK: {{^}} } : !hk.rt
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.cluster memory {
// CHECK: {{^}} } : !hk.rt
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.cluster compute priority 2 {
// CHECK: {{^}} } : !hk.rt
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
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
      hk.barrier
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

// -----

// The form hk-double-buffer leaves: the wait after the last compute
// cluster stays before the barrier that closes it.
// CHECK-LABEL: hk.kernel @waits
// CHECK: hk.barrier group 1
// CHECK-NEXT: scf.for
// CHECK-NEXT: hk.cluster memory {
// CHECK: {{^}} } : !hk.rt
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.cluster compute priority 1 {
// CHECK: {{^}} } : !hk.rt
// CHECK-NEXT: hk.wait
// CHECK-NEXT: hk.wait
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @waits() waves(8) schedule(#hk.pingpong<waves = 8>) {
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
      hk.wait
      hk.wait
      scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}

// -----

// Kernels with the other schedule are left alone.
// CHECK-LABEL: hk.kernel @interleave
// CHECK-NOT: hk.barrier
// CHECK-NOT: priority
// CHECK: hk.return
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

// Shared buffers that trade places every iteration (through iter_args):
// the loop is unrolled by two, each half on fixed buffers, the second half
// run when its iteration exists; only the accumulator stays loop-carried.
// CHECK-LABEL: hk.kernel @swapping
// CHECK: %[[S0:.*]] = hk.alloc
// CHECK-NEXT: %[[S1:.*]] = hk.alloc
// CHECK: hk.barrier group 1
// CHECK-NEXT: %[[STEP2:.*]] = arith.addi %[[STEP:.*]], %[[STEP]] : index
// CHECK-NEXT: scf.for %[[K:.*]] = %{{.*}} to %[[N:.*]] step %[[STEP2]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (!hk.rt
// CHECK-NEXT: hk.cluster memory {
// CHECK-NEXT: hk.load %[[S0]]
// CHECK: hk.cluster compute priority 1 {
// CHECK: hk.barrier
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[K1]], %[[N]] : index
// CHECK-NEXT: %[[SECOND:.*]] = scf.if %[[MORE]] -> (!hk.rt
// CHECK-NEXT: hk.cluster memory {
// CHECK-NEXT: hk.load %[[S1]]
// CHECK: } else {
// CHECK: scf.yield %[[SECOND]]
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @swapping(%n: i32) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %N = arith.index_cast %n : i32 to index
    %s0 = hk.alloc : !hk.st<64x32xbf16>
    %s1 = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %r:3 = scf.for %k = %c0 to %N step %c1 iter_args(%c = %zero, %cur = %s0, %next = %s1) -> (!hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.st<64x32xbf16>, !hk.st<64x32xbf16>) {
      %a = hk.cluster memory {
        %x = hk.load %cur[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d, %next, %cur : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.st<64x32xbf16>, !hk.st<64x32xbf16>
    }
    hk.return
  }
}

// -----

// The same loop whose last buffer is read after it keeps its form.
// CHECK-LABEL: hk.kernel @swapped_result_used
// CHECK: hk.barrier group 1
// CHECK-NEXT: %[[R:.*]]:3 = scf.for {{.*}} step %[[STEP:[^ ]*]] iter_args
// CHECK-NOT: scf.if
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
// CHECK-NEXT: hk.load %[[R]]#1
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @swapped_result_used(%n: i32) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %N = arith.index_cast %n : i32 to index
    %s0 = hk.alloc : !hk.st<64x32xbf16>
    %s1 = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %r:3 = scf.for %k = %c0 to %N step %c1 iter_args(%c = %zero, %cur = %s0, %next = %s1) -> (!hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.st<64x32xbf16>, !hk.st<64x32xbf16>) {
      %a = hk.cluster memory {
        %x = hk.load %cur[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d, %next, %cur : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.st<64x32xbf16>, !hk.st<64x32xbf16>
    }
    %last = hk.load %r#1[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    hk.return
  }
}

// -----

// A loop that compares unsigned keeps its form: the second half's guard
// would compare signed.
// CHECK-LABEL: hk.kernel @unsigned_loop
// CHECK: hk.barrier group 1
// CHECK-NEXT: %{{.*}}:3 = scf.for unsigned
// CHECK-NOT: scf.if
// CHECK: hk.barrier group 0
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @unsigned_loop(%n: i32) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %N = arith.index_cast %n : i32 to index
    %s0 = hk.alloc : !hk.st<64x32xbf16>
    %s1 = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %r:3 = scf.for unsigned %k = %c0 to %N step %c1 iter_args(%c = %zero, %cur = %s0, %next = %s1) -> (!hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.st<64x32xbf16>, !hk.st<64x32xbf16>) {
      %a = hk.cluster memory {
        %x = hk.load %cur[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d, %next, %cur : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.st<64x32xbf16>, !hk.st<64x32xbf16>
    }
    hk.return
  }
}
