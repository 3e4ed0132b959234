// RUN: hk-opt %s -split-input-file --hk-mfma-layout | FileCheck %s

// gfx950 reads LDS transposed (ds_read_b64_tr_b16): a tile copied in
// transposed only for the B operands of `abt` MFMAs is copied as it is,
// and the MFMAs read it as `ab`. V (keys x 64) lands in a 32x64 tile
// instead of a 64x32 one; the 32x32 block read at [1, 0] (rows 32-63 of
// V^T) is the block at [0, 1] of V.
// CHECK-LABEL: hk.kernel @pv_gfx950
// CHECK: %[[SV:.*]] = hk.alloc : !hk.st<32x64xbf16>
// CHECK: hk.group_load %{{.*}}[%{{.*}}, %{{.*}}], %[[SV]] : !hk.gl<?x?xbf16>, !hk.st<32x64xbf16>
// CHECK-NOT: transpose
// CHECK: %[[V:.*]] = hk.load %[[SV]][%[[C0:.*]], %[[C1:.*]]] : !hk.st<32x64xbf16> -> !hk.rt<32x32xbf16, #hk.mfma<b,
// CHECK: hk.mma ab %{{.*}}, %[[V]], %{{.*}}
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @pv_gfx950(%V: !hk.gl<?x?xbf16>, %O: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sVt = hk.alloc : !hk.st<64x32xbf16>
  hk.group_load %V[%c0, %c0], %sVt transpose : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
  hk.barrier
  %p = hk.zero : !hk.rt<16x32xbf16>
  %o0 = hk.zero : !hk.rt<16x32xf32>
  %vt = hk.load %sVt[%c1, %c0] : !hk.st<64x32xbf16> -> !hk.rt<32x32xbf16>
  %o = hk.mma abt %p, %vt, %o0 : !hk.rt<16x32xbf16>, !hk.rt<32x32xbf16>, !hk.rt<16x32xf32>
  hk.store %o, %O[%c0, %c0] : !hk.rt<16x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// gfx942 has no transposing LDS reads: the copy stays transposed.
// CHECK-LABEL: hk.kernel @pv_gfx942
// CHECK: hk.alloc : !hk.st<32x64xbf16>
// CHECK: hk.group_load {{.*}} transpose
// CHECK: hk.mma abt
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @pv_gfx942(%V: !hk.gl<?x?xbf16>, %O: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %sVt = hk.alloc : !hk.st<32x64xbf16>
  hk.group_load %V[%c0, %c0], %sVt transpose : !hk.gl<?x?xbf16>, !hk.st<32x64xbf16>
  hk.barrier
  %p = hk.zero : !hk.rt<16x64xbf16>
  %o0 = hk.zero : !hk.rt<16x32xf32>
  %vt = hk.load %sVt : !hk.st<32x64xbf16> -> !hk.rt<32x64xbf16>
  %o = hk.mma abt %p, %vt, %o0 : !hk.rt<16x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<16x32xf32>
  hk.store %o, %O[%c0, %c0] : !hk.rt<16x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// A read that also feeds an A operand keeps the copy transposed: the
// rewrite would have to transpose that operand too.
// CHECK-LABEL: hk.kernel @shared_use
// CHECK: hk.group_load {{.*}} transpose
// CHECK: hk.mma abt
// CHECK: hk.mma abt
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @shared_use(%V: !hk.gl<?x?xbf16>, %O: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %sVt = hk.alloc : !hk.st<32x32xbf16>
  hk.group_load %V[%c0, %c0], %sVt transpose : !hk.gl<?x?xbf16>, !hk.st<32x32xbf16>
  hk.barrier
  %p = hk.zero : !hk.rt<32x32xbf16>
  %o0 = hk.zero : !hk.rt<32x32xf32>
  %vt = hk.load %sVt : !hk.st<32x32xbf16> -> !hk.rt<32x32xbf16>
  %o1 = hk.mma abt %p, %vt, %o0 : !hk.rt<32x32xbf16>, !hk.rt<32x32xbf16>, !hk.rt<32x32xf32>
  %o2 = hk.mma abt %vt, %p, %o1 : !hk.rt<32x32xbf16>, !hk.rt<32x32xbf16>, !hk.rt<32x32xf32>
  hk.store %o2, %O[%c0, %c0] : !hk.rt<32x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// A layout written on the read is the author's: left alone.
// CHECK-LABEL: hk.kernel @written_layout
// CHECK: hk.group_load {{.*}} transpose
// CHECK: hk.mma abt
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @written_layout(%V: !hk.gl<?x?xbf16>, %O: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %sVt = hk.alloc : !hk.st<32x32xbf16>
  hk.group_load %V[%c0, %c0], %sVt transpose : !hk.gl<?x?xbf16>, !hk.st<32x32xbf16>
  hk.barrier
  %p = hk.zero : !hk.rt<16x32xbf16>
  %o0 = hk.zero : !hk.rt<16x32xf32>
  %vt = hk.load %sVt : !hk.st<32x32xbf16> -> !hk.rt<32x32xbf16, row>
  %o = hk.mma abt %p, %vt, %o0 : !hk.rt<16x32xbf16>, !hk.rt<32x32xbf16, row>, !hk.rt<16x32xf32>
  hk.store %o, %O[%c0, %c0] : !hk.rt<16x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// A copy made in the loop that reads it (a prefetch per iteration) is
// untransposed: each copy is read once.
// CHECK-LABEL: hk.kernel @copied_per_iteration
// CHECK: %[[SV:.*]] = hk.alloc : !hk.st<64x32xbf16>
// CHECK: scf.for
// CHECK: hk.group_load %{{.*}}, %[[SV]] : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
// CHECK: hk.load %[[SV]] : !hk.st<64x32xbf16>
// CHECK: hk.mma ab
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @copied_per_iteration(%V: !hk.gl<?x?xbf16>, %O: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sVt = hk.alloc : !hk.st<32x64xbf16>
  %p = hk.zero : !hk.rt<16x64xbf16>
  %o0 = hk.zero : !hk.rt<16x32xf32>
  %o = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %o0) -> !hk.rt<16x32xf32> {
    hk.group_load %V[%j, %c0], %sVt transpose : !hk.gl<?x?xbf16>, !hk.st<32x64xbf16>
    hk.barrier
    %vt = hk.load %sVt : !hk.st<32x64xbf16> -> !hk.rt<32x64xbf16>
    %next = hk.mma abt %p, %vt, %acc : !hk.rt<16x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<16x32xf32>
    hk.barrier
    scf.yield %next : !hk.rt<16x32xf32>
  }
  hk.store %o, %O[%c0, %c0] : !hk.rt<16x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// A copy made once and read on every iteration of a loop stays transposed:
// the transposing reads, half as wide as plain ones, would cost on every
// iteration what the one copy saves (attention backward's K^T).
// CHECK-LABEL: hk.kernel @copied_once_read_in_loop
// CHECK: hk.alloc : !hk.st<32x64xbf16>
// CHECK: hk.group_load {{.*}} transpose
// CHECK: scf.for
// CHECK: hk.mma abt
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @copied_once_read_in_loop(%V: !hk.gl<?x?xbf16>, %O: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %sVt = hk.alloc : !hk.st<32x64xbf16>
  hk.group_load %V[%c0, %c0], %sVt transpose : !hk.gl<?x?xbf16>, !hk.st<32x64xbf16>
  hk.barrier
  %p = hk.zero : !hk.rt<16x64xbf16>
  %o0 = hk.zero : !hk.rt<16x32xf32>
  %o = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %o0) -> !hk.rt<16x32xf32> {
    %vt = hk.load %sVt : !hk.st<32x64xbf16> -> !hk.rt<32x64xbf16>
    %next = hk.mma abt %p, %vt, %acc : !hk.rt<16x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<16x32xf32>
    scf.yield %next : !hk.rt<16x32xf32>
  }
  hk.store %o, %O[%c0, %c0] : !hk.rt<16x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}
