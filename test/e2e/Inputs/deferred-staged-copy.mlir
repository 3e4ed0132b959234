// Interleave-scheduled GEMMs whose B tile is copied into LDS transposed.
// The copy is staged through registers on gfx942 (no transposing LDS
// reads there); in the interior version of the pipelined loop its LDS
// writes are deferred until after the MFMAs. On gfx950 hk-mfma-layout
// keeps B untransposed and the copy goes direct to LDS.
module {
  hk.kernel @gemm_ab_bt_interleave(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                                 %C: !hk.gl<?x?xf32>) waves(4)
      schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %ckm1 = arith.constant 63 : index
    %ck = arith.constant 64 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %wm = arith.divui %w, %c2 : index
    %wn = arith.remui %w, %c2 : index
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<128x64xbf16>
    %sBt = hk.alloc : !hk.st<128x64xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
      // The (k, bn) tile of B, 64x128, lands in LDS as its 128x64
      // transpose.
      hk.group_load %B[%k, %bn], %sBt transpose
          : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %bt = hk.load %sBt[%wn, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %d = hk.mma abt %a, %bt, %c
          : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
      // Everyone is done reading before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }

    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c2 : index
    %tn = arith.addi %tn0, %wn : index
    hk.store %acc, %C[%tm, %tn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  // A 64x16 block tile: B's 64x16 tile arrives as a 16x64 transpose, 128
  // chunks of 8 elements over 256 lanes, so half the lanes copy none.
  hk.kernel @gemm_ab_bt_narrow(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                               %C: !hk.gl<?x?xf32>) waves(4)
      schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %ckm1 = arith.constant 63 : index
    %ck = arith.constant 64 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %w = hk.wave_id
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<64x64xbf16>
    %sBt = hk.alloc : !hk.st<16x64xbf16>
    %zero = hk.zero : !hk.rt<16x16xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<16x16xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
      hk.group_load %B[%k, %bn], %sBt transpose
          : !hk.gl<?x?xbf16>, !hk.st<16x64xbf16>
      hk.barrier
      %a = hk.load %sA[%w, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x64xbf16>
      %bt = hk.load %sBt : !hk.st<16x64xbf16> -> !hk.rt<16x64xbf16>
      %d = hk.mma abt %a, %bt, %c
          : !hk.rt<16x64xbf16>, !hk.rt<16x64xbf16>, !hk.rt<16x16xf32>
      hk.barrier
      scf.yield %d : !hk.rt<16x16xf32>
    }

    %tm0 = arith.muli %bm, %c4 : index
    %tm = arith.addi %tm0, %w : index
    hk.store %acc, %C[%tm, %bn] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// HK-RUN: gemm kernel=gemm_ab_bt_interleave form=ab block=128x128 shapes=128x128x256,256x128x640,200x300x100
// HK-RUN: gemm kernel=gemm_ab_bt_narrow form=ab block=64x16 shapes=64x16x256,128x48x320,100x40x70
