// Flash-attention backward, d = 64, bf16 data with f32 statistics and
// accumulators, structured as HipKittens structures it: three kernels.
//
//   attention_fwd_lse   O = softmax(Q K^T / sqrt(d)) V, as attention_fwd,
//                       and the base-2 log-sum-exp of every query row,
//                       L = log2 sum_j 2^(S_ij log2(e) / sqrt(d)).
//   attention_bwd_prep  Delta = rowsum(dO o O) per query row (f32).
//   attention_bwd       dK, dV and dQ in one kernel: a block owns 64 keys
//                       (16 per wave) and loops over the query heads of
//                       its KV head's group and over their query tiles.
//
// Views: Q, O, dO are BH x Nq x 64, K, V, dK, dV are KVH x Nk x 64 (BH a
// multiple of KVH: query head h reads KV head h / (BH / KVH)), L and
// Delta are BH x Nq f32, dQ is BH x Nq x 64 f32 and must hold zeros
// before attention_bwd, which adds every block's share into it with
// hk.atomic_add. `causal` (0 or 1) makes query i attend to keys 0..i.
// Nq, Nk and the heads are runtime sizes; rows and keys past them are
// masked.
module {
  hk.kernel @attention_fwd_lse(
      %Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
      %V: !hk.gl<?x?x64xbf16>, %O: !hk.gl<?x?x64xbf16>,
      %L: !hk.gl<?x?xf32>, %causal: i32) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %w = hk.wave_id
    %qb = hk.block_id x
    %bh = hk.block_id y
    %hq = hk.dim %Q[0] : !hk.gl<?x?x64xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x64xbf16>
    %group = arith.divui %hq, %hkv : index
    %kvh = arith.divui %bh, %group : index
    %qb4 = arith.muli %qb, %c4 : index
    %qt = arith.addi %qb4, %w : index
    %qrow = arith.muli %qt, %c16 : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x64xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x64xbf16>
    // Causal: the block's last query row bounds the key tiles, and the
    // mask compares key positions with query rows. Not causal: every key
    // tile, and the mask's rows shifted past every key keep all of them.
    %cz = arith.constant 0 : i32
    %is_causal = arith.cmpi ne, %causal, %cz : i32
    %qend0 = arith.muli %qb, %c64 : index
    %qend = arith.addi %qend0, %c64 : index
    %kcausal = arith.minui %nk, %qend : index
    %kend = arith.select %is_causal, %kcausal, %nk : index
    %kend63 = arith.addi %kend, %c63 : index
    %tiles = arith.divui %kend63, %c64 : index
    %shifted = arith.addi %qrow, %nk : index
    %mrow = arith.select %is_causal, %qrow, %shifted : index

    %q = hk.load %Q[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %ninf = arith.constant 0xFF800000 : f32
    %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
    %l0 = hk.zero : !hk.rv<16xf32>
    %o0 = hk.zero : !hk.rt<16x64xf32>
    %sK = hk.alloc : !hk.st<64x64xbf16>
    %sVt = hk.alloc : !hk.st<64x64xbf16>
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
      %sc = hk.causal_mask %s[%mrow, %key0] : !hk.rt<16x64xf32>
      %sm = hk.bounds_mask %sc[%qrow, %key0] within [%nq, %nk]
          : !hk.rt<16x64xf32>
      // scale = log2(e) / sqrt(64)
      %p, %m1, %l1, %f = hk.softmax %sm, %m, %l {scale = 0.180336880111120 : f32}
          : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %os = hk.mul_row %o, %f : !hk.rt<16x64xf32>, !hk.rv<16xf32>
      %pb = hk.convert %p : !hk.rt<16x64xf32> -> !hk.rt<16x64xbf16>
      %vt = hk.load %sVt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %o1 = hk.mma abt %pb, %vt, %os
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      hk.barrier
      scf.yield %m1, %l1, %o1
          : !hk.rv<16xf32>, !hk.rv<16xf32>, !hk.rt<16x64xf32>
    }
    %out = hk.div_row %r#2, %r#1 {reciprocal} : !hk.rt<16x64xf32>, !hk.rv<16xf32>
    hk.store %out, %O[%bh, %qt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    // The running max is in base-2 units of the scaled scores already.
    %lg = hk.log2 %r#1 : !hk.rv<16xf32>
    %lse = hk.add %r#0, %lg : !hk.rv<16xf32>
    hk.store %lse, %L[%bh, %qt] : !hk.rv<16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  // Delta_i = sum_c dO_ic O_ic, one 16-row tile per wave.
  hk.kernel @attention_bwd_prep(%O: !hk.gl<?x?x64xbf16>,
                                %dO: !hk.gl<?x?x64xbf16>,
                                %Delta: !hk.gl<?x?xf32>) waves(4) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %w = hk.wave_id
    %qb = hk.block_id x
    %bh = hk.block_id y
    %qb4 = arith.muli %qb, %c4 : index
    %qt = arith.addi %qb4, %w : index
    %o = hk.load %O[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16>
        -> !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
    %do = hk.load %dO[%bh, %qt, %c0] : !hk.gl<?x?x64xbf16>
        -> !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
    %prod = hk.mul %o, %do : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
    %delta = hk.row_sum %prod
        : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>> -> !hk.rv<16xf32>
    hk.store %delta, %Delta[%bh, %qt] : !hk.rv<16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  // The fused backward. Each wave keeps its 16 keys' K and V rows in
  // registers and works on one 64-query tile of one query head at a time
  // (Q, Q^T, dO, dO^T shared through LDS, the next tile's rows loaded into
  // registers while this one is multiplied):
  //   S   = Q K^T                  64 queries x its 16 keys
  //   P   = 2^(S log2(e)/sqrt(d) - L)     L, Delta: row vectors
  //   dV += P^T dO                 (P rounded to bf16)
  //   dP  = dO V^T
  //   dS  = P o (dP - Delta)
  //   dK += dS^T Q                 (dS rounded to bf16)
  // P and dS are the A operands of P^T dO and dS^T Q straight from the
  // accumulator of Q K^T: both products sum over the queries, which run
  // down the accumulator's lanes as an MFMA's A operand wants them.
  // dQ = dS K / sqrt(d) sums over all 64 keys of the block: the waves put
  // their dS columns in LDS, then each multiplies 16 query rows of the
  // block's dS by K (K^T stays in LDS) and adds that 16 x 64 share of dQ
  // into global memory atomically: one addition per block and element.
  hk.kernel @attention_bwd(
      %Q: !hk.gl<?x?x64xbf16>, %K: !hk.gl<?x?x64xbf16>,
      %V: !hk.gl<?x?x64xbf16>, %dO: !hk.gl<?x?x64xbf16>,
      %L: !hk.gl<?x?xf32>, %Delta: !hk.gl<?x?xf32>,
      %dQ: !hk.gl<?x?x64xf32>, %dK: !hk.gl<?x?x64xbf16>,
      %dV: !hk.gl<?x?x64xbf16>, %causal: i32) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %w = hk.wave_id
    %kb = hk.block_id x
    %kvh = hk.block_id y
    %hq = hk.dim %Q[0] : !hk.gl<?x?x64xbf16>
    %hkv = hk.dim %K[0] : !hk.gl<?x?x64xbf16>
    %group = arith.divui %hq, %hkv : index
    %h0 = arith.muli %kvh, %group : index
    %nq = hk.dim %Q[1] : !hk.gl<?x?x64xbf16>
    %nk = hk.dim %K[1] : !hk.gl<?x?x64xbf16>
    %kb4 = arith.muli %kb, %c4 : index
    %kt = arith.addi %kb4, %w : index
    %key0 = arith.muli %kt, %c16 : index
    // Causal: query tiles before the block's first key see none of its
    // keys; the mask keeps key <= query. Not causal: every query tile, and
    // the mask's query rows shifted past every key keep all of them.
    %causal1 = arith.index_cast %causal : i32 to index
    %not_causal = arith.subi %c1, %causal1 : index
    %nq63 = arith.addi %nq, %c63 : index
    %qtiles = arith.divui %nq63, %c64 : index
    %kbc = arith.muli %kb, %causal1 : index
    %first = arith.minui %kbc, %qtiles : index
    %shift = arith.muli %nk, %not_causal : index
    // One loop over (query head of the group, query tile).
    %per_head = arith.subi %qtiles, %first : index
    %steps = arith.muli %group, %per_head : index

    %k = hk.load %K[%kvh, %kt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %v = hk.load %V[%kvh, %kt, %c0] : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16>
    %sKt = hk.alloc : !hk.st<64x64xbf16>
    %sQ = hk.alloc : !hk.st<64x64xbf16>
    %sQt = hk.alloc : !hk.st<64x64xbf16>
    %sdO = hk.alloc : !hk.st<64x64xbf16>
    %sdOt = hk.alloc : !hk.st<64x64xbf16>
    %sdS = hk.alloc : !hk.st<64x64xbf16>
    // K^T for dQ; the loop's first barrier publishes it.
    hk.group_load %K[%kvh, %kb, %c0], %sKt transpose
        : !hk.gl<?x?x64xbf16>, !hk.st<64x64xbf16>
    %scale = arith.constant 0.180336880111120 : f32 // log2(e) / sqrt(64)
    %rsqrt_d = arith.constant 0.125 : f32
    %z = hk.zero : !hk.rt<16x64xf32>
    %zs = hk.zero : !hk.rt<64x16xf32>
    %zq = hk.zero : !hk.rt<16x64xf32>
    // Each wave copies 16 rows of the Q and dO tiles: those of the first
    // tile before the loop, those of the next tile while this one is
    // multiplied.
    %f4 = arith.muli %first, %c4 : index
    %r0 = arith.addi %f4, %w : index
    %qn0 = hk.load %Q[%h0, %r0, %c0]
        : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
    %don0 = hk.load %dO[%h0, %r0, %c0]
        : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
    %acc:4 = scf.for %t = %c0 to %steps step %c1
        iter_args(%dk = %z, %dv = %z, %qn = %qn0, %don = %don0)
        -> (!hk.rt<16x64xf32>, !hk.rt<16x64xf32>,
            !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>,
            !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>) {
      %g = arith.divui %t, %per_head : index
      %ig = arith.remui %t, %per_head : index
      %h = arith.addi %h0, %g : index
      %i = arith.addi %first, %ig : index
      // This tile's rows into LDS, Q^T and dO^T transposed.
      hk.store %qn, %sQ[%w, %c0]
          : !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.st<64x64xbf16>
      %qnt = hk.transpose %qn : !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
          -> !hk.rt<64x16xbf16>
      hk.store %qnt, %sQt[%c0, %w] : !hk.rt<64x16xbf16> -> !hk.st<64x64xbf16>
      hk.store %don, %sdO[%w, %c0]
          : !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.st<64x64xbf16>
      %dont = hk.transpose %don : !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
          -> !hk.rt<64x16xbf16>
      hk.store %dont, %sdOt[%c0, %w] : !hk.rt<64x16xbf16> -> !hk.st<64x64xbf16>
      %lv = hk.load %L[%h, %i] : !hk.gl<?x?xf32> -> !hk.rv<64xf32>
      %dl = hk.load %Delta[%h, %i] : !hk.gl<?x?xf32> -> !hk.rv<64xf32>
      hk.barrier
      %t1 = arith.addi %t, %c1 : index
      %g1 = arith.divui %t1, %per_head : index
      %ig1 = arith.remui %t1, %per_head : index
      %h1 = arith.addi %h0, %g1 : index
      %i1 = arith.addi %first, %ig1 : index
      %i14 = arith.muli %i1, %c4 : index
      %r1 = arith.addi %i14, %w : index
      %qn1 = hk.load %Q[%h1, %r1, %c0]
          : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
      %don1 = hk.load %dO[%h1, %r1, %c0]
          : !hk.gl<?x?x64xbf16> -> !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
      %q = hk.load %sQ : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %s = hk.mma abt %q, %k, %zs
          : !hk.rt<64x64xbf16>, !hk.rt<16x64xbf16>, !hk.rt<64x16xf32>
      %q0 = arith.muli %i, %c64 : index
      %qs = arith.addi %q0, %shift : index
      %sc = hk.causal_mask %s[%qs, %key0] : !hk.rt<64x16xf32>
      %sm = hk.bounds_mask %sc[%q0, %key0] within [%nq, %nk]
          : !hk.rt<64x16xf32>
      %x = hk.mul %sm, %scale : !hk.rt<64x16xf32>, f32
      %xl = hk.sub_row %x, %lv : !hk.rt<64x16xf32>, !hk.rv<64xf32>
      %p = hk.exp2 %xl : !hk.rt<64x16xf32>
      %do = hk.load %sdO : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %dp = hk.mma abt %do, %v, %zs
          : !hk.rt<64x64xbf16>, !hk.rt<16x64xbf16>, !hk.rt<64x16xf32>
      %dpd = hk.sub_row %dp, %dl : !hk.rt<64x16xf32>, !hk.rv<64xf32>
      %ds = hk.mul %p, %dpd : !hk.rt<64x16xf32>
      %pb = hk.convert %p : !hk.rt<64x16xf32> -> !hk.rt<64x16xbf16>
      %dot = hk.load %sdOt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %dv1 = hk.mma atbt %pb, %dot, %dv
          : !hk.rt<64x16xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %dsb = hk.convert %ds : !hk.rt<64x16xf32> -> !hk.rt<64x16xbf16>
      %qtr = hk.load %sQt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %dk1 = hk.mma atbt %dsb, %qtr, %dk
          : !hk.rt<64x16xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      // dQ: the block's dS (queries x keys) through LDS.
      hk.store %dsb, %sdS[%c0, %w] : !hk.rt<64x16xbf16> -> !hk.st<64x64xbf16>
      hk.barrier
      %dsw = hk.load %sdS[%w, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x64xbf16>
      %kt_all = hk.load %sKt : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16>
      %dq = hk.mma abt %dsw, %kt_all, %zq
          : !hk.rt<16x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<16x64xf32>
      %dqs = hk.mul %dq, %rsqrt_d : !hk.rt<16x64xf32>, f32
      %i4 = arith.muli %i, %c4 : index
      %qw = arith.addi %i4, %w : index
      hk.atomic_add %dqs, %dQ[%h, %qw, %c0]
          : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xf32>
      // Every wave is done with the tiles before the next ones land.
      hk.barrier
      scf.yield %dk1, %dv1, %qn1, %don1
          : !hk.rt<16x64xf32>, !hk.rt<16x64xf32>,
            !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>,
            !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
    }
    %dks = hk.mul %acc#0, %rsqrt_d : !hk.rt<16x64xf32>, f32
    hk.store %dks, %dK[%kvh, %kt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.store %acc#1, %dV[%kvh, %kt, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?x64xbf16>
    hk.return
  }
}

// HK-RUN: script kernel=attention_fwd_lse case=attention_bwd.py:fwd_lse shapes=2x70x100x64,4x100x70x64x2
// HK-RUN: script kernel=attention_fwd_lse case=attention_bwd.py:fwd_lse causal=1 shapes=2x100x130x64,4x130x100x64x2
// HK-RUN: script kernel=attention_bwd_prep case=attention_bwd.py:prep shapes=3x100x64
// HK-RUN: script kernel=attention_bwd case=attention_bwd.py:bwd shapes=1x1x1x64,2x70x100x64,8x33x65x64x2
// HK-RUN: script kernel=attention_bwd case=attention_bwd.py:bwd causal=1 shapes=1x17x5x64,4x130x100x64x2,1x40x200x64
