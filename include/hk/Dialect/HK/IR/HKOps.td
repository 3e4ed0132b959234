//===- HKOps.td - hk operations ----------------------------*- tablegen -*-===//

#ifndef HK_OPS_TD
#define HK_OPS_TD

include "hk/Dialect/HK/IR/HKTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Register operands and results of the op share one lane layout: the op
// works element by element (or row by row) and moves no data between lanes.
// hk-mfma-layout gives them one layout.
def HK_SameLayout : NativeOpTrait<"SameLayout"> {
  let cppNamespace = "::hk::trait";
}

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def HK_KernelOp : HK_Op<"kernel", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "a GPU kernel made of tile operations";
  let description = [{
    A kernel runs as a grid of blocks, each of `waves` 64-lane waves.
    Arguments are global views (`!hk.gl`) or `i32`/`f32` scalars; they are
    passed in the compact ABI documented in the README. An optional schedule
    (`#hk.pingpong`, `#hk.interleave`) is realised by `hk-schedule` on the
    kernel's main loop. In a kernel with several loops, name the one to
    schedule instead: `scf.for ... {...} {hk.schedule = #hk.pingpong<waves =
    8>}` on one top-level loop, and no schedule on the kernel.

    ```mlir
    hk.kernel @scale(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>, %s: f32)
        waves(4) {
      ...
      hk.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       ConfinedAttr<I32Attr, [IntPositive]>:$waves,
                       OptionalAttr<AnyAttr>:$schedule,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::mlir::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// Bytes of LDS allocated by hk.alloc ops in the body.
    int64_t getSharedMemoryBytes();
    /// The top-level op of the body that carries `hk.schedule`, if any.
    ::mlir::Operation *getScheduledLoop();
    /// The kernel's schedule, or that of its scheduled loop; null if none.
    ::mlir::Attribute getEffectiveSchedule();
  }];
}

def HK_ReturnOp : HK_Op<"return", [Pure, HasParent<"KernelOp">, ReturnLike,
                                   Terminator]> {
  let summary = "end of a kernel";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Ids
//===----------------------------------------------------------------------===//

def HK_WaveIdOp : HK_Op<"wave_id", [Pure]> {
  let summary = "index of the executing wave in its block";
  let description = "`%w = hk.wave_id` is in `[0, waves)` of the kernel.";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def HK_BlockIdOp : HK_Op<"block_id", [Pure]> {
  let summary = "index of the executing block in the grid";
  let description = "`%b = hk.block_id x` (or `y`, `z`).";
  let arguments = (ins HK_Dim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
}

def HK_GridDimOp : HK_Op<"grid_dim", [Pure]> {
  let summary = "number of blocks in the grid along one dimension";
  let arguments = (ins HK_Dim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
}

def HK_DimOp : HK_Op<"dim", [Pure]> {
  let summary = "size of one dimension of a global view";
  let description = "`%m = hk.dim %a[0] : !hk.gl<?x?xbf16>`";
  let arguments = (ins HK_GlobalViewType:$view, I64Attr:$index);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `[` $index `]` attr-dict `:` qualified(type($view))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def HK_AllocOp : HK_Op<"alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocate a shared tile or vector in LDS";
  let description = [{
    `%s = hk.alloc : !hk.st<64x64xbf16>`. The kernel's allocations are laid
    out one after the other in LDS, except that two share bytes when a
    fence separates their uses: a token-less `hk.wait` directly followed by
    an `hk.barrier` (without wave group), both in the kernel body, with
    every use of the one (counting the values it flows into through loop
    iter_args and region results) before it and every use of the other
    after it. The wait drains the wave's loads and LDS accesses and the
    barrier holds every wave until all have, so a GEMM can stage its output
    tile in the bytes its main loop's buffers held:

    ```mlir
    %acc = scf.for ... { ... hk.group_load %A[...], %sA ... }
    hk.wait
    hk.barrier
    %sC = hk.alloc : !hk.st<256x256xbf16>   // may reuse %sA's bytes
    ```

    What the layout spans must fit the chip's LDS.
  }];
  let results = (outs HK_AnyShared:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def HK_LoadOp : HK_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "load a register tile or vector from global or shared memory";
  let description = [{
    Loads the tile at tile coordinates `[...]` of a global view (one index
    per dimension; the last two count in tiles, the others in elements), or
    the subtile `[i, j]` of a shared tile (the whole tile without indices).
    Elements outside the view read as zero. Float element types may differ:
    the load converts with round-to-nearest-even.

    ```mlir
    %a = hk.load %A[%i, %k] : !hk.gl<?x?xbf16> -> !hk.rt<32x64xbf16, row>
    %b = hk.load %sB[%c0, %c1] : !hk.st<64x64xbf16> -> !hk.rt<32x32xbf16>
    ```
  }];
  let arguments = (ins AnyTypeOf<[HK_GlobalViewType, HK_SharedTileType,
                                  HK_SharedVectorType]>:$source,
                       Variadic<Index>:$indices,
                       OptionalAttr<HK_TransferPathAttr>:$path);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = [{
    $source (`[` $indices^ `]`)? attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def HK_StoreOp : HK_Op<"store", [MemoryEffects<[MemWrite]>,
                                  AttrSizedOperandSegments]> {
  let summary = "store a register tile or vector to global or shared memory";
  let description = [{
    The inverse of `hk.load`. Elements outside a global view are not
    written. Float element types may differ: the store converts with
    round-to-nearest-even (accumulators in f32 stored to a bf16 view).

    A register tile stored to a global view `via` a part of a shared tile
    (its subtile `[i, j]`, as `hk.store` to that tile would address it)
    goes through LDS: the wave writes the tile there, reads it back in
    16-byte pieces of its rows and stores those, so that every store
    instruction writes whole rows' bytes (a 64-element bf16 row is one
    128-byte line) instead of the few scattered elements each lane holds
    in an MFMA layout. The wave alone uses that part of the shared tile
    from this op on: no barrier is needed, and none is implied, so waves
    that finish early store their own tiles while others still compute.
    Another wave must not access that part until a barrier after the op.
    The shared tile's element type is the view's.

    With `staged`, the wave has already written the tile to that part (an
    `hk.store` to it): the op only copies it out. Writing every tile first
    and copying them after lets a ping-pong kernel's first wave group
    convert and write its tiles under the other group's last MFMAs and
    copy them out while the other group writes its own (hk-ping-pong ends
    the part of the epilogue it moves at the first `staged` store).
    Without that store first, the op copies whatever the part holds.

    ```mlir
    hk.store %c, %C[%i, %j] via %sC[%r, %s]
        : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>, !hk.st<256x256xbf16>
    hk.store %c, %sC[%r, %s] : !hk.rt<64x64xf32> -> !hk.st<256x256xbf16>
    hk.store %c, %C[%i, %j] via %sC[%r, %s] staged
        : !hk.rt<64x64xf32> -> !hk.gl<?x?xbf16>, !hk.st<256x256xbf16>
    ```
  }];
  let arguments = (ins HK_AnyRegister:$value,
                       AnyTypeOf<[HK_GlobalViewType, HK_SharedTileType,
                                  HK_SharedVectorType]>:$dest,
                       Variadic<Index>:$indices,
                       Optional<HK_SharedTileType>:$stage,
                       Variadic<Index>:$stageIndices,
                       UnitAttr:$staged,
                       OptionalAttr<HK_TransferPathAttr>:$path);
  let assemblyFormat = [{
    $value `,` $dest (`[` $indices^ `]`)?
    (`via` $stage^ `[` $stageIndices `]`)? (`staged` $staged^)? attr-dict `:`
    qualified(type($value)) `->` qualified(type($dest))
    (`,` qualified(type($stage))^)?
  }];
  let hasVerifier = 1;
}

def HK_GroupLoadOp : HK_Op<"group_load"> {
  let summary = "cooperative load of a shared tile from global memory";
  let description = [{
    All waves of the block (or the first `waves` of them) copy the global
    tile at `[...]` into the shared tile. The synchronous form is complete
    for the executing wave when the op returns; other waves see the data
    after an `hk.barrier`. The `async` form returns a token; the data may be
    read only after `hk.wait` on it (and a barrier, for other waves' parts).
    Elements outside the view arrive as zero. `path` (see `#hk.path`)
    says how the data moves; with `direct`, the async form's token is what
    `hk.wait` counts when it computes its `vmcnt`.

    With `transpose`, the shared tile receives the transpose of the global
    tile, which is then `C x R` for an `R x C` shared tile (the indices
    count in tiles of that shape). A K-major operand (V in attention, B in
    A·B) stored this way is read along its rows, with wide LDS reads,
    instead of one element at a time down its columns. The data goes
    through registers (no `direct` path).

    An `async` load staged through registers (a transposing one, or any
    without the `direct` path) that is also `inbounds` issues its global
    loads where it stands and writes LDS later: just before the next op of
    its block that is or holds an `hk.wait` or `hk.barrier`, or before the
    block's end. The ops in between (the computation of a double-buffered
    loop's interior version) then run while the loads are in flight
    instead of the wave stalling on them at once. Either way the tile is
    complete once `hk.wait` on the token returns.

    With `inbounds`, the program promises what `hk.in_bounds` checks for the
    same operands: the tile lies wholly inside the view and its rows are
    aligned for whole-chunk copies. The lowering then emits the copy without
    its edge path and the branch around it, so the loads can be scheduled
    among other instructions. A promise that does not hold reads and writes
    the wrong elements.

    ```mlir
    %t = hk.group_load async %A[%i, %k], %sA
        : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
    hk.group_load %V[%j, %c0], %sVt transpose
        : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16>
    ```
  }];
  let arguments = (ins UnitAttr:$async, HK_GlobalViewType:$source,
                       Variadic<Index>:$indices, HK_SharedTileType:$dest,
                       UnitAttr:$transpose, UnitAttr:$inbounds,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$waves,
                       OptionalAttr<HK_TransferPathAttr>:$path);
  let results = (outs Optional<HK_TokenType>:$token);
  let assemblyFormat = [{
    (`async` $async^)? $source `[` $indices `]` `,` $dest (`transpose` $transpose^)?
    (`inbounds` $inbounds^)?
    attr-dict `:` qualified(type($source)) `,` qualified(type($dest))
    (`->` qualified(type($token))^)?
  }];
  let hasVerifier = 1;
}

