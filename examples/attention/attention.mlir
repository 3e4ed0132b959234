// Flash-attention forward, O = softmax(Q K^T / sqrt(d)) V, for a batch of
// heads: Q is BH x Nq x 64, K and V are KVH x Nk x 64 (KVH = BH, or fewer
// for grouped-query attention, BH a multiple of KVH), all bf16; O is bf16.
// Each wave owns 16 query rows (a block: 64). The block streams the keys in
// tiles of 64: the four waves copy a K and a V tile into LDS together (V
// transposed, so that P V reads it as P (V^T)^T along its rows; on gfx950,
// whose LDS reads transpose, hk-mfma-layout keeps V as it is, so the copy
// goes direct to LDS instead of through registers), then each
// wave computes S = Q K^T on the MFMAs, one online-softmax step (hk.softmax
// keeps the running row max and sum), rescales its f32 output accumulator
// per row and adds P (rounded to bf16) times V. Keys past Nk are masked to
// -inf; Nq and Nk are runtime sizes. The MFMAs issue at priority 1 and
// the softmax at 0 (`hk.priority`, see attention_d128_gfx950.mlir): the
// timing model predicts about a fifth more on MI355X with it, and the same
// (attention_fwd) or 3% less (attention_causal) on MI325X.
module {
  hk.kernel @attention_fwd(%Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
                           %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>)
      waves(4) {
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

    %q = hk.load %Q[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %l0 = hk.zero : !hk.rv<16xf32>
    %o0 = hk.zero : !hk.rt<16x64xf32>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
    hk.priority 1
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x64xf32>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s0 = hk.zero : !hk.rt<16x64xf32>
      %s = hk.mma abt %q, %k, %s0
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %key0 = arith.muli %j, %c64 : index
      hk.priority 0
      %sm = hk.bounds_mask %s[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(64)
      %p, %m1, %l1, %f = hk.softmax %sm, %m, %l {scale = 0.18033688 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      hk.priority 1
      %o1 = hk.mma abt %pb, %vt, %os
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x64xf32>
    }
    %out = hk.div_row %r#2, %r#1 {reciprocal} : !hk.rt<16x64xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }

  // The same loop in HipKittens' two schedules; hk-schedule double-buffers
  // the K and V tiles (the next pair loads while this one is used) and
  // orders the work. Ping-pong: eight waves (128 query rows per block) in
  // two groups taking turns between memory and MFMA clusters; its cost
  // function reads V's fragments with K's, in one memory cluster, so the
  // groups meet at two barriers per tile instead of four (the timing
  // model predicts a third more on MI355X, a fifth on MI325X). Both
  // scheduled loops are bound by their VALU work, so they take the softmax's
  // row sums on the MFMAs (P times a tile of ones, as
  // attention_d128_gfx950.mlir does; psum=bf16 on their HK-RUN lines); the
  // plain loops above and below wait on their loads instead, and the
  // model predicts them slower that way.
  hk.kernel @attention_fwd_pingpong(
      %Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
      %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>)
      waves(8) schedule(#hk.pingpong<waves = 8>) {
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
    %hq = hk.dim %Q[0] : !hk.gl<?x?x64xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x64xbf16>
    %group = arith.divui %hq, %hkv : index
    %kvh = arith.divui %bh, %group : index
    %qb8 = arith.muli %qb, %c8 : index
    %qt = arith.addi %qb8, %w : index
    %qrow = arith.muli %qt, %c16 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x64xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x64xbf16>
    %nk63 = arith.addi %nk, %c63 : index
    %tiles = arith.divui %nk63, %c64 : index

    %q = hk.load %Q[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every column of %l holds its row's running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16>
    %o0 = hk.zero : !hk.rt<16x64xf32>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x64xf32>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s0 = hk.zero : !hk.rt<16x64xf32>
      %s = hk.mma abt %q, %k, %s0
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %key0 = arith.muli %j, %c64 : index
      %sm = hk.bounds_mask %s[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(64)
      %p, %m1, %unused, %f = hk.softmax %sm, %m, %nosum {scale = 0.18033688 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %o1 = hk.mma abt %pb, %vt, %os
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %ls = hk.mul_row %l, %f : !hk.rt<16x16xf32>, !hk.rv<16xf32>
      %l1 = hk.mma ab %pb, %ones, %ls
          : !hk.rt<16x64xbf16>, !hk.rt<64x16xbf16>, !hk.rt<16x16xf32>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x64xf32>
    }
    // The columns are equal: any one is the sum.
    %lsum = hk.row_max %r#1 : !hk.rt<16x16xf32> -> !hk.rv<16xf32>
    %out = hk.div_row %r#2, %lsum {reciprocal} : !hk.rt<16x64xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }

  // Interleave: four waves, MFMAs interleaved with single LDS reads and
  // the prefetch's loads.
  hk.kernel @attention_fwd_interleave(
      %Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
      %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>)
      waves(4) schedule(#hk.interleave<waves = 4>) {
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

    %q = hk.load %Q[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every column of %l holds its row's running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16>
    %o0 = hk.zero : !hk.rt<16x64xf32>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x64xf32>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s0 = hk.zero : !hk.rt<16x64xf32>
      %s = hk.mma abt %q, %k, %s0
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %key0 = arith.muli %j, %c64 : index
      %sm = hk.bounds_mask %s[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(64)
      %p, %m1, %unused, %f = hk.softmax %sm, %m, %nosum {scale = 0.18033688 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %o1 = hk.mma abt %pb, %vt, %os
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %ls = hk.mul_row %l, %f : !hk.rt<16x16xf32>, !hk.rv<16xf32>
      %l1 = hk.mma ab %pb, %ones, %ls
          : !hk.rt<16x64xbf16>, !hk.rt<64x16xbf16>, !hk.rt<16x16xf32>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x64xf32>
    }
    // The columns are equal: any one is the sum.
    %lsum = hk.row_max %r#1 : !hk.rt<16x16xf32> -> !hk.rv<16xf32>
    %out = hk.div_row %r#2, %lsum {reciprocal} : !hk.rt<16x64xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }

  // The causal variant: query i attends to keys 0..i only; key tiles past
  // the block's last query row are skipped, and the diagonal is masked.
  hk.kernel @attention_causal(%Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
                           %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>)
      waves(4) {
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

    %q = hk.load %Q[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %l0 = hk.zero : !hk.rv<16xf32>
    %o0 = hk.zero : !hk.rt<16x64xf32>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
    hk.priority 1
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x64xf32>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s0 = hk.zero : !hk.rt<16x64xf32>
      %s = hk.mma abt %q, %k, %s0
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %key0 = arith.muli %j, %c64 : index
      hk.priority 0
      %sc = hk.causal_mask %s[%qrow, %key0] : !hk.rt<16x64xf32>
      %sm = hk.bounds_mask %sc[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(64)
      %p, %m1, %l1, %f = hk.softmax %sm, %m, %l {scale = 0.18033688 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      hk.priority 1
      %o1 = hk.mma abt %pb, %vt, %os
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x64xf32>
    }
    %out = hk.div_row %r#2, %r#1 {reciprocal} : !hk.rt<16x64xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }

  // The causal variant of attention_fwd_interleave: key tiles past the
  // block's last query row are skipped, and the diagonal is masked.
  hk.kernel @attention_causal_interleave(
      %Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
      %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>)
      waves(4) schedule(#hk.interleave<waves = 4>) {
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

    %q = hk.load %Q[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every column of %l holds its row's running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16>
    %o0 = hk.zero : !hk.rt<16x64xf32>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x64xf32>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s0 = hk.zero : !hk.rt<16x64xf32>
      %s = hk.mma abt %q, %k, %s0
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %key0 = arith.muli %j, %c64 : index
      %sc = hk.causal_mask %s[%qrow, %key0] : !hk.rt<16x64xf32>
      %sm = hk.bounds_mask %sc[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(64)
      %p, %m1, %unused, %f = hk.softmax %sm, %m, %nosum {scale = 0.18033688 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %o1 = hk.mma abt %pb, %vt, %os
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %ls = hk.mul_row %l, %f : !hk.rt<16x16xf32>, !hk.rv<16xf32>
      %l1 = hk.mma ab %pb, %ones, %ls
          : !hk.rt<16x64xbf16>, !hk.rt<64x16xbf16>, !hk.rt<16x16xf32>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x64xf32>
    }
    // The columns are equal: any one is the sum.
    %lsum = hk.row_max %r#1 : !hk.rt<16x16xf32> -> !hk.rv<16xf32>
    %out = hk.div_row %r#2, %lsum {reciprocal} : !hk.rt<16x64xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }

  // The ping-pong loop, causal: bounded by the block's last query row.
  hk.kernel @attention_causal_pingpong(
      %Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
      %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>)
      waves(8) schedule(#hk.pingpong<waves = 8>) {
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
    %hq = hk.dim %Q[0] : !hk.gl<?x?x64xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x64xbf16>
    %group = arith.divui %hq, %hkv : index
    %kvh = arith.divui %bh, %group : index
    %qb8 = arith.muli %qb, %c8 : index
    %qt = arith.addi %qb8, %w : index
    %qrow = arith.muli %qt, %c16 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x64xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x64xbf16>
    // Query i sees keys 0..i: the block's last of 128 rows bounds the key
    // tiles (the same for all waves, which share the copies and barriers).
    %c128 = arith.constant 128 : index
    %qb128 = arith.muli %qb, %c128 : index
    %qend = arith.addi %qb128, %c128 : index
    %kend = arith.minui %nk, %qend : index
    %nk63 = arith.addi %kend, %c63 : index
    %tiles = arith.divui %nk63, %c64 : index

    %q = hk.load %Q[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %nosum = hk.zero : !hk.rv<16xf32>
    // Every column of %l holds its row's running sum.
    %l0 = hk.zero : !hk.rt<16x16xf32>
    %one = arith.constant 1.0 : bf16
    %ones = hk.fill %one : bf16 -> !hk.rt<64x16xbf16>
    %o0 = hk.zero : !hk.rt<16x64xf32>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
    %r:3 = scf.for %j = %c0 to %tiles step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0)
        -> (!hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x64xf32>) {
      hk.group_load %K[%kvh, %j, %c0], %sK
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.group_load %V[%kvh, %j, %c0], %sVt transpose
          : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
      hk.barrier
      %k = hk.load %sK : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s0 = hk.zero : !hk.rt<16x64xf32>
      %s = hk.mma abt %q, %k, %s0
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %key0 = arith.muli %j, %c64 : index
      %sc = hk.causal_mask %s[%qrow, %key0] : !hk.rt<16x64xf32>
      %sm = hk.bounds_mask %sc[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(64)
      %p, %m1, %unused, %f = hk.softmax %sm, %m, %nosum {scale = 0.18033688 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %o1 = hk.mma abt %pb, %vt, %os
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %ls = hk.mul_row %l, %f : !hk.rt<16x16xf32>, !hk.rv<16xf32>
      %l1 = hk.mma ab %pb, %ones, %ls
          : !hk.rt<16x64xbf16>, !hk.rt<64x16xbf16>, !hk.rt<16x16xf32>
      // Every wave is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rt<16x16xf32>, !hk.rt<16x64xf32>
    }
    // The columns are equal: any one is the sum.
    %lsum = hk.row_max %r#1 : !hk.rt<16x16xf32> -> !hk.rv<16xf32>
    %out = hk.div_row %r#2, %lsum {reciprocal} : !hk.rt<16x64xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }
}

// HK-RUN: attention kernel=attention_fwd rows=64 shapes=1x64x64x64,2x128x192x64,3x70x100x64
// HK-RUN: attention kernel=attention_fwd_pingpong rows=128 psum=bf16 shapes=1x128x64x64,2x256x192x64,3x70x100x64
// HK-RUN: attention kernel=attention_fwd_interleave rows=64 psum=bf16 shapes=1x64x64x64,2x128x192x64,3x70x100x64
// HK-RUN: attention kernel=attention_causal rows=64 causal=1 shapes=1x64x64x64,2x192x192x64,2x100x130x64
// HK-RUN: attention kernel=attention_causal_interleave rows=64 causal=1 psum=bf16 shapes=1x64x64x64,2x192x192x64,2x100x130x64
// HK-RUN: attention kernel=attention_causal_pingpong rows=128 causal=1 psum=bf16 shapes=1x128x128x64,2x256x256x64,2x100x130x64,1x300x260x64
