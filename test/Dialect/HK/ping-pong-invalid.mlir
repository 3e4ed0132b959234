// RUN: hk-opt %s -split-input-file --hk-ping-pong -verify-diagnostics

// Ping-pong clusters must alternate, starting with memory.
hk.kernel @two_compute() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    // expected-error @below {{is cluster 0 of a ping-pong loop, which must be a memory cluster: the loop alternates memory and compute clusters, starting with memory}}
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}

// -----

hk.kernel @loose_barrier() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    // expected-error @below {{in a ping-pong loop may only follow a cluster (a barrier after the cluster's waits): the groups are one cluster apart, so every cluster ends with exactly one barrier}}
    hk.barrier
    hk.cluster memory {
    }
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}

// -----

hk.kernel @between() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    %m = hk.cluster memory {
      %x = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
      hk.yield %x : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    } : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    // expected-error @below {{sits between the clusters of a ping-pong loop; put memory and compute work inside hk.cluster ops}}
    %stray = hk.load %sA[%c0, %c1] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.cluster compute {
      %y = hk.mma abt %m, %stray, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}

// -----

hk.kernel @ends_with_memory() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    %m = hk.cluster memory {
      %x = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
      hk.yield %x : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    } : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.cluster compute {
      %y = hk.mma abt %m, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    // expected-error @below {{ends a ping-pong loop; the loop must end with a compute cluster}}
    hk.cluster memory {
      %x = hk.load %sA[%c0, %c1] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
      hk.yield
    }
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}

// -----

// A wait must follow a cluster (and precede the barrier closing it).
hk.kernel @loose_wait() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    // expected-error @below {{in a ping-pong loop may only follow a cluster}}
    hk.wait
    hk.cluster memory {
    }
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}

// -----

// A plain loop is hk-double-buffer's to turn into clusters.
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @plain(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{is the main loop of a ping-pong kernel but holds no hk.cluster ops; run hk-double-buffer first, or write its memory and compute clusters}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    %a = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

hk.kernel @no_instr() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.cluster memory {
    }
    %d = hk.cluster compute {
      // expected-error @below {{has no MFMA instruction yet; run hk-mfma-layout before hk-ping-pong}}
      %y = hk.mma abt %a, %a, %c : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}

