// Flash-attention forward with head dimension 128 for gfx942:
// attention_d128_gfx950.mlir's two kernels (32-key tiles double-buffered
// in the interleave schedule, S^T = K Q^T with `hk.softmax cols`, the
// softmax's sums on the MFMAs, the lazy rescale; see that file) in
// gfx942's form, as attention_gfx942.mlir is at d = 64: V copied into LDS
// transposed (staged through registers; in the interior version of the
// pipelined loop its LDS writes follow the MFMAs), and O^T = V^T P^T an
// `ab` product with P^T, as it leaves the accumulator, for the B operand.
// The last two run the same loops in the 8-wave ping-pong schedule.
module attributes {hk.target = #hk.target<"gfx942">} {
  hk.kernel @attention_fwd_d128_interleave_gfx942(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(4)
      schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
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
    %nk31 = arith.addi %nk, %c31 : index
    %tiles = arith.divui %nk31, %c32 : index

    %q = hk.load %Q[%bh, %qt, %c0]
        : !hk.gl<?x?x128xbf16> -> !hk.rt<16x128xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every row of %l holds each query's (column's) running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>
    %o0 = hk.zero : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
    %sK = hk.alloc : !hk.st<32x128xbf16>
    %sVt = hk.alloc : !hk.st<128x32xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<32x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x128xbf16>, !hk.st<128x32xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<32x128xbf16> -> !hk.rt<32x128xbf16>
      %s0 = hk.zero : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<32x128xbf16>, !hk.rt<16x128xbf16>, !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      // Read before the softmax, so that the reads run beside it.
      %vt = hk.load %sVt : !hk.st<128x32xbf16> -> !hk.rt<128x32xbf16>
      %key0 = arith.muli %j, %c32 : index
      %sm = hk.bounds_mask %st[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      // scale = log2(e) / sqrt(128)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.12751743 : f32, max_slack = 8.0 : f32}
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>
      %ptbb = hk.convert_layout %ptb
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x16xbf16, #hk.mfma<b, 16x16x16>>
      %o1 = hk.mma ab %vt, %ptbb, %os
          : !hk.rt<128x32xbf16>, !hk.rt<32x16xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<16x128xf32>
    hk.store %out, %O[%bh, %qt, %c0]
        : !hk.rt<16x128xf32> -> !hk.gl<?x?x128xbf16>
    hk.return
  }

  // The causal variant: key tiles past the block's last query are skipped,
  // and the diagonal tiles masked.
  hk.kernel @attention_causal_d128_interleave_gfx942(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(4)
      schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
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
    // Query i sees keys 0..i: the block's last query bounds the key tiles
    // (the same for all waves, which share the copies and barriers).
    %c64 = arith.constant 64 : index
    %qb64 = arith.muli %qb, %c64 : index
    %qend = arith.addi %qb64, %c64 : index
    %kend = arith.minui %nk, %qend : index
    %nk31 = arith.addi %kend, %c31 : index
    %tiles = arith.divui %nk31, %c32 : index

    %q = hk.load %Q[%bh, %qt, %c0]
        : !hk.gl<?x?x128xbf16> -> !hk.rt<16x128xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every row of %l holds each query's (column's) running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>
    %o0 = hk.zero : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
    %sK = hk.alloc : !hk.st<32x128xbf16>
    %sVt = hk.alloc : !hk.st<128x32xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<32x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x128xbf16>, !hk.st<128x32xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<32x128xbf16> -> !hk.rt<32x128xbf16>
      %s0 = hk.zero : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<32x128xbf16>, !hk.rt<16x128xbf16>, !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      // Read before the softmax, so that the reads run beside it.
      %vt = hk.load %sVt : !hk.st<128x32xbf16> -> !hk.rt<128x32xbf16>
      %key0 = arith.muli %j, %c32 : index
      // Transposed scores: row = key, column = query; keep key <= query.
      %sc = hk.triu %st[%key0, %qrow] : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      %sm = hk.bounds_mask %sc[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      // scale = log2(e) / sqrt(128)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.12751743 : f32, max_slack = 8.0 : f32}
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>
      %ptbb = hk.convert_layout %ptb
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x16xbf16, #hk.mfma<b, 16x16x16>>
      %o1 = hk.mma ab %vt, %ptbb, %os
          : !hk.rt<128x32xbf16>, !hk.rt<32x16xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<16x128xf32>
    hk.store %out, %O[%bh, %qt, %c0]
        : !hk.rt<16x128xf32> -> !hk.gl<?x?x128xbf16>
    hk.return
  }

