// RUN: hk-opt %s --hk-target=chip=gfx942 --convert-hk-to-amdgpu | FileCheck %s
// RUN: hk-opt %s --hk-target=chip=gfx950 --convert-hk-to-amdgpu | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt %s --hk-target=chip=gfx942 --convert-hk-to-amdgpu --canonicalize | FileCheck %s --check-prefix=JOINED

// Row statistics of a `row` tile: each lane holds one row in runs of four
// columns, the 4 lane groups (lane bits 16 and 32) hold the other runs.
// CHECK-LABEL: llvm.func @row_sum
hk.kernel @row_sum(%x: !hk.gl<?x?xf32>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  // 16 elements per lane, one row: a tree of 15 adds in the lane, then the
  // butterfly over the lanes holding the same row.
  // CHECK-COUNT-15: arith.addf {{.*}} : f32
  // CHECK: vector.from_elements {{.*}} : vector<1xf32>
  // CHECK: amdgpu.swizzle_bitmode {{.*}} 31 0 16 : vector<1xf32>
  // CHECK: arith.addf {{.*}} : f32
  // CHECK: rocdl.ds_bpermute
  // CHECK: arith.addf {{.*}} : f32
  // CHECK-NOT: swizzle_bitmode
  // gfx950 swaps rows of 16 lanes with v_permlane16_swap and the wave's
  // halves with v_permlane32_swap instead, of the value with itself: each
  // lane gets its own value and its partner's, in an order the sum does
  // not care about, so they are added as they come.
  // GFX950-LABEL: llvm.func @row_sum
  // GFX950-NOT: swizzle_bitmode
  // GFX950: %[[BITS16:.*]] = arith.bitcast %{{.*}} : f32 to i32
  // GFX950: %[[PAIR16:.*]] = rocdl.permlane16.swap %[[BITS16]], %[[BITS16]], false, false
  // GFX950-DAG: %[[A16:.*]] = llvm.extractvalue %[[PAIR16]][0]
  // GFX950-DAG: %[[B16:.*]] = llvm.extractvalue %[[PAIR16]][1]
  // GFX950-DAG: %[[FA16:.*]] = arith.bitcast %[[A16]] : i32 to f32
  // GFX950-DAG: %[[FB16:.*]] = arith.bitcast %[[B16]] : i32 to f32
  // GFX950: arith.addf %[[FA16]], %[[FB16]] : f32
  // GFX950: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
  // GFX950: %[[PAIR:.*]] = rocdl.permlane32.swap %[[BITS]], %[[BITS]], false, false
  // GFX950-DAG: %[[A:.*]] = llvm.extractvalue %[[PAIR]][0]
  // GFX950-DAG: %[[B:.*]] = llvm.extractvalue %[[PAIR]][1]
  // GFX950-DAG: %[[FA:.*]] = arith.bitcast %[[A]] : i32 to f32
  // GFX950-DAG: %[[FB:.*]] = arith.bitcast %[[B]] : i32 to f32
  // GFX950: arith.addf %[[FA]], %[[FB]] : f32
  // GFX950-NOT: rocdl.ds_bpermute
  // GFX950-LABEL: llvm.func @col_max
  %s = hk.row_sum %t : !hk.rt<16x64xf32, row>
      -> !hk.rv<16xf32, #hk.vec<rows, row>>
  // Only the lanes with zero in the replica bits (16 and 32) write.
  // CHECK: arith.andi %{{.*}}, %{{.*}}48
  // CHECK: rocdl.raw.ptr.buffer.store
  hk.store %s, %out[%c0] : !hk.rv<16xf32, #hk.vec<rows, row>>
      -> !hk.gl<?xf32>
  hk.return
}

// Columns of an MFMA accumulator: a lane holds one column and sixteen rows
// per 32x32 block; the other lane half holds the rest of the rows.
// CHECK-LABEL: llvm.func @col_max
hk.kernel @col_max(%x: !hk.gl<?x?xf32>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0]
      : !hk.gl<?x?xf32> -> !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
  // A NaN wins: IEEE maximum throughout.
  // CHECK-COUNT-15: arith.maximumf {{.*}} : f32
  // CHECK: rocdl.ds_bpermute
  // CHECK: arith.maximumf {{.*}} : f32
  %m = hk.col_max %t : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
      -> !hk.rv<32xf32, #hk.vec<cols, #hk.mfma<acc, 32x32x8>>>
  hk.store %m, %out[%c0]
      : !hk.rv<32xf32, #hk.vec<cols, #hk.mfma<acc, 32x32x8>>> -> !hk.gl<?xf32>
  hk.return
}

