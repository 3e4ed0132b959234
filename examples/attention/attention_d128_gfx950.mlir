// Flash-attention forward with head dimension 128 for gfx950, in the 4-wave
// interleave schedule: attention_d128.mlir's loop, with hk-schedule keeping
// three copies of the 32-key K and V tiles (`stages = 3`, 48 KiB of LDS) so
// that the loads of the key tile after next are in flight while the
// current one is multiplied, and hk-interleave's cost function ordering
// each compute cluster's MFMAs, LDS reads and prefetch loads. An iteration
// is shorter than a load's trip to HBM and back (the block that leads the
// KV heads' readers on an XCD misses L2), so with two copies the wait at
// the end of each iteration stalled; the timing model predicts the third
// copy 4% (non-causal) and 11% (causal) faster at N = 2048. At 32 keys per
// tile a wave needs about 140 VGPRs and its block 48 KiB of LDS, so three
// waves share each SIMD; 64-key tiles take twice the LDS and allow only
// two, which the timing model predicts 5% slower at N = 8192.
// attention_causal_d128_interleave is the causal variant (query i attends
// keys 0..i).
//
// The vector ALU work (the softmax: an exponential per score at quarter
// rate, maxima, scaling, conversion) is about as long as the
// MFMAs, and a SIMD issues one vector instruction per cycle of its
// sequencer, VALU or MFMA, to its highest-priority ready wave. hk-interleave
// therefore runs the loop's MFMAs at priority 1 and its softmax at 0
// (`hk.priority`, placed because the compute cluster holds a softmax):
// whenever the matrix pipe frees, the wave with MFMAs to issue gets the
// slot, and the other waves' softmax fills the slots in between.
//
// Each wave computes its scores transposed, S^T = K Q^T (keys x queries):
// in the 16x16 accumulator layout a lane then holds 16 scores of one query,
// so `hk.softmax cols` takes the column max mostly in the lane (two
// cross-lane steps instead of four per row). The output is built
// transposed too, O^T = V^T P^T, as `hk.mma atb` with both operands in the
// accumulator layout: the MFMA pairs the same 16-row blocks of V and P^T,
// P^T is multiplied as it leaves the accumulator (P never goes through
// LDS), V is read from row-major LDS with gfx950's transposing reads
// (ds_read_b64_tr_b16), and each lane's O^T column is its own query, so
// the rescale factors apply where they are. `hk.transpose` hands the
// finished O^T to the store as O without moving data. The softmax's sums
// come from the MFMAs too: a 32x16 tile of ones times P^T accumulates each
// query's sum of the bf16 probabilities in every row of a 16x16
// accumulator, rescaled with the output (hk.softmax's own sum is left
// unused, and the lowering drops it). The output is normalised by the sum
// of the probabilities it was built from, which doubles the bound of their
// rounding (the HK-RUN line's psum=bf16).
//
// The rescale is lazy (`max_slack = 8.0`): a query's running max moves
// only when a tile's scores pass it by more than 8 (in log2 units, after
// the scale), so after the first tile its factors are exactly 1 and
// `hk.mul_col ... {skip_ones}` skips the 16 v_pk_mul_f32 that rescale O^T,
// by one uniform branch. Probabilities then reach up to 2^8; output and
// sums share the max, which cancels in the division. The HK-RUN lines
// with kramp=16 scale the keys up along the sequence so that the max does
// move, and the rescale runs.
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @attention_fwd_d128_interleave(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(4)
      schedule(#hk.interleave<waves = 4, stages = 3>) {
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
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>
    %o0 = hk.zero : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
    %sK = hk.alloc : !hk.st<32x128xbf16>
    %sV = hk.alloc : !hk.st<32x128xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<32x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sV
          : !hk.gl<?x?x128xbf16>, !hk.st<32x128xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<32x128xbf16> -> !hk.rt<32x128xbf16>
      %s0 = hk.zero : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<32x128xbf16>, !hk.rt<16x128xbf16>, !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>
      // Read before the softmax, so that the reads run beside it.
      %v = hk.load %sV : !hk.st<32x128xbf16> -> !hk.rt<32x128xbf16, #hk.mfma<acc, 16x16x32>>
      %key0 = arith.muli %j, %c32 : index
      %sm = hk.bounds_mask %st[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>
      // scale = log2(e) / sqrt(128)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.12751743 : f32, max_slack = 8.0 : f32}
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>
      %o1 = hk.mma atb %v, %ptb, %os
          : !hk.rt<32x128xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<16x128xf32>
    // O goes out through LDS (in the K/V ring's bytes, which the wait and
    // barrier free), so that the block's stores write whole lines.
    hk.wait
    hk.barrier
    %sO = hk.alloc : !hk.st<64x128xbf16>
    hk.store %out, %sO[%w, %c0] : !hk.rt<16x128xf32> -> !hk.st<64x128xbf16>
    hk.barrier
    hk.group_store %sO, %O[%bh, %qb, %c0] : !hk.st<64x128xbf16>, !hk.gl<?x?x128xbf16>
    hk.return
  }

  // The causal variant: key tiles past the block's last query are skipped,
  // and the diagonal tiles masked.
  hk.kernel @attention_causal_d128_interleave(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(4)
      schedule(#hk.interleave<waves = 4, stages = 3>) {
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
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>
    %o0 = hk.zero : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
    %sK = hk.alloc : !hk.st<32x128xbf16>
    %sV = hk.alloc : !hk.st<32x128xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<32x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sV
          : !hk.gl<?x?x128xbf16>, !hk.st<32x128xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<32x128xbf16> -> !hk.rt<32x128xbf16>
      %s0 = hk.zero : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<32x128xbf16>, !hk.rt<16x128xbf16>, !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>
      // Read before the softmax, so that the reads run beside it.
      %v = hk.load %sV : !hk.st<32x128xbf16> -> !hk.rt<32x128xbf16, #hk.mfma<acc, 16x16x32>>
      %key0 = arith.muli %j, %c32 : index
      // Transposed scores: row = key, column = query; keep key <= query.
      %sc = hk.triu %st[%key0, %qrow] : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>
      %sm = hk.bounds_mask %sc[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>
      // scale = log2(e) / sqrt(128)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.12751743 : f32, max_slack = 8.0 : f32}
          : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<32x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>
      %o1 = hk.mma atb %v, %ptb, %os
          : !hk.rt<32x128xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<32x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<16x128xf32>
    // O goes out through LDS (in the K/V ring's bytes, which the wait and
    // barrier free), so that the block's stores write whole lines.
    hk.wait
    hk.barrier
    %sO = hk.alloc : !hk.st<64x128xbf16>
    hk.store %out, %sO[%w, %c0] : !hk.rt<16x128xf32> -> !hk.st<64x128xbf16>
    hk.barrier
    hk.group_store %sO, %O[%bh, %qb, %c0] : !hk.st<64x128xbf16>, !hk.gl<?x?x128xbf16>
    hk.return
  }

  // HipKittens' configuration for the same loop: eight waves in two groups
  // (hk-ping-pong), 128 queries per block, 64-key K and V tiles in two
  // copies (64 KiB of LDS). hk-double-buffer cuts the loop into two
  // memory/compute cluster pairs: K's reads, then S^T = K Q^T; V's reads
  // with the mask, the softmax and the rescales, which need no MFMA of
  // that pair and so run beside the other group's MFMAs, then O^T += V^T
  // P^T. The softmax's vector work outlasts the other group's 16 MFMAs of
  // S^T, so the timing model still puts this kernel below the interleave
  // one above (README, the attention table).
  hk.kernel @attention_fwd_d128_pingpong(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(8)
      schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
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
    %qb8 = arith.muli %qb, %c8 : index
    %qt = arith.addi %qb8, %w : index
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
    // Every row of %l holds each query's (column's) running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>
    %o0 = hk.zero : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
    %sK = hk.alloc : !hk.st<64x128xbf16>
    %sV = hk.alloc : !hk.st<64x128xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<64x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sV
          : !hk.gl<?x?x128xbf16>, !hk.st<64x128xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16>
      %s0 = hk.zero : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<64x128xbf16>, !hk.rt<16x128xbf16>, !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>
      // Read before the softmax, so that the reads run beside it.
      %v = hk.load %sV : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16, #hk.mfma<acc, 16x16x32>>
      %key0 = arith.muli %j, %c64 : index
      %sm = hk.bounds_mask %st[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>
      // scale = log2(e) / sqrt(128)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.12751743 : f32, max_slack = 8.0 : f32}
          : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>
      %o1 = hk.mma atb %v, %ptb, %os
          : !hk.rt<64x128xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<16x128xf32>
    // O goes out through LDS (in the K/V ring's bytes, which the wait and
    // barrier free), so that the block's stores write whole lines.
    hk.wait
    hk.barrier
    %sO = hk.alloc : !hk.st<128x128xbf16>
    hk.store %out, %sO[%w, %c0] : !hk.rt<16x128xf32> -> !hk.st<128x128xbf16>
    hk.barrier
    hk.group_store %sO, %O[%bh, %qb, %c0] : !hk.st<128x128xbf16>, !hk.gl<?x?x128xbf16>
    hk.return
  }

  // The causal variant, bounded by the block's last of 128 queries.
  hk.kernel @attention_causal_d128_pingpong(
      %Q: !hk.gl<?x?x128xbf16>, %K: !hk.gl<?x?x128xbf16>,
      %V: !hk.gl<?x?x128xbf16>, %O: !hk.gl<?x?x128xbf16>) waves(8)
      schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
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
    %nk63 = arith.addi %kend, %c63 : index
    %tiles = arith.divui %nk63, %c64 : index

    %q = hk.load %Q[%bh, %qt, %c0]
        : !hk.gl<?x?x128xbf16> -> !hk.rt<16x128xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every row of %l holds each query's (column's) running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>
    %o0 = hk.zero : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
    %sK = hk.alloc : !hk.st<64x128xbf16>
    %sV = hk.alloc : !hk.st<64x128xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x128xbf16>, !hk.st<64x128xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sV
          : !hk.gl<?x?x128xbf16>, !hk.st<64x128xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16>
      %s0 = hk.zero : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>
      %st = hk.mma abt %k, %q, %s0
          : !hk.rt<64x128xbf16>, !hk.rt<16x128xbf16>, !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>
      // Read before the softmax, so that the reads run beside it.
      %v = hk.load %sV : !hk.st<64x128xbf16> -> !hk.rt<64x128xbf16, #hk.mfma<acc, 16x16x32>>
      %key0 = arith.muli %j, %c64 : index
      // Transposed scores: row = key, column = query; keep key <= query.
      %sc = hk.triu %st[%key0, %qrow] : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>
      %sm = hk.bounds_mask %sc[%key0, %qrow] within [%nk, %nq]
          : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>
      // scale = log2(e) / sqrt(128)
      %pt, %m1, %unused, %f = hk.softmax cols %sm, %m, %nosum {scale = 0.12751743 : f32, max_slack = 8.0 : f32}
          : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %os = hk.mul_col %o, %f {skip_ones} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %ptb = hk.convert %pt : !hk.rt<64x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>
      %o1 = hk.mma atb %v, %ptb, %os
          : !hk.rt<64x128xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
      %ls = hk.mul_col %l, %f : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
      %l1 = hk.mma atb %ones, %ptb, %ls
          : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>,
            !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>
    }
    // The rows are equal: any one is the sum.
    %lsum = hk.col_max %r#1 : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rv<16xf32>
    %outt = hk.div_col %r#2, %lsum {reciprocal} : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>>, !hk.rv<16xf32>
    %out = hk.transpose %outt : !hk.rt<128x16xf32, #hk.mfma<acc, 16x16x32>> -> !hk.rt<16x128xf32>
    // O goes out through LDS (in the K/V ring's bytes, which the wait and
    // barrier free), so that the block's stores write whole lines.
    hk.wait
    hk.barrier
    %sO = hk.alloc : !hk.st<128x128xbf16>
    hk.store %out, %sO[%w, %c0] : !hk.rt<16x128xf32> -> !hk.st<128x128xbf16>
    hk.barrier
    hk.group_store %sO, %O[%bh, %qb, %c0] : !hk.st<128x128xbf16>, !hk.gl<?x?x128xbf16>
    hk.return
  }
}

// HK-RUN: attention kernel=attention_fwd_d128_interleave rows=64 psum=bf16 chips=gfx950 shapes=1x64x64x128,2x128x192x128,3x70x100x128,1x40x33x128,1x40x20x128
// HK-RUN: attention kernel=attention_causal_d128_interleave rows=64 causal=1 psum=bf16 chips=gfx950 shapes=1x64x64x128,2x192x192x128,2x100x130x128,1x130x100x128
// Keys scaled up along the sequence: the running max moves past the slack
// after the first tile, so the lazy rescale runs.
// HK-RUN: attention kernel=attention_fwd_d128_interleave rows=64 psum=bf16 kramp=16 chips=gfx950 shapes=1x64x64x128,1x64x256x128,2x70x200x128
// HK-RUN: attention kernel=attention_causal_d128_interleave rows=64 causal=1 psum=bf16 kramp=16 chips=gfx950 shapes=1x64x64x128,2x192x192x128,1x130x100x128
// HK-RUN: attention kernel=attention_fwd_d128_pingpong rows=128 psum=bf16 chips=gfx950 shapes=1x128x128x128,2x256x192x128,3x70x100x128,1x40x33x128
// HK-RUN: attention kernel=attention_causal_d128_pingpong rows=128 causal=1 psum=bf16 chips=gfx950 shapes=1x128x128x128,2x256x256x128,2x100x130x128,1x300x260x128
// HK-RUN: attention kernel=attention_fwd_d128_pingpong rows=128 psum=bf16 kramp=16 chips=gfx950 shapes=1x128x256x128,2x70x200x128
// HK-RUN: attention kernel=attention_causal_d128_pingpong rows=128 causal=1 psum=bf16 kramp=16 chips=gfx950 shapes=2x256x256x128,1x130x100x128
