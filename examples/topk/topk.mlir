// Top-k of each row of an M x N matrix: the k largest values in
// descending order and their column indices, equal values by increasing
// index (the first k of a stable descending sort), as MoE routers and
// samplers take them. Round r of the selection finds the largest element
// that comes after round r-1's in that order: smaller than its value, or
// equal to it at a larger index. Each round is one pass over the row's
// 16 x 64 tiles with hk.row_max / hk.row_argmax; rows and columns past
// the matrix are masked to -inf. Results collect in 16 x 16 register tiles
// (one column per round) stored once per 16 rounds, so k is any runtime
// size up to N; values are f32, indices i32. A wave owns 16 rows, four
// waves make a block (64 rows).
module {
  hk.kernel @topk_f32(%x: !hk.gl<?x?xf32>, %values: !hk.gl<?x?xf32>,
                      %indices: !hk.gl<?x?xi32>) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c127 = arith.constant 63 : index
    %c128 = arith.constant 64 : index
    %f128 = arith.constant 64.0 : f32
    %inf = arith.constant 0x7F800000 : f32
    %neg_inf = arith.constant 0xFF800000 : f32
    %fm1 = arith.constant -1.0 : f32
    %half = arith.constant 0.5 : f32
    %w = hk.wave_id
    %b = hk.block_id x
    %b4 = arith.muli %b, %c4 : index
    %r = arith.addi %b4, %w : index
    %row0 = arith.muli %r, %c16 : index
    %m = hk.dim %x[0] : !hk.gl<?x?xf32>
    %n = hk.dim %x[1] : !hk.gl<?x?xf32>
    %k = hk.dim %values[1] : !hk.gl<?x?xf32>
    %n127 = arith.addi %n, %c127 : index
    %ntiles = arith.divui %n127, %c128 : index
    %k15 = arith.addi %k, %c15 : index
    %ktiles = arith.divui %k15, %c16 : index

    %cols = hk.iota cols : !hk.rt<16x64xf32, row>
    %kcols = hk.iota cols : !hk.rt<16x16xf32, row>
    %zt = hk.zero : !hk.rt<16x64xf32, row>
    %zk = hk.zero : !hk.rt<16x16xf32, row>
    %ninf_t = hk.fill %neg_inf : f32 -> !hk.rt<16x64xf32, row>
    %ninf_v = hk.fill %neg_inf : f32 -> !hk.rv<16xf32>
    %inf_v = hk.fill %inf : f32 -> !hk.rv<16xf32>
    %m1_v = hk.fill %fm1 : f32 -> !hk.rv<16xf32>

    scf.for %t = %c0 to %ktiles step %c1 iter_args(%pv0 = %inf_v, %pi0 = %m1_v)
        -> (!hk.rv<16xf32>, !hk.rv<16xf32>) {
      %sel:4 = scf.for %round = %c0 to %c16 step %c1
          iter_args(%pv = %pv0, %pi = %pi0, %vt = %zk, %it = %zk)
          -> (!hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x16xf32, row>,
              !hk.rt<16x16xf32, row>) {
        // The previous pick, broadcast along the rows.
        %pvt = hk.add_row %zt, %pv : !hk.rt<16x64xf32, row>, !hk.rv<16xf32>
        %pit = hk.add_row %zt, %pi : !hk.rt<16x64xf32, row>, !hk.rv<16xf32>
        %best:2 = scf.for %j = %c0 to %ntiles step %c1
            iter_args(%bv = %ninf_v, %bi = %m1_v)
            -> (!hk.rv<16xf32>, !hk.rv<16xf32>) {
          %tile = hk.load %x[%r, %j] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
          %col0 = arith.muli %j, %c128 : index
          %j32 = arith.index_cast %j : index to i32
          %jf = arith.sitofp %j32 : i32 to f32
          %base = arith.mulf %jf, %f128 : f32
          %col = hk.add %cols, %base : !hk.rt<16x64xf32, row>, f32
          // Still to pick: after the previous pick in (value desc, index asc).
          // Masks become 0/1 values at once: an i1 tile of 16 x 64 costs
          // 16 SGPR pairs while it lives (and 16 x 64 tiles, not 16 x 128,
          // keep the kernel from spilling SGPRs).
          %lt = hk.cmpf olt, %tile, %pvt : !hk.rt<16x64xf32, row>
          %ltf = hk.convert %lt : !hk.rt<16x64xi1, row> -> !hk.rt<16x64xf32, row>
          %eq = hk.cmpf oeq, %tile, %pvt : !hk.rt<16x64xf32, row>
          %eqf = hk.convert %eq : !hk.rt<16x64xi1, row> -> !hk.rt<16x64xf32, row>
          %later = hk.cmpf ogt, %col, %pit : !hk.rt<16x64xf32, row>
          %laterf = hk.convert %later : !hk.rt<16x64xi1, row> -> !hk.rt<16x64xf32, row>
          // lt and eq exclude each other: left is 0 or 1.
          %tie = hk.mul %eqf, %laterf : !hk.rt<16x64xf32, row>
          %left = hk.add %ltf, %tie : !hk.rt<16x64xf32, row>
          %pick = hk.cmpf ogt, %left, %half : !hk.rt<16x64xf32, row>, f32
          %cand = hk.select %pick, %tile, %ninf_t
              : !hk.rt<16x64xi1, row>, !hk.rt<16x64xf32, row>
          %cm = hk.bounds_mask %cand[%row0, %col0] within [%m, %n]
              : !hk.rt<16x64xf32, row>
          %tv = hk.row_max %cm : !hk.rt<16x64xf32, row> -> !hk.rv<16xf32>
          %ti = hk.row_argmax %cm : !hk.rt<16x64xf32, row> -> !hk.rv<16xi32>
          %tif = hk.convert %ti : !hk.rv<16xi32> -> !hk.rv<16xf32>
          %tcol = hk.add %tif, %base : !hk.rv<16xf32>, f32
          // Later tiles win only with a larger value: ties keep the
          // smaller index.
          %take = hk.cmpf ogt, %tv, %bv : !hk.rv<16xf32>
          %nbv = hk.select %take, %tv, %bv : !hk.rv<16xi1>, !hk.rv<16xf32>
          %nbi = hk.select %take, %tcol, %bi : !hk.rv<16xi1>, !hk.rv<16xf32>
          scf.yield %nbv, %nbi : !hk.rv<16xf32>, !hk.rv<16xf32>
        }
        // Column `round` of the result tiles takes the pick.
        %r32 = arith.index_cast %round : index to i32
        %rf = arith.sitofp %r32 : i32 to f32
        %here = hk.cmpf oeq, %kcols, %rf : !hk.rt<16x16xf32, row>, f32
        %bvt = hk.add_row %zk, %best#0 : !hk.rt<16x16xf32, row>, !hk.rv<16xf32>
        %bit = hk.add_row %zk, %best#1 : !hk.rt<16x16xf32, row>, !hk.rv<16xf32>
        %nvt = hk.select %here, %bvt, %vt
            : !hk.rt<16x16xi1, row>, !hk.rt<16x16xf32, row>
        %nit = hk.select %here, %bit, %it
            : !hk.rt<16x16xi1, row>, !hk.rt<16x16xf32, row>
        scf.yield %best#0, %best#1, %nvt, %nit
            : !hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x16xf32, row>,
              !hk.rt<16x16xf32, row>
      }
      hk.store %sel#2, %values[%r, %t]
          : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
      %idx = hk.convert %sel#3 : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xi32, row>
      hk.store %idx, %indices[%r, %t]
          : !hk.rt<16x16xi32, row> -> !hk.gl<?x?xi32>
      scf.yield %sel#0, %sel#1 : !hk.rv<16xf32>, !hk.rv<16xf32>
    }
    hk.return
  }
}

// HK-RUN: script kernel=topk_f32 case=topk.py:topk shapes=64x256x8,100x300x20,17x64x64,1x5x3
