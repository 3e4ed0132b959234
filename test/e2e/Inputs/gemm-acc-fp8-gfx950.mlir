// hk.mma atb with both fp8 operands in the 16x16 accumulator layout on gfx950:
// gemm-forms.mlir's gemm_atb_acc_bf16 with OCP E4M3 (f8E4M3FN) inputs. Each
// lane feeds the 16x16x32 fp8 MFMA 4 rows of each of two consecutive
// 16-row blocks, in the same K order on both sides. Only gfx950 reads this
// fp8 family, so the file runs there alone.
module {
  hk.kernel @gemm_atb_acc_fp8(%A: !hk.gl<?x?xf8E4M3FN>, %B: !hk.gl<?x?xf8E4M3FN>,
                               %C: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ckm1 = arith.constant 31 : index
    %ck = arith.constant 32 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %K = hk.dim %A[1] : !hk.gl<?x?xf8E4M3FN>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sAt = hk.alloc : !hk.st<32x64xf8E4M3FN>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sAt transpose
          : !hk.gl<?x?xf8E4M3FN>, !hk.st<32x64xf8E4M3FN>
      hk.barrier
      %at = hk.load %sAt
          : !hk.st<32x64xf8E4M3FN> -> !hk.rt<32x64xf8E4M3FN, #hk.mfma<acc, 16x16x16>>
      %b = hk.load %B[%k, %bn]
          : !hk.gl<?x?xf8E4M3FN> -> !hk.rt<32x64xf8E4M3FN, #hk.mfma<acc, 16x16x16>>
      %d = hk.mma atb %at, %b, %c
          : !hk.rt<32x64xf8E4M3FN, #hk.mfma<acc, 16x16x16>>,
            !hk.rt<32x64xf8E4M3FN, #hk.mfma<acc, 16x16x16>>, !hk.rt<64x64xf32>
      // The read is done before the next tile overwrites LDS.
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }
    hk.store %acc, %C[%bm, %bn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// HK-RUN: gemm kernel=gemm_atb_acc_fp8 form=ab block=64x64 chips=gfx950 shapes=64x64x64,100x70x50
