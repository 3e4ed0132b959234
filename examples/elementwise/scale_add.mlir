// y = alpha * x + b, one 64x64 tile per block, four waves each handling a
// 16-row slice. Edges of matrices that are not a multiple of the tile are
// masked by the lowering.
module {
  hk.kernel @scale_add(%x: !hk.gl<?x?xf32>, %b: !hk.gl<?x?xf32>,
                       %y: !hk.gl<?x?xf32>, %alpha: f32) waves(4) {
    %w = hk.wave_id
    %bi = hk.block_id x
    %bj = hk.block_id y
    %c4 = arith.constant 4 : index
    %r0 = arith.muli %bi, %c4 : index
    %r = arith.addi %r0, %w : index
    %tx = hk.load %x[%r, %bj] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
    %tb = hk.load %b[%r, %bj] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
    %ax = hk.mul %tx, %alpha : !hk.rt<16x64xf32, row>, f32
    %ty = hk.add %ax, %tb : !hk.rt<16x64xf32, row>
    hk.store %ty, %y[%r, %bj] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?xf32>
    hk.return
  }
}

// HK-RUN: elementwise kernel=scale_add expr=scale_add block=64x64 alpha=1.5 shapes=128x128,300x200,1x17
