hk.kernel @atomics(%x: !hk.gl<?x?xf32>, %f: !hk.gl<?x?xf32>, %h: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  hk.atomic_add %a, %f[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.atomic_add %a, %h[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xbf16>
  hk.return
}
