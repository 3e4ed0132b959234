// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s

// Two tiles whose uses a drain (token-less hk.wait) and a barrier
// separate share their bytes: the kernel's LDS is one tile, and both sit
// at offset 0.
// CHECK: llvm.mlir.global internal @fenced__lds() {{.*}} : !llvm.array<4096 x i8>
// CHECK-LABEL: llvm.func @fenced
// CHECK-NOT: arith.constant 4096 : i32
// CHECK: llvm.return
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @fenced() waves(1) {
  %t = hk.zero : !hk.rt<32x64xbf16, row>
  %a = hk.alloc : !hk.st<32x64xbf16>
  hk.store %t, %a : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  hk.wait
  hk.barrier
  %b = hk.alloc : !hk.st<32x64xbf16>
  hk.store %t, %b : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  hk.return
}
}

// -----

// Without the wait, asynchronous loads may still land in the first tile:
// no sharing, the second tile follows the first.
// CHECK: llvm.mlir.global internal @barrier_only__lds() {{.*}} : !llvm.array<8192 x i8>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @barrier_only() waves(1) {
  %t = hk.zero : !hk.rt<32x64xbf16, row>
  %a = hk.alloc : !hk.st<32x64xbf16>
  hk.store %t, %a : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  hk.barrier
  %b = hk.alloc : !hk.st<32x64xbf16>
  hk.store %t, %b : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  hk.return
}
}

// -----

// A use of the first tile after the fence keeps it live there.
// CHECK: llvm.mlir.global internal @used_after__lds() {{.*}} : !llvm.array<8192 x i8>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @used_after() waves(1) {
  %t = hk.zero : !hk.rt<32x64xbf16, row>
  %a = hk.alloc : !hk.st<32x64xbf16>
  hk.store %t, %a : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  hk.wait
  hk.barrier
  %b = hk.alloc : !hk.st<32x64xbf16>
  hk.store %t, %b : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  %r = hk.load %a : !hk.st<32x64xbf16> -> !hk.rt<32x64xbf16, row>
  hk.return
}
}

// -----

// A tile carried through a loop is live wherever the loop's result is
// used: here after the fence, so nothing is shared; the same loop whose
// result is not used after the fence lets the tiles share.
// CHECK: llvm.mlir.global internal @carried__lds() {{.*}} : !llvm.array<8192 x i8>
// CHECK: llvm.mlir.global internal @carried_dead__lds() {{.*}} : !llvm.array<4096 x i8>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @carried() waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = hk.zero : !hk.rt<32x64xbf16, row>
  %a = hk.alloc : !hk.st<32x64xbf16>
  %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %a)
      -> (!hk.st<32x64xbf16>) {
    hk.store %t, %s : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
    scf.yield %s : !hk.st<32x64xbf16>
  }
  hk.wait
  hk.barrier
  %b = hk.alloc : !hk.st<32x64xbf16>
  hk.store %t, %b : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  %r = hk.load %last : !hk.st<32x64xbf16> -> !hk.rt<32x64xbf16, row>
  hk.return
}
hk.kernel @carried_dead() waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = hk.zero : !hk.rt<32x64xbf16, row>
  %a = hk.alloc : !hk.st<32x64xbf16>
  %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %a)
      -> (!hk.st<32x64xbf16>) {
    hk.store %t, %s : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
    scf.yield %s : !hk.st<32x64xbf16>
  }
  hk.wait
  hk.barrier
  %b = hk.alloc : !hk.st<32x64xbf16>
  hk.store %t, %b : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  hk.return
}
}

// -----

// A fence inside a loop separates nothing: both tiles are used by the
// same op of the kernel body.
// CHECK: llvm.mlir.global internal @fence_in_loop__lds() {{.*}} : !llvm.array<8192 x i8>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @fence_in_loop() waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = hk.zero : !hk.rt<32x64xbf16, row>
  %a = hk.alloc : !hk.st<32x64xbf16>
  %b = hk.alloc : !hk.st<32x64xbf16>
  scf.for %i = %c0 to %c2 step %c1 {
    hk.store %t, %a : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
    hk.wait
    hk.barrier
    hk.store %t, %b : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  }
  hk.return
}
}
