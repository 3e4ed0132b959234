// A schedule named on one loop (`hk.schedule`) instead of on the kernel:
// hk-schedule pipelines that loop, keeps the name on the new loop so that
// the wave-group barriers stay legal, and leaves the kernel's other hk.mma
// loop, which uses shared tiles of its own, as written.
// RUN: hk-opt %s --hk-mfma-layout --hk-schedule | FileCheck %s
// RUN: hk-opt %s --hk-mfma-layout --hk-schedule | hk-opt | FileCheck %s

// CHECK-LABEL: hk.kernel @two_loops
// The first loop is left alone.
// CHECK: scf.for
// CHECK-NOT: hk.cluster
// CHECK: hk.group_load %{{.*}}, %{{.*}} : !hk.gl
// CHECK-NOT: hk.cluster
// CHECK: scf.yield
// The named loop is pipelined, with the phase shift around it.
// CHECK: hk.barrier group 1
// CHECK-NEXT: arith.addi
// CHECK-NEXT: scf.for
// CHECK: hk.cluster memory
// CHECK: hk.group_load async
// CHECK: hk.cluster compute {
// CHECK: hk.wait
// CHECK-NEXT: hk.barrier
// CHECK: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {hk.schedule = #hk.pingpong<waves = 8>}
// Group 0 stores under group 1's last compute cluster
// (ping-pong-epilogue.mlir).
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.store
// CHECK-NEXT: hk.barrier group 0 reads_in_flight
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @two_loops(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>)
      waves(8) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c4 : index
    %wn = arith.remui %w, %c4 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %sA = hk.alloc : !hk.st<256x32xbf16>
    %sB = hk.alloc : !hk.st<256x32xbf16>
    %sA0 = hk.alloc : !hk.st<256x32xbf16>
    %sB0 = hk.alloc : !hk.st<256x32xbf16>
    %zero = hk.zero : !hk.rt<128x64xf32>
    %first = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<128x64xf32> {
      hk.group_load %A[%bm, %k], %sA0 : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.group_load %B[%bn, %k], %sB0 : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.barrier
      %a = hk.load %sA0[%wm, %c0] : !hk.st<256x32xbf16> -> !hk.rt<128x32xbf16>
      %b = hk.load %sB0[%wn, %c0] : !hk.st<256x32xbf16> -> !hk.rt<64x32xbf16>
      %d = hk.mma abt %a, %b, %c : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<128x64xf32>
    }
    %acc = scf.for %k = %c1 to %K step %c1 iter_args(%c = %first) -> !hk.rt<128x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<256x32xbf16> -> !hk.rt<128x32xbf16>
      %b = hk.load %sB[%wn, %c0] : !hk.st<256x32xbf16> -> !hk.rt<64x32xbf16>
      %d = hk.mma abt %a, %b, %c : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<128x64xf32>
    } {hk.schedule = #hk.pingpong<waves = 8>}
    hk.store %acc, %C[%wm, %wn] : !hk.rt<128x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}