def HK_InBoundsOp : HK_Op<"in_bounds", [Pure]> {
  let summary = "whether a group load copies a whole tile from inside its view";
  let description = [{
    True when an `hk.group_load` of the same operands copies a tile that
    lies wholly inside the view, with rows aligned for whole-chunk copies:
    the case in which that load may be marked `inbounds`. hk-schedule uses
    it to give a loop body a branch-free version for interior tiles.

    ```mlir
    %ok = hk.in_bounds %A[%i, %k], %sA : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    ```
  }];
  let arguments = (ins HK_GlobalViewType:$source, Variadic<Index>:$indices,
                       HK_SharedTileType:$dest, UnitAttr:$transpose);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` `,` $dest (`transpose` $transpose^)?
    attr-dict `:` qualified(type($source)) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def HK_GroupStoreOp : HK_Op<"group_store"> {
  let summary = "cooperative store of a shared tile to global memory";
  let arguments = (ins HK_SharedTileType:$source, HK_GlobalViewType:$dest,
                       Variadic<Index>:$indices,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$waves,
                       OptionalAttr<HK_TransferPathAttr>:$path);
  let assemblyFormat = [{
    $source `,` $dest `[` $indices `]` attr-dict `:` qualified(type($source)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def HK_WaitOp : HK_Op<"wait"> {
  let summary = "wait for asynchronous loads";
  let description = [{
    Blocks the wave until the loads that produced the tokens are complete:
    `hk.wait [%t0, %t1]`. Without tokens, `hk.wait` waits for every
    outstanding memory operation.

    `hk.wait fence` (token-less) directly after a ping-pong kernel's main
    loop also stands for the barrier that would follow it: hk-ping-pong's
    claim that the loop's own barriers have already ended every wave's LDS
    accesses of the loop by the time any wave passes it, so that the
    epilogue may reuse the loop's LDS without a block-wide barrier first
    (see hk-ping-pong). Like a token-less wait followed by `hk.barrier`, it
    lets allocations used only before it and only after it share bytes.
  }];
  let arguments = (ins Variadic<HK_TokenType>:$tokens, UnitAttr:$fence);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def HK_BarrierOp : HK_Op<"barrier"> {
  let summary = "block-wide barrier with LDS visibility";
  let description = [{
    Every wave of the block waits here; LDS writes made before the barrier
    are visible to all waves after it. Global loads stay in flight: tiles
    that a direct-to-LDS `hk.group_load` writes are covered once an
    `hk.wait` on the load's token precedes the barrier.

    `hk.barrier group 1` is executed by the waves of one wave group only
    (in a `#hk.pingpong` kernel, waves `[0, 4)` form group 0 and `[4, 8)`
    group 1). It shifts the groups by one phase of the barrier sequence:
    group 1 running one extra barrier before the main loop puts it one
    cluster behind group 0, and group 0 running one after the loop brings
    them back. Such barriers sit directly in the kernel body, and each
    group runs as many as the other.

    `hk.barrier reads_in_flight` does not wait for the wave's own LDS
    accesses to complete first: reads issued before it may still be
    returning after it. No other wave may overwrite what those reads read
    until the wave has used their results (its use waits for them), and
    the wave must have no LDS writes outstanding unless no other wave reads
    or overwrites what they write before a later barrier that waits for
    them (group 0's balancing barrier after an epilogue hk-ping-pong
    overlaps with group 1's last compute cluster). hk-ping-pong places it
    after a memory cluster that only reads LDS, whose results the next
    compute cluster consumes, when the cluster the other group runs
    meanwhile writes no LDS; a compute cluster's first MFMAs then start
    as their own fragments arrive instead of after the whole cluster's.
  }];
  let arguments = (ins OptionalAttr<ConfinedAttr<I32Attr, [IntNonNegative]>>:$group,
                       UnitAttr:$reads_in_flight);
  let assemblyFormat = "(`group` $group^)? (`reads_in_flight` $reads_in_flight^)? attr-dict";
  let hasVerifier = 1;
}