// Rows of the same accumulator: lanes 0-31 hold the columns, so the
// butterfly runs over lane bits 1 to 16: DPP for bits 1 and 2 (quad_perm)
// and, the quads being uniform by then, 4 and 8 (half-row and row
// mirrors); ds_swizzle for 16.
// CHECK-LABEL: llvm.func @acc_rows
hk.kernel @acc_rows(%x: !hk.gl<?x?xf32>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0]
      : !hk.gl<?x?xf32> -> !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
  // CHECK: vector.from_elements {{.*}} : vector<16xf32>
  // The moves leave their fallback undefined (every source lane exists),
  // so LLVM folds each into its combining instruction as a DPP operand.
  // The max is IEEE maximum, so that a NaN anywhere in a row wins.
  // CHECK: %[[U:.*]] = llvm.mlir.poison : f32
  // CHECK-NEXT: amdgpu.dpp %[[U]] %{{.*}} quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) {bound_ctrl = true} : f32
  // CHECK-COUNT-15: amdgpu.dpp {{.*}} quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) {bound_ctrl = true} : f32
  // Combined element by element: a packed combine could not fold them.
  // CHECK-COUNT-16: arith.maximumf {{.*}} : f32
  // CHECK-COUNT-16: amdgpu.dpp {{.*}} quad_perm([2 : i32, 3 : i32, 0 : i32, 1 : i32]) {bound_ctrl = true} : f32
  // CHECK-COUNT-16: amdgpu.dpp {{.*}} row_half_mirror {bound_ctrl = true} : f32
  // CHECK-COUNT-16: amdgpu.dpp {{.*}} row_mirror {bound_ctrl = true} : f32
  // CHECK: amdgpu.swizzle_bitmode {{.*}} 31 0 16 : vector<16xf32>
  // CHECK-NOT: rocdl.ds_bpermute
  %m = hk.row_max %t : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
      -> !hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x8>>>
  // A broadcast is a shuffle in the lane: slot s takes its row's value.
  // CHECK: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<16xf32>, vector<16xf32>
  // CHECK: arith.subf {{.*}} : vector<16xf32>
  %d = hk.sub_row %t, %m : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>,
      !hk.rv<32xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x8>>>
  hk.store %d, %x[%c0, %c0]
      : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>> -> !hk.gl<?x?xf32>
  hk.return
}

// A column broadcast onto a `row` tile: a lane holds four consecutive
// columns per 16x16 block, so its vector has 4 entries per block.
// CHECK-LABEL: llvm.func @col_broadcast
hk.kernel @col_broadcast(%x: !hk.gl<?x?xf32>, %v: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x32xf32, row>
  // Two loads, one per run of four entries.
  // CHECK-COUNT-2: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xf32>
  // CHECK: vector.insert_strided_slice {{.*}} {offsets = [4], strides = [1]} : vector<4xf32> into vector<8xf32>
  %g = hk.load %v[%c0] : !hk.gl<?xf32>
      -> !hk.rv<32xf32, #hk.vec<cols, row>>
  // CHECK: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7] : vector<8xf32>, vector<8xf32>
  // CHECK: arith.mulf {{.*}} : vector<8xf32>
  %y = hk.mul_col %t, %g : !hk.rt<16x32xf32, row>,
      !hk.rv<32xf32, #hk.vec<cols, row>>
  hk.store %y, %x[%c0, %c0] : !hk.rt<16x32xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}

