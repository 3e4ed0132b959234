// C = A * B^T on gfx942 with FNUZ E5M2 inputs (f8E5M2FNUZ), f32
// accumulation and output, one wave per 64x64 tile of C, A and B staged
// through LDS. Only gfx942 reads this fp8 family, so the file runs there
// alone. How far K advances per step decides the MFMA: by 64, 16x16x32 (two
// per 16-byte run); by 32, 32x32x16.
module {
  hk.kernel @gemm_abt_e5m2_k64(%A: !hk.gl<?x?xf8E5M2FNUZ>,
                               %B: !hk.gl<?x?xf8E5M2FNUZ>,
                               %C: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 63 : index
    %ck = arith.constant 64 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xf8E5M2FNUZ>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<64x64xf8E5M2FNUZ>
    %sB = hk.alloc : !hk.st<64x64xf8E5M2FNUZ>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA
          : !hk.gl<?x?xf8E5M2FNUZ>, !hk.st<64x64xf8E5M2FNUZ>
      hk.group_load %B[%bn, %k], %sB
          : !hk.gl<?x?xf8E5M2FNUZ>, !hk.st<64x64xf8E5M2FNUZ>
      hk.barrier
      %a = hk.load %sA
          : !hk.st<64x64xf8E5M2FNUZ> -> !hk.rt<64x64xf8E5M2FNUZ>
      %b = hk.load %sB
          : !hk.st<64x64xf8E5M2FNUZ> -> !hk.rt<64x64xf8E5M2FNUZ>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x64xf8E5M2FNUZ>, !hk.rt<64x64xf8E5M2FNUZ>,
            !hk.rt<64x64xf32>
      // The reads are done before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

  hk.kernel @gemm_abt_e5m2_k32(%A: !hk.gl<?x?xf8E5M2FNUZ>,
                               %B: !hk.gl<?x?xf8E5M2FNUZ>,
                               %C: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 31 : index
    %ck = arith.constant 32 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xf8E5M2FNUZ>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<64x32xf8E5M2FNUZ>
    %sB = hk.alloc : !hk.st<64x32xf8E5M2FNUZ>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA
          : !hk.gl<?x?xf8E5M2FNUZ>, !hk.st<64x32xf8E5M2FNUZ>
      hk.group_load %B[%bn, %k], %sB
          : !hk.gl<?x?xf8E5M2FNUZ>, !hk.st<64x32xf8E5M2FNUZ>
      hk.barrier
      %a = hk.load %sA
          : !hk.st<64x32xf8E5M2FNUZ> -> !hk.rt<64x32xf8E5M2FNUZ>
      %b = hk.load %sB
          : !hk.st<64x32xf8E5M2FNUZ> -> !hk.rt<64x32xf8E5M2FNUZ>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x32xf8E5M2FNUZ>, !hk.rt<64x32xf8E5M2FNUZ>,
            !hk.rt<64x64xf32>
      // The reads are done before the next tiles overwrite LDS.
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }

}

// HK-RUN: gemm kernel=gemm_abt_e5m2_k64 form=abt block=64x64 chips=gfx942 shapes=64x64x192,100x70x101
// HK-RUN: gemm kernel=gemm_abt_e5m2_k32 form=abt block=64x64 chips=gfx942 shapes=64x64x192,100x70x101