  // The same loops in HipKittens' configuration: eight waves in two groups
  // (hk-ping-pong), 128 queries per block. The 32-key tiles stay: two
  // copies of 64-key K and V^T tiles would take all 64 KiB of gfx942's
  // LDS, leaving none for P^T's layout change.
  hk.kernel @attention_fwd_d128_pingpong_gfx942(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(8)
      schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %w = hk.wave_id
    %qb = hk.block_id x
    %bh = hk.block_id y
    // Grouped-query attention: query head bh reads KV head bh / (Hq / Hkv),
    // which is bh itself when Q, K and V have as many heads.
    %hq = hk.dim %Q[0] : !hk.gl<?x?x128xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x128xbf16>
    %group = arith.divui %hq, %hkv : index
    %kvh = arith.divui %bh, %group : index
    %qb8 = arith.muli %qb, %c8 : index
    %qt = arith.addi %qb8, %w : index
    %qrow = arith.muli %qt, %c16 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x128xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x128xbf16>
    %nk31 = arith.addi %nk, %c31 : index
    %tiles = arith.divui %nk31, %c32 : index

    %q = hk.load %Q[%bh, %qt, %c0]
        : !hk.gl<?x?x128xbf16> -> !hk.rt<16x128xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every row of %l holds each query's (column's) running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>
    %o0 = hk.zero : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
    %sK = hk.alloc : !hk.st<32x128xbf16>
    %sVt = hk.alloc : !hk.st<128x32xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<32x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x128xbf16>, !hk.st<128x32xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<32x128xbf16> -> !hk.rt<32x128xbf16>
      %s0 = hk.zero : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<32x128xbf16>, !hk.rt<16x128xbf16>, !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      // Read before the softmax, so that the reads run beside it.
      %vt = hk.load %sVt : !hk.st<128x32xbf16> -> !hk.rt<128x32xbf16>
      %key0 = arith.muli %j, %c32 : index
      %sm = hk.bounds_mask %st[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      // scale = log2(e) / sqrt(128)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.12751743 : f32, max_slack = 8.0 : f32}
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>
      %ptbb = hk.convert_layout %ptb
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x16xbf16, #hk.mfma<b, 16x16x16>>
      %o1 = hk.mma ab %vt, %ptbb, %os
          : !hk.rt<128x32xbf16>, !hk.rt<32x16xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<16x128xf32>
    hk.store %out, %O[%bh, %qt, %c0]
        : !hk.rt<16x128xf32> -> !hk.gl<?x?x128xbf16>
    hk.return
  }

