// Attention with the two products on different MFMA shapes: S = Q K^T on
// 32x32x8, O += P V on 16x16x16 (32 query rows per wave, 32 keys per step). The row statistics live in S's
// accumulator rows; hk-mfma-layout converts them (through LDS scratch) for
// the broadcasts onto O, and P moves to the 16x16 A-operand layout.
module {
  hk.kernel @attention_mixed(%Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
                           %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>)
      waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c31 = arith.constant 31 : index
    %c64 = arith.constant 64 : index
    %w = hk.wave_id
    %qb = hk.block_id x
    %bh = hk.block_id y
    %qb4 = arith.muli %qb, %c4 : index
    %qt = arith.addi %qb4, %w : index
    %qrow = arith.muli %qt, %c32 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x64xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x64xbf16>
    %nk31 = arith.addi %nk, %c31 : index
    %tiles = arith.divui %nk31, %c32 : index

    %q = hk.load %Q[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<32x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<32xf32>
    %l0 = hk.zero : !hk.rv<32xf32>
    %o0 = hk.zero : !hk.rt<32x64xf32>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<32xf32>, !hk.rv<32xf32>, !hk.rt<32x64xf32>) {
      %k = hk.load %K[%bh, %j, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<32x64xbf16>
      %s0 = hk.zero : !hk.rt<32x32xf32>
      %s = hk.mma abt %q, %k, %s0 {instr = #hk.mfma_shape<32x32x8>}
          : !hk.rt<32x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<32x32xf32>
      %key0 = arith.muli %j, %c32 : index
      %sm = hk.bounds_mask %s[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<32x32xf32>
      // scale = log2(e) / sqrt(64)
      %p, %m1, %l1, %f = hk.softmax %sm, %m, %l {scale = 0.18033688 : f32}
          : !hk.rt<32x32xf32>, !hk.rv<32xf32>
      %os = hk.mul_row %o, %f : !hk.rt<32x64xf32>, !hk.rv<32xf32>
      %pb = hk.convert %p : !hk.rt<32x32xf32> -> !hk.rt<32x32xbf16>
      %v = hk.load %V[%bh, %j, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<32x64xbf16>
      %o1 = hk.mma ab %pb, %v, %os {instr = #hk.mfma_shape<16x16x16>}
          : !hk.rt<32x32xbf16>, !hk.rt<32x64xbf16>, !hk.rt<32x64xf32>
      scf.yield %m1, %l1, %o1 : !hk.rv<32xf32>, !hk.rv<32xf32>, !hk.rt<32x64xf32>
    }
    %out = hk.div_row %r#2, %r#1 : !hk.rt<32x64xf32>, !hk.rv<32xf32>
    hk.store %out, %O[%bh, %qt, %c0] : !hk.rt<32x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }
}

// HK-RUN: attention kernel=attention_mixed rows=128 shapes=1x128x128x64,2x100x200x64
