// RUN: hk-opt %s -split-input-file --hk-mfma-layout --convert-hk-to-amdgpu -verify-diagnostics | FileCheck %s
// RUN: hk-opt %s -split-input-file --hk-mfma-layout --convert-hk-to-amdgpu -verify-diagnostics | FileCheck %s --check-prefix=STORES

// One addrspace(3) global per kernel; allocations at 16-byte aligned
// offsets in order.
// CHECK: llvm.mlir.global internal @lds__lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4108 x i8>
// CHECK-LABEL: llvm.func @lds
// CHECK: %[[C4096:.*]] = arith.constant 4096 : i32
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @lds__lds : !llvm.ptr<3>
// CHECK: llvm.getelementptr %[[BASE]][%[[C4096]]]
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @lds() waves(1) {
  %s = hk.alloc : !hk.st<32x64xbf16>
  %v = hk.alloc : !hk.sv<3xf32>
  %t = hk.zero : !hk.rt<32x64xbf16, row>
  hk.store %t, %s : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  hk.return
}
}

// -----

// A swizzled shared tile: each 8-element group moves by an XOR with the
// row's phase; row-layout reads stay 8-byte vectors (within a group).
// CHECK-LABEL: llvm.func @swizzled
// CHECK: arith.xori
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64, noalias_scopes = [#alias_scope{{[0-9]*}}]} : !llvm.ptr<3> -> vector<4xbf16>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @swizzled() waves(1) {
  %s = hk.alloc : !hk.st<32x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  %t = hk.load %s : !hk.st<32x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>> -> !hk.rt<32x64xbf16, row>
  hk.return
}
}

// -----

// A group load: inside the view, 16-byte global loads and LDS stores;
// at the edges, a loop (kept rolled) over the rounds whose chunks are
// gathered from masked buffer loads and stored to LDS as 16 bytes. The
// loop reads the lane id through an opaque move, so that nothing of the
// edge path is hoisted into registers held across the caller's loops.
// CHECK: #loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
// CHECK-LABEL: llvm.func @group_load
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64, noalias_scopes = [#alias_scope{{[0-9]*}}]} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: } else {
// CHECK: scf.for
// CHECK-NEXT: %[[TID:.*]] = rocdl.workitem.id.x
// CHECK-NEXT: llvm.inline_asm has_side_effects "", "=v,0" %[[TID]]
// CHECK-COUNT-8: rocdl.raw.ptr.buffer.load %{{.*}} : bf16
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64, noalias_scopes = [#alias_scope{{[0-9]*}}]} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: } {llvm.loop_annotation = #loop_annotation}
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @group_load(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.return
}
}

// -----

// A layout conversion that moves data goes through the wave's LDS scratch,
// fenced so the compiler keeps the writes before the reads.
// CHECK: llvm.mlir.global internal @convert__lds() {{.*}} : !llvm.array<16384 x i8>
// CHECK-LABEL: llvm.func @convert
// CHECK: llvm.fence syncscope("wavefront") acq_rel
// CHECK: llvm.store
// CHECK: llvm.fence syncscope("wavefront") acq_rel
// CHECK: llvm.load
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @convert() waves(4) {
  %t = hk.zero : !hk.rt<32x32xf32, row>
  %u = hk.convert_layout %t : !hk.rt<32x32xf32, row> -> !hk.rt<32x32xf32, col>
  hk.return
}
}

// -----

module attributes {hk.target = #hk.target<"gfx942">} {
// expected-error @below {{needs 81920 bytes of LDS including 16384 bytes of scratch for layout conversions, but gfx942 has 65536}}
hk.kernel @scratch_overflow() waves(4) {
  %s = hk.alloc : !hk.st<256x128xbf16>
  %t = hk.zero : !hk.rt<32x32xf32, row>
  %u = hk.convert_layout %t : !hk.rt<32x32xf32, row> -> !hk.rt<32x32xf32, col>
  hk.return
}
}

// -----

// A B-operand tile (runs of 8 elements down a column) read from a
// row-major shared tile. gfx950: transposing reads, 4 elements each, two per
// 16x16x32 block; lane l addresses row (l%16)/4 and column 4*(l%4) of its
// 16-lane group's 4x16 piece. gfx942 has none: one element per read.
// CHECK-LABEL: llvm.func @b_operand_gfx950
// CHECK: %[[IN:.*]] = arith.andi %{{.*}}, %c15_i32 : i32
// CHECK: arith.shrui %[[IN]], %c2_i32 : i32
// CHECK: %[[Q:.*]] = arith.andi %[[IN]], %c3_i32 : i32
// CHECK: %[[Q4:.*]] = arith.shli %[[Q]], %c2_i32{{.*}} : i32
// CHECK: arith.subi %[[Q4]], %[[IN]] : i32
// CHECK-COUNT-4: rocdl.ds.read.tr16.b64 %{{.*}} {noalias_scopes = [#alias_scope{{[0-9]*}}]} : <3> -> vector<4xbf16>
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK: amdgpu.mfma 16x16x32
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @b_operand_gfx950() waves(1) {
  %s = hk.alloc : !hk.st<32x32xbf16>
  %b = hk.load %s : !hk.st<32x32xbf16> -> !hk.rt<32x32xbf16>
  %a = hk.zero : !hk.rt<16x32xbf16>
  %c = hk.zero : !hk.rt<16x32xf32>
  %d = hk.mma ab %a, %b, %c : !hk.rt<16x32xbf16>, !hk.rt<32x32xbf16>, !hk.rt<16x32xf32>
  hk.return
}
}

