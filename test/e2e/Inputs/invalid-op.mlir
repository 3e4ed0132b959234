// Parses, but an op breaks its own rules: an invalid kernel, not an
// unparsable file.
hk.kernel @scale(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>, %s: f32) waves(1) {
  %d = hk.dim %x[2] : !hk.gl<?x?xf32>
  hk.return
}
