// Row normalizations of an M x N matrix, 16 rows per wave and four waves per
// block. Each wave walks its rows in 16x128 tiles: row statistics come from
// hk.row_sum over the tiles (with a running init), the weights are column
// vectors broadcast with hk.mul_col / hk.add_col. N is a runtime size: loads
// past the last column read zero, and hk.bounds_mask keeps those zeros out
// of the variance.
module {
  // y = (x - mean) * rsqrt(var + eps) * gamma + beta, two passes over x for
  // the statistics (mean, then the centred sum of squares) and one to write.
  hk.kernel @layernorm_f32(%x: !hk.gl<?x?xf32>, %gamma: !hk.gl<?xf32>,
                           %beta: !hk.gl<?xf32>, %y: !hk.gl<?x?xf32>,
                           %eps: f32) waves(4) {
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
    %m = hk.dim %x[0] : !hk.gl<?x?xf32>
    %n = hk.dim %x[1] : !hk.gl<?x?xf32>
    %n127 = arith.addi %n, %c127 : index
    %tiles = arith.divui %n127, %c128 : index
    %n32 = arith.index_cast %n : index to i32
    %nf = arith.sitofp %n32 : i32 to f32

    %zero = hk.zero : !hk.rv<16xf32>
    %sum = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %zero)
        -> (!hk.rv<16xf32>) {
      %t = hk.load %x[%r, %j] : !hk.gl<?x?xf32> -> !hk.rt<16x128xf32, row>
      %s = hk.row_sum %t, %acc : !hk.rt<16x128xf32, row> -> !hk.rv<16xf32>
      scf.yield %s : !hk.rv<16xf32>
    }
    %mean = hk.div %sum, %nf : !hk.rv<16xf32>, f32

    %sq = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %zero)
        -> (!hk.rv<16xf32>) {
      %t = hk.load %x[%r, %j] : !hk.gl<?x?xf32> -> !hk.rt<16x128xf32, row>
      %d = hk.sub_row %t, %mean : !hk.rt<16x128xf32, row>, !hk.rv<16xf32>
      %col0 = arith.muli %j, %c128 : index
      %dm = hk.bounds_mask %d[%row0, %col0] within [%m, %n] {fill = 0.0 : f32}
          : !hk.rt<16x128xf32, row>
      %d2 = hk.mul %dm, %dm : !hk.rt<16x128xf32, row>
      %s = hk.row_sum %d2, %acc : !hk.rt<16x128xf32, row> -> !hk.rv<16xf32>
      scf.yield %s : !hk.rv<16xf32>
    }
    %var = hk.div %sq, %nf : !hk.rv<16xf32>, f32
    %vare = hk.add %var, %eps : !hk.rv<16xf32>, f32
    %rstd = hk.rsqrt %vare : !hk.rv<16xf32>

    scf.for %j = %c0 to %tiles step %c1 {
      %t = hk.load %x[%r, %j] : !hk.gl<?x?xf32> -> !hk.rt<16x128xf32, row>
      %g = hk.load %gamma[%j] : !hk.gl<?xf32> -> !hk.rv<128xf32>
      %be = hk.load %beta[%j] : !hk.gl<?xf32> -> !hk.rv<128xf32>
      %d = hk.sub_row %t, %mean : !hk.rt<16x128xf32, row>, !hk.rv<16xf32>
      %nrm = hk.mul_row %d, %rstd : !hk.rt<16x128xf32, row>, !hk.rv<16xf32>
      %sc = hk.mul_col %nrm, %g : !hk.rt<16x128xf32, row>, !hk.rv<128xf32>
      %o = hk.add_col %sc, %be : !hk.rt<16x128xf32, row>, !hk.rv<128xf32>
      hk.store %o, %y[%r, %j] : !hk.rt<16x128xf32, row> -> !hk.gl<?x?xf32>
    }
    hk.return
  }

  // y = x * rsqrt(mean(x^2) + eps) * gamma with bf16 data and f32
  // arithmetic (the loads widen, the store rounds once). The tiles use the
  // 16x16x32 A-operand layout, whose lanes hold runs of 8 elements of a
  // row: 16 bytes of bf16 per lane per access (the row layout's runs of 4
  // would move 8).
  hk.kernel @rmsnorm_bf16(%x: !hk.gl<?x?xbf16>, %gamma: !hk.gl<?xbf16>,
                          %y: !hk.gl<?x?xbf16>, %eps: f32) waves(4) {
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
      %t = hk.load %x[%r, %j] : !hk.gl<?x?xbf16> -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %t2 = hk.mul %t, %t : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %s = hk.row_sum %t2, %acc : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>> -> !hk.rv<16xf32>
      scf.yield %s : !hk.rv<16xf32>
    }
    %ms = hk.div %sq, %nf : !hk.rv<16xf32>, f32
    %mse = hk.add %ms, %eps : !hk.rv<16xf32>, f32
    %rrms = hk.rsqrt %mse : !hk.rv<16xf32>

    scf.for %j = %c0 to %tiles step %c1 {
      %t = hk.load %x[%r, %j] : !hk.gl<?x?xbf16> -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %g = hk.load %gamma[%j] : !hk.gl<?xbf16> -> !hk.rv<128xf32>
      %nrm = hk.mul_row %t, %rrms : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<16xf32>
      %o = hk.mul_col %nrm, %g : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<128xf32>
      hk.store %o, %y[%r, %j] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?xbf16>
    }
    hk.return
  }
}

// HK-RUN: layernorm kernel=layernorm_f32 rows=64 eps=1e-5 shapes=64x128,200x300,17x1000
// HK-RUN: rmsnorm kernel=rmsnorm_bf16 rows=64 eps=1e-6 shapes=64x256,130x200
