// One tile read from LDS as both operands of an MFMA is read once: its
// fragments are needed as soon as either operand needs them. A 64x64 bf16
// tile is 8 reads (16 bytes a lane each); 4x4 blocks of 16x16x32 MFMAs
// over K = 64 are 32 MFMAs of 16 cycles, MFMA (i, j, k) needing the tile's
// first max(A's, B's) fragments: 1, 2, ..., 8 along the first block row,
// all 8 after it. With every read first (0 per group), the first read is
// done at 16 (4 cycles a wave on gfx950's LDS, 4 waves) + 64 (latency):
// 80 + 32 x 16 = 592 cycles, the least any order can take. With one read
// after each MFMA (1/1/1), the first 8 MFMAs each wait for the read issued
// after the one before: the 8th starts at 668, the last ends at 1068.
// RUN: hk-opt %s --hk-interleave=remarks=true -verify-diagnostics
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @same_operand() waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>> {
      // expected-remark @below {{hk-interleave: groups of 1 MFMA / 0 LDS read / 0 vector-memory read, 592 cycles per wave (the cost function's best of 64; 1/1/1: 1068); the cluster issues 32 MFMAs of 16 cycles, 8 LDS reads and 0 vector-memory reads}}
      %d = hk.cluster compute {
        %x = hk.load %s : !hk.st<64x64xbf16> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
        %y = hk.mma abt %x, %x, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}
