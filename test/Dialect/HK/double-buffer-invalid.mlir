// RUN: hk-opt %s -split-input-file --hk-double-buffer -verify-diagnostics

// expected-error @below {{has a schedule, so it needs one main loop: a top-level scf.for holding its hk.mma ops; found 0}}
hk.kernel @no_loop() waves(8) schedule(#hk.pingpong<waves = 8>) {
  hk.return
}

// -----

// Double-buffering two 256x64 bf16 tiles needs 128 KiB; gfx942 has 64.
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @too_big(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<256x64xbf16>
  %sB = hk.alloc : !hk.st<256x64xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{needs 131072 bytes of LDS once its 2 shared tile(s) have 2 copies each, but gfx942 has 65536 per workgroup; use smaller tiles or fewer stages}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<256x64xbf16>
    hk.group_load %A[%c1, %k], %sB : !hk.gl<?x?xbf16>, !hk.st<256x64xbf16>
    %a = hk.load %sA[%c0, %c0] : !hk.st<256x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @stores(%A: !hk.gl<?x?xbf16>, %C: !hk.gl<?x?xf32>) waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    %a = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    // expected-error @below {{cannot be software-pipelined by hk-double-buffer: it accesses memory or has regions. A plain main loop loads its shared tiles with synchronous hk.group_load, reads them with hk.load and computes on registers; write hk.cluster ops to schedule anything else by hand}}
    hk.store %d, %C[%c0, %c0] : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @carried_index(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r:2 = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z, %col = %c0) -> (!hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>, index) {
    // expected-error @below {{cannot be software-pipelined by hk-double-buffer: its indices depend on a loop-carried value}}
    hk.group_load %A[%c0, %col], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    %a = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    %n = arith.addi %col, %c1 : index
    scf.yield %d, %n : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>, index
  }
  hk.return
}
}

// -----

module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @async(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    // expected-error @below {{cannot be software-pipelined by hk-double-buffer: the load is async or pins its waves or path}}
    %t = hk.group_load async %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
    hk.wait [%t]
    %a = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @no_group_load() waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{is the main loop of a scheduled kernel but loads no shared tile with hk.group_load; nothing to pipeline}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

// The MFMA comes before any read of a shared tile.
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @compute_first(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{cannot be scheduled: its body must read shared tiles first and end with the computation on them}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    %x = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %e = hk.mma abt %x, %a, %d {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %e : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

// expected-error @below {{needs a target chip to check that double-buffered LDS fits; run hk-target first}}
hk.kernel @no_target(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<64x64xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    %x = hk.load %sA[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %x, %x, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}

// -----

// A ring of three 128x128 bf16 tiles is 96 KiB, more than gfx942's 64 (two
// copies, 64 KiB, would fit).
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @ring_too_big(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4, stages = 3>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<128x128xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{needs 98304 bytes of LDS once its 1 shared tile(s) have 3 copies each, but gfx942 has 65536 per workgroup; use smaller tiles or fewer stages}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<128x128xbf16>
    %a = hk.load %sA[%c0, %c0] : !hk.st<128x128xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

// The same for a ping-pong ring: three 128x128 bf16 copies do not fit in
// gfx942's 64 KiB.
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @pingpong_ring_too_big(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, stages = 3>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sA = hk.alloc : !hk.st<128x128xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{needs 98304 bytes of LDS once its 1 shared tile(s) have 3 copies each, but gfx942 has 65536 per workgroup; use smaller tiles or fewer stages}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.group_load %A[%c0, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<128x128xbf16>
    %a = hk.load %sA[%c0, %c0] : !hk.st<128x128xbf16> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
    %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
}

// -----

// A loop written as clusters keeps its own buffers: a ring asked of it
// would be silently ignored.
hk.kernel @ring_of_clusters() waves(8) schedule(#hk.pingpong<waves = 8, stages = 3>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{is written as hk.cluster ops, which keep their own buffers and waits, but its schedule asks for 3 copies of each loaded tile (stages); drop stages or write the loop plainly}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>> {
    hk.cluster memory {
    }
    hk.barrier
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    hk.barrier
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  }
  hk.return
}