def HK_PriorityOp : HK_Op<"priority"> {
  let summary = "the wave's issue priority from here on";
  let description = [{
    Sets the wave's issue priority (`s_setprio`, 0 to 3) for what follows,
    until the next `hk.priority` or the end of a cluster with a `priority`.
    A SIMD issues at most one vector instruction (VALU or MFMA) per cycle
    of its sequencer, to the highest-priority ready wave. Running the code
    that issues MFMAs at a higher priority than vector-ALU-heavy code (a
    softmax) hands the issue slot to the wave that keeps the matrix pipe
    busy whenever that pipe frees, and leaves the slots in between to the
    other waves' vector work.

    The lowering fences the op with scheduling barriers, so that LLVM
    moves no instruction across it.

    ```mlir
    hk.priority 0
    %p, %m1, %l1, %f = hk.softmax %s, %m, %l : ...
    hk.priority 1
    %o1 = hk.mma ab %p, %v, %o : ...
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<3>]>:$level);
  let assemblyFormat = "$level attr-dict";
}

//===----------------------------------------------------------------------===//
// Tile creation and conversion
//===----------------------------------------------------------------------===//

def HK_ZeroOp : HK_Op<"zero", [Pure]> {
  let summary = "a register tile or vector of zeros";
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def HK_FillOp : HK_Op<"fill", [Pure]> {
  let summary = "a register tile or vector filled with one scalar";
  let description = [{
    `%t = hk.fill %x : f32 -> !hk.rt<16x16xf32>`; an `i32` (or `i1`) scalar
    fills an integer tile (or a mask).
  }];
  let arguments = (ins AnyTypeOf<[AnyFloat, AnySignlessInteger]>:$value);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($value)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def HK_ConvertOp : HK_Op<"convert", [Pure, HK_SameLayout]> {
  let summary = "convert the element type of a register tile or vector";
  let description = [{
    Converts the value of every element; the layout is unchanged (see
    `hk.convert_layout`, and `hk.bitcast` to reinterpret bits).

    - float to float: round to nearest even; fp8 results saturate to the
      format's largest finite value.
    - f32 to i32 or i8: round to nearest even (2.5 becomes 2), then saturate
      to the integer's range; NaN becomes 0.
    - i32 or i8 to f32: round to nearest even (exact up to 2^24).
    - i32 to i8: saturate to [-128, 127]; i8 to i32: exact.
    - i1 (a mask) to i32 or f32: 1 for true, 0 for false.

    Integers count as signed. Other pairs (an integer and a narrow float)
    are rejected: convert through f32 in two steps, which rounds twice.

    ```mlir
    %i = hk.convert %x : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi32, row>
    ```
  }];
  let arguments = (ins HK_AnyRegister:$source);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def HK_ConvertLayoutOp : HK_Op<"convert_layout", [Pure]> {
  let summary = "move a register tile or vector to another lane layout";
  let arguments = (ins HK_AnyRegister:$source);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

def HK_MmaOp : HK_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix multiply-accumulate on register tiles";
  let description = [{
    `D = C + op(A) * op(B)` in f32 (i32 for i8), where `form` says which
    operands are transposed: `ab` (A is MxK, B is KxN), `abt` (B is NxK),
    `atb` (A is KxM), `atbt`. The matrix-core instruction is chosen by
    `hk-mfma-layout` from the chip, element type and shapes, or pinned with
    `instr`.

    An `atb` product may take both A and B in the 16x16 accumulator layout
    (`#hk.mfma<acc, 16x16xK>`): each lane feeds a 16x16 instruction its 4
    rows of consecutive 16-row blocks, the same order of K on both sides,
    so an accumulator is an operand as it is (attention's P^T computed as
    S^T = K Q^T, with V read to match).

    ```mlir
    %d = hk.mma abt %a, %b, %c
        : !hk.rt<64x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<64x64xf32>
    %o = hk.mma atb %pt, %v, %o0
        : !hk.rt<64x16xbf16, #hk.mfma<acc, 16x16x32>>,
          !hk.rt<64x128xbf16, #hk.mfma<acc, 16x16x32>>, !hk.rt<16x128xf32>
    ```
  }];
  let arguments = (ins HK_MmaForm:$form, HK_RegisterTileType:$a,
                       HK_RegisterTileType:$b, HK_RegisterTileType:$acc,
                       OptionalAttr<HK_MfmaShapeAttr>:$instr);
  let results = (outs HK_RegisterTileType:$result);
  let assemblyFormat = [{
    $form $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    qualified(type($acc))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getM() { return getAcc().getType().getRows(); }
    int64_t getN() { return getAcc().getType().getCols(); }
    /// The reduction length, read from A.
    int64_t getK();
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

class HK_UnaryOp<string mnemonic, string doc, string extraDoc = "">
    : HK_Op<mnemonic, [Pure, SameOperandsAndResultType, HK_SameLayout]> {
  let summary = doc;
  let description = [{
    Element by element on a float register tile or vector:
    `%y = hk.}] # mnemonic # [{ %x : !hk.rt<16x64xf32, row>`.
  }] # extraDoc;
  let arguments = (ins HK_AnyRegister:$source);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source))";
  let hasVerifier = 1;
}

def HK_Exp2Op : HK_UnaryOp<"exp2", "elementwise 2^x">;
def HK_ExpOp : HK_UnaryOp<"exp", "elementwise e^x">;
def HK_LogOp : HK_UnaryOp<"log", "elementwise natural logarithm">;
def HK_Log2Op : HK_UnaryOp<"log2", "elementwise base-2 logarithm">;
def HK_AbsOp : HK_UnaryOp<"abs", "elementwise absolute value">;
def HK_NegOp : HK_UnaryOp<"neg", "elementwise negation">;
def HK_ReluOp : HK_UnaryOp<"relu", "elementwise max(x, 0)">;
def HK_SqrtOp : HK_UnaryOp<"sqrt", "elementwise square root">;
def HK_RsqrtOp : HK_UnaryOp<"rsqrt", "elementwise reciprocal square root", [{
    v_rsq_f32, with tiny inputs (below 2^-126) scaled by 2^24 first.
    Error: `|err| <= 2^-23 |rsqrt(x)|` (v_rsq_f32 is 1 ULP).
  }]>;

class HK_BinaryOp<string mnemonic, string doc, string extraDoc = "">
    : HK_Op<mnemonic, [Pure, AllTypesMatch<["lhs", "result"]>,
                       HK_SameLayout]> {
  let summary = doc;
  let description = [{
    Element by element; the right-hand side is a register tile or vector of
    the same type, or a scalar of the element type applied to every element:
    `%y = hk.}] # mnemonic # [{ %x, %s : !hk.rt<16x16xf32>, f32`.
  }] # extraDoc;
  let arguments = (ins HK_AnyRegister:$lhs,
                       AnyTypeOf<[HK_AnyRegister, AnyFloat,
                                  AnySignlessInteger]>:$rhs);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<BinaryTypes>(type($lhs), type($rhs))
  }];
  let hasVerifier = 1;
}