// Masks compare constant slot offsets with one lane value per mask, as the
// sign of a difference (no per-slot compare results in SGPRs), and blend
// the fill in with bit operations.
// CHECK-LABEL: llvm.func @masks
hk.kernel @masks(%x: !hk.gl<?x?xf32>, %i32: i32) waves(1) {
  %c0 = arith.constant 0 : index
  %i = arith.index_cast %i32 : i32 to index
  %n = hk.dim %x[1] : !hk.gl<?x?xf32>
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  // A tile wholly below the diagonal (its largest col - row, col0 - row0 +
  // 15, within it) passes through; otherwise col - row per slot (the four
  // columns of the lane's run) against the lane's limit, the fill where
  // the difference is negative.
  // CHECK: %[[ALL:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : i32
  // CHECK: scf.if %[[ALL]] -> (vector<4xf32>) {
  // CHECK-NEXT: scf.yield %{{.*}} : vector<4xf32>
  // CHECK-NEXT: } else {
  // CHECK: %[[D:.*]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
  // CHECK: %[[M:.*]] = arith.subi %{{.*}}, %[[D]] : vector<4xi32>
  // CHECK: %[[DROP:.*]] = arith.shrsi %[[M]], %{{.*}} : vector<4xi32>
  // CHECK: %[[FILL:.*]] = arith.constant dense<0xFF800000> : vector<4xf32>
  // CHECK: %[[FB:.*]] = arith.bitcast %[[FILL]]
  // CHECK: %[[KEEP:.*]] = arith.xori %[[DROP]]
  // CHECK: arith.andi %{{.*}}, %[[KEEP]]
  // CHECK: arith.andi %[[FB]], %[[DROP]]
  // CHECK: arith.ori
  // CHECK-NOT: arith.cmpi {{.*}} : vector
  %c = hk.causal_mask %t[%i, %c0] : !hk.rt<16x16xf32, row>
  // triu keeps col - row >= diagonal: the difference the other way round.
  // CHECK: %[[U:.*]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
  // CHECK: arith.subi %[[U]], %{{.*}} : vector<4xi32>
  // CHECK: arith.constant dense<0.000000e+00> : vector<4xf32>
  %u = hk.triu %c[%i, %c0] {diagonal = 1 : i64, fill = 0.0 : f32}
      : !hk.rt<16x16xf32, row>
  // Bounds: a tile wholly inside passes through; otherwise strict
  // comparisons (the slot offsets shifted by one), rows and columns
  // dropping together.
  // CHECK: %[[IN:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
  // CHECK: scf.if %[[IN]] -> (vector<4xf32>) {
  // CHECK: arith.constant dense<1> : vector<4xi32>
  // CHECK: arith.shrsi
  // CHECK: arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  // CHECK: arith.shrsi
  // CHECK: arith.ori {{.*}} : vector<4xi32>
  %b = hk.bounds_mask %u[%i, %c0] within [%n, %n] : !hk.rt<16x16xf32, row>
  hk.store %b, %x[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}

// Online softmax: scale, running max, exp2 against the new max (0 for rows
// still all -inf), rescale of the old sum.
// CHECK-LABEL: llvm.func @softmax
hk.kernel @softmax(%x: !hk.gl<?x?xf32>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0]
      : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %ninf = arith.constant 0xFF800000 : f32
  %m0 = hk.fill %ninf : f32
      -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  %l0 = hk.zero : !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  // A positive scale is applied to the row maxima (the max commutes with
  // it), and to the scores inside one fma with the pivot.
  // CHECK-NOT: arith.mulf
  // Four butterfly steps over the 4 rows a lane holds, element by element.
  // CHECK-COUNT-16: arith.maxnumf {{.*}} fastmath<nnan> : f32
  // CHECK: %[[ROWMAX:.*]] = vector.from_elements {{.*}} : vector<4xf32>
  // CHECK: %[[SCALED:.*]] = arith.mulf %[[ROWMAX]], %{{.*}} : vector<4xf32>
  // CHECK-NEXT: %[[NEWMAX:.*]] = arith.maxnumf %{{.*}}, %[[SCALED]] : vector<4xf32>
  // A max still -inf pivots on the lowest finite float: one max, no select.
  // CHECK-NEXT: %[[LOWEST:.*]] = arith.constant dense<-3.40282347E+38> : vector<4xf32>
  // CHECK-NEXT: arith.maxnumf %[[NEWMAX]], %[[LOWEST]] : vector<4xf32>
  // CHECK-NOT: arith.select
  // CHECK: math.fma {{.*}} : vector<4xf32>
  // The hardware exp2 per element, for the probabilities and the rescale
  // factors (exponents at most 0 need no range scaling).
  // CHECK-COUNT-4: rocdl.exp2 {{.*}} f32 -> f32
  // CHECK: vector.from_elements {{.*}} : vector<4xf32>
  // CHECK-COUNT-4: rocdl.exp2 {{.*}} f32 -> f32
  // CHECK: arith.addf
  %p, %m1, %l1, %r = hk.softmax %t, %m0, %l0 {scale = 0.5 : f32}
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  hk.store %l1, %out[%c0]
      : !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>> -> !hk.gl<?xf32>
  hk.return
}

