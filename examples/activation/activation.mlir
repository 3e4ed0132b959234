// Gated activations of LLM MLPs: x is M x 2N (the gate in columns [0, N),
// the up projection in [N, 2N)), y is M x N.
//   silu_and_mul: y = silu(gate) * up
//   gelu_and_mul: y = gelu(gate) * up   (exact, erf form)
// bf16 in and out, f32 arithmetic. The kernel sees x as a 2 x M x N view
// (strides N and 2N), so that x[0] is the gate and x[1] the up half with
// no assumption on N. One block handles a 64 x 128 tile of y with four
// waves of 16 rows. The tiles use the A-operand layout of the 16x16x32
// MFMA, whose lanes hold runs of 8 elements along a row: each lane moves
// 16 bytes of bf16 per load and store. Loads past the edges read zero and
// stores past them are dropped, so M and N need not be multiples of the
// tile.
module {
  hk.kernel @silu_and_mul(%xv: !hk.gl<2x?x?xbf16>, %y: !hk.gl<?x?xbf16>)
      waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %w = hk.wave_id
    %b = hk.block_id x
    %j = hk.block_id y
    %b4 = arith.muli %b, %c4 : index
    %r = arith.addi %b4, %w : index
    %gate = hk.load %xv[%c0, %r, %j] : !hk.gl<2x?x?xbf16>
        -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    %up = hk.load %xv[%c1, %r, %j] : !hk.gl<2x?x?xbf16>
        -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    %act = hk.silu %gate : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    %out = hk.mul %act, %up : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    hk.store %out, %y[%r, %j] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
        -> !hk.gl<?x?xbf16>
    hk.return
  }

  hk.kernel @gelu_and_mul(%xv: !hk.gl<2x?x?xbf16>, %y: !hk.gl<?x?xbf16>)
      waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %w = hk.wave_id
    %b = hk.block_id x
    %j = hk.block_id y
    %b4 = arith.muli %b, %c4 : index
    %r = arith.addi %b4, %w : index
    %gate = hk.load %xv[%c0, %r, %j] : !hk.gl<2x?x?xbf16>
        -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    %up = hk.load %xv[%c1, %r, %j] : !hk.gl<2x?x?xbf16>
        -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    %act = hk.gelu %gate : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    %out = hk.mul %act, %up : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    hk.store %out, %y[%r, %j] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
        -> !hk.gl<?x?xbf16>
    hk.return
  }
}

// HK-RUN: script kernel=silu_and_mul case=activation.py:gated act=silu shapes=64x128,128x512,37x200,1x8
// HK-RUN: script kernel=gelu_and_mul case=activation.py:gated act=gelu shapes=64x128,128x512,37x200,1x8
