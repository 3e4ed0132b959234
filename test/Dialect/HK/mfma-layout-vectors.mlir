// RUN: hk-opt %s -split-input-file --hk-mfma-layout -verify-diagnostics | FileCheck %s

// Register vectors take the layout of the tiles they are reduced from or
// broadcast onto, through loops and elementwise ops: here the rows of the
// MFMA accumulator the scores come from.
// CHECK-LABEL: hk.kernel @attention_rows
// CHECK: hk.fill {{.*}} -> !hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x8>>>
// CHECK: scf.for {{.*}} -> (!hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x8>>>, !hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x8>>>, !hk.rt
// CHECK: hk.softmax {{.*}} : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>, !hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x8>>>
// CHECK: hk.div_row {{.*}} !hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x8>>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @attention_rows(%Q: !hk.gl<?x?xf16>, %O: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ninf = arith.constant 0xFF800000 : f32
  %m0 = hk.fill %ninf : f32 -> !hk.rv<32xf32>
  %l0 = hk.zero : !hk.rv<32xf32>
  %o0 = hk.zero : !hk.rt<32x32xf32>
  %q = hk.load %Q[%c0, %c0] : !hk.gl<?x?xf16> -> !hk.rt<32x16xf16>
  %r:3 = scf.for %k = %c0 to %c4 step %c1 iter_args(%m = %m0, %l = %l0, %o = %o0)
      -> (!hk.rv<32xf32>, !hk.rv<32xf32>, !hk.rt<32x32xf32>) {
    %kt = hk.load %Q[%k, %c0] : !hk.gl<?x?xf16> -> !hk.rt<32x16xf16>
    %s0 = hk.zero : !hk.rt<32x32xf32>
    %s = hk.mma abt %q, %kt, %s0 {instr = #hk.mfma_shape<32x32x8>}
        : !hk.rt<32x16xf16>, !hk.rt<32x16xf16>, !hk.rt<32x32xf32>
    %p, %m1, %l1, %f = hk.softmax %s, %m, %l : !hk.rt<32x32xf32>, !hk.rv<32xf32>
    %os = hk.mul_row %o, %f : !hk.rt<32x32xf32>, !hk.rv<32xf32>
    %o1 = hk.add %os, %p : !hk.rt<32x32xf32>
    scf.yield %m1, %l1, %o1 : !hk.rv<32xf32>, !hk.rv<32xf32>, !hk.rt<32x32xf32>
  }
  %out = hk.div_row %r#2, %r#1 : !hk.rt<32x32xf32>, !hk.rv<32xf32>
  hk.store %out, %O[%c0, %c0] : !hk.rt<32x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// Column vectors of a `row` tile; a vector only loaded and stored keeps
// the default (rows of `row`).
// CHECK-LABEL: hk.kernel @norm_cols
// CHECK: hk.load {{.*}} -> !hk.rv<64xf32, #hk.vec<cols, row>>
// CHECK: hk.col_sum {{.*}} -> !hk.rv<64xf32, #hk.vec<cols, row>>
// CHECK: hk.load {{.*}} -> !hk.rv<16xf32, #hk.vec<rows, row>>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @norm_cols(%X: !hk.gl<?x?xf32>, %g: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %X[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  %v = hk.load %g[%c0] : !hk.gl<?xf32> -> !hk.rv<64xf32>
  %y = hk.mul_col %t, %v : !hk.rt<16x64xf32, row>, !hk.rv<64xf32>
  %s = hk.col_sum %y, %v : !hk.rt<16x64xf32, row> -> !hk.rv<64xf32>
  hk.store %s, %g[%c0] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  %w = hk.load %g[%c0] : !hk.gl<?xf32> -> !hk.rv<16xf32>
  hk.store %w, %g[%c0] : !hk.rv<16xf32> -> !hk.gl<?xf32>
  hk.return
}
}

// -----

// A broadcast onto a tile whose rows sit elsewhere gets a conversion; the
// reduction that produced the vector keeps its own placement.
// CHECK-LABEL: hk.kernel @convert_broadcast
// CHECK: hk.row_sum {{.*}} -> !hk.rv<16xf32, #hk.vec<rows, row>>
// CHECK: %[[C:.*]] = hk.convert_layout %{{.*}} : !hk.rv<16xf32, #hk.vec<rows, row>> -> !hk.rv<16xf32, #hk.vec<rows, col>>
// CHECK: hk.add_row %{{.*}}, %[[C]]
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @convert_broadcast(%X: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %X[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %b = hk.load %X[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, col>
  %s = hk.row_sum %a : !hk.rt<16x16xf32, row> -> !hk.rv<16xf32>
  %y = hk.add_row %b, %s : !hk.rt<16x16xf32, col>, !hk.rv<16xf32>
  hk.store %y, %X[%c0, %c0] : !hk.rt<16x16xf32, col> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// A running statistic cannot be reduced from tiles with different row
// placements without an explicit conversion.
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @conflict(%X: !hk.gl<?x?xf32>, %V: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %X[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %b = hk.load %X[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, col>
  %s = hk.row_sum %a : !hk.rt<16x16xf32, row> -> !hk.rv<16xf32>
  // expected-error @+1 {{needs the vector in layout #hk.vec<rows, col>, but its values are held as #hk.vec<rows, row> for another use; convert it (hk.convert_layout)}}
  %t = hk.row_sum %b, %s : !hk.rt<16x16xf32, col> -> !hk.rv<16xf32>
  hk.store %t, %V[%c0] : !hk.rv<16xf32> -> !hk.gl<?xf32>
  hk.return
}
}

// -----

// hk.softmax cols: the statistics are the columns of the scores' layout
// (S^T = K Q^T, a query per column); broadcasting the rescale onto the
// rows of other accumulators converts it, once.
// CHECK-LABEL: hk.kernel @softmax_cols
// CHECK: hk.softmax cols {{.*}} : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32, #hk.vec<cols, #hk.mfma<acc, 16x16x32>>>
// The second broadcast reuses the first's conversion.
// CHECK: %[[F:.*]] = hk.convert_layout %{{.*}} : !hk.rv<16xf32, #hk.vec<cols, #hk.mfma<acc, 16x16x32>>> -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x32>>>
// CHECK: hk.mul_row %{{.*}}, %[[F]]
// CHECK-NOT: hk.convert_layout
// CHECK: hk.mul_row %{{.*}}, %[[F]]
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @softmax_cols(%K: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %k = hk.load %K[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<64x32xbf16>
  %q = hk.load %K[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<16x32xbf16>
  %s0 = hk.zero : !hk.rt<64x16xf32>
  %st = hk.mma abt %k, %q, %s0 : !hk.rt<64x32xbf16>, !hk.rt<16x32xbf16>, !hk.rt<64x16xf32>
  %m = hk.zero : !hk.rv<16xf32>
  %p, %m1, %l1, %f = hk.softmax cols %st, %m, %m : !hk.rt<64x16xf32>, !hk.rv<16xf32>
  %o = hk.zero : !hk.rt<16x32xf32, #hk.mfma<acc, 16x16x32>>
  %os = hk.mul_row %o, %f : !hk.rt<16x32xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
  %l = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %ls = hk.mul_row %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
  hk.return
}
}
