hk.kernel @nan_max(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>, %z: !hk.gl<?x?xi32>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %b = hk.load %y[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %m = hk.max %a, %b : !hk.rt<16x16xf32, row>
  hk.store %m, %y[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  %i = hk.convert %a : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xi32, row>
  hk.store %i, %z[%c0, %c0] : !hk.rt<16x16xi32, row> -> !hk.gl<?x?xi32>
  hk.return
}
