// A ping-pong ring of four copies is unrolled by four: each copy of the
// body reads fixed buffers, then prefetches into the one its predecessor
// read (the free copy), and waits for the tokens of the tile the next copy
// reads; the loop carries only the accumulator and the two tiles' tokens
// in flight (k+1 and k+2).
// RUN: hk-opt %s --hk-mfma-layout --hk-double-buffer --hk-ping-pong | FileCheck %s
// CHECK-LABEL: hk.kernel @pingpong_ring
// CHECK: %[[B0:.*]] = hk.alloc
// CHECK-NEXT: %[[B3:.*]] = hk.alloc
// CHECK-NEXT: %[[B2:.*]] = hk.alloc
// CHECK-NEXT: %[[B1:.*]] = hk.alloc
// CHECK: %[[T1:.*]] = hk.group_load async {{.*}}, %[[B1]] {waves = 4 : i32}
// CHECK: %[[T2:.*]] = hk.group_load async {{.*}}, %[[B2]] {waves = 4 : i32}
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[A1:.*]] = %[[T1]], %[[A2:.*]] = %[[T2]]) -> (!hk.rt<{{.*}}>, !hk.token, !hk.token)
// CHECK: %[[M0:.*]]:2 = hk.cluster memory
// CHECK-NEXT: hk.load %[[B0]]
// CHECK-NEXT: hk.cluster memory
// CHECK: hk.group_load async {{.*}}, %[[B3]] inbounds {waves = 4 : i32}
// CHECK: hk.group_load async {{.*}}, %[[B3]] {waves = 4 : i32}
// CHECK: hk.wait [%[[A1]]]
// CHECK: %[[M1:.*]]:2 = hk.cluster memory
// CHECK-NEXT: hk.load %[[B1]]
// CHECK-NEXT: hk.cluster memory
// CHECK: hk.group_load async {{.*}}, %[[B0]] inbounds {waves = 4 : i32}
// CHECK: hk.wait [%[[A2]]]
// CHECK: hk.cluster memory
// CHECK-NEXT: hk.load %[[B2]]
// CHECK-NEXT: hk.cluster memory
// CHECK: hk.group_load async {{.*}}, %[[B1]] inbounds {waves = 4 : i32}
// CHECK: hk.wait [%[[M0]]#1]
// CHECK: hk.cluster memory
// CHECK-NEXT: hk.load %[[B3]]
// CHECK-NEXT: hk.cluster memory
// CHECK: hk.group_load async {{.*}}, %[[B2]] inbounds {waves = 4 : i32}
// CHECK: hk.wait [%[[M1]]#1]
// CHECK-NOT: hk.cluster memory
// The store after the loop overlaps group 1's last compute cluster
// (ping-pong-epilogue.mlir).
// CHECK: hk.wait fence
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.store
// CHECK-NEXT: hk.barrier group 0 reads_in_flight
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