def HK_AddOp : HK_BinaryOp<"add", "elementwise addition", [{
    On i32 elements it wraps around (two's complement), as do `hk.sub` and
    `hk.mul`.
  }]>;
def HK_SubOp : HK_BinaryOp<"sub", "elementwise subtraction">;
def HK_MulOp : HK_BinaryOp<"mul", "elementwise multiplication">;
def HK_DivOp : HK_BinaryOp<"div", "elementwise division", [{
    Float elements only (IEEE division, correctly rounded in f32).
  }]>;
def HK_MaxOp : HK_BinaryOp<"max", "elementwise maximum", [{
    On floats it is IEEE 754-2019 `maximum`: a NaN operand gives NaN (as
    `numpy.maximum`), and `+0.0` is greater than `-0.0` (numpy may return
    either zero). On i32 elements
    it compares signed (`hk.umax` compares unsigned).
  }]>;
def HK_MinOp : HK_BinaryOp<"min", "elementwise minimum", [{
    On floats it is IEEE 754-2019 `minimum`: a NaN operand gives NaN (as
    `numpy.minimum`), and `-0.0` is less than `+0.0`. On i32 elements it
    compares signed (`hk.umin` compares unsigned).
  }]>;

//===----------------------------------------------------------------------===//
// Row and column broadcasts and reductions
//===----------------------------------------------------------------------===//

// `rows` is 1 when the vector runs along the tile's rows (one value per row).
class HK_BroadcastOp<string mnemonic, string doc, bit rows,
                     bit multiply = 0, bit divide = 0>
    : HK_Op<mnemonic, [Pure, AllTypesMatch<["tile", "result"]>,
                       HK_SameLayout]> {
  let summary = doc;
  let description = [{
    Combines every element of the tile with the vector entry of its
    }] # !if(rows, "row", "column") # [{:
    `%y = hk.}] # mnemonic # [{ %t, %v : !hk.rt<32x64xf32>, !hk.rv<}]
    # !if(rows, "32", "64") # [{xf32>`.
  }] # !if(multiply, [{

    With `skip_ones`, a uniform branch skips the multiply where every
    factor the wave holds is exactly 1; the result is the tile either way
    (x * 1 is x; a NaN stays NaN). It pays on a large tile
    whose factors are mostly 1, as the rescale factors of `hk.softmax`
    with a `max_slack` are; on a tile of a few registers per lane LLVM
    turns the branch back into selects, which cost more than the multiply.
    For those factors the branch tests whether some row's max moved, and
    computes the factors (their exponentials) inside it when nothing else
    needs them; later `hk.mul_row`/`hk.mul_col` ops of the same block by
    the same factors join the branch, so that a running sum kept in a tile
    of its own is rescaled there too.
  }], "") # !if(divide, [{

    Without attributes every element is divided, correctly rounded. With
    `reciprocal` the op takes the reciprocal of each vector entry once
    (correctly rounded) and multiplies the elements by it: one division
    per entry a lane holds instead of one per element, as attention's
    final normalization wants. Where the reciprocal is a normal number
    (f32 divisors of magnitude 2^-126 to 2^126) each result is then within
    1.5 ulp of the quotient (two roundings). A divisor so small that its
    reciprocal overflows (below about 2^-128 in f32, a denormal) makes its
    quotients infinite; one so large that its reciprocal is denormal loses
    precision. Zero, infinite and NaN divisors give what division gives.
  }], "");
  let arguments = !con((ins HK_RegisterTileType:$tile,
                            HK_RegisterVectorType:$vector),
                       !if(multiply, (ins UnitAttr:$skip_ones), (ins)),
                       !if(divide, (ins UnitAttr:$reciprocal), (ins)));
  let results = (outs HK_RegisterTileType:$result);
  let assemblyFormat = [{
    $tile `,` $vector attr-dict `:` qualified(type($tile)) `,` qualified(type($vector))
  }];
  let hasVerifier = 1;
  code extraBaseClassDeclaration = [{
    static constexpr bool alongRows() { return }] # !if(rows, "true", "false")
        # [{; }
  }];
  let extraClassDeclaration = extraBaseClassDeclaration;
}

