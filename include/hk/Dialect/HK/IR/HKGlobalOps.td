//===- HKGlobalOps.td - atomics and indexed global accesses -*- tablegen -*-===//
//
// Register tiles that update global memory atomically, and rows of global
// memory addressed through an index vector. Included by HKOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef HK_GLOBAL_OPS_TD
#define HK_GLOBAL_OPS_TD

def HK_AtomicAddOp : HK_Op<"atomic_add", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "add a register tile into global memory atomically";
  let description = [{
    Adds every element of the register tile to the element of the global
    view it would be stored to by `hk.store` with the same indices. Each
    addition is one atomic read-modify-write of device memory, so blocks
    may add into the same elements concurrently (a reduction across the
    grid, such as dQ in attention backward). Elements outside the view are
    not touched. The tile's float elements are first rounded to the view's
    element type (round to nearest even).

    - `f32` views: `buffer_atomic_add_f32` on the view's buffer resource,
      one per element; at the view's edges an element outside it gets an
      offset past the resource's range, which the hardware drops (no
      branch per element). Denormals are kept.
    - `bf16` and `f16` views: the packed 32-bit atomics
      (`global_atomic_pk_add_bf16`, `global_atomic_pk_add_f16`). Where a
      lane holds two neighbouring elements of a row at an even element
      offset (the `row` layout), one instruction adds both; otherwise each
      element is added with `-0.0` in the other half of its 32-bit word,
      which leaves that neighbour unchanged. Every addition rounds its sum
      to the 16-bit type, so many small contributions lose precision
      against one f32 sum.

    Ordering: relaxed atomics at device (agent) scope. Each element's
    update is indivisible and none is lost, but the order in which
    contributions arrive is unspecified (f32 and bf16 sums may differ in
    their last bits from run to run), and the op orders no other memory
    access: other blocks see the totals once the kernel has finished
    (a later kernel, or the host after synchronizing). The op returns
    nothing. Views are assumed to be device memory (`hipMalloc`), where
    these instructions are atomic; fine-grained host memory is not
    supported.

    ```mlir
    hk.atomic_add %dq, %dQ[%b, %h, %i, %c0]
        : !hk.rt<64x64xf32, row> -> !hk.gl<?x?x?x?xbf16>
    ```
  }];
  let arguments = (ins HK_RegisterTileType:$value, HK_GlobalViewType:$dest,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` attr-dict `:` qualified(type($value))
    `->` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

class HK_RowIndexedOp<string mnemonic, list<Trait> traits = []>
    : HK_Op<mnemonic, traits> {
  code extraBaseClassDeclaration = [{
    /// The register tile the op fills or writes out.
    RegisterTileType getTileType();
  }];
  let extraClassDeclaration = extraBaseClassDeclaration;
  let hasVerifier = 1;
}

def HK_GatherOp : HK_RowIndexedOp<"gather", [MemoryEffects<[MemRead]>]> {
  let summary = "load a register tile whose rows are picked by an index vector";
  let description = [{
    Row `r` of the result is row `rows[r]` of the global view's matrix (its
    last two dimensions), from the tile column `[..., j]` (the column index
    counts in tiles of the result's width, as in `hk.load`; the indices
    before it select the outer dimensions, in elements). `rows` is an `i32`
    register vector with one entry per tile row, held alongside the tile's
    rows (`hk-mfma-layout` aligns it). A row index outside the matrix
    (negative, or at least its row count) reads a row of zeros, as do
    columns past its edge. Position ids, variable-length batches and paged
    key/value caches address their rows this way.

    Float element types may differ, as in `hk.load`. Rows whose columns lie
    inside the view are read with the same vector accesses as `hk.load`.

    ```mlir
    %k = hk.gather %K[%b, %c0] rows %ids
        : !hk.gl<?x?x?xbf16>, !hk.rv<32xi32> -> !hk.rt<32x64xbf16, row>
    ```
  }];
  let arguments = (ins HK_GlobalViewType:$source, Variadic<Index>:$indices,
                       HK_RegisterVectorType:$rows);
  let results = (outs HK_RegisterTileType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` `rows` $rows attr-dict `:`
    qualified(type($source)) `,` qualified(type($rows)) `->`
    qualified(type($result))
  }];
}

def HK_ScatterOp : HK_RowIndexedOp<"scatter", [MemoryEffects<[MemWrite]>]> {
  let summary = "store the rows of a register tile where an index vector says";
  let description = [{
    The inverse of `hk.gather`: row `r` of the tile is written to row
    `rows[r]` of the view's matrix. Rows whose index lies outside the
    matrix, and columns past its edge, are not written. When two rows of
    the tile (or of tiles scattered concurrently) name the same matrix row,
    which write remains is unspecified.

    ```mlir
    hk.scatter %t, %Out[%c0] rows %ids
        : !hk.rt<32x64xf32, row>, !hk.rv<32xi32> -> !hk.gl<?x?xbf16>
    ```
  }];
  let arguments = (ins HK_RegisterTileType:$value, HK_GlobalViewType:$dest,
                       Variadic<Index>:$indices, HK_RegisterVectorType:$rows);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` `rows` $rows attr-dict `:`
    qualified(type($value)) `,` qualified(type($rows)) `->`
    qualified(type($dest))
  }];
}

#endif // HK_GLOBAL_OPS_TD
