// C = A * B^T (bf16 in, f32 accumulation, bf16 out) in the 8-wave ping-pong
// schedule on gfx950 with a K step of 32 and four copies of each tile: the
// same 256x256 block tile and 2x4 wave grid as gemm_pingpong_gfx950.mlir
// (K by 64, two copies), with the loads of a tile issued three iterations
// before its use instead of one. Each iteration's loads are half as large,
// so its MFMAs hide less of their latency; the extra copies give them
// three iterations to arrive.
//
// The four copies take 128 KiB of the 160 KiB of LDS. After the loop the
// block's C tile is staged through LDS in the same bytes (the wait and the
// barrier end the loop's use of them), so that every global store writes
// whole 128-byte lines. Each wave computes its tile of C transposed and
// renames it back, so that it writes LDS 8 bytes at a time; the block order
// is gemm_pingpong_gfx950.mlir's (`hk.grid_order`); both explained there.
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @gemm_pingpong_k32_s4(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                                  %C: !hk.gl<?x?xbf16>)
      waves(8) schedule(#hk.pingpong<waves = 8, stages = 4>) attributes {
        hk.grid_order = #hk.grid_order<chunk = 4, group = 8>} {
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
    %zero = hk.zero : !hk.rt<64x128xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x128xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<256x32xbf16> -> !hk.rt<128x32xbf16>
      %b = hk.load %sB[%wn, %c0] : !hk.st<256x32xbf16> -> !hk.rt<64x32xbf16>
      %d = hk.mma abt %b, %a, %c
          : !hk.rt<64x32xbf16>, !hk.rt<128x32xbf16>, !hk.rt<64x128xf32>
      hk.barrier
      scf.yield %d : !hk.rt<64x128xf32>
    }

    // C staged in LDS and copied out by each wave, as in
    // gemm_pingpong_gfx950.mlir.
    hk.wait
    hk.barrier
    %sC = hk.alloc : !hk.st<256x256xbf16>
    %acct = hk.transpose %acc : !hk.rt<64x128xf32> -> !hk.rt<128x64xf32>
    %bm2 = arith.muli %bm, %c2 : index
    %rm = arith.addi %bm2, %wm : index
    %bn4 = arith.muli %bn, %c4 : index
    %cn = arith.addi %bn4, %wn : index
    hk.store %acct, %sC[%wm, %wn] : !hk.rt<128x64xf32> -> !hk.st<256x256xbf16>
    hk.store %acct, %C[%rm, %cn] via %sC[%wm, %wn] staged
        : !hk.rt<128x64xf32> -> !hk.gl<?x?xbf16>, !hk.st<256x256xbf16>
    hk.return
  }
}

// HK-RUN: gemm kernel=gemm_pingpong_k32_s4 form=abt block=256x256 chips=gfx950 shapes=256x256x256,512x256x128,300x500x100,257x255x33,1x1x1,17x9x0
