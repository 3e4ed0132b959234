// Flash-attention forward with head dimension 128, the most common one:
// the loop of attention.mlir's attention_fwd with 16x128 query and output
// tiles per wave, K tiles of 64x128 and V^T tiles of 128x64 in LDS.
module {
  hk.kernel @attention_fwd_d128(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %w = hk.wave_id
    %qb = hk.block_id x
    %bh = hk.block_id y
    // Grouped-query attention: query head bh reads KV head bh / (Hq / Hkv),
    // which is bh itself when Q, K and V have as many heads.
    %hq = hk.dim %Q[0] : !hk.gl<?x?x128xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x128xbf16>
    %group = arith.divui %hq, %hkv : index
    %kvh = arith.divui %bh, %group : index
    %qb4 = arith.muli %qb, %c4 : index
    %qt = arith.addi %qb4, %w : index
    %qrow = arith.muli %qt, %c16 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x128xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x128xbf16>
    %nk63 = arith.addi %nk, %c63 : index
    %tiles = arith.divui %nk63, %c64 : index

    %q = hk.load %Q[%bh, %qt, %c0]
        : !hk.gl<?x?x128xbf16> -> !hk.rt<16x128xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %l0 = hk.zero : !hk.rv<16xf32>
    %o0 = hk.zero : !hk.rt<16x128xf32>
    %sK = hk.alloc : !hk.st<64x128xbf16>
    %sVt = hk.alloc : !hk.st<128x64xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x128xf32>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<64x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x128xbf16>, !hk.st<128x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16>
      %s0 = hk.zero : !hk.rt<16x64xf32>
      %s = hk.mma abt %q, %k, %s0
          : !hk.rt<16x128xbf16>, !hk.rt<64x128xbf16>, !hk.rt<16x64xf32>
      %key0 = arith.muli %j, %c64 : index
      %sm = hk.bounds_mask %s[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(128)
      %p, %m1, %l1, %f = hk.softmax %sm, %m, %l {scale = 0.12751743 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x128xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %vt = hk.load %sVt : !hk.st<128x64xbf16> -> !hk.rt<128x64xbf16>
      %o1 = hk.mma abt %pb, %vt, %os
          : !hk.rt<16x64xbf16>, !hk.rt<128x64xbf16>, !hk.rt<16x128xf32>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x128xf32>
    }
    %out = hk.div_row %r#2, %r#1 {reciprocal} : !hk.rt<16x128xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0]
        : !hk.rt<16x128xf32> -> !hk.gl<?x?x128xbf16>
    hk.return
  }
}

// HK-RUN: attention kernel=attention_fwd_d128 rows=64 shapes=1x64x64x128,2x128x192x128,3x70x100x128
