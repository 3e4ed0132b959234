// y = s * x, one 16x64 tile per block, for the script workload's tests
// (hk-run-script.test writes the HK-RUN lines).
hk.kernel @scale(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>, %s: f32) waves(1) {
  %bi = hk.block_id x
  %bj = hk.block_id y
  %t = hk.load %x[%bi, %bj] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  %u = hk.mul %t, %s : !hk.rt<16x64xf32, row>, f32
  hk.store %u, %y[%bi, %bj] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}
