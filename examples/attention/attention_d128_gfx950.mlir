// Flash-attention forward with head dimension 128 for gfx950, in the 4-wave
// interleave schedule: attention_d128.mlir's loop, with hk-schedule
// double-buffering the K and V tiles (64 KiB of LDS plus conversion scratch,
// more than gfx942's 64 KiB) so that the next key tile's loads are in
// flight while the current one is multiplied, and hk-interleave's cost
// function ordering each compute cluster's MFMAs, LDS reads and prefetch
// loads. V stays row-major in LDS, copied there direct-to-LDS like K, and
// PV reads it as the B operand of P V with gfx950's transposing LDS reads
// (ds_read_b64_tr_b16) instead of writing V^T element by element. The
// softmax's row sums come from the MFMAs: P times a 64x16 tile of ones
// accumulates each row's sum of the bf16 probabilities in every column of
// a 16x16 accumulator, rescaled with the output, in two MFMAs per key tile
// instead of the 28 VALU instructions of a cross-lane sum (hk.softmax's
// own sum is left unused, and the lowering drops it). The output is then
// normalised by the sum of the probabilities it was built from, which
// doubles the bound of their rounding (the HK-RUN line's psum=bf16).
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @attention_fwd_d128_interleave(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(4)
      schedule(#hk.interleave<waves = 4>) {
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
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every column of %l holds its row's running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16>
    %o0 = hk.zero : !hk.rt<16x128xf32>
    %sK = hk.alloc : !hk.st<64x128xbf16>
    %sV = hk.alloc : !hk.st<64x128xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x128xf32>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<64x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sV
          : !hk.gl<?x?x128xbf16>, !hk.st<64x128xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16>
      %s0 = hk.zero : !hk.rt<16x64xf32>
      %s = hk.mma abt %q, %k, %s0
          : !hk.rt<16x128xbf16>, !hk.rt<64x128xbf16>, !hk.rt<16x64xf32>
      %key0 = arith.muli %j, %c64 : index
      %sm = hk.bounds_mask %s[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(128)
      %p, %m1, %unused, %f = hk.softmax %sm, %m, %nosum {scale = 0.12751743 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x128xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %v = hk.load %sV : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16>
      %o1 = hk.mma ab %pb, %v, %os
          : !hk.rt<16x64xbf16>, !hk.rt<64x128xbf16>, !hk.rt<16x128xf32>
      %ls = hk.mul_row %l, %f : !hk.rt<16x16xf32>, !hk.rv<16xf32>
      %l1 = hk.mma ab %pb, %ones, %ls
          : !hk.rt<16x64xbf16>, !hk.rt<64x16xbf16>, !hk.rt<16x16xf32>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x128xf32>
    }
    // The columns are equal: any one is the sum.
    %lsum = hk.row_max %r#1 : !hk.rt<16x16xf32> -> !hk.rv<16xf32>
    %out = hk.div_row %r#2, %lsum : !hk.rt<16x128xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0]
        : !hk.rt<16x128xf32> -> !hk.gl<?x?x128xbf16>
    hk.return
  }
}

// HK-RUN: attention kernel=attention_fwd_d128_interleave rows=64 psum=bf16 chips=gfx950 shapes=1x64x64x128,2x128x192x128,3x70x100x128