  // The causal variant: key tiles past the block's last query are skipped,
  // and the diagonal tiles masked.
  hk.kernel @attention_causal_d128_pingpong_gfx942(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(8)
      schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %w = hk.wave_id
    %qb = hk.block_id x
    %bh = hk.block_id y
    // Grouped-query attention: query head bh reads KV head bh / (Hq / Hkv),
    // which is bh itself when Q, K and V have as many heads.
    %hq = hk.dim %Q[0] : !hk.gl<?x?x128xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x128xbf16>
    %group = arith.divui %hq, %hkv : index
    %kvh = arith.divui %bh, %group : index
    %qb8 = arith.muli %qb, %c8 : index
    %qt = arith.addi %qb8, %w : index
    %qrow = arith.muli %qt, %c16 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x128xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x128xbf16>
    // Query i sees keys 0..i: the block's last query bounds the key tiles
    // (the same for all waves, which share the copies and barriers).
    %c128 = arith.constant 128 : index
    %qb128 = arith.muli %qb, %c128 : index
    %qend = arith.addi %qb128, %c128 : index
    %kend = arith.minui %nk, %qend : index
    %nk31 = arith.addi %kend, %c31 : index
    %tiles = arith.divui %nk31, %c32 : index

    %q = hk.load %Q[%bh, %qt, %c0]
        : !hk.gl<?x?x128xbf16> -> !hk.rt<16x128xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every row of %l holds each query's (column's) running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>
    %o0 = hk.zero : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
    %sK = hk.alloc : !hk.st<32x128xbf16>
    %sVt = hk.alloc : !hk.st<128x32xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<32x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x128xbf16>, !hk.st<128x32xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<32x128xbf16> -> !hk.rt<32x128xbf16>
      %s0 = hk.zero : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<32x128xbf16>, !hk.rt<16x128xbf16>, !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      // Read before the softmax, so that the reads run beside it.
      %vt = hk.load %sVt : !hk.st<128x32xbf16> -> !hk.rt<128x32xbf16>
      %key0 = arith.muli %j, %c32 : index
      // Transposed scores: row = key, column = query; keep key <= query.
      %sc = hk.triu %st[%key0, %qrow] : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      %sm = hk.bounds_mask %sc[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>
      // scale = log2(e) / sqrt(128)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.12751743 : f32, max_slack = 8.0 : f32}
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>
      %ptbb = hk.convert_layout %ptb
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x16xbf16, #hk.mfma<b, 16x16x16>>
      %o1 = hk.mma ab %vt, %ptbb, %os
          : !hk.rt<128x32xbf16>, !hk.rt<32x16xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<16x128xf32>
    hk.store %out, %O[%bh, %qt, %c0]
        : !hk.rt<16x128xf32> -> !hk.gl<?x?x128xbf16>
    hk.return
  }
}

// HK-RUN: attention kernel=attention_fwd_d128_interleave_gfx942 rows=64 psum=bf16 chips=gfx942 shapes=1x64x64x128,2x128x192x128,3x70x100x128,1x40x33x128,4x70x100x128x2
// HK-RUN: attention kernel=attention_causal_d128_interleave_gfx942 rows=64 causal=1 psum=bf16 chips=gfx942 shapes=1x64x64x128,2x192x192x128,2x100x130x128,1x130x100x128
// Keys scaled up along the sequence: the running max moves past the slack
// after the first tile, so the lazy rescale runs.
// HK-RUN: attention kernel=attention_fwd_d128_interleave_gfx942 rows=64 psum=bf16 kramp=16 chips=gfx942 shapes=1x64x64x128,1x64x256x128,2x70x200x128
// HK-RUN: attention kernel=attention_causal_d128_interleave_gfx942 rows=64 causal=1 psum=bf16 kramp=16 chips=gfx942 shapes=1x64x64x128,2x192x192x128,1x130x100x128
// HK-RUN: attention kernel=attention_fwd_d128_pingpong_gfx942 rows=128 psum=bf16 chips=gfx942 shapes=1x128x128x128,2x256x192x128,3x70x100x128,1x40x33x128,4x70x100x128x2
// HK-RUN: attention kernel=attention_causal_d128_pingpong_gfx942 rows=128 causal=1 psum=bf16 chips=gfx942 shapes=1x128x128x128,2x256x256x128,2x100x130x128,1x300x260x128
// HK-RUN: attention kernel=attention_fwd_d128_pingpong_gfx942 rows=128 psum=bf16 kramp=16 chips=gfx942 shapes=1x128x256x128,2x70x200x128
// HK-RUN: attention kernel=attention_causal_d128_pingpong_gfx942 rows=128 causal=1 psum=bf16 kramp=16 chips=gfx942 shapes=2x256x256x128,1x130x100x128