def HK_AddRowOp : HK_BroadcastOp<"add_row", "add a value per row", 1>;
def HK_SubRowOp : HK_BroadcastOp<"sub_row", "subtract a value per row", 1>;
def HK_MulRowOp : HK_BroadcastOp<"mul_row", "multiply by a value per row", 1, 1>;
def HK_DivRowOp : HK_BroadcastOp<"div_row", "divide by a value per row", 1, 0, 1>;
def HK_AddColOp : HK_BroadcastOp<"add_col", "add a value per column", 0>;
def HK_SubColOp : HK_BroadcastOp<"sub_col", "subtract a value per column", 0>;
def HK_MulColOp : HK_BroadcastOp<"mul_col", "multiply by a value per column", 0, 1>;
def HK_DivColOp : HK_BroadcastOp<"div_col", "divide by a value per column", 0, 0, 1>;

class HK_ReduceOp<string mnemonic, string doc, bit rows>
    : HK_Op<mnemonic, [Pure, OptionalTypesMatchWith<"init has the result type",
                                             "result", "init", "$_self">]> {
  let summary = doc;
  let description = [{
    Reduces each }] # !if(rows, "row", "column") # [{ of the tile to one
    value; with `init`, the result also folds in `init` (a running
    statistic): `%m = hk.}] # mnemonic # [{ %t, %m0 : !hk.rt<32x64xf32> ->
    !hk.rv<}] # !if(rows, "32", "64") # [{xf32>`.

    NaN: as NumPy's `max`, `min` and `sum`, a NaN element (or a NaN in
    `init`) makes its }] # !if(rows, "row", "column") # [{'s result NaN.
    Maximum and minimum order `-0.0` below `+0.0`. Narrow floats are reduced
    in f32 and rounded once; sums add in f32 in an unspecified order.
  }];
  let arguments = (ins HK_RegisterTileType:$tile,
                       Optional<HK_RegisterVectorType>:$init);
  let results = (outs HK_RegisterVectorType:$result);
  let assemblyFormat = [{
    $tile (`,` $init^)? attr-dict `:` qualified(type($tile)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  code extraBaseClassDeclaration = [{
    static constexpr bool alongRows() { return }] # !if(rows, "true", "false")
        # [{; }
  }];
  let extraClassDeclaration = extraBaseClassDeclaration;
}

def HK_RowMaxOp : HK_ReduceOp<"row_max", "maximum of each row", 1>;
def HK_RowMinOp : HK_ReduceOp<"row_min", "minimum of each row", 1>;
def HK_RowSumOp : HK_ReduceOp<"row_sum", "sum of each row", 1>;
def HK_ColMaxOp : HK_ReduceOp<"col_max", "maximum of each column", 0>;
def HK_ColMinOp : HK_ReduceOp<"col_min", "minimum of each column", 0>;
def HK_ColSumOp : HK_ReduceOp<"col_sum", "sum of each column", 0>;

// Index of the maximum (minimum) of each row or column.
class HK_ArgReduceOp<string mnemonic, string doc, bit rows, string best>
    : HK_Op<mnemonic, [Pure]> {
  let summary = doc;
  let description = [{
    For each }] # !if(rows, "row", "column") # [{ of a float tile, the
    }] # !if(rows, "column", "row") # [{ index (in the tile, from 0) of its
    }] # best # [{ element, as an `i32` vector aligned with the tile's
    }] # !if(rows, "rows", "columns") # [{. As `numpy.}] #
    !if(!eq(best, "largest"), "argmax", "argmin") # [{`: the first of equal
    elements wins (`-0.0` equals `+0.0`), and a NaN counts as }] # best #
    [{, so the first NaN's index is the result. Add the tile's origin for
    matrix coordinates.

    ```mlir
    %i = hk.}] # mnemonic # [{ %t : !hk.rt<32x64xf32> -> !hk.rv<}] #
    !if(rows, "32", "64") # [{xi32>
    ```

    Top-k of each row: take `row_argmax`, then replace the chosen element
    by negative infinity and repeat, `k` times. With `%c` the tile's column
    indices as f32 (`hk.iota cols`) and `%if` the index converted to f32
    (`hk.convert`, exact): `%d = hk.sub_row %c, %if`, `%hit = hk.cmpf oeq,
    %d, 0.0`, `%x1 = hk.select %hit, %neginf, %x`. The indices come out in
    descending order of value, equal values by increasing index (a stable
    descending sort's first `k`).
  }];
  let arguments = (ins HK_RegisterTileType:$tile);
  let results = (outs HK_RegisterVectorType:$result);
  let assemblyFormat = [{
    $tile attr-dict `:` qualified(type($tile)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  code extraBaseClassDeclaration = [{
    static constexpr bool alongRows() { return }] # !if(rows, "true", "false")
        # [{; }
    static constexpr bool isMax() { return }] #
        !if(!eq(best, "largest"), "true", "false") # [{; }
  }];
  let extraClassDeclaration = extraBaseClassDeclaration;
}

def HK_RowArgMaxOp : HK_ArgReduceOp<"row_argmax",
    "column index of the maximum of each row", 1, "largest">;
def HK_RowArgMinOp : HK_ArgReduceOp<"row_argmin",
    "column index of the minimum of each row", 1, "smallest">;
def HK_ColArgMaxOp : HK_ArgReduceOp<"col_argmax",
    "row index of the maximum of each column", 0, "largest">;
def HK_ColArgMinOp : HK_ArgReduceOp<"col_argmin",
    "row index of the minimum of each column", 0, "smallest">;

//===----------------------------------------------------------------------===//
// Masks and softmax
//===----------------------------------------------------------------------===//

class HK_MaskOp<string mnemonic, string doc, string keep>
    : HK_Op<mnemonic, [Pure, AllTypesMatch<["tile", "result"]>,
                       HK_SameLayout]> {
  let summary = doc;
  let description = [{
    The tile's top-left element sits at `(row, col)` of the full matrix.
    Elements with }] # keep # [{ keep their value; the others become `fill`
    (default: negative infinity, as attention scores want).
  }];
  let arguments = (ins HK_RegisterTileType:$tile, Index:$row, Index:$col,
                       DefaultValuedAttr<I64Attr, "0">:$diagonal,
                       OptionalAttr<F32Attr>:$fill);
  let results = (outs HK_RegisterTileType:$result);
  let assemblyFormat = [{
    $tile `[` $row `,` $col `]` attr-dict `:` qualified(type($tile))
  }];
  let hasVerifier = 1;
}

