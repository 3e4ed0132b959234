// An MFMA whose two operands are one tile read from LDS inside a compute
// cluster of an interleave kernel: hk-interleave's cost counted the tile's
// reads twice, then indexed its LDS reads with a negative count.
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @same_operand() waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>> {
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
