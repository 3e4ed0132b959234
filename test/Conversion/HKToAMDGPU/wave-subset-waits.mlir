// A wait for a group load counts the direct-to-LDS instructions issued
// after it only where every wave that issued the awaited load issued them
// too. Ping-pong's loads are shared by wave group 0 alone (`waves = 4`):
// a wave of group 1 that waits for an all-wave load behind one of them has
// nothing else in flight, so the wait must drain. A 128x64 bf16 tile is 16
// KiB, sixteen 16-byte-per-lane instructions: four per wave among four,
// two among eight.
// RUN: hk-opt %s --hk-buffer-loads --convert-hk-to-amdgpu | FileCheck %s

// CHECK-LABEL: llvm.func @fewer_after
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK-NEXT: llvm.inline_asm
// CHECK-NEXT: rocdl.s.barrier

// CHECK-LABEL: llvm.func @more_after
// CHECK: amdgpu.memory_counter_wait load(2) ds(0)

// CHECK-LABEL: llvm.func @same_group
// CHECK: amdgpu.memory_counter_wait load(4) ds(0)
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @fewer_after(%A: !hk.gl<?x?xbf16>) waves(8) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s0 = hk.alloc : !hk.st<128x64xbf16>
    %s1 = hk.alloc : !hk.st<128x64xbf16>
    %t0 = hk.group_load async %A[%c0, %c0], %s0 inbounds : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
    %t1 = hk.group_load async %A[%c0, %c1], %s1 inbounds {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
    hk.wait [%t0]
    hk.barrier
    hk.wait [%t1]
    hk.return
  }
  hk.kernel @more_after(%A: !hk.gl<?x?xbf16>) waves(8) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s0 = hk.alloc : !hk.st<128x64xbf16>
    %s1 = hk.alloc : !hk.st<128x64xbf16>
    %t0 = hk.group_load async %A[%c0, %c0], %s0 inbounds {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
    %t1 = hk.group_load async %A[%c0, %c1], %s1 inbounds : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
    hk.wait [%t0]
    hk.barrier
    hk.wait [%t1]
    hk.return
  }
  hk.kernel @same_group(%A: !hk.gl<?x?xbf16>) waves(8) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s0 = hk.alloc : !hk.st<128x64xbf16>
    %s1 = hk.alloc : !hk.st<128x64xbf16>
    %t0 = hk.group_load async %A[%c0, %c0], %s0 inbounds {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
    %t1 = hk.group_load async %A[%c0, %c1], %s1 inbounds {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
    hk.wait [%t0]
    hk.barrier
    hk.wait [%t1]
    hk.return
  }
}
