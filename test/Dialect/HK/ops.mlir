// Every hk op, type and attribute prints and parses back to itself, in the
// custom and in the generic form.
// RUN: hk-opt %s | hk-opt | FileCheck %s
// RUN: hk-opt %s --mlir-print-op-generic | hk-opt | FileCheck %s

// CHECK: module attributes {hk.target = #hk.target<"gfx950">}
module attributes {hk.target = #hk.target<"gfx950">} {

// CHECK-LABEL: hk.kernel @ids
// CHECK-SAME: (%{{.*}}: !hk.gl<?x?xbf16>, %{{.*}}: !hk.gl<2x?x?x64xf16>, %{{.*}}: i32, %{{.*}}: f32) waves(4)
hk.kernel @ids(%a: !hk.gl<?x?xbf16>, %b: !hk.gl<2x?x?x64xf16>, %n: i32,
               %s: f32) waves(4) {
  // CHECK: hk.wave_id
  %w = hk.wave_id
  // CHECK: hk.block_id x
  // CHECK: hk.block_id y
  // CHECK: hk.block_id z
  %bx = hk.block_id x
  %by = hk.block_id y
  %bz = hk.block_id z
  // CHECK: hk.grid_dim x
  %gx = hk.grid_dim x
  // CHECK: hk.dim %{{.*}}[1] : !hk.gl<?x?xbf16>
  %d = hk.dim %a[1] : !hk.gl<?x?xbf16>
  // CHECK: hk.dim %{{.*}}[3] : !hk.gl<2x?x?x64xf16>
  %d3 = hk.dim %b[3] : !hk.gl<2x?x?x64xf16>
  // CHECK: hk.return
  hk.return
}

// CHECK-LABEL: hk.kernel @memory
// CHECK-SAME: waves(8) schedule(#hk.pingpong<waves = 8>)
hk.kernel @memory(%a: !hk.gl<?x?xbf16>, %v: !hk.gl<?xf32>, %o: !hk.gl<?x?xf32>)
    waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // Wave-group barriers, balanced: one per group.
  // CHECK: hk.barrier group 1
  // CHECK-NEXT: hk.barrier group 0
  // CHECK-NEXT: hk.barrier reads_in_flight
  hk.barrier group 1
  hk.barrier group 0
  hk.barrier reads_in_flight
  // CHECK: hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  %s = hk.alloc : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  // CHECK: hk.alloc : !hk.st<64x128xbf16, #hk.swizzle<vec = 16, per_phase = 1, max_phase = 8, flip>>
  %sf = hk.alloc : !hk.st<64x128xbf16, #hk.swizzle<vec = 16, per_phase = 1, max_phase = 8, flip>>
  // CHECK: hk.alloc : !hk.st<64x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 2, max_phase = 8, mask = 5>>
  %sm = hk.alloc : !hk.st<64x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 2, max_phase = 8, mask = 5>>
  // CHECK: hk.alloc : !hk.st<64x128xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8, flip, mask = 2>>
  %smf = hk.alloc : !hk.st<64x128xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8, mask = 2, flip>>
  // CHECK: hk.alloc : !hk.st<32x32xbf16, #hk.swizzle<none>>
  %s2 = hk.alloc : !hk.st<32x32xbf16, #hk.swizzle<none>>
  // CHECK: hk.alloc : !hk.st<64x64xbf16>
  %s3 = hk.alloc : !hk.st<64x64xbf16>
  // CHECK: hk.alloc : !hk.sv<64xf32>
  %sv = hk.alloc : !hk.sv<64xf32>
  // CHECK: hk.group_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.group_load %a[%c0, %c1], %s3 {waves = 4 : i32} : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // CHECK: hk.group_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} transpose : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.group_load %a[%c0, %c1], %s3 transpose : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // CHECK: %{{.*}} = hk.in_bounds %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} transpose : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  %inside = hk.in_bounds %a[%c0, %c1], %s3 transpose : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // CHECK: hk.group_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} transpose inbounds : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.group_load %a[%c0, %c1], %s3 transpose inbounds : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // CHECK: %[[T:.*]] = hk.group_load async %{{.*}} -> !hk.token
  %t = hk.group_load async %a[%c0, %c0], %s
      : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>> -> !hk.token
  // CHECK: hk.wait [%[[T]]]
  hk.wait [%t]
  // CHECK: hk.wait{{$}}
  hk.wait
  // CHECK: hk.barrier
  hk.barrier
  // CHECK: hk.load %{{.*}} : !hk.st<64x64xbf16, {{.*}}> -> !hk.rt<64x64xbf16, row>
  %r = hk.load %s : !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>> -> !hk.rt<64x64xbf16, row>
  // CHECK: hk.load %{{.*}}[%{{.*}}, %{{.*}}] : !hk.st<64x64xbf16> -> !hk.rt<32x16xbf16, col>
  %sub = hk.load %s3[%c1, %c0] : !hk.st<64x64xbf16> -> !hk.rt<32x16xbf16, col>
  // CHECK: hk.load %{{.*}}[%{{.*}}, %{{.*}}] : !hk.gl<?x?xbf16> -> !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
  %g = hk.load %a[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
  // CHECK: hk.load %{{.*}}[%{{.*}}] : !hk.gl<?xf32> -> !hk.rv<64xf32>
  %gv = hk.load %v[%c0] : !hk.gl<?xf32> -> !hk.rv<64xf32>
  // CHECK: hk.load %{{.*}} : !hk.sv<64xf32> -> !hk.rv<64xf32>
  %svr = hk.load %sv : !hk.sv<64xf32> -> !hk.rv<64xf32>
  // CHECK: hk.store %{{.*}}, %{{.*}} : !hk.rt<64x64xbf16, row> -> !hk.st<64x64xbf16, {{.*}}>
  hk.store %r, %s : !hk.rt<64x64xbf16, row> -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  // CHECK: hk.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>> -> !hk.gl<?x?xf32>
  hk.store %g, %o[%c0, %c0] : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>> -> !hk.gl<?x?xf32>
  // A tile stored through a part of a shared tile, and the copy alone.
  // CHECK: hk.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] via %{{.*}}[%{{.*}}, %{{.*}}] : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>> -> !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.store %g, %a[%c0, %c1] via %s3[%c1, %c0] : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>> -> !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // CHECK: hk.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] via %{{.*}}[] staged : !hk.rt<64x64xbf16, row> -> !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.store %r, %a[%c0, %c0] via %s3[] staged : !hk.rt<64x64xbf16, row> -> !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // CHECK: hk.transpose %{{.*}} : !hk.rt<32x16xbf16, col> -> !hk.rt<16x32xbf16, row>
  %subt = hk.transpose %sub : !hk.rt<32x16xbf16, col> -> !hk.rt<16x32xbf16, row>
  // CHECK: hk.store %{{.*}}, %{{.*}} : !hk.rv<64xf32> -> !hk.sv<64xf32>
  hk.store %gv, %sv : !hk.rv<64xf32> -> !hk.sv<64xf32>
  // CHECK: hk.store %{{.*}}, %{{.*}}[%{{.*}}] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  hk.store %svr, %v[%c0] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  // CHECK: hk.group_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !hk.st<64x64xbf16>, !hk.gl<?x?xbf16>
  hk.group_store %s3, %a[%c0, %c0] : !hk.st<64x64xbf16>, !hk.gl<?x?xbf16>
  // Transfer paths round-trip on every global access.
  // CHECK: hk.group_load %{{.*}} {path = #hk.path<direct>}
  hk.group_load %a[%c0, %c1], %s3 {path = #hk.path<direct>} : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // CHECK: hk.group_store %{{.*}} {path = #hk.path<buffer>}
  hk.group_store %s3, %a[%c0, %c0] {path = #hk.path<buffer>} : !hk.st<64x64xbf16>, !hk.gl<?x?xbf16>
  // CHECK: hk.load %{{.*}} {path = #hk.path<global>} : !hk.gl<?x?xbf16> -> !hk.rt<16x16xbf16>
  %pg = hk.load %a[%c0, %c0] {path = #hk.path<global>} : !hk.gl<?x?xbf16> -> !hk.rt<16x16xbf16>
  hk.return
}

// CHECK-LABEL: hk.kernel @math
hk.kernel @math(%x: f32) waves(1) {
  // CHECK: hk.zero : !hk.rt<16x16xf32, col>
  %z = hk.zero : !hk.rt<16x16xf32, col>
  // CHECK: hk.zero : !hk.rv<16xf32>
  %zv = hk.zero : !hk.rv<16xf32>
  // CHECK: hk.fill %{{.*}} : f32 -> !hk.rt<16x16xf32, col>
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, col>
  // CHECK: hk.convert %{{.*}} : !hk.rt<16x16xf32, col> -> !hk.rt<16x16xbf16, col>
  %c = hk.convert %f : !hk.rt<16x16xf32, col> -> !hk.rt<16x16xbf16, col>
  // CHECK: hk.convert %{{.*}} : !hk.rt<16x16xf32, col> -> !hk.rt<16x16xf8E4M3FN, col>
  %c8 = hk.convert %f : !hk.rt<16x16xf32, col> -> !hk.rt<16x16xf8E4M3FN, col>
  // CHECK: hk.convert_layout %{{.*}} : !hk.rt<16x16xf32, col> -> !hk.rt<16x16xf32, row>
  %cl = hk.convert_layout %f : !hk.rt<16x16xf32, col> -> !hk.rt<16x16xf32, row>
  // CHECK: hk.exp2
  // CHECK: hk.exp
  // CHECK: hk.log
  // CHECK: hk.log2
  // CHECK: hk.abs
  // CHECK: hk.neg
  // CHECK: hk.relu
  // CHECK: hk.sqrt
  // CHECK: hk.rsqrt %{{.*}} : !hk.rt<16x16xf32, col>
  %u0 = hk.exp2 %f : !hk.rt<16x16xf32, col>
  %u1 = hk.exp %u0 : !hk.rt<16x16xf32, col>
  %u2 = hk.log %u1 : !hk.rt<16x16xf32, col>
  %u3 = hk.log2 %u2 : !hk.rt<16x16xf32, col>
  %u4 = hk.abs %u3 : !hk.rt<16x16xf32, col>
  %u5 = hk.neg %u4 : !hk.rt<16x16xf32, col>
  %u6 = hk.relu %u5 : !hk.rt<16x16xf32, col>
  %u7 = hk.sqrt %u6 : !hk.rt<16x16xf32, col>
  %u8 = hk.rsqrt %u7 : !hk.rt<16x16xf32, col>
  // CHECK: hk.add %{{.*}}, %{{.*}} : !hk.rt<16x16xf32, col>{{$}}
  // CHECK: hk.sub %{{.*}}, %{{.*}} : !hk.rt<16x16xf32, col>, f32
  // CHECK: hk.mul
  // CHECK: hk.div
  // CHECK: hk.max
  // CHECK: hk.min %{{.*}}, %{{.*}} : !hk.rv<16xf32>
  %b0 = hk.add %u8, %f : !hk.rt<16x16xf32, col>
  %b1 = hk.sub %b0, %x : !hk.rt<16x16xf32, col>, f32
  %b2 = hk.mul %b1, %b0 : !hk.rt<16x16xf32, col>
  %b3 = hk.div %b2, %x : !hk.rt<16x16xf32, col>, f32
  %b4 = hk.max %b3, %b2 : !hk.rt<16x16xf32, col>
  %b5 = hk.min %zv, %zv : !hk.rv<16xf32>
  hk.return
}

// CHECK-LABEL: hk.kernel @rows
hk.kernel @rows() waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.zero : !hk.rt<32x64xf32>
  %vr = hk.zero : !hk.rv<32xf32>
  %vc = hk.zero : !hk.rv<64xf32>
  // CHECK: hk.add_row
  // CHECK: hk.sub_row
  // CHECK: hk.mul_row
  // CHECK: hk.div_row %{{.*}}, %{{.*}} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  // CHECK: hk.add_col
  // CHECK: hk.sub_col
  // CHECK: hk.mul_col
  // CHECK: hk.div_col %{{.*}}, %{{.*}} : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  // CHECK: hk.div_row %{{.*}}, %{{.*}} {reciprocal} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  // CHECK: hk.div_col %{{.*}}, %{{.*}} {reciprocal} : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  %r0 = hk.add_row %t, %vr : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  %r1 = hk.sub_row %r0, %vr : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  %r2 = hk.mul_row %r1, %vr : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  %r3 = hk.div_row %r2, %vr : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  %c0t = hk.add_col %r3, %vc : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  %c1t = hk.sub_col %c0t, %vc : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  %c2t = hk.mul_col %c1t, %vc : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  %c3t = hk.div_col %c2t, %vc : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  %r4 = hk.div_row %c3t, %vr {reciprocal} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  %c4t = hk.div_col %r4, %vc {reciprocal} : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  // CHECK: hk.row_max %{{.*}} : !hk.rt<32x64xf32> -> !hk.rv<32xf32>
  // CHECK: hk.row_min
  // CHECK: hk.row_sum %{{.*}}, %{{.*}} : !hk.rt<32x64xf32> -> !hk.rv<32xf32>
  // CHECK: hk.col_max
  // CHECK: hk.col_min
  // CHECK: hk.col_sum %{{.*}}, %{{.*}} : !hk.rt<32x64xf32> -> !hk.rv<64xf32>
  %m0 = hk.row_max %c3t : !hk.rt<32x64xf32> -> !hk.rv<32xf32>
  %m1 = hk.row_min %c3t : !hk.rt<32x64xf32> -> !hk.rv<32xf32>
  %m2 = hk.row_sum %c3t, %m0 : !hk.rt<32x64xf32> -> !hk.rv<32xf32>
  %n0 = hk.col_max %c3t : !hk.rt<32x64xf32> -> !hk.rv<64xf32>
  %n1 = hk.col_min %c3t : !hk.rt<32x64xf32> -> !hk.rv<64xf32>
  %n2 = hk.col_sum %c3t, %n0 : !hk.rt<32x64xf32> -> !hk.rv<64xf32>
  // CHECK: hk.tril %{{.*}}[%{{.*}}, %{{.*}}] {diagonal = 2 : i64, fill = 0.000000e+00 : f32} : !hk.rt<32x64xf32>
  // CHECK: hk.triu %{{.*}}[%{{.*}}, %{{.*}}] : !hk.rt<32x64xf32>
  // CHECK: hk.causal_mask %{{.*}}[%{{.*}}, %{{.*}}] : !hk.rt<32x64xf32>
  // CHECK: hk.bounds_mask %{{.*}}[%{{.*}}, %{{.*}}] within [%{{.*}}, %{{.*}}] : !hk.rt<32x64xf32>
  %k0 = hk.tril %c3t[%c0, %c0] {diagonal = 2 : i64, fill = 0.0 : f32} : !hk.rt<32x64xf32>
  %k1 = hk.triu %k0[%c0, %c0] : !hk.rt<32x64xf32>
  %k2 = hk.causal_mask %k1[%c0, %c0] : !hk.rt<32x64xf32>
  %k3 = hk.bounds_mask %k2[%c0, %c0] within [%c0, %c0] : !hk.rt<32x64xf32>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = hk.softmax %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.250000e-01 : f32} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  %p, %m, %l, %a = hk.softmax %k3, %m0, %m2 {scale = 0.125 : f32} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  // CHECK: hk.softmax cols %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.250000e-01 : f32} : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  %cm0 = hk.zero : !hk.rv<64xf32>
  %cp, %cm, %cl, %ca = hk.softmax cols %k3, %cm0, %cm0 {scale = 0.125 : f32} : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  // CHECK: hk.softmax cols %{{.*}}, %{{.*}}, %{{.*}} {max_slack = 8.000000e+00 : f32, scale = 1.250000e-01 : f32}
  // CHECK: hk.mul_col %{{.*}}, %{{.*}} {skip_ones} : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  // CHECK: hk.mul_row %{{.*}}, %{{.*}} {skip_ones} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  %lp, %lm, %ll, %la = hk.softmax cols %k3, %cm0, %cm0 {scale = 0.125 : f32, max_slack = 8.0 : f32} : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  %lo = hk.mul_col %c3t, %la {skip_ones} : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  %lr = hk.mul_row %lo, %vr {skip_ones} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  hk.return
}

// CHECK-LABEL: hk.kernel @mma
hk.kernel @mma() waves(4) schedule(#hk.interleave<waves = 4>) {
  %a = hk.zero : !hk.rt<64x32xbf16>
  %at = hk.zero : !hk.rt<32x64xbf16>
  %b = hk.zero : !hk.rt<32x64xbf16>
  %bt = hk.zero : !hk.rt<64x32xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  // CHECK: hk.mma ab %{{.*}}, %{{.*}}, %{{.*}} : !hk.rt<64x32xbf16>, !hk.rt<32x64xbf16>, !hk.rt<64x64xf32>
  // CHECK: hk.mma abt
  // CHECK: hk.mma atb
  // CHECK: hk.mma atbt %{{.*}}, %{{.*}}, %{{.*}} {instr = #hk.mfma_shape<32x32x16>}
  %d0 = hk.mma ab %a, %b, %c : !hk.rt<64x32xbf16>, !hk.rt<32x64xbf16>, !hk.rt<64x64xf32>
  %d1 = hk.mma abt %a, %bt, %d0 : !hk.rt<64x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<64x64xf32>
  %d2 = hk.mma atb %at, %b, %d1 : !hk.rt<32x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<64x64xf32>
  %d3 = hk.mma atbt %at, %bt, %d2 {instr = #hk.mfma_shape<32x32x16>} : !hk.rt<32x64xbf16>, !hk.rt<64x32xbf16>, !hk.rt<64x64xf32>
  // Exact MFMA operand layouts.
  %la = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>
  %lb = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<b, 16x16x32>>
  %lc = hk.zero : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
  // CHECK: hk.mma ab {{.*}} : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x32xbf16, #hk.mfma<b, 16x16x32>>, !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
  %ld = hk.mma ab %la, %lb, %lc : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x32xbf16, #hk.mfma<b, 16x16x32>>, !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>>
  // OCP fp8 on gfx950, with the scaled 16x16x128 shape pinned.
  %fa = hk.zero : !hk.rt<16x128xf8E4M3FN>
  %fb = hk.zero : !hk.rt<16x128xf8E5M2>
  %fc = hk.zero : !hk.rt<16x16xf32>
  // CHECK: hk.mma abt {{.*}} {instr = #hk.mfma_shape<16x16x128>} : !hk.rt<16x128xf8E4M3FN>, !hk.rt<16x128xf8E5M2>
  %fd = hk.mma abt %fa, %fb, %fc {instr = #hk.mfma_shape<16x16x128>} : !hk.rt<16x128xf8E4M3FN>, !hk.rt<16x128xf8E5M2>, !hk.rt<16x16xf32>
  // CHECK: !hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x32>>>
  %rv = hk.row_max %lc : !hk.rt<32x32xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x32>>>
  // CHECK: !hk.rv<32xf32, #hk.vec<cols, row>>
  %cv = hk.zero : !hk.rv<32xf32, #hk.vec<cols, row>>
  hk.return
}

// CHECK-LABEL: hk.kernel @clusters
hk.kernel @clusters() waves(8) {
  %a = hk.zero : !hk.rt<16x16xf32, col>
  // CHECK: hk.cluster memory {
  // CHECK-NEXT: }
  hk.cluster memory {
  }
  // CHECK: %{{.*}} = hk.cluster compute {
  // CHECK: hk.yield %{{.*}} : !hk.rt<16x16xf32, col>
  // CHECK-NEXT: } : !hk.rt<16x16xf32, col>
  %r = hk.cluster compute {
    %e = hk.exp2 %a : !hk.rt<16x16xf32, col>
    hk.yield %e : !hk.rt<16x16xf32, col>
  } : !hk.rt<16x16xf32, col>
  // CHECK: hk.cluster compute priority 1 {
  hk.cluster compute priority 1 {
  }
  // CHECK: hk.priority 1
  hk.priority 1
  // CHECK: hk.priority 0
  hk.priority 0
  hk.return
}

}

// Attributes print back in their short forms.
// CHECK: test.attrs = [#hk.layout<col>, #hk.pingpong<waves = 8>, #hk.pingpong<waves = 8, clusters = 2>, #hk.pingpong<waves = 8, setprio = true, vector_in_memory = false>, #hk.interleave<waves = 4>, #hk.interleave<waves = 4, mfma = 2, vmem = 0>]
module attributes {test.attrs = [#hk.layout<col>, #hk.pingpong<waves = 8>, #hk.pingpong<clusters = 2, waves = 8>, #hk.pingpong<vector_in_memory = false, waves = 8, setprio = true>, #hk.interleave<waves = 4>, #hk.interleave<vmem = 0, waves = 4, mfma = 2>]} {}
