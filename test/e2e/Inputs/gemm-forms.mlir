// GEMM variants the examples do not cover, one wave per 64x64 tile of C,
// for both chips: the A^T forms of hk.mma, 32x32 MFMAs chosen without a
// pin, and an f16 output rounded from the f32 accumulator. Every kernel
// takes hk-run's (A: M x K, B: K x N or N x K, C: M x N) and rebuilds the
// form it multiplies in LDS or registers.
module {
  // C = A * B through hk.mma atb: A's (bm, k) 64x32 tile lands in LDS as
  // its 32x64 transpose (K x M); B's 32x64 (K x N) tile is read straight
  // into registers.
  hk.kernel @gemm_atb_bf16(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                           %C: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 31 : index
    %ck = arith.constant 32 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sAt = hk.alloc : !hk.st<32x64xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sAt transpose
          : !hk.gl<?x?xbf16>, !hk.st<32x64xbf16>
      hk.barrier
      %at = hk.load %sAt : !hk.st<32x64xbf16> -> !hk.rt<32x64xbf16>
      %b = hk.load %B[%k, %bn] : !hk.gl<?x?xbf16> -> !hk.rt<32x64xbf16>
      %d = hk.mma atb %at, %b, %c
          : !hk.rt<32x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<64x64xf32>
      // The read is done before the next tile overwrites LDS.
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  // The same product with both operands in the 16x16 accumulator layout
  // (as attention's P^T comes out of S^T = K Q^T): each lane feeds the
  // instruction its 4 rows of consecutive 16-row blocks, the same K order
  // on both sides. A^T is read from LDS with transposing reads on gfx950.
  hk.kernel @gemm_atb_acc_bf16(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                               %C: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 31 : index
    %ck = arith.constant 32 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sAt = hk.alloc : !hk.st<32x64xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sAt transpose
          : !hk.gl<?x?xbf16>, !hk.st<32x64xbf16>
      hk.barrier
      %at = hk.load %sAt
          : !hk.st<32x64xbf16> -> !hk.rt<32x64xbf16, #hk.mfma<acc, 16x16x16>>
      %b = hk.load %B[%k, %bn]
          : !hk.gl<?x?xbf16> -> !hk.rt<32x64xbf16, #hk.mfma<acc, 16x16x16>>
      %d = hk.mma atb %at, %b, %c
          : !hk.rt<32x64xbf16, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<32x64xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<64x64xf32>
      // The read is done before the next tile overwrites LDS.
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  // The same in f16.
  hk.kernel @gemm_atb_acc_f16(%A: !hk.gl<?x?xf16>, %B: !hk.gl<?x?xf16>,
                               %C: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 31 : index
    %ck = arith.constant 32 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sAt = hk.alloc : !hk.st<32x64xf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sAt transpose
          : !hk.gl<?x?xf16>, !hk.st<32x64xf16>
      hk.barrier
      %at = hk.load %sAt
          : !hk.st<32x64xf16> -> !hk.rt<32x64xf16, #hk.mfma<acc, 16x16x16>>
      %b = hk.load %B[%k, %bn]
          : !hk.gl<?x?xf16> -> !hk.rt<32x64xf16, #hk.mfma<acc, 16x16x16>>
      %d = hk.mma atb %at, %b, %c
          : !hk.rt<32x64xf16, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<32x64xf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<64x64xf32>
      // The read is done before the next tile overwrites LDS.
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  // C = A * B^T through hk.mma atbt: A transposed into LDS as above, B's
  // 64x32 (N x K) tile read straight into registers.
  hk.kernel @gemm_atbt_f16(%A: !hk.gl<?x?xf16>, %B: !hk.gl<?x?xf16>,
                           %C: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 31 : index
    %ck = arith.constant 32 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sAt = hk.alloc : !hk.st<32x64xf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sAt transpose
          : !hk.gl<?x?xf16>, !hk.st<32x64xf16>
      hk.barrier
      %at = hk.load %sAt : !hk.st<32x64xf16> -> !hk.rt<32x64xf16>
      %b = hk.load %B[%bn, %k] : !hk.gl<?x?xf16> -> !hk.rt<64x32xf16>
      %d = hk.mma atbt %at, %b, %c
          : !hk.rt<32x64xf16>, !hk.rt<64x32xf16>, !hk.rt<64x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  // C = A * B^T, K advancing 16 at a time: 16x16x32 does not divide it, so
  // hk-mfma-layout picks 32x32x16 on gfx950 and 32x32x8 (two per 16-byte
  // run) on gfx942.
  hk.kernel @gemm_abt_k16_bf16(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                               %C: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 15 : index
    %ck = arith.constant 16 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      %a = hk.load %A[%bm, %k] : !hk.gl<?x?xbf16> -> !hk.rt<64x16xbf16>
      %b = hk.load %B[%bn, %k] : !hk.gl<?x?xbf16> -> !hk.rt<64x16xbf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x16xbf16>, !hk.rt<64x16xbf16>, !hk.rt<64x64xf32>
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  // C = A * B^T in f16 with f32 accumulation, stored as f16.
  hk.kernel @gemm_abt_f16_out(%A: !hk.gl<?x?xf16>, %B: !hk.gl<?x?xf16>,
                              %C: !hk.gl<?x?xf16>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 31 : index
    %ck = arith.constant 32 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      %a = hk.load %A[%bm, %k] : !hk.gl<?x?xf16> -> !hk.rt<64x32xf16>
      %b = hk.load %B[%bn, %k] : !hk.gl<?x?xf16> -> !hk.rt<64x32xf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x32xf16>, !hk.rt<64x32xf16>, !hk.rt<64x64xf32>
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf16>
    hk.return
  }
  // C = A * B^T with each wave's 64x64 accumulator stored through its own
  // part of a 128x128 LDS tile (`hk.store ... via`): written in the MFMA
  // layout, read back and stored in whole rows by the wave alone, with no
  // barrier; edge tiles take the masked path.
  hk.kernel @gemm_abt_via_bf16(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                               %C: !hk.gl<?x?xbf16>) waves(4) {
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
    %sB = hk.alloc : !hk.st<128x64xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %b = hk.load %sB[%wn, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    %sC = hk.alloc : !hk.st<128x128xbf16>
    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c2 : index
    %tn = arith.addi %tn0, %wn : index
    hk.store %acc, %C[%tm, %tn] via %sC[%wm, %wn]
        : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>, !hk.st<128x128xbf16>
    hk.return
  }
}

// HK-RUN: gemm kernel=gemm_atb_bf16 form=ab block=64x64 shapes=64x64x64,100x70x50
// HK-RUN: gemm kernel=gemm_atb_acc_bf16 form=ab block=64x64 shapes=64x64x64,100x70x50
// HK-RUN: gemm kernel=gemm_atb_acc_f16 form=ab block=64x64 shapes=64x64x64,100x70x50
// HK-RUN: gemm kernel=gemm_atbt_f16 form=abt block=64x64 shapes=64x64x64,100x70x50
// HK-RUN: gemm kernel=gemm_abt_k16_bf16 form=abt block=64x64 shapes=64x64x64,100x70x50
// HK-RUN: gemm kernel=gemm_abt_f16_out form=abt block=64x64 shapes=64x64x64,100x70x50
// HK-RUN: gemm kernel=gemm_abt_via_bf16 form=abt block=128x128 shapes=128x128x64,200x150x70
