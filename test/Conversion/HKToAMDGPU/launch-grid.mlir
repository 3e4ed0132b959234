// RUN: hk-opt %s -split-input-file --hk-target=chip=gfx950 --convert-hk-to-amdgpu | FileCheck %s
// RUN: hk-opt %s -split-input-file --hk-target=chip=gfx950 --hk-grid-swizzle="chunk=2 group=2" --convert-hk-to-amdgpu | FileCheck %s --check-prefix=SWIZZLED

// The lowered kernel records its hk signature and the grid its output
// stores need: C[bm*2 + w/2, bn*2 + w%2] with 64x64 tiles covers 128x128
// elements of C (argument 2) per block.
// CHECK-LABEL: llvm.func @gemm_like
// CHECK-SAME: hk.kernel_type = (!hk.gl<?x?xbf16>, !hk.gl<?x?xf32>) -> ()
// CHECK-SAME: hk.launch_grid = {{\[}}{{\[}}[1, 0, 128]], {{\[}}[1, 1, 128]], []]
// After hk-grid-swizzle has renumbered the blocks, the grid is the one the
// kernel had before.
// SWIZZLED-LABEL: llvm.func @gemm_like
// SWIZZLED-SAME: hk.launch_grid = {{\[}}{{\[}}[1, 0, 128]], {{\[}}[1, 1, 128]], []]
hk.kernel @gemm_like(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) {
  %c2 = arith.constant 2 : index
  %bm = hk.block_id x
  %bn = hk.block_id y
  %w = hk.wave_id
  %wm = arith.divui %w, %c2 : index
  %wn = arith.remui %w, %c2 : index
  %t = hk.zero : !hk.rt<64x64xf32, row>
  %tm0 = arith.muli %bm, %c2 : index
  %tm = arith.addi %tm0, %wm : index
  %tn0 = arith.muli %c2, %bn : index
  %tn = arith.addi %wn, %tn0 : index
  hk.store %t, %C[%tm, %tn] : !hk.rt<64x64xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}

// -----

// Indices outside the last two dimensions count elements: one head per
// block along y. Two outputs tiled differently along x: the grid covers
// both (the larger block count).
// CHECK-LABEL: llvm.func @two_outputs
// CHECK-SAME: hk.launch_grid = {{\[}}{{\[}}[0, 1, 16], [1, 0, 32]], {{\[}}[0, 0, 1]], []]
hk.kernel @two_outputs(%O: !hk.gl<?x?x64xf32>, %P: !hk.gl<?x?xf32>)
    waves(1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %q = hk.block_id x
  %h = hk.block_id y
  %t = hk.zero : !hk.rt<16x64xf32, row>
  hk.store %t, %O[%h, %q, %c0] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?x64xf32>
  %q2 = arith.muli %q, %c2 : index
  hk.store %t, %P[%q2, %c0] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}

// -----

// A kernel that reads no block id runs on one block.
// CHECK-LABEL: llvm.func @single_block
// CHECK-SAME: hk.launch_grid = {{\[}}[], [], []]
hk.kernel @single_block(%y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.zero : !hk.rt<16x16xf32, row>
  hk.store %t, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}

// -----

// The wave part of the index reaches past the block's share (w in [0, 4)
// but only 2 tiles per block): blocks overlap, no grid rule.
// CHECK-LABEL: llvm.func @overlapping
// CHECK-NOT: hk.launch_grid
// CHECK: llvm.return
hk.kernel @overlapping(%y: !hk.gl<?x?xf32>) waves(4) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = hk.block_id x
  %w = hk.wave_id
  %b2 = arith.muli %b, %c2 : index
  %r = arith.addi %b2, %w : index
  %t = hk.zero : !hk.rt<16x16xf32, row>
  hk.store %t, %y[%r, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}

// -----

// A runtime offset the analysis cannot bound: no grid rule.
// CHECK-LABEL: llvm.func @runtime_offset
// CHECK-NOT: hk.launch_grid
// CHECK: llvm.return
hk.kernel @runtime_offset(%y: !hk.gl<?x?xf32>, %n: i32) waves(1) {
  %c0 = arith.constant 0 : index
  %b = hk.block_id x
  %off = arith.index_cast %n : i32 to index
  %r = arith.addi %b, %off : index
  %t = hk.zero : !hk.rt<16x16xf32, row>
  hk.store %t, %y[%r, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}

// -----

// A block id that reaches no store: no grid rule.
// CHECK-LABEL: llvm.func @unused_block_id
// CHECK-NOT: hk.launch_grid
// CHECK: llvm.return
hk.kernel @unused_block_id(%y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %b = hk.block_id x
  %first = arith.cmpi eq, %b, %c0 : index
  scf.if %first {
    %t = hk.zero : !hk.rt<16x16xf32, row>
    hk.store %t, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  }
  hk.return
}
