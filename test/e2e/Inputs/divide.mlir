// hk.div_row and hk.div_col, exact and with `reciprocal`, against float64
// quotients (divide-cases.py): every element within 0.5 f32 ulp of the
// quotient when exact, within 1.5 ulp (two roundings) with `reciprocal`.
hk.kernel @divide(%x: !hk.gl<?x?xf32>, %r: !hk.gl<?xf32>, %c: !hk.gl<?xf32>,
                  %y: !hk.gl<?x?xf32>, %yr: !hk.gl<?x?xf32>,
                  %z: !hk.gl<?x?xf32>, %zr: !hk.gl<?x?xf32>) waves(1) {
  %bi = hk.block_id x
  %bj = hk.block_id y
  %t = hk.load %x[%bi, %bj] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>
  %vr = hk.load %r[%bi] : !hk.gl<?xf32> -> !hk.rv<16xf32>
  %vc = hk.load %c[%bj] : !hk.gl<?xf32> -> !hk.rv<64xf32>
  %q = hk.div_row %t, %vr : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
  %qr = hk.div_row %t, %vr {reciprocal} : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
  %p = hk.div_col %t, %vc : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<64xf32>
  %pr = hk.div_col %t, %vc {reciprocal} : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<64xf32>
  hk.store %q, %y[%bi, %bj] : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.store %qr, %yr[%bi, %bj] : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.store %p, %z[%bi, %bj] : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.store %pr, %zr[%bi, %bj] : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.return
}
// HK-RUN: script kernel=divide case=divide-cases.py:divide shapes=16x64,40x100,33x129 chips=gfx942,gfx950
