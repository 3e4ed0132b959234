hk.kernel @activations(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %a = hk.gelu_tanh %t : !hk.rt<16x16xf32, row>
  %b = hk.sin %a : !hk.rt<16x16xf32, row>
  %c = hk.rsqrt %b : !hk.rt<16x16xf32, row>
  hk.store %c, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}
