// Rotary position embedding (RoPE, NeoX / GPT-J "rotate half" form) of a
// B x H x S x 128 tensor with gathered position ids:
//   c, s = cos_sin[pos[b, t], 0:64], cos_sin[pos[b, t], 64:128]
//   y[..., 0:64]   = x1 * c - x2 * s
//   y[..., 64:128] = x2 * c + x1 * s        (x1, x2 the halves of x)
// The position of every token comes from an index vector, so packed
// variable-length batches, offsets after a KV cache and any other
// position layout work. bf16 data and cache, f32 arithmetic. A wave owns
// 16 tokens of one sequence: it gathers their cos/sin rows once
// (hk.gather by the position ids) and applies them to every head in a
// loop. Four waves make a block (64 tokens); the grid is ceil(S / 64) x B.
// Tokens past S are masked by the views' bounds; positions outside the
// cache read zeros. The tiles use the 16x16x32 A-operand layout (runs of
// 8 elements per lane): 16 bytes per lane per access.
module {
  hk.kernel @rope_bf16(%x: !hk.gl<?x?x?x128xbf16>, %pos: !hk.gl<?x?xi32>,
                       %cos_sin: !hk.gl<?x128xbf16>,
                       %y: !hk.gl<?x?x?x128xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %w = hk.wave_id
    %t = hk.block_id x
    %b = hk.block_id y
    %t4 = arith.muli %t, %c4 : index
    %r = arith.addi %t4, %w : index
    %heads = hk.dim %x[1] : !hk.gl<?x?x?x128xbf16>
    %ids = hk.load %pos[%b, %r] : !hk.gl<?x?xi32> -> !hk.rv<16xi32>
    %cs = hk.gather %cos_sin[%c0] rows %ids
        : !hk.gl<?x128xbf16>, !hk.rv<16xi32>
        -> !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
    %cos = hk.slice %cs [0, 0] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
        -> !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
    %sin = hk.slice %cs [0, 64] : !hk.rt<16x128xf32, #hk.mfma<a, 16x16x32>>
        -> !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
    scf.for %h = %c0 to %heads step %c1 {
      %x1 = hk.load %x[%b, %h, %r, %c0] : !hk.gl<?x?x?x128xbf16>
          -> !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
      %x2 = hk.load %x[%b, %h, %r, %c1] : !hk.gl<?x?x?x128xbf16>
          -> !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
      %x1c = hk.mul %x1, %cos : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
      %x2s = hk.mul %x2, %sin : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
      %y1 = hk.sub %x1c, %x2s : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
      %x2c = hk.mul %x2, %cos : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
      %x1s = hk.mul %x1, %sin : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
      %y2 = hk.add %x2c, %x1s : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>>
      hk.store %y1, %y[%b, %h, %r, %c0]
          : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?x?x128xbf16>
      hk.store %y2, %y[%b, %h, %r, %c1]
          : !hk.rt<16x64xf32, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?x?x128xbf16>
    }
    hk.return
  }
}

// HK-RUN: script kernel=rope_bf16 case=rope.py:rope shapes=1x1x64x128,2x3x100x128,1x2x17x128
