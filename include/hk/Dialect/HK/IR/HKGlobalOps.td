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

    - `f32` views: `global_atomic_add_f32`, one per element; denormals are
      kept.
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

#endif // HK_GLOBAL_OPS_TD
