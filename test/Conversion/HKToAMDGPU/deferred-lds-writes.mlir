// An asynchronous, inbounds group load staged through registers (a
// transposing copy; here every copy, direct-to-LDS being off) issues its
// global loads where it stands and writes LDS before the next op of its
// block that waits or synchronizes, or before the block's end: the ops in
// between run while the loads are in flight. A load without `inbounds`
// (edge path) or followed at once by a wait keeps its writes next to its
// loads.
// RUN: hk-opt %s --hk-mfma-layout --hk-buffer-loads=direct=never \
// RUN:   --convert-hk-to-amdgpu | FileCheck %s

module attributes {hk.target = #hk.target<"gfx942">} {
  // 64x64 bf16 over 256 lanes: two rounds of one 16-byte chunk per lane,
  // each loaded into a value the round's guard yields (zero for a lane
  // without a chunk), then the reads of %t, then the 8 elements of each
  // chunk written one by one to their transposed places, then the wait.
  // CHECK-LABEL: llvm.func @deferred
  // CHECK: %[[C0:.*]] = scf.if %{{.*}} -> (vector<8xbf16>) {
  // CHECK: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
  // CHECK: } else {
  // CHECK: %[[C1:.*]] = scf.if %{{.*}} -> (vector<8xbf16>) {
  // CHECK: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<
  // CHECK: rocdl.raw.ptr.buffer.store
  // CHECK: scf.if
  // CHECK-COUNT-8: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK: scf.if
  // CHECK-COUNT-8: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK-NOT: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK: rocdl.s.barrier
  hk.kernel @deferred(%v: !hk.gl<?x?xbf16>, %o: !hk.gl<?x?xbf16>)
      waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %t = hk.alloc : !hk.st<64x64xbf16>
    %tok = hk.group_load async %v[%c1, %c0], %s transpose inbounds
        : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
    %r = hk.load %t[%c0, %c1] : !hk.st<64x64xbf16> -> !hk.rt<32x32xbf16>
    hk.store %r, %o[%c0, %c0] : !hk.rt<32x32xbf16> -> !hk.gl<?x?xbf16>
    hk.wait [%tok]
    hk.barrier
    hk.return
  }

  // Nothing between the load and its wait: the writes follow each round's
  // load inside its guard, before the reads of %t.
  // CHECK-LABEL: llvm.func @wait_next
  // CHECK-NOT: -> (vector<8xbf16>)
  // CHECK: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
  // CHECK-COUNT-8: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
  // CHECK-COUNT-8: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<
  hk.kernel @wait_next(%v: !hk.gl<?x?xbf16>, %o: !hk.gl<?x?xbf16>)
      waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %t = hk.alloc : !hk.st<64x64xbf16>
    %tok = hk.group_load async %v[%c1, %c0], %s transpose inbounds
        : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
    hk.wait [%tok]
    %r = hk.load %t[%c0, %c1] : !hk.st<64x64xbf16> -> !hk.rt<32x32xbf16>
    hk.store %r, %o[%c0, %c0] : !hk.rt<32x32xbf16> -> !hk.gl<?x?xbf16>
    hk.return
  }

  // A load that may cross the view's end (no inbounds): both paths write
  // LDS next to their loads.
  // CHECK-LABEL: llvm.func @edge
  // CHECK-NOT: -> (vector<8xbf16>)
  // CHECK: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
  // CHECK-COUNT-8: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK: } else {
  // CHECK: scf.for
  // CHECK: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<
  hk.kernel @edge(%v: !hk.gl<?x?xbf16>, %o: !hk.gl<?x?xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %t = hk.alloc : !hk.st<64x64xbf16>
    %tok = hk.group_load async %v[%c1, %c0], %s transpose
        : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
    %r = hk.load %t[%c0, %c1] : !hk.st<64x64xbf16> -> !hk.rt<32x32xbf16>
    hk.store %r, %o[%c0, %c0] : !hk.rt<32x32xbf16> -> !hk.gl<?x?xbf16>
    hk.wait [%tok]
    hk.barrier
    hk.return
  }

  // In a block with no wait after it (an interior version of a pipelined
  // loop's body), the writes go before the block's terminator: after the
  // MFMA that follows the load.
  // CHECK-LABEL: llvm.func @block_end
  // CHECK: scf.if %{{.*}} -> (vector<8xbf16>)
  // CHECK: amdgpu.mfma
  // CHECK-COUNT-8: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK: scf.yield
  hk.kernel @block_end(%v: !hk.gl<?x?xbf16>, %o: !hk.gl<?x?xf32>,
                       %n: i32) waves(4) {
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %p = arith.cmpi sgt, %n, %c0_i32 : i32
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %a = hk.zero : !hk.rt<16x16xbf16>
    %acc = hk.zero : !hk.rt<16x16xf32>
    %d = scf.if %p -> !hk.rt<16x16xf32> {
      %tok = hk.group_load async %v[%c1, %c0], %s transpose inbounds
          : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
      %m = hk.mma abt %a, %a, %acc
          : !hk.rt<16x16xbf16>, !hk.rt<16x16xbf16>, !hk.rt<16x16xf32>
      scf.yield %m : !hk.rt<16x16xf32>
    } else {
      scf.yield %acc : !hk.rt<16x16xf32>
    }
    hk.wait
    hk.barrier
    hk.store %d, %o[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}