def HK_TrilOp : HK_MaskOp<"tril", "keep the lower triangle",
    "`col - row <= diagonal`">;
def HK_TriuOp : HK_MaskOp<"triu", "keep the upper triangle",
    "`col - row >= diagonal`">;
def HK_CausalMaskOp : HK_MaskOp<"causal_mask", "causal attention mask",
    "`col <= row + diagonal` (key position not after the query)">;

def HK_BoundsMaskOp : HK_Op<"bounds_mask", [Pure,
    AllTypesMatch<["tile", "result"]>, HK_SameLayout]> {
  let summary = "mask elements outside a matrix of the given size";
  let description = [{
    The tile's top-left element sits at `(row, col)`; elements at or beyond
    `rows` or `cols` become `fill` (default: negative infinity). Used for
    sequence lengths that are not a multiple of the tile.
  }];
  let arguments = (ins HK_RegisterTileType:$tile, Index:$row, Index:$col,
                       Index:$rows, Index:$cols, OptionalAttr<F32Attr>:$fill);
  let results = (outs HK_RegisterTileType:$result);
  let assemblyFormat = [{
    $tile `[` $row `,` $col `]` `within` ` ` `[` $rows `,` $cols `]` attr-dict `:`
    qualified(type($tile))
  }];
  let hasVerifier = 1;
}

