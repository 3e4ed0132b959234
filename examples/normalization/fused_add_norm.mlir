// Residual add fused with a row normalization, as transformer blocks run
// them: s = x + residual is written out (the next block's residual) and
// normalized. bf16 data, f32 arithmetic: the normalization uses the f32
// sum, the stored residual is its bf16 rounding. Each wave owns 16 rows and
// four waves make a block (64 rows); a wave walks its rows in 16 x 128
// tiles, recomputing s in each pass instead of reading back its own
// stores. Columns past N read zero (they add nothing to the sums) and
// stores past the edges are dropped, so M and N are any runtime sizes. The
// tiles use the 16x16x32 A-operand layout (runs of 8 elements per lane):
// 16 bytes of bf16 per lane per access.
module {
  // s = x + residual; y = s * rsqrt(mean(s^2) + eps) * gamma.
  hk.kernel @add_rmsnorm_bf16(%x: !hk.gl<?x?xbf16>, %res: !hk.gl<?x?xbf16>,
                              %gamma: !hk.gl<?xbf16>, %y: !hk.gl<?x?xbf16>,
                              %res_out: !hk.gl<?x?xbf16>, %eps: f32)
      waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %w = hk.wave_id
    %b = hk.block_id x
    %b4 = arith.muli %b, %c4 : index
    %r = arith.addi %b4, %w : index
    %n = hk.dim %x[1] : !hk.gl<?x?xbf16>
    %n127 = arith.addi %n, %c127 : index
    %tiles = arith.divui %n127, %c128 : index
    %n32 = arith.index_cast %n : index to i32
    %nf = arith.sitofp %n32 : i32 to f32

    %zero = hk.zero : !hk.rv<16xf32>
    %sq = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %zero)
        -> (!hk.rv<16xf32>) {
      %tx = hk.load %x[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %tr = hk.load %res[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %s = hk.add %tx, %tr : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      hk.store %s, %res_out[%r, %j] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
          -> !hk.gl<?x?xbf16>
      %s2 = hk.mul %s, %s : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %sum = hk.row_sum %s2, %acc
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>> -> !hk.rv<16xf32>
      scf.yield %sum : !hk.rv<16xf32>
    }
    %ms = hk.div %sq, %nf : !hk.rv<16xf32>, f32
    %mse = hk.add %ms, %eps : !hk.rv<16xf32>, f32
    %rrms = hk.rsqrt %mse : !hk.rv<16xf32>

    scf.for %j = %c0 to %tiles step %c1 {
      %tx = hk.load %x[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %tr = hk.load %res[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %g = hk.load %gamma[%j] : !hk.gl<?xbf16> -> !hk.rv<128xf32>
      %s = hk.add %tx, %tr : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %nrm = hk.mul_row %s, %rrms
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<16xf32>
      %o = hk.mul_col %nrm, %g
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<128xf32>
      hk.store %o, %y[%r, %j] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
          -> !hk.gl<?x?xbf16>
    }
    hk.return
  }

  // s = x + residual; y = (s - mean) * rsqrt(var + eps) * gamma + beta, the
  // variance from the centred squares (a second pass), then a third pass
  // to write y.
  hk.kernel @add_layernorm_bf16(%x: !hk.gl<?x?xbf16>,
                                %res: !hk.gl<?x?xbf16>,
                                %gamma: !hk.gl<?xbf16>, %beta: !hk.gl<?xbf16>,
                                %y: !hk.gl<?x?xbf16>,
                                %res_out: !hk.gl<?x?xbf16>, %eps: f32)
      waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %w = hk.wave_id
    %b = hk.block_id x
    %b4 = arith.muli %b, %c4 : index
    %r = arith.addi %b4, %w : index
    %row0 = arith.muli %r, %c16 : index
    %m = hk.dim %x[0] : !hk.gl<?x?xbf16>
    %n = hk.dim %x[1] : !hk.gl<?x?xbf16>
    %n127 = arith.addi %n, %c127 : index
    %tiles = arith.divui %n127, %c128 : index
    %n32 = arith.index_cast %n : index to i32
    %nf = arith.sitofp %n32 : i32 to f32

    %zero = hk.zero : !hk.rv<16xf32>
    %sum = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %zero)
        -> (!hk.rv<16xf32>) {
      %tx = hk.load %x[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %tr = hk.load %res[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %s = hk.add %tx, %tr : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      hk.store %s, %res_out[%r, %j] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
          -> !hk.gl<?x?xbf16>
      %rs = hk.row_sum %s, %acc
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>> -> !hk.rv<16xf32>
      scf.yield %rs : !hk.rv<16xf32>
    }
    %mean = hk.div %sum, %nf : !hk.rv<16xf32>, f32

    %sq = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %zero)
        -> (!hk.rv<16xf32>) {
      %tx = hk.load %x[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %tr = hk.load %res[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %s = hk.add %tx, %tr : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %d = hk.sub_row %s, %mean
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<16xf32>
      %col0 = arith.muli %j, %c128 : index
      %dm = hk.bounds_mask %d[%row0, %col0] within [%m, %n] {fill = 0.0 : f32}
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %d2 = hk.mul %dm, %dm : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %rs = hk.row_sum %d2, %acc
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>> -> !hk.rv<16xf32>
      scf.yield %rs : !hk.rv<16xf32>
    }
    %var = hk.div %sq, %nf : !hk.rv<16xf32>, f32
    %vare = hk.add %var, %eps : !hk.rv<16xf32>, f32
    %rstd = hk.rsqrt %vare : !hk.rv<16xf32>

    scf.for %j = %c0 to %tiles step %c1 {
      %tx = hk.load %x[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %tr = hk.load %res[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %g = hk.load %gamma[%j] : !hk.gl<?xbf16> -> !hk.rv<128xf32>
      %be = hk.load %beta[%j] : !hk.gl<?xbf16> -> !hk.rv<128xf32>
      %s = hk.add %tx, %tr : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %d = hk.sub_row %s, %mean
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<16xf32>
      %nrm = hk.mul_row %d, %rstd
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<16xf32>
      %sc = hk.mul_col %nrm, %g
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<128xf32>
      %o = hk.add_col %sc, %be
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<128xf32>
      hk.store %o, %y[%r, %j] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
          -> !hk.gl<?x?xbf16>
    }
    hk.return
  }
}

// HK-RUN: script kernel=add_rmsnorm_bf16 case=fused_add_norm.py:add_norm norm=rms eps=1e-6 shapes=64x128,130x200,17x1000,1x1
// HK-RUN: script kernel=add_layernorm_bf16 case=fused_add_norm.py:add_norm norm=layer eps=1e-5 shapes=64x128,130x200,17x1000,1x1
