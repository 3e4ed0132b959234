// C = A * B^T with A: M x K, B: N x K (both K-contiguous), bf16 inputs,
// f32 accumulation, bf16 output. Runtime M, N, K of any size: edge tiles
// are loaded with zeros and stored with masks.
//
// Each block computes a 128x128 tile of C with four waves in a 2x2 grid,
// each wave owning a 64x64 accumulator. K advances 64 at a time through
// LDS: the block loads a 128x64 tile of A and of B cooperatively, then each
// wave reads its 64x64 slices into registers for the MFMAs.
module {
  hk.kernel @gemm_abt_bf16(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
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
}

// HK-RUN: gemm kernel=gemm_abt_bf16 form=abt block=128x128 shapes=128x128x64,256x128x192,200x136x72
