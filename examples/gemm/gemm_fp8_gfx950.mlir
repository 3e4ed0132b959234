// C = A * B^T in fp8 for gfx950: OCP E4M3 inputs (f8E4M3FN), f32
// accumulation, bf16 output. K advances 128 elements per step (64 in the
// last kernel). gfx950 matrix cores read OCP fp8; hk-mfma-layout picks the
// scaled v_mfma_scale_f32_16x16x128_f8f6f4 (32x32x64: K-by-64), unit scales.
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @gemm_abt_fp8(%A: !hk.gl<?x?xf8E4M3FN>, %B: !hk.gl<?x?xf8E4M3FN>,
                          %C: !hk.gl<?x?xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %ckm1 = arith.constant 127 : index
    %ck = arith.constant 128 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c2 : index
    %wn = arith.remui %w, %c2 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xf8E4M3FN>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<128x128xf8E4M3FN>
    %sB = hk.alloc : !hk.st<128x128xf8E4M3FN>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xf8E4M3FN>, !hk.st<128x128xf8E4M3FN>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xf8E4M3FN>, !hk.st<128x128xf8E4M3FN>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN>
      %b = hk.load %sB[%wn, %c0] : !hk.st<128x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x128xf8E4M3FN>, !hk.rt<64x128xf8E4M3FN>, !hk.rt<64x64xf32>
      // Everyone is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }

    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c2 : index
    %tn = arith.addi %tn0, %wn : index
    hk.store %acc, %C[%tm, %tn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>
    hk.return
  }

  // The same GEMM in the 4-wave interleave schedule: hk-schedule
  // double-buffers the tiles (64 KiB of LDS), issues tile k+1's loads at the
  // top of iteration k and lets LLVM interleave single MFMAs with single LDS
  // reads and vector-memory loads.
  hk.kernel @gemm_abt_fp8_interleave(%A: !hk.gl<?x?xf8E4M3FN>, %B: !hk.gl<?x?xf8E4M3FN>,
                                     %C: !hk.gl<?x?xbf16>)
      waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %ckm1 = arith.constant 127 : index
    %ck = arith.constant 128 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c2 : index
    %wn = arith.remui %w, %c2 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xf8E4M3FN>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<128x128xf8E4M3FN>
    %sB = hk.alloc : !hk.st<128x128xf8E4M3FN>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xf8E4M3FN>, !hk.st<128x128xf8E4M3FN>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xf8E4M3FN>, !hk.st<128x128xf8E4M3FN>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN>
      %b = hk.load %sB[%wn, %c0] : !hk.st<128x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x128xf8E4M3FN>, !hk.rt<64x128xf8E4M3FN>, !hk.rt<64x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }

    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c2 : index
    %tn = arith.addi %tn0, %wn : index
    hk.store %acc, %C[%tm, %tn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>
    hk.return
  }
  // HipKittens' 8-wave ping-pong configuration in fp8: a 256x256 output
  // tile per block, K stepping by 128 (the same 32 KiB per operand tile as
  // the bf16 kernel's 64), eight waves in a 2x4 grid each owning a 128x64
  // accumulator. A wave's 128 rows of A are read and multiplied in two
  // halves of 64, each with its own 64x64 accumulator, and each half reads
  // B's fragments again, so that no fragment lives across a compute
  // cluster: 64 VGPRs of fragments besides the 128 of the accumulators.
  // Each half is computed transposed (B's fragment first) and renamed back
  // by `hk.transpose`, so that the epilogue writes LDS 8 bytes at a time;
  // the block order is gemm_pingpong_gfx950.mlir's (`hk.grid_order`); both
  // explained there. The model predicts the block order 2.2% faster than
  // the hardware order at 8192^3, the transposed product 0.6% faster than
  // C's own accumulator, whose 2-byte writes are eight times as many. A
  // lane's rows 32 and 64 apart share a swizzle phase, and LLVM pairs
  // their 8-byte writes into ds_write2st64_b64, two addresses in the same
  // banks (2-way conflicts: as many cycles as the writes unpaired).
  hk.kernel @gemm_abt_fp8_pingpong(%A: !hk.gl<?x?xf8E4M3FN>, %B: !hk.gl<?x?xf8E4M3FN>,
                                   %C: !hk.gl<?x?xbf16>)
      waves(8) schedule(#hk.pingpong<waves = 8>) attributes {
        hk.grid_order = #hk.grid_order<chunk = 4, group = 8>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %ckm1 = arith.constant 127 : index
    %ck = arith.constant 128 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c4 : index
    %wn = arith.remui %w, %c4 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xf8E4M3FN>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index
    // The wave's two 64-row halves of A, in 64-row tiles of the block's 256.
    %h0 = arith.muli %wm, %c2 : index
    %h1 = arith.addi %h0, %c1 : index

    %sA = hk.alloc : !hk.st<256x128xf8E4M3FN>
    %sB = hk.alloc : !hk.st<256x128xf8E4M3FN>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc:2 = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c0acc = %zero, %c1acc = %zero)
        -> (!hk.rt<64x64xf32>, !hk.rt<64x64xf32>) {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xf8E4M3FN>, !hk.st<256x128xf8E4M3FN>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xf8E4M3FN>, !hk.st<256x128xf8E4M3FN>
      hk.barrier
      %b0 = hk.load %sB[%wn, %c0] : !hk.st<256x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN>
      %a0 = hk.load %sA[%h0, %c0] : !hk.st<256x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN>
      %d0 = hk.mma abt %b0, %a0, %c0acc
          : !hk.rt<64x128xf8E4M3FN>, !hk.rt<64x128xf8E4M3FN>, !hk.rt<64x64xf32>
      %b1 = hk.load %sB[%wn, %c0] : !hk.st<256x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN>
      %a1 = hk.load %sA[%h1, %c0] : !hk.st<256x128xf8E4M3FN> -> !hk.rt<64x128xf8E4M3FN>
      %d1 = hk.mma abt %b1, %a1, %c1acc
          : !hk.rt<64x128xf8E4M3FN>, !hk.rt<64x128xf8E4M3FN>, !hk.rt<64x64xf32>
      hk.barrier
      scf.yield %d0, %d1 : !hk.rt<64x64xf32>, !hk.rt<64x64xf32>
    }

    // The epilogue stages the block's C tile in LDS, in the bytes the
    // loop's A and B buffers held (the wait and barrier end their use), so
    // that every store writes whole 128-byte lines of C. Each wave's two
    // 64x64 tiles sit at row wm * 2 + half, column wn of it, and the wave
    // copies them out itself (`via`): the first wave group writes its
    // tiles under the second's last MFMAs and copies them out while the
    // second writes its own, with no barrier between (3316.1 to 3326.5
    // TFLOP/s predicted at 8192^3 on MI355X against a block-wide copy
    // after a barrier).
    hk.wait
    hk.barrier
    %sC = hk.alloc : !hk.st<256x256xbf16>
    %t0 = hk.transpose %acc#0 : !hk.rt<64x64xf32> -> !hk.rt<64x64xf32>
    %t1 = hk.transpose %acc#1 : !hk.rt<64x64xf32> -> !hk.rt<64x64xf32>
    %bm4 = arith.muli %bm, %c4 : index
    %r0 = arith.addi %bm4, %h0 : index
    %r1 = arith.addi %bm4, %h1 : index
    %bn4 = arith.muli %bn, %c4 : index
    %cn = arith.addi %bn4, %wn : index
    hk.store %t0, %sC[%h0, %wn] : !hk.rt<64x64xf32> -> !hk.st<256x256xbf16>
    hk.store %t1, %sC[%h1, %wn] : !hk.rt<64x64xf32> -> !hk.st<256x256xbf16>
    hk.store %t0, %C[%r0, %cn] via %sC[%h0, %wn] staged
        : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>, !hk.st<256x256xbf16>
    hk.store %t1, %C[%r1, %cn] via %sC[%h1, %wn] staged
        : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>, !hk.st<256x256xbf16>
    hk.return
  }

  // The same with K stepping by 64 and four copies of each operand tile
  // (`stages = 4`, 128 KiB of LDS): each prefetch has three iterations to
  // arrive, and the K-by-64 fragments take the 32x32x64 MFMA
  // (v_mfma_scale_f32_32x32x64_f8f6f4), half as many per flop. With two
  // copies the loads are exposed; with three it is as fast as with four
  // under the timing model (README, the GEMM table). The block order and
  // the transposed product are the ones above (1.7% and 0.2% faster than
  // the hardware order and C's own accumulator at 8192^3).
  hk.kernel @gemm_abt_fp8_pingpong_k64_s4(%A: !hk.gl<?x?xf8E4M3FN>,
                                          %B: !hk.gl<?x?xf8E4M3FN>,
                                          %C: !hk.gl<?x?xbf16>)
      waves(8) schedule(#hk.pingpong<waves = 8, stages = 4>) attributes {
        hk.grid_order = #hk.grid_order<chunk = 4, group = 8>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %ckm1 = arith.constant 63 : index
    %ck = arith.constant 64 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c4 : index
    %wn = arith.remui %w, %c4 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xf8E4M3FN>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index
    // The wave's two 64-row halves of A, in 64-row tiles of the block's 256.
    %h0 = arith.muli %wm, %c2 : index
    %h1 = arith.addi %h0, %c1 : index

    %sA = hk.alloc : !hk.st<256x64xf8E4M3FN>
    %sB = hk.alloc : !hk.st<256x64xf8E4M3FN>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc:2 = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c0acc = %zero, %c1acc = %zero)
        -> (!hk.rt<64x64xf32>, !hk.rt<64x64xf32>) {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xf8E4M3FN>, !hk.st<256x64xf8E4M3FN>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xf8E4M3FN>, !hk.st<256x64xf8E4M3FN>
      hk.barrier
      %b0 = hk.load %sB[%wn, %c0] : !hk.st<256x64xf8E4M3FN> -> !hk.rt<64x64xf8E4M3FN>
      %a0 = hk.load %sA[%h0, %c0] : !hk.st<256x64xf8E4M3FN> -> !hk.rt<64x64xf8E4M3FN>
      %d0 = hk.mma abt %b0, %a0, %c0acc
          : !hk.rt<64x64xf8E4M3FN>, !hk.rt<64x64xf8E4M3FN>, !hk.rt<64x64xf32>
      %b1 = hk.load %sB[%wn, %c0] : !hk.st<256x64xf8E4M3FN> -> !hk.rt<64x64xf8E4M3FN>
      %a1 = hk.load %sA[%h1, %c0] : !hk.st<256x64xf8E4M3FN> -> !hk.rt<64x64xf8E4M3FN>
      %d1 = hk.mma abt %b1, %a1, %c1acc
          : !hk.rt<64x64xf8E4M3FN>, !hk.rt<64x64xf8E4M3FN>, !hk.rt<64x64xf32>
      hk.barrier
      scf.yield %d0, %d1 : !hk.rt<64x64xf32>, !hk.rt<64x64xf32>
    }

    // The epilogue stages the block's C tile in LDS, in the bytes the
    // loop's A and B buffers held (the wait and barrier end their use), so
    // that every store writes whole 128-byte lines of C. Each wave's two
    // 64x64 tiles sit at row wm * 2 + half, column wn of it, and the wave
    // copies them out itself (`via`): the first wave group writes its
    // tiles under the second's last MFMAs and copies them out while the
    // second writes its own, with no barrier between (3316.1 to 3326.5
    // TFLOP/s predicted at 8192^3 on MI355X against a block-wide copy
    // after a barrier).
    hk.wait
    hk.barrier
    %sC = hk.alloc : !hk.st<256x256xbf16>
    %t0 = hk.transpose %acc#0 : !hk.rt<64x64xf32> -> !hk.rt<64x64xf32>
    %t1 = hk.transpose %acc#1 : !hk.rt<64x64xf32> -> !hk.rt<64x64xf32>
    %bm4 = arith.muli %bm, %c4 : index
    %r0 = arith.addi %bm4, %h0 : index
    %r1 = arith.addi %bm4, %h1 : index
    %bn4 = arith.muli %bn, %c4 : index
    %cn = arith.addi %bn4, %wn : index
    hk.store %t0, %sC[%h0, %wn] : !hk.rt<64x64xf32> -> !hk.st<256x256xbf16>
    hk.store %t1, %sC[%h1, %wn] : !hk.rt<64x64xf32> -> !hk.st<256x256xbf16>
    hk.store %t0, %C[%r0, %cn] via %sC[%h0, %wn] staged
        : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>, !hk.st<256x256xbf16>
    hk.store %t1, %C[%r1, %cn] via %sC[%h1, %wn] staged
        : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>, !hk.st<256x256xbf16>
    hk.return
  }
}

// HK-RUN: gemm kernel=gemm_abt_fp8 form=abt block=128x128 chips=gfx950 shapes=128x128x256,100x200x130
// HK-RUN: gemm kernel=gemm_abt_fp8_interleave form=abt block=128x128 chips=gfx950 shapes=128x128x256,100x200x130
// HK-RUN: gemm kernel=gemm_abt_fp8_pingpong form=abt block=256x256 chips=gfx950 shapes=256x256x256,512x256x384,300x500x130
// (2304x2304 is 81 blocks: two whole runs of the block order's 8 XCDs x 4,
// and a tail that keeps its ids.)
// HK-RUN: gemm kernel=gemm_abt_fp8_pingpong_k64_s4 form=abt block=256x256 chips=gfx950 shapes=256x256x256,512x256x384,300x500x130,256x512x64,2304x2304x64
