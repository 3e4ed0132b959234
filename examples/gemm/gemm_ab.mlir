// C = A * B with A: M x K (K-contiguous) and B: K x N (N-contiguous), f32
// accumulation; runtime M, N, K of any size.
//
// The structure is that of gemm_abt.mlir; here each wave reads its B slice
// as a K x N tile, which the MFMA layout distributes down the columns.
module {
  hk.kernel @gemm_ab_bf16_f32(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
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
    %K = hk.dim %A[1] : !hk.gl<?x?xbf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<128x64xbf16>
    %sB = hk.alloc : !hk.st<64x128xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<128x64xbf16>
      hk.group_load %B[%k, %bn], %sB : !hk.gl<?x?xbf16>, !hk.st<64x128xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16>
      %b = hk.load %sB[%c0, %wn] : !hk.st<64x128xbf16> -> !hk.rt<64x64xbf16>
      %d = hk.mma ab %a, %b, %c
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

  // The same product with B transposed on its way into LDS: the MFMAs then
  // read B^T along its rows (16-byte LDS reads) instead of one element at a
  // time down B's columns. gfx950's LDS reads transpose, so there
  // hk-mfma-layout keeps B as it is (the copy goes direct to LDS) and this
  // kernel compiles as the one above.
  hk.kernel @gemm_ab_bt_bf16_f32(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
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

  hk.kernel @gemm_ab_f16(%A: !hk.gl<?x?xf16>, %B: !hk.gl<?x?xf16>,
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
    %K = hk.dim %A[1] : !hk.gl<?x?xf16>
    %kpad = arith.addi %K, %ckm1 : index
    %ktiles = arith.divui %kpad, %ck : index

    %sA = hk.alloc : !hk.st<128x64xf16>
    %sB = hk.alloc : !hk.st<64x128xf16>
    %zero = hk.zero : !hk.rt<64x64xf32>
    %acc = scf.for %k = %c0 to %ktiles step %c1 iter_args(%c = %zero)
        -> !hk.rt<64x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xf16>, !hk.st<128x64xf16>
      hk.group_load %B[%k, %bn], %sB : !hk.gl<?x?xf16>, !hk.st<64x128xf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<128x64xf16> -> !hk.rt<64x64xf16>
      %b = hk.load %sB[%c0, %wn] : !hk.st<64x128xf16> -> !hk.rt<64x64xf16>
      %d = hk.mma ab %a, %b, %c
          : !hk.rt<64x64xf16>, !hk.rt<64x64xf16>, !hk.rt<64x64xf32>
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

// HK-RUN: gemm kernel=gemm_ab_bf16_f32 form=ab block=128x128 shapes=128x128x128,190x250x40
// HK-RUN: gemm kernel=gemm_ab_bt_bf16_f32 form=ab block=128x128 shapes=128x128x128,190x250x40
// HK-RUN: gemm kernel=gemm_ab_f16 form=ab block=128x128 shapes=256x128x64,77x129x65
