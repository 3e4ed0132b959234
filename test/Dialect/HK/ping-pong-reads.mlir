// hk-ping-pong leaves a memory cluster's LDS reads in flight across the
// barrier that closes it (`hk.barrier reads_in_flight`: no lgkmcnt(0)
// before it) when no other wave can write what they read before this wave
// has used them: the cluster writes no LDS that a load of the loop reads
// (a prefetch into the spare buffer is fine), and the cluster the other
// group runs meanwhile, two on (the next iteration's first one past the
// loop's end), writes no LDS at all. Compute clusters' barriers still
// drain.
// RUN: hk-opt %s -split-input-file --hk-ping-pong | FileCheck %s

// The double-buffered form: the prefetch into the spare buffer and reads
// of the current one, then reads only. The first memory cluster's reads may
// fly (the second cluster writes nothing); the second's may not (the next
// iteration's prefetch overwrites what they read).
// CHECK-LABEL: hk.kernel @reads
// CHECK: hk.cluster memory {
// CHECK: hk.barrier reads_in_flight
// CHECK-NEXT: hk.cluster compute
// CHECK: hk.barrier{{$}}
// CHECK-NEXT: hk.cluster memory {
// CHECK: hk.barrier{{$}}
// CHECK-NEXT: hk.cluster compute
// CHECK: hk.wait
// CHECK-NEXT: hk.barrier{{$}}
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @reads(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %spare = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
      %a, %tok = hk.cluster memory {
        %t = hk.group_load async %A[%c0, %k], %spare {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16> -> !hk.token
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x, %t : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.token
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.token
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      %b = hk.cluster memory {
        %x = hk.load %s[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %e = hk.cluster compute {
        %y = hk.mma abt %b, %b, %d {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.wait [%tok]
      scf.yield %e : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}

// -----

// A group load into a tile the loop reads: no barrier lets reads fly.
// CHECK-LABEL: hk.kernel @prefetch_read
// CHECK-NOT: reads_in_flight
// CHECK: hk.return
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @prefetch_read(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %spare = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
      %a, %tok = hk.cluster memory {
        %t = hk.group_load async %A[%c0, %k], %s {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16> -> !hk.token
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x, %t : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.token
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.token
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      %b = hk.cluster memory {
        %x = hk.load %s[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %e = hk.cluster compute {
        %y = hk.mma abt %b, %b, %d {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.wait [%tok]
      scf.yield %e : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}

// -----

// The cluster the other group runs meanwhile stores to LDS: every memory
// cluster's barrier drains.
// CHECK-LABEL: hk.kernel @second_writes
// CHECK-NOT: reads_in_flight
// CHECK: hk.return
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @second_writes(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %spare = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
      %a, %tok = hk.cluster memory {
        %t = hk.group_load async %A[%c0, %k], %spare {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16> -> !hk.token
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x, %t : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.token
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.token
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      %b = hk.cluster memory {
        %x = hk.load %s[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.store %x, %spare[%c0, %c0] : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>> -> !hk.st<64x32xbf16>
        hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      %e = hk.cluster compute {
        %y = hk.mma abt %b, %b, %d {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.wait [%tok]
      scf.yield %e : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}

// -----

// One memory and one compute cluster: the cluster two on is the next
// iteration's memory cluster, whose prefetch overwrites what this one read.
// CHECK-LABEL: hk.kernel @one_pair
// CHECK-NOT: reads_in_flight
// CHECK: hk.return
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @one_pair(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %spare = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %zero) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
      %a, %tok = hk.cluster memory {
        %t = hk.group_load async %A[%c0, %k], %spare {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16> -> !hk.token
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x, %t : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.token
      } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.token
      %d = hk.cluster compute {
        %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.wait [%tok]
      scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}
