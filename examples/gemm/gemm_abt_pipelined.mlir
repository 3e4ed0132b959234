// C = A * B^T (bf16 in, f32 accumulation, bf16 out) with the next K tile's
// loads in flight while the current one is multiplied.
//
// Two LDS buffers per operand alternate, carried through the loop and
// swapped every iteration: in iteration k the block issues the asynchronous
// group loads of tile k+1 into the spare pair, then waits for tile k's loads
// (issued one iteration earlier) and multiplies it from the current pair.
// The wait needs only tile k's loads: hk.wait counts the direct-to-LDS
// loads issued since (tile k+1's) and waits for vmcnt to fall to that
// number instead of draining to zero.
//
// The loop runs ktiles - 1 times and the last tile is multiplied after it,
// so no load reaches past K. With K = 0 the loop does not run and the one
// tile multiplied is all zeros. The four 128x64 bf16 buffers take 64 KiB
// of LDS, all of gfx942's.
module {
  hk.kernel @gemm_abt_pipelined(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                                %C: !hk.gl<?x?xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c2 : index
    %wn = arith.remui %w, %c2 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %kpad = arith.addi %K, %c63 : index
    %ktiles = arith.divui %kpad, %c64 : index
    %ksteps = arith.subi %ktiles, %c1 : index

    %sA0 = hk.alloc : !hk.st<128x64xbf16>
    %sA1 = hk.alloc : !hk.st<128x64xbf16>
    %sB0 = hk.alloc : !hk.st<128x64xbf16>
    %sB1 = hk.alloc : !hk.st<128x64xbf16>
    %tA0 = hk.group_load async %A[%bm, %c0], %sA0
        : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
    %tB0 = hk.group_load async %B[%bn, %c0], %sB0
        : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc, %tA, %tB, %endA, %endB, %spareA, %spareB = scf.for %k = %c0 to %ksteps step %c1
        iter_args(%c = %zero, %ta = %tA0, %tb = %tB0, %curA = %sA0,
                  %curB = %sB0, %nxtA = %sA1, %nxtB = %sB1)
        -> (!hk.rt<64x64xf32>, !hk.token, !hk.token, !hk.st<128x64xbf16>,
            !hk.st<128x64xbf16>, !hk.st<128x64xbf16>, !hk.st<128x64xbf16>) {
      %k1 = arith.addi %k, %c1 : index
      %ta1 = hk.group_load async %A[%bm, %k1], %nxtA
          : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
      %tb1 = hk.group_load async %B[%bn, %k1], %nxtB
          : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16> -> !hk.token
      // Tile k has landed for this wave, then for every wave.
      hk.wait [%ta, %tb]
      hk.barrier
      %a = hk.load %curA[%wm, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %b = hk.load %curB[%wn, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
      // Everyone is done reading tile k before iteration k+1 refills its
      // buffers.
      hk.barrier
      scf.yield %d, %ta1, %tb1, %nxtA, %nxtB, %curA, %curB
          : !hk.rt<64x64xf32>, !hk.token, !hk.token, !hk.st<128x64xbf16>,
            !hk.st<128x64xbf16>, !hk.st<128x64xbf16>, !hk.st<128x64xbf16>
    }
    // The last tile, with nothing left to prefetch.
    hk.wait [%tA, %tB]
    hk.barrier
    %a = hk.load %endA[%wm, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
    %b = hk.load %endB[%wn, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
    %result = hk.mma abt %a, %b, %acc
        : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>

    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c2 : index
    %tn = arith.addi %tn0, %wn : index
    hk.store %result, %C[%tm, %tn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>
    hk.return
  }
}

// HK-RUN: gemm kernel=gemm_abt_pipelined form=abt block=128x128 shapes=128x128x64,256x256x256,200x136x72
