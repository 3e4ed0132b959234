// C = A * B^T (bf16 in, f32 accumulation, bf16 out) in the 8-wave ping-pong
// schedule with K stepping by 32: a 256x256 output tile per block, eight
// waves in a 2x4 grid each owning a 128x64 accumulator. Double-buffered,
// its tiles take 64 KiB of LDS, all of gfx942's; it runs on both chips.
// (gemm_pingpong_gfx950.mlir has the gfx950 configuration, K by 64.)
//
// The loop is written plainly; hk-schedule double-buffers it and splits it
// into memory and compute clusters for the two wave groups (see the gfx950
// file). On gfx942 the prefetch is staged through registers, so group 0
// waits for it in its memory cluster while group 1 computes.
module {
  hk.kernel @gemm_pingpong_k32(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                               %C: !hk.gl<?x?xbf16>)
      waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %ckm1 = arith.constant 31 : index
    %ck = arith.constant 32 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c4 : index
    %wn = arith.remui %w, %c4 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<256x32xbf16>
    %sB = hk.alloc : !hk.st<256x32xbf16>
    %zero = hk.zero : !hk.rt<128x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<128x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<256x32xbf16> -> !hk.rt<128x32xbf16>
      %b = hk.load %sB[%wn, %c0] : !hk.st<256x32xbf16> -> !hk.rt<64x32xbf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<128x64xf32>
    }

    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c4 : index
    %tn = arith.addi %tn0, %wn : index
    hk.store %acc, %C[%tm, %tn] : !hk.rt<128x64xf32> -> !hk.gl<?x?xbf16>
    hk.return
  }
}

// HK-RUN: gemm kernel=gemm_pingpong_k32 form=abt block=256x256 shapes=256x256x256,512x256x96,300x500x70