// Lazy online softmax: a row's max moves only past max + slack, and rows
// whose max stays get a rescale of exactly 1 (no NaN from -inf - -inf).
// CHECK-LABEL: llvm.func @softmax_slack
hk.kernel @softmax_slack(%x: !hk.gl<?x?xf32>, %out: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0]
      : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %ninf = arith.constant 0xFF800000 : f32
  %m0 = hk.fill %ninf : f32
      -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  %l0 = hk.zero : !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  // CHECK: %[[ROWMAX:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
  // CHECK: %[[SLACK:.*]] = arith.constant dense<8.000000e+00> : vector<4xf32>
  // CHECK: %[[LIMIT:.*]] = arith.addf %[[MAX:.*]], %[[SLACK]] : vector<4xf32>
  // CHECK: %[[GROWS:.*]] = arith.cmpf ogt, %[[ROWMAX]], %[[LIMIT]] : vector<4xf32>
  // CHECK: %[[NEW:.*]] = arith.select %[[GROWS]], %[[ROWMAX]], %[[MAX]]
  // CHECK-NOT: arith.maxnumf {{.*}} : vector<4xf32>
  // CHECK: arith.maxnumf %[[NEW]], %{{.*}} : vector<4xf32>
  // CHECK-COUNT-4: rocdl.exp2
  // CHECK-COUNT-4: rocdl.exp2
  // CHECK: %[[FACTOR:.*]] = vector.from_elements {{.*}} : vector<4xf32>
  // CHECK: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
  // CHECK: arith.select %[[GROWS]], %[[FACTOR]], %[[ONES]]
  %p, %m1, %l1, %r = hk.softmax %t, %m0, %l0 {scale = 0.5 : f32, max_slack = 8.0 : f32}
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  // skip_ones: one ballot over the wave of "some factor may not be 1",
  // and the multiply only where it is set. The factors are the softmax's
  // select(grows, f, 1): the ballot is of `grows`. (The softmax's sum is
  // used, so f stays where it is.)
  // CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[GROWS]] : vector<4xi1> into i1
  // CHECK: %[[LANES:.*]] = rocdl.ballot %[[ANY]] : i64
  // CHECK: %[[SOME:.*]] = arith.cmpi ne, %[[LANES]], %{{.*}} : i64
  // CHECK: scf.if %[[SOME]] -> (vector<4xf32>) {
  // CHECK: arith.mulf
  // CHECK: } else {
  // CHECK-NOT: arith.mulf
  // CHECK: }
  %y = hk.mul_row %p, %r {skip_ones}
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  hk.store %y, %x[%c0, %c0]
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.store %l1, %out[%c0]
      : !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>> -> !hk.gl<?xf32>
  hk.return
}

// Factors that are not a select of ones: the ballot is of "not 1" (NaN
// included).
// CHECK-LABEL: llvm.func @skip_ones_plain
hk.kernel @skip_ones_plain(%x: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0]
      : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %v = hk.row_max %t : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  // CHECK: %[[NOT1:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : vector<4xf32>
  // CHECK: vector.reduction <or>, %[[NOT1]] : vector<4xi1> into i1
  // CHECK: rocdl.ballot
  // CHECK: scf.if
  // CHECK: arith.mulf
  %y = hk.mul_row %t, %v {skip_ones}
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  hk.store %y, %x[%c0, %c0]
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.return
}

