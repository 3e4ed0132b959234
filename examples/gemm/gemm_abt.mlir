// C = A * B^T with A: M x K and B: N x K, both K-contiguous: the layout of
// attention's Q*K^T and of most inference GEMMs. f32 accumulation; runtime
// M, N, K of any size (edge tiles load zeros and store with masks).
//
// Each block computes a 128x128 tile of C with four waves in a 2x2 grid,
// each wave owning a 64x64 accumulator. K advances one LDS tile at a time:
// the block loads a 128xBK tile of A and of B cooperatively, then each wave
// reads its slices into registers for the MFMAs, whose instruction and
// register layouts hk-mfma-layout chooses per chip.
module {
  hk.kernel @gemm_abt_bf16(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
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

  hk.kernel @gemm_abt_f16_f32(%A: !hk.gl<?x?xf16>, %B: !hk.gl<?x?xf16>,
                              %C: !hk.gl<?x?xf32>) waves(4) {
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
    %K = hk.dim %A[1] : !hk.gl<?x?xf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<128x64xf16>
    %sB = hk.alloc : !hk.st<128x64xf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xf16>, !hk.st<128x64xf16>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xf16>, !hk.st<128x64xf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x64xf16> -> !hk.rt<64x64xf16>
      %b = hk.load %sB[%wn, %c0] : !hk.st<128x64xf16> -> !hk.rt<64x64xf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x64xf16>, !hk.rt<64x64xf16>, !hk.rt<64x64xf32>
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
}

// HK-RUN: gemm kernel=gemm_abt_bf16 form=abt block=128x128 shapes=128x128x64,256x128x192,200x136x72
// HK-RUN: gemm kernel=gemm_abt_f16_f32 form=abt block=128x128 shapes=128x256x128,130x70x100
