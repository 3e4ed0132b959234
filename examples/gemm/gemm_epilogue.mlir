// GEMMs with the work that usually follows them fused into the epilogue,
// and a batched GEMM. Both build on gemm_abt.mlir's kernel (C = A * B^T,
// A: M x K, B: N x K, f32 accumulation, 128x128 tile per block, four waves
// each owning 64x64, K by 64 through LDS; runtime sizes of any value: edge
// tiles load zeros and store with masks).
module {
  // C = gelu(A * B^T + bias), the MLP up projection of GPT-style models:
  // the bias is a column vector added to every row of the accumulator,
  // then the exact (erf) GELU, both in f32 registers before the one store.
  hk.kernel @gemm_bias_gelu(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                            %bias: !hk.gl<?xbf16>, %C: !hk.gl<?x?xbf16>)
      waves(4) {
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

    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c2 : index
    %tn = arith.addi %tn0, %wn : index
    %bv = hk.load %bias[%tn] : !hk.gl<?xbf16> -> !hk.rv<64xf32>
    %z = hk.add_col %acc, %bv : !hk.rt<64x64xf32>, !hk.rv<64xf32>
    %y = hk.gelu %z : !hk.rt<64x64xf32>
    hk.store %y, %C[%tm, %tn] : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>
    hk.return
  }

  // C[b] = A[b] * B[b]^T for a batch of independent products (attention
  // heads, experts, LoRA adapters): the batch is the grid's z dimension,
  // the outer index of 3-D views.
  hk.kernel @gemm_batched(%A: !hk.gl<?x?x?xbf16>, %B: !hk.gl<?x?x?xbf16>,
                          %C: !hk.gl<?x?x?xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %ckm1 = arith.constant 63 : index
    %ck = arith.constant 64 : index
    %bm = hk.block_id x
    %bn = hk.block_id y
    %bb = hk.block_id z
    %w = hk.wave_id
    %wm = arith.divui %w, %c2 : index
    %wn = arith.remui %w, %c2 : index
    %K = hk.dim %A[2] : !hk.gl<?x?x?xbf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<128x64xbf16>
    %sB = hk.alloc : !hk.st<128x64xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bb, %bm, %k], %sA
          : !hk.gl<?x?x?xbf16>, !hk.st<128x64xbf16>
      hk.group_load %B[%bb, %bn, %k], %sB
          : !hk.gl<?x?x?xbf16>, !hk.st<128x64xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %b = hk.load %sB[%wn, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<64x64xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<64x64xf32>
    }

    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c2 : index
    %tn = arith.addi %tn0, %wn : index
    hk.store %acc, %C[%bb, %tm, %tn] : !hk.rt<64x64xf32> -> !hk.gl<?x?x?xbf16>
    hk.return
  }
}

// HK-RUN: script kernel=gemm_bias_gelu case=gemm_epilogue.py:bias_gelu shapes=128x128x64,256x128x192,200x136x72,1x1x1
// HK-RUN: script kernel=gemm_batched case=gemm_epilogue.py:batched shapes=2x128x128x64,3x200x136x72,1x1x1x1
