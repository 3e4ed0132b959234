// Row softmax of an M x N matrix: y[i, j] = exp(x[i, j] - m_i) / s_i with
// m_i the row's maximum and s_i = sum_j exp(x[i, j] - m_i). Each wave owns
// 16 rows and four waves make a block (64 rows). A first pass over the
// row's 16 x 128 tiles keeps a running maximum and a running sum, rescaled
// when the maximum grows (the online softmax); a second pass writes y.
// Columns past N are masked to -inf, whose exponential is 0, so N is any
// runtime size. The tiles use the 16x16x32 A-operand layout (runs of 8
// elements per lane): bf16 moves 16 bytes per lane per access.
module {
  hk.kernel @softmax_bf16(%x: !hk.gl<?x?xbf16>, %y: !hk.gl<?x?xbf16>)
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

    %neg_inf = arith.constant 0xFF800000 : f32
    %ninf = hk.fill %neg_inf : f32 -> !hk.rv<16xf32>
    %zero = hk.zero : !hk.rv<16xf32>
    %stats:2 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%mx = %ninf, %sum = %zero) -> (!hk.rv<16xf32>, !hk.rv<16xf32>) {
      %t = hk.load %x[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %col0 = arith.muli %j, %c128 : index
      %tm = hk.bounds_mask %t[%row0, %col0] within [%m, %n]
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %mnew = hk.row_max %tm, %mx
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>> -> !hk.rv<16xf32>
      %d = hk.sub_row %tm, %mnew
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<16xf32>
      %e = hk.exp %d : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %shift = hk.sub %mx, %mnew : !hk.rv<16xf32>
      %scale = hk.exp %shift : !hk.rv<16xf32>
      %kept = hk.mul %sum, %scale : !hk.rv<16xf32>
      %snew = hk.row_sum %e, %kept
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>> -> !hk.rv<16xf32>
      scf.yield %mnew, %snew : !hk.rv<16xf32>, !hk.rv<16xf32>
    }
    %f1 = arith.constant 1.0 : f32
    %one = hk.fill %f1 : f32 -> !hk.rv<16xf32>
    %inv = hk.div %one, %stats#1 : !hk.rv<16xf32>

    scf.for %j = %c0 to %tiles step %c1 {
      %t = hk.load %x[%r, %j] : !hk.gl<?x?xbf16>
          -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %d = hk.sub_row %t, %stats#0
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<16xf32>
      %e = hk.exp %d : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
      %p = hk.mul_row %e, %inv
          : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>, !hk.rv<16xf32>
      hk.store %p, %y[%r, %j] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
          -> !hk.gl<?x?xbf16>
    }
    hk.return
  }
}

// HK-RUN: script kernel=softmax_bf16 case=softmax.py:softmax shapes=64x128,100x300,17x1000,1x1,3x4096
