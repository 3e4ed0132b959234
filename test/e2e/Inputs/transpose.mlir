// hk.transpose of tiles in each kind of layout, stored to global memory:
// y must be x transposed (transpose.test).
module {
  hk.kernel @row(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
    %u = hk.transpose %t : !hk.rt<16x64xf32, row> -> !hk.rt<64x16xf32>
    hk.store %u, %y[%c0, %c0] : !hk.rt<64x16xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
  hk.kernel @acc16(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %t = hk.load %x[%c0, %c0]
        : !hk.gl<?x?xf32> -> !hk.rt<64x32xf32, #hk.mfma<acc, 16x16x16>>
    %u = hk.transpose %t
        : !hk.rt<64x32xf32, #hk.mfma<acc, 16x16x16>> -> !hk.rt<32x64xf32>
    hk.store %u, %y[%c0, %c0] : !hk.rt<32x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
  hk.kernel @acc32(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>) waves(1) {
    %c0 = arith.constant 0 : index
    %t = hk.load %x[%c0, %c0]
        : !hk.gl<?x?xf32> -> !hk.rt<64x32xf32, #hk.mfma<acc, 32x32x8>>
    %u = hk.transpose %t
        : !hk.rt<64x32xf32, #hk.mfma<acc, 32x32x8>> -> !hk.rt<32x64xf32>
    hk.store %u, %y[%c0, %c0] : !hk.rt<32x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
  // Runs of 8 (the 16x16x32 A operand) and back: the result's own layout
  // written as the source's, so a conversion follows the transpose.
  hk.kernel @runs8(%x: !hk.gl<?x?xbf16>, %y: !hk.gl<?x?xbf16>) waves(1) {
    %c0 = arith.constant 0 : index
    %t = hk.load %x[%c0, %c0]
        : !hk.gl<?x?xbf16> -> !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>
    %u = hk.transpose %t : !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>
        -> !hk.rt<64x32xbf16>
    %v = hk.convert_layout %u : !hk.rt<64x32xbf16>
        -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
    hk.store %v, %y[%c0, %c0]
        : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?xbf16>
    hk.return
  }
}