def HK_SoftmaxOp : HK_Op<"softmax", [Pure,
    AllTypesMatch<["scores", "probs"]>,
    AllTypesMatch<["max", "new_max", "sum", "new_sum", "rescale"]>]> {
  let summary = "one step of online softmax";
  let description = [{
    With `x = scale * scores`: `new_max = max(max, row_max(x))`,
    `probs = exp2(x - new_max)`, `rescale = exp2(max - new_max)`,
    `new_sum = rescale * sum + row_sum(probs)`. `scale` folds in `log2(e)`
    (and `1/sqrt(d)` for attention). The caller rescales its output
    accumulator rows by `rescale`. A row whose running max is still -inf
    (every score so far masked) gets zero probabilities and a zero rescale
    instead of NaN. A NaN score makes its row's `probs` and `new_sum` NaN
    (and so the row of any output divided by the sum). The lowering expands the op into the same cross-lane
    row reductions and in-lane broadcasts as `hk.row_max`/`hk.sub_row`.

    With `cols` every column is a softmax instead (the statistics are
    column vectors, as `hk.col_max` gives): for scores held transposed,
    S^T = K Q^T, whose columns are the queries.

    With `max_slack = t` (0 to 64) the running max moves lazily: a row's
    `new_max` is the tile's scaled row max only where that passes `max` by
    more than `t`, and `max` otherwise. Where the max stays, `rescale` is
    exactly 1 (a row whose scores have all been masked so far included)
    and `probs` reach up to `2^t`. The output and the sum are built on the
    same max, which cancels when one divides the other: the softmax is the
    same up to rounding, but after the first tiles most rows keep their
    max and most tiles need no rescale (`hk.mul_col ... {skip_ones}` skips
    it). A `t` of 8 keeps `probs` at most 256.

    ```mlir
    %p, %m1, %l1, %r = hk.softmax %s, %m0, %l0 {scale = 0.18 : f32}
        : !hk.rt<64x64xf32>, !hk.rv<64xf32>
    %pt, %mt, %lt, %rt = hk.softmax cols %st, %m0, %l0 {scale = 0.18 : f32}
        : !hk.rt<64x16xf32>, !hk.rv<16xf32>
    ```
  }];
  let arguments = (ins UnitAttr:$cols, HK_RegisterTileType:$scores,
                       HK_RegisterVectorType:$max,
                       HK_RegisterVectorType:$sum,
                       DefaultValuedAttr<F32Attr, "1.0f">:$scale,
                       OptionalAttr<F32Attr>:$max_slack);
  let results = (outs HK_RegisterTileType:$probs,
                      HK_RegisterVectorType:$new_max,
                      HK_RegisterVectorType:$new_sum,
                      HK_RegisterVectorType:$rescale);
  let assemblyFormat = [{
    (`cols` $cols^)? $scores `,` $max `,` $sum attr-dict `:` qualified(type($scores)) `,` qualified(type($max))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True for one softmax per row, false per column (`cols`).
    bool alongRows() { return !getCols(); }
  }];
}

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

