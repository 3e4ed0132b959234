//===- HKTileOps.td - slices and concatenation -------------*- tablegen -*-===//
//
// Ops that take tiles apart and put them together. Included by HKOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TILE_OPS_TD
#define HK_TILE_OPS_TD

def HK_SliceOp : HK_Op<"slice", [Pure, HK_SameLayout]> {
  let summary = "part of a register tile or vector, or rows of a shared tile";
  let description = [{
    The part of `source` that starts at the static `offsets` (row and column
    for tiles, element for vectors) and has the result's shape. Register
    tiles and vectors are cut along their layout's base blocks (offsets and
    sizes multiples of 16 rows and columns, or of a 32x32 MFMA block where
    the layout has those), so a slice selects registers and moves no data.

    A shared tile slices whole rows: the result is a view of the same LDS
    (no copy) that loads, stores and group copies address like any shared
    tile. Shared tiles are concatenated that way too: allocate the whole
    tile and write its row slices. hk-lds-layout then gives the tile a
    swizzle whose row period divides the slice offsets, so the view keeps
    the tile's swizzle.

    ```mlir
    %top = hk.slice %t [0, 0] : !hk.rt<32x64xf32, row> -> !hk.rt<16x64xf32, row>
    %v1 = hk.slice %v [16] : !hk.rv<64xf32> -> !hk.rv<16xf32>
    %kb = hk.slice %k [64, 0] : !hk.st<128x64xbf16> -> !hk.st<64x64xbf16>
    ```
  }];
  let arguments = (ins AnyTypeOf<[HK_AnyRegister, HK_SharedTileType]>:$source,
                       DenseI64ArrayAttr:$offsets);
  let results = (outs AnyTypeOf<[HK_AnyRegister, HK_SharedTileType]>:$result);
  let assemblyFormat = [{
    $source $offsets attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def HK_ConcatOp : HK_Op<"concat", [Pure, HK_SameLayout]> {
  let summary = "join register tiles along rows or columns, or vectors";
  let description = [{
    Places the inputs one after another: `rows` stacks tiles of one width
    (the result has the sum of their rows), `cols` puts tiles of one height
    side by side; vectors (no keyword) are joined end to end. The inputs and
    the result share element type and layout, and every input is a whole
    number of the layout's base blocks, so the op only renames registers.

    ```mlir
    %t = hk.concat rows %a, %b
        : !hk.rt<16x64xf32, row>, !hk.rt<16x64xf32, row> -> !hk.rt<32x64xf32, row>
    ```
  }];
  let arguments = (ins OptionalAttr<HK_Axis>:$axis,
                       Variadic<HK_AnyRegister>:$inputs);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = [{
    ($axis^)? $inputs attr-dict `:` qualified(type($inputs)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def HK_TransposeOp : HK_Op<"transpose", [Pure]> {
  let summary = "transpose of a register tile, without moving data";
  let description = [{
    The C x R tile whose element (i, j) is element (j, i) of the R x C
    source. Every element stays in the lane that holds it: the result's
    layout is the source's with rows and columns swapped (row runs become
    column runs and back; an MFMA accumulator's runs of four rows become
    runs of four columns), so the op only renames registers.
    hk-mfma-layout gives the result that layout, and converts it where a
    use wants another. Transposing and storing writes a tile transposed
    into a shared tile: a K-major copy of a tile the wave holds, or a
    product stored the other way round.

    ```mlir
    %t = hk.transpose %s : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x16>>
        -> !hk.rt<16x64xbf16, row>
    ```
  }];
  let arguments = (ins HK_RegisterTileType:$source);
  let results = (outs HK_RegisterTileType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif // HK_TILE_OPS_TD