// -----

// CHECK-LABEL: llvm.func @b_operand_gfx942
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK-COUNT-16: llvm.load %{{.*}} {alignment = 2 : i64, noalias_scopes = [#alias_scope{{[0-9]*}}]} : !llvm.ptr<3> -> bf16
// CHECK-NOT: rocdl.ds.read.tr16.b64
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @b_operand_gfx942() waves(1) {
  %s = hk.alloc : !hk.st<32x32xbf16>
  %b = hk.load %s : !hk.st<32x32xbf16> -> !hk.rt<32x32xbf16>
  %a = hk.zero : !hk.rt<16x32xbf16>
  %c = hk.zero : !hk.rt<16x32xf32>
  %d = hk.mma ab %a, %b, %c : !hk.rt<16x32xbf16>, !hk.rt<32x32xbf16>, !hk.rt<16x32xf32>
  hk.return
}
}

// -----

// Reads a whole swizzle period apart (the phase repeats every 8 rows, the
// 16-row blocks of an A operand) share a base address and differ by a
// constant, which the backend folds into the ds_read's immediate offset:
// 8 reads, two swizzled bases (one per 32-column block; XOR-ed groups
// within a row are not constant apart).
// CHECK-LABEL: llvm.func @period_offsets
// CHECK: arith.xori
// CHECK: %[[B0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
// CHECK: llvm.load %[[B0]]
// CHECK: arith.xori
// CHECK: %[[B1:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
// CHECK: llvm.load %[[B1]]
// CHECK-NOT: arith.xori
// CHECK: llvm.getelementptr %[[B0]][%c1024_i32]
// CHECK: llvm.getelementptr %[[B1]][%c1024_i32{{.*}}]
// CHECK: llvm.getelementptr %[[B0]][%c2048_i32]
// CHECK: llvm.getelementptr %[[B1]][%c2048_i32{{.*}}]
// CHECK: llvm.getelementptr %[[B0]][%c3072_i32]
// CHECK: llvm.getelementptr %[[B1]][%c3072_i32{{.*}}]
// CHECK-NOT: arith.xori
// CHECK: llvm.return
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @period_offsets() waves(1) {
  %s = hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  %t = hk.load %s : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
  hk.return
}
}

// -----

// A masked swizzle keeps only the phase bits of its mask: row >> 1, and 5
// (not 7), XOR-ed into the 16-byte group index.
// CHECK-LABEL: llvm.func @masked
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[HALF:.*]] = arith.shrui %{{.*}}, %[[C1]] : i32
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT: %[[PHASE:.*]] = arith.andi %[[HALF]], %[[C5]] : i32
// CHECK-NEXT: arith.xori %{{.*}}, %[[PHASE]] : i32
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @masked() waves(1) {
  %s = hk.alloc : !hk.st<32x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 2, max_phase = 8, mask = 5>>
  %t = hk.load %s : !hk.st<32x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 2, max_phase = 8, mask = 5>> -> !hk.rt<32x128xf8E4M3FN, row>
  hk.return
}
}

// -----

// An f32 accumulator stored to a bf16 tile: each lane holds consecutive rows
// of one column, two bytes apart in no direction LDS can write at once. The
// rows are converted in pairs, one 32-bit value each, and written from its
// two halves (ds_write_b16 and ds_write_b16_d16_hi): one packed conversion
// per two elements rather than one per element.
// CHECK-LABEL: llvm.func @accumulator_to_bf16
// CHECK-COUNT-8: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK-NOT: arith.truncf
// CHECK: llvm.return
// STORES-LABEL: llvm.func @accumulator_to_bf16
// STORES: %[[PAIR:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// STORES: %[[HIGH:.*]] = llvm.lshr %[[PAIR]], %{{.*}} : i32
// STORES: %[[LOW16:.*]] = llvm.trunc %[[PAIR]] : i32 to i16
// STORES: llvm.store %[[LOW16]], %{{.*}} {alignment = 2 : i64{{.*}}} : i16, !llvm.ptr<3>
// STORES: %[[HIGH16:.*]] = llvm.trunc %[[HIGH]] : i32 to i16
// STORES: llvm.store %[[HIGH16]], %{{.*}} {alignment = 2 : i64{{.*}}} : i16, !llvm.ptr<3>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @accumulator_to_bf16() waves(1) {
  %s = hk.alloc : !hk.st<32x32xbf16>
  %a = hk.zero : !hk.rt<32x16xbf16>
  %b = hk.zero : !hk.rt<16x32xbf16>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma ab %a, %b, %c : !hk.rt<32x16xbf16>, !hk.rt<16x32xbf16>, !hk.rt<32x32xf32>
  hk.store %d, %s : !hk.rt<32x32xf32> -> !hk.st<32x32xbf16>
  hk.return
}
}