// Attention's lazy rescale: the softmax's sum unused, its factors
// rescale two tiles. The factors' exponentials are computed in the
// branch, which both multiplies join, and nowhere else.
// CHECK-LABEL: llvm.func @skip_ones_joined
hk.kernel @skip_ones_joined(%x: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0]
      : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %o = hk.load %x[%c0, %c0]
      : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>
  %ninf = arith.constant 0xFF800000 : f32
  %m0 = hk.fill %ninf : f32
      -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  %l0 = hk.zero : !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  // The probabilities' four exponentials, then the branch; the factors'
  // exponentials before it are dead (canonicalized away, JOINED).
  // CHECK: %[[GROWS:.*]] = arith.cmpf ogt
  // CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[GROWS]] : vector<4xi1> into i1
  // CHECK: %[[LANES:.*]] = rocdl.ballot %[[ANY]] : i64
  // CHECK: %[[SOME:.*]] = arith.cmpi ne, %[[LANES]], %{{.*}} : i64
  // CHECK: scf.if %[[SOME]] -> (vector<16xf32>, vector<4xf32>) {
  // CHECK-COUNT-4: rocdl.exp2
  // CHECK: %[[F:.*]] = arith.select %[[GROWS]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
  // CHECK: %[[O:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
  // CHECK: %[[T:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
  // CHECK: scf.yield %[[O]], %[[T]] : vector<16xf32>, vector<4xf32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: }
  // JOINED-LABEL: llvm.func @skip_ones_joined
  // JOINED-COUNT-4: rocdl.exp2
  // JOINED-NOT: rocdl.exp2
  // JOINED: rocdl.ballot
  // JOINED-NOT: rocdl.exp2
  // JOINED: scf.if %{{.*}} -> (vector<16xf32>, vector<4xf32>) {
  // JOINED-COUNT-4: rocdl.exp2
  // JOINED: } else {
  // JOINED-NOT: rocdl.exp2
  // JOINED: llvm.return
  %p, %m1, %unused, %r = hk.softmax %t, %m0, %l0 {scale = 0.5 : f32, max_slack = 8.0 : f32}
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  %os = hk.mul_row %o, %r {skip_ones}
      : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  %ps = hk.mul_row %p, %r
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  hk.store %os, %x[%c0, %c0]
      : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.store %ps, %x[%c0, %c0]
      : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.return
}

// Vectors through LDS: one writer per value (lane bits 16 and 32 of a
// `row` tile's rows are replicas), every lane reads the values its layout
// holds. A conversion between row placements goes through the wave's
// scratch the same way.
// CHECK-LABEL: llvm.func @vectors_in_lds
hk.kernel @vectors_in_lds(%x: !hk.gl<?x?xf32>, %out: !hk.gl<?xf32>) waves(2) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sv = hk.alloc : !hk.sv<32xf32>
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %s = hk.row_sum %t : !hk.rt<16x16xf32, row>
      -> !hk.rv<16xf32, #hk.vec<rows, row>>
  // CHECK: %[[W:.*]] = arith.andi %{{.*}}, %{{.*}}48
  // CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[W]]
  // CHECK: scf.if %[[ONE]] {
  // CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
  // CHECK: }
  hk.store %s, %sv[%c1] : !hk.rv<16xf32, #hk.vec<rows, row>> -> !hk.sv<32xf32>
  hk.barrier
  // CHECK: rocdl.s.barrier
  // The 16x16 accumulator holds four rows per lane.
  // CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> f32
  %a = hk.load %sv[%c1] : !hk.sv<32xf32>
      -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  // CHECK: llvm.fence syncscope("wavefront") acq_rel
  // CHECK: scf.if
  // CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
  // CHECK: llvm.fence syncscope("wavefront") acq_rel
  // CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3>
  // CHECK: llvm.fence syncscope("wavefront") acq_rel
  %b = hk.convert_layout %a
      : !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
      -> !hk.rv<16xf32, #hk.vec<rows, row>>
  // Equivalent placements convert for free.
  %c = hk.convert_layout %b : !hk.rv<16xf32, #hk.vec<rows, row>>
      -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<a, 16x16x16>>>
  hk.store %c, %out[%c0]
      : !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<a, 16x16x16>>> -> !hk.gl<?xf32>
  hk.return
}

// Division by a value per row: element by element by default; with
// `reciprocal`, one division per row value a lane holds (four in the 16x16
// accumulator layout, whose lanes hold 16 elements of a 16x64 tile) and a
// multiplication per element.
// CHECK-LABEL: llvm.func @div_row
hk.kernel @div_row(%x: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0]
      : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>
  %v = hk.row_sum %t : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>
      -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  // CHECK: arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
  // CHECK-NOT: arith.mulf
  %exact = hk.div_row %t, %v
      : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  // CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
  // CHECK-NEXT: %[[RCP:.*]] = arith.divf %[[ONE]], %{{.*}} : vector<4xf32>
  // CHECK-NOT: arith.divf
  // CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
  // CHECK-NOT: arith.divf
  // CHECK: llvm.return
  %fast = hk.div_row %exact, %v {reciprocal}
      : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>,
        !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  hk.store %fast, %x[%c0, %c0]
      : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.return
}
