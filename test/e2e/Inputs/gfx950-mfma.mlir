// Legal on gfx950 only: gfx942 has no bf16 16x16x32 MFMA, and compiling
// for it must say so.
hk.kernel @k(%y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.zero : !hk.rt<32x64xbf16>
  %c = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>}
      : !hk.rt<32x64xbf16>, !hk.rt<32x64xbf16>, !hk.rt<32x32xf32>
  hk.store %d, %y[%c0, %c0] : !hk.rt<32x32xf32> -> !hk.gl<?x?xf32>
  hk.return
}
