// hk-ping-pong lets group 0 run the epilogue's first part while group 1
// runs the loop's last compute cluster: group 0's balancing barrier moves
// down to the epilogue's next barrier (or its end), leaving its LDS writes
// in flight (that barrier waits for them), and an epilogue's `hk.wait;
// hk.barrier` becomes `hk.wait fence` directly after the loop. Where the kernel sets no
// priorities, both groups run at priority 1 until they leave the loop. Each
// case after the first breaks one condition and keeps the plain form.
// RUN: hk-opt %s -split-input-file --hk-ping-pong | FileCheck %s

// CHECK-LABEL: hk.kernel @overlapped
// CHECK-NEXT: hk.priority 1
// CHECK: hk.barrier group 1
// CHECK-NEXT: scf.for
// CHECK: hk.cluster memory {
// CHECK: hk.barrier{{$}}
// CHECK-NEXT: hk.cluster compute {
// CHECK: hk.barrier{{$}}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.wait fence
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.alloc
// CHECK-NEXT: hk.store
// CHECK-NEXT: hk.barrier group 0 reads_in_flight
// CHECK-NEXT: hk.barrier{{$}}
// CHECK-NEXT: hk.group_store
hk.kernel @overlapped(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// Waves that copy their own tiles out (`via ... staged`) need no barrier
// after writing them: the first part ends at the first staged copy, and
// group 0's copies follow its balancing barrier.
// CHECK-LABEL: hk.kernel @own_copies
// CHECK: hk.wait fence
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.alloc
// CHECK-NEXT: hk.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] :
// CHECK-NEXT: hk.barrier group 0 reads_in_flight
// CHECK-NEXT: hk.store %{{.*}} via %{{.*}} staged
// CHECK-NEXT: hk.return
hk.kernel @own_copies(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.store %acc, %C[%c0, %c0] via %sC[%c0, %c0] staged : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.gl<?x?xbf16>, !hk.st<16x16xbf16>
  hk.return
}

// -----

// Compute clusters with a priority of their own end at priority 0: group
// 1's last one already outranks group 0's epilogue, no priority is added.
// CHECK-LABEL: hk.kernel @prioritized
// CHECK-NOT: hk.priority
// CHECK: hk.cluster compute priority 1 {
// CHECK: hk.wait fence
// CHECK-NOT: hk.priority
// CHECK: hk.barrier group 0
hk.kernel @prioritized(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = true>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// The last compute cluster reads LDS: group 0's epilogue could overwrite
// what group 1 still reads.
// CHECK-LABEL: hk.kernel @compute_reads_lds
// CHECK-NOT: hk.priority
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
// CHECK-NEXT: hk.wait{{$}}
// CHECK-NEXT: hk.barrier{{$}}
hk.kernel @compute_reads_lds(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %b = hk.load %s[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %y = hk.mma abt %a, %b, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// The last memory cluster's barrier leaves its reads in flight (nothing in
// the loop writes LDS): group 1's reads may still be returning when group
// 0 leaves the loop.
// CHECK-LABEL: hk.kernel @reads_in_flight
// CHECK: hk.barrier reads_in_flight
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
// CHECK-NEXT: hk.wait{{$}}
// CHECK-NEXT: hk.barrier{{$}}
hk.kernel @reads_in_flight(%C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
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
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// Every wave issues the loop's asynchronous loads: group 1's may still be
// landing in LDS when group 0 leaves the loop.
// CHECK-LABEL: hk.kernel @all_waves_load
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
// CHECK-NEXT: hk.wait{{$}}
// CHECK-NEXT: hk.barrier{{$}}
hk.kernel @all_waves_load(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %s2 = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      %t = hk.group_load async %A[%c0, %k], %s2 : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16> -> !hk.token
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// A barrier nested in the epilogue's first part: moving group 0's
// balancing barrier past it would pair the groups' barriers differently.
// CHECK-LABEL: hk.kernel @nested_barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
// CHECK-NEXT: hk.wait{{$}}
// CHECK-NEXT: hk.barrier{{$}}
hk.kernel @nested_barrier(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>, %n: i32) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  %c0_i32 = arith.constant 0 : i32
  %p = arith.cmpi sgt, %n, %c0_i32 : i32
  scf.if %p {
    hk.barrier
  }
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// The epilogue's next barrier leaves LDS accesses in flight: group 0's
// writes would not be waited for before group 1 reads them.
// CHECK-LABEL: hk.kernel @next_barrier_in_flight
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.barrier group 0
// CHECK-NEXT: hk.wait{{$}}
// CHECK-NEXT: hk.barrier{{$}}
hk.kernel @next_barrier_in_flight(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier reads_in_flight
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// An epilogue that stores from registers, with no barrier: group 0 stores
// under group 1's last compute cluster, its balancing barrier at the end.
// CHECK-LABEL: hk.kernel @register_store
// CHECK-NEXT: hk.priority 1
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.store
// CHECK-NEXT: hk.barrier group 0 reads_in_flight
// CHECK-NEXT: hk.return
hk.kernel @register_store(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.store %acc, %C[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.gl<?x?xf32>
  hk.return
}

// -----

// A fence the kernel already has stays directly after the loop: the
// balancing barrier goes after it (the epilogue then starts with a barrier
// of its own, so nothing overlaps).
// CHECK-LABEL: hk.kernel @own_fence(
// CHECK-NOT: hk.priority
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.wait fence
// CHECK-NEXT: hk.barrier group 0{{$}}
// CHECK-NEXT: hk.barrier{{$}}
// CHECK-NEXT: hk.alloc
hk.kernel @own_fence(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait fence
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// The same fence with no barrier after it: the epilogue's first part runs
// up to its first barrier, after the fence and the drop in priority.
// CHECK-LABEL: hk.kernel @own_fence_overlapped
// CHECK-NEXT: hk.priority 1
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.wait fence
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.alloc
// CHECK-NEXT: hk.store
// CHECK-NEXT: hk.barrier group 0 reads_in_flight
// CHECK-NEXT: hk.barrier{{$}}
// CHECK-NEXT: hk.group_store
hk.kernel @own_fence_overlapped(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait fence
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}

// -----

// With its own fence, an epilogue's `hk.wait; hk.barrier` stays as it is
// (no second fence): only the wait runs before the balancing barrier.
// CHECK-LABEL: hk.kernel @own_fence_then_wait
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.wait fence
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.wait{{$}}
// CHECK-NEXT: hk.barrier group 0 reads_in_flight
// CHECK-NEXT: hk.barrier{{$}}
// CHECK-NEXT: hk.alloc
hk.kernel @own_fence_then_wait(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = false>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      hk.group_load %A[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
      %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.wait fence
  hk.wait
  hk.barrier
  %sC = hk.alloc : !hk.st<16x16xbf16>
  hk.store %acc, %sC[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.st<16x16xbf16>
  hk.barrier
  hk.group_store %sC, %C[%c0, %c0] : !hk.st<16x16xbf16>, !hk.gl<?x?xbf16>
  hk.return
}
