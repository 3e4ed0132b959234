// Flash-attention forward with head dimension 64 for gfx942, in the 4-wave
// interleave schedule: attention_gfx950.mlir's transposed form (S^T =
// K Q^T with `hk.softmax cols`, P^T straight from the accumulator, the
// softmax's sums on the MFMAs, the lazy rescale) with what gfx942 has
// instead of transposing LDS reads: V is copied into LDS transposed, and
// O^T = V^T P^T is an `ab` product whose A operand (V^T) is read along
// its rows and whose B operand is P^T as it leaves the accumulator (the
// 16x16x16 MFMA's B layout is its accumulator's, so the layout change is
// a renaming). attention.mlir's attention_fwd_interleave computes the
// row-major form, whose P goes through LDS to change layout.
//
// The V copy is staged through registers (gfx942 has no transposing
// direct loads either); in the interior version of the pipelined loop
// its LDS writes follow the MFMAs, so its loads overlap them.
module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @attention_fwd_interleave_gfx942(
      %Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
      %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>) waves(4)
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
    %hq = hk.dim %Q[0] : !hk.gl<?x?x64xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x64xbf16>
    %group = arith.divui %hq, %hkv : index
    %kvh = arith.divui %bh, %group : index
    %qb4 = arith.muli %qb, %c4 : index
    %qt = arith.addi %qb4, %w : index
    %qrow = arith.muli %qt, %c16 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x64xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x64xbf16>
    %nk63 = arith.addi %nk, %c63 : index
    %tiles = arith.divui %nk63, %c64 : index

    %q = hk.load %Q[%bh, %qt, %c0]
        : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every row of %l holds each query's (column's) running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>
    %o0 = hk.zero : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s0 = hk.zero : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<64x64xbf16>, !hk.rt<16x64xbf16>, !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      // Read before the softmax, so that the reads run beside it.
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %key0 = arith.muli %j, %c64 : index
      %sm = hk.bounds_mask %st[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      // scale = log2(e) / sqrt(64)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.18033688 : f32, max_slack = 8.0 : f32}
          : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>
      %ptbb = hk.convert_layout %ptb
          : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>> -> !hk.rt<64x16xbf16, #hk.mfma<b, 16x16x16>>
      %o1 = hk.mma ab %vt, %ptbb, %os
          : !hk.rt<64x64xbf16>, !hk.rt<64x16xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<16x64xf32>
    hk.store %out, %O[%bh, %qt, %c0]
        : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }

  // The causal variant: key tiles past the block's last query are skipped,
  // and the diagonal tiles masked with hk.triu (the scores are transposed).
  hk.kernel @attention_causal_interleave_gfx942(
      %Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
      %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>) waves(4)
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
    %hq = hk.dim %Q[0] : !hk.gl<?x?x64xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x64xbf16>
    %group = arith.divui %hq, %hkv : index
    %kvh = arith.divui %bh, %group : index
    %qb4 = arith.muli %qb, %c4 : index
    %qt = arith.addi %qb4, %w : index
    %qrow = arith.muli %qt, %c16 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x64xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x64xbf16>
    // Query i sees keys 0..i: the block's last row bounds the key tiles
    // (the same for all waves, which share the copies and barriers).
    %c64r = arith.muli %qb, %c64 : index
    %qend = arith.addi %c64r, %c64 : index
    %kend = arith.minui %nk, %qend : index
    %nk63 = arith.addi %kend, %c63 : index
    %tiles = arith.divui %nk63, %c64 : index

    %q = hk.load %Q[%bh, %qt, %c0]
        : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every row of %l holds each query's (column's) running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>
    %o0 = hk.zero : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s0 = hk.zero : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<64x64xbf16>, !hk.rt<16x64xbf16>, !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      // Read before the softmax, so that the reads run beside it.
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %key0 = arith.muli %j, %c64 : index
      // Transposed scores: row = key, column = query; keep key <= query.
      %sc = hk.triu %st[%key0, %qrow] : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      %sm = hk.bounds_mask %sc[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      // scale = log2(e) / sqrt(64)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.18033688 : f32, max_slack = 8.0 : f32}
          : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>
      %ptbb = hk.convert_layout %ptb
          : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>> -> !hk.rt<64x16xbf16, #hk.mfma<b, 16x16x16>>
      %o1 = hk.mma ab %vt, %ptbb, %os
          : !hk.rt<64x64xbf16>, !hk.rt<64x16xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<16x64xf32>
    hk.store %out, %O[%bh, %qt, %c0]
        : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }
}

// HK-RUN: attention kernel=attention_fwd_interleave_gfx942 rows=64 psum=bf16 chips=gfx942 shapes=1x64x64x64,2x128x192x64,3x70x100x64,4x70x100x64x2
// Keys scaled up along the sequence, so that the lazy rescale runs.
// HK-RUN: attention kernel=attention_fwd_interleave_gfx942 rows=64 psum=bf16 kramp=16 chips=gfx942 shapes=1x64x256x64,2x70x200x64
// HK-RUN: attention kernel=attention_causal_interleave_gfx942 rows=64 causal=1 psum=bf16 chips=gfx942 shapes=1x64x64x64,2x192x192x64,2x100x130x64,4x100x130x64x2
