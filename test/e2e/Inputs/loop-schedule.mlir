// C = A * B^T with the first K tile peeled into a loop of its own and the
// main loop naming its ping-pong schedule (`hk.schedule` on the loop):
// a kernel with two hk.mma loops, only one of which is scheduled.
module {
  hk.kernel @gemm_peeled(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                         %C: !hk.gl<?x?xbf16>) waves(8) {
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
    %first = arith.minui %ktiles, %c1 : index

    %sA = hk.alloc : !hk.st<256x32xbf16>
    %sB = hk.alloc : !hk.st<256x32xbf16>
    %zero = hk.zero : !hk.rt<128x64xf32>
    // Tile 0, each wave loading its own 128 rows of A and the block's B
    // rows in two halves.
    %bm2 = arith.muli %bm, %c2 : index
    %ta = arith.addi %bm2, %wm : index
    %bn2 = arith.muli %bn, %c2 : index
    %hb = arith.divui %wn, %c2 : index
    %tb = arith.addi %bn2, %hb : index
    %half = arith.remui %wn, %c2 : index
    %peeled = scf.for %k = %c0 to %first step %c1 iter_args(%c = %zero)
        -> !hk.rt<128x64xf32> {
      %a = hk.load %A[%ta, %k] : !hk.gl<?x?xbf16> -> !hk.rt<128x32xbf16>
      %tb2 = arith.muli %tb, %c2 : index
      %tbh = arith.addi %tb2, %half : index
      %b = hk.load %B[%tbh, %k] : !hk.gl<?x?xbf16> -> !hk.rt<64x32xbf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      scf.yield %d : !hk.rt<128x64xf32>
    }
    %acc = scf.for %k = %first to %ktiles step %c1 iter_args(%c = %peeled)
        -> !hk.rt<128x64xf32> {
      hk.group_load %A[%bm, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.group_load %B[%bn, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<256x32xbf16>
      hk.barrier
      %a = hk.load %sA[%wm, %c0] : !hk.st<256x32xbf16> -> !hk.rt<128x32xbf16>
      %b = hk.load %sB[%wn, %c0] : !hk.st<256x32xbf16> -> !hk.rt<64x32xbf16>
      %d = hk.mma abt %a, %b, %c
          : !hk.rt<128x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<128x64xf32>
      hk.barrier
      scf.yield %d : !hk.rt<128x64xf32>
    } {hk.schedule = #hk.pingpong<waves = 8>}

    %tm0 = arith.muli %bm, %c2 : index
    %tm = arith.addi %tm0, %wm : index
    %tn0 = arith.muli %bn, %c4 : index
    %tn = arith.addi %tn0, %wn : index
    hk.store %acc, %C[%tm, %tn] : !hk.rt<128x64xf32> -> !hk.gl<?x?xbf16>
    hk.return
  }
}

// HK-RUN: gemm kernel=gemm_peeled form=abt block=256x256 shapes=256x256x256,300x500x70,256x256x32,64x64x0