def HK_ClusterOp : HK_Op<"cluster", [
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<RegionBranchOpInterface>,
    RecursiveMemoryEffects]> {
  let summary = "a scheduling cluster of memory or compute work";
  let description = [{
    Groups operations that `hk-schedule` keeps together and orders against
    other clusters: in ping-pong, memory and compute clusters alternate. The
    region yields the values later code uses. The lowering fences a cluster
    with scheduling barriers so that LLVM's scheduler moves no instruction
    into or out of it; `priority 1` (0 to 3) raises the wave's issue
    priority (`s_setprio`) while the cluster runs. The fences order
    instructions within a basic block only: when a later cluster branches
    (a guarded load, say) before it uses a value, LLVM may sink that value's
    computation past the branch, into the later cluster. Keep such branches
    after the uses, or in the cluster that computes the value.

    ```mlir
    %acc1 = hk.cluster compute {
      %d = hk.mma abt %a, %b, %acc0 : ...
      hk.yield %d : !hk.rt<64x64xf32>
    } : !hk.rt<64x64xf32>
    ```
  }];
  let arguments = (ins HK_ClusterKind:$kind,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<3>]>>:$priority);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind (`priority` $priority^)? $body attr-dict (`:` qualified(type($results))^)?
  }];
  let hasVerifier = 1;
}

def HK_YieldOp : HK_Op<"yield", [Pure, HasParent<"ClusterOp">, ReturnLike,
                                 Terminator]> {
  let summary = "values a cluster makes available after it";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to build */ }]>];
  let assemblyFormat = "($values^ `:` qualified(type($values)))? attr-dict";
}

include "hk/Dialect/HK/IR/HKMathOps.td"
include "hk/Dialect/HK/IR/HKTileOps.td"
include "hk/Dialect/HK/IR/HKGlobalOps.td"

#endif // HK_OPS_TD
