//===- HKAttrs.td - hk attributes and enums ----------------*- tablegen -*-===//

#ifndef HK_ATTRS_TD
#define HK_ATTRS_TD

include "hk/Dialect/HK/IR/HKDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class HK_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<HK_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def HK_TileLayout : I32EnumAttr<"TileLayout",
    "HipKittens register-tile layout", [
      I32EnumAttrCase<"Row", 0, "row">,
      I32EnumAttrCase<"Col", 1, "col">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::hk";
}
def HK_TileLayoutAttr : EnumAttr<HK_Dialect, HK_TileLayout, "layout"> {
  let summary = "`row` or `col` register-tile layout";
  let description = [{
    HipKittens' layouts, defined over 16x16 base blocks. `row`: lane
    `r + 16*(c/4)` of a block holds the four consecutive elements
    `(r, 4*(c/4) .. 4*(c/4)+3)` of row `r`. `col`: the transpose; lane
    `c + 16*(r/4)` holds four consecutive elements of column `c`. A tile is
    a row-major grid of base blocks; a lane holds each block's elements in
    turn. `row` equals the A-operand layout of a 16x16x16 MFMA and `col` its
    B-operand and accumulator layout.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def HK_MfmaOperand : I32EnumAttr<"MfmaOperand", "MFMA operand", [
      I32EnumAttrCase<"A", 0, "a">,
      I32EnumAttrCase<"B", 1, "b">,
      I32EnumAttrCase<"Acc", 2, "acc">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::hk";
}

def HK_MmaForm : I32EnumAttr<"MmaForm", "operand transposition of hk.mma", [
      I32EnumAttrCase<"AB", 0, "ab">,
      I32EnumAttrCase<"ABt", 1, "abt">,
      I32EnumAttrCase<"AtB", 2, "atb">,
      I32EnumAttrCase<"AtBt", 3, "atbt">
    ]> {
  let cppNamespace = "::hk";
}

def HK_TransferPath : I32EnumAttr<"TransferPath",
    "how a memory op moves data to or from global memory", [
      I32EnumAttrCase<"Global", 0, "global">,
      I32EnumAttrCase<"Buffer", 1, "buffer">,
      I32EnumAttrCase<"Direct", 2, "direct">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::hk";
}
def HK_TransferPathAttr : EnumAttr<HK_Dialect, HK_TransferPath, "path"> {
  let summary = "global, buffer or direct-to-LDS transfers";
  let description = [{
    `global`: flat/global loads and stores. `buffer`: buffer loads and
    stores through a wave-uniform resource (base, num_records) spanning the
    view, so accesses past it read zero and drop writes. `direct` (group
    loads only): buffer loads that write LDS themselves, each lane's bytes
    at consecutive LDS addresses, without passing through registers.
    Chosen by `hk-buffer-loads`; without it, accesses are `global`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def HK_Dim : I32EnumAttr<"Dim", "grid dimension", [
      I32EnumAttrCase<"X", 0, "x">,
      I32EnumAttrCase<"Y", 1, "y">,
      I32EnumAttrCase<"Z", 2, "z">
    ]> {
  let cppNamespace = "::hk";
}

def HK_Axis : I32EnumAttr<"Axis", "dimension of a register tile", [
      I32EnumAttrCase<"Rows", 0, "rows">,
      I32EnumAttrCase<"Cols", 1, "cols">
    ]> {
  let cppNamespace = "::hk";
}

def HK_ClusterKind : I32EnumAttr<"ClusterKind", "kind of scheduling cluster", [
      I32EnumAttrCase<"Memory", 0, "memory">,
      I32EnumAttrCase<"Compute", 1, "compute">
    ]> {
  let cppNamespace = "::hk";
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

def HK_MfmaLayoutAttr : HK_Attr<"MfmaLayout", "mfma"> {
  let summary = "register layout of one MFMA operand";
  let description = [{
    The lane layout a matrix-core instruction of shape `MxNxK` expects for
    operand `a` (an `MxK` block), `b` (`KxN`) or `acc` (`MxN`, also the
    result). With `KL = K*M/64` elements per lane: `A[i][k]` is in lane
    `i + M*(k/KL)`, element `k mod KL`; `B[k][j]` in lane `j + N*(k/KL)`;
    `C[i][j]` in register `(i mod 4) + 4*(i / (256/N))`, lane
    `j + N*((i/4) mod (64/N))`. A larger tile is a row-major grid of such
    blocks.

    ```mlir
    !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
    ```
  }];
  let parameters = (ins EnumParameter<HK_MfmaOperand>:$operand,
                        "unsigned":$m, "unsigned":$n, "unsigned":$k);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def HK_MfmaShapeAttr : HK_Attr<"MfmaShape", "mfma_shape"> {
  let summary = "an MFMA instruction shape, `MxNxK`";
  let description = [{
    Pins the matrix-core instruction of an `hk.mma`:
    `hk.mma abt %a, %b, %c {instr = #hk.mfma_shape<32x32x16>} : ...`.
  }];
  let parameters = (ins "unsigned":$m, "unsigned":$n, "unsigned":$k);
  let hasCustomAssemblyFormat = 1;
}

def HK_VectorLayoutAttr : HK_Attr<"VectorLayout", "vec"> {
  let summary = "register-vector layout aligned with a register tile";
  let description = [{
    A register vector holding one value per row (`rows`) or per column
    (`cols`) of a register tile in layout `tile`. Each lane holds exactly the
    values of the rows (columns) it holds elements of, so row and column
    broadcasts onto such a tile need no data movement.

    ```mlir
    !hk.rv<64xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x16>>>
    ```
  }];
  let parameters = (ins "bool":$rows, "::mlir::Attribute":$tile);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// LDS swizzle
//===----------------------------------------------------------------------===//

def HK_SwizzleAttr : HK_Attr<"Swizzle", "swizzle"> {
  let summary = "XOR swizzle of a shared tile";
  let description = [{
    Element `(r, c)` of a shared tile is stored at row `r`, column
    `((c / vec) xor phase(r)) * vec + c mod vec`, where
    `phase(r) = (r / per_phase) mod max_phase`: groups of `vec` consecutive
    elements stay together and their position in the row is permuted per
    row. `max_phase = 1` is the identity, printed as `#hk.swizzle<none>`.
    All three parameters are powers of two.

    With `flip`, every other run of `per_phase * max_phase` rows also
    flips the phase's top bit: `phase(r) xor ((r / (per_phase * max_phase))
    mod 2) * max_phase / 2`. Rows `r` and `r + per_phase * max_phase` then
    have different phases, which a read touching both in one LDS phase (the
    transposing reads of gfx950, 4 rows and the 4 rows 8 further) needs,
    e.g. `#hk.swizzle<vec = 16, per_phase = 1, max_phase = 8, flip>`.

    With `mask = m`, only the phase bits set in `m` are kept (before the
    flip): `phase(r) = ((r / per_phase) mod max_phase) and m`. Rows whose
    phases differ only in the masked bits then share a phase, which a read
    whose LDS phases pair rows from different groups (gfx950's
    `ds_read_b128` of 32-byte fp8 runs) needs, e.g.
    `#hk.swizzle<vec = 16, per_phase = 2, max_phase = 8, mask = 5>`.
    `m` is below `max_phase`, not zero and not `max_phase - 1` (no mask).
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase, DefaultValuedParameter<"bool", "false">:$flip,
                        DefaultValuedParameter<"unsigned", "0">:$mask);
  let builders = [
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase,
                     "unsigned":$maxPhase), [{
      return $_get($_ctxt, vec, perPhase, maxPhase, false, 0);
    }]>,
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase,
                     "unsigned":$maxPhase, "bool":$flip), [{
      return $_get($_ctxt, vec, perPhase, maxPhase, flip, 0);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isIdentity() const { return getMaxPhase() == 1; }
    /// The phase bits `(row / per_phase) mod max_phase` keeps.
    unsigned getPhaseMask() const {
      return getMask() ? getMask() : getMaxPhase() - 1;
    }
    /// The phase XORed into the group index of row `row`'s elements.
    int64_t phaseOf(int64_t row) const;
    /// Rows after which the phases repeat.
    int64_t getRowPeriod() const;
    /// Column at which element (row, col) is stored.
    int64_t swizzleColumn(int64_t row, int64_t col) const;
  }];
}

//===----------------------------------------------------------------------===//
// Schedules and target
//===----------------------------------------------------------------------===//

def HK_PingPongAttr : HK_Attr<"PingPong", "pingpong"> {
  let summary = "8-wave ping-pong schedule";
  let description = [{
    Two wave groups per SIMD alternate between a memory cluster and an MFMA
    cluster, fenced by block barriers. The optional `clusters` fixes how
    many memory/compute cluster pairs hk-double-buffer cuts an iteration
    into (1 to 64, and at most the loop body's runs of shared-tile reads);
    without it a cost function chooses, e.g.
    `#hk.pingpong<waves = 8, clusters = 2>`.

    `stages` (2 to 8, default 2) is how many copies of each loaded shared
    tile `hk-double-buffer` keeps in a ring: iteration k prefetches tile
    k+stages-1 while the tiles between are in flight, so a load has
    stages-1 iterations to arrive. A short K step with more stages keeps
    loads in flight as long as a long step with two, in less LDS (the
    gfx950 bf16 GEMM: K by 32 with four stages against K by 64 with two).

    `setprio` (true or false) says whether `hk-ping-pong` runs the compute
    clusters at raised issue priority (`s_setprio`); without it a cost
    function decides (the pass's `setprio` option, `auto` by default), e.g.
    `#hk.pingpong<waves = 8, setprio = true>`.

    `vector_in_memory` (true or false) says whether `hk-double-buffer` moves
    the vector work of each compute cluster that needs none of its pair's
    reads, MFMAs or layout conversions (attention's softmax on the
    previous pair's scores, the rescale of the output) into the memory
    cluster before it, where it runs beside the other group's MFMAs;
    without it the cost function that cuts the clusters decides, e.g.
    `#hk.pingpong<waves = 8, vector_in_memory = false>`.
  }];
  let parameters = (ins "unsigned":$waves,
                        OptionalParameter<"std::optional<unsigned>">:$clusters,
                        OptionalParameter<"std::optional<unsigned>">:$stages,
                        OptionalParameter<"::mlir::BoolAttr">:$setprio,
                        OptionalParameter<"::mlir::BoolAttr">:$vector_in_memory);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def HK_InterleaveAttr : HK_Attr<"Interleave", "interleave"> {
  let summary = "4-wave interleave schedule";
  let description = [{
    One wave per SIMD interleaves single MFMAs with single LDS reads and
    global-to-LDS loads. The optional group sizes override hk-schedule's
    options for this kernel: `mfma` MFMAs per scheduling group, each
    followed by `ds_reads` LDS reads and `vmem` vector-memory reads (0
    leaves that class out), e.g.
    `#hk.interleave<waves = 4, mfma = 2, ds_reads = 1, vmem = 0>`.

    `stages` (2 to 8, default 2) is how many copies of each loaded shared
    tile `hk-double-buffer` keeps in a ring: with 3, iteration k prefetches
    tile k+2 while tile k+1's loads are still in flight, so a load has two
    iterations to arrive instead of one (for loops whose iterations are
    shorter than a load's latency from HBM), at the cost of a third copy
    of the tiles in LDS; each further stage adds an iteration and a copy.
  }];
  let parameters = (ins "unsigned":$waves,
                        OptionalParameter<"std::optional<unsigned>">:$mfma,
                        OptionalParameter<"std::optional<unsigned>">:$ds_reads,
                        OptionalParameter<"std::optional<unsigned>">:$vmem,
                        OptionalParameter<"std::optional<unsigned>">:$stages);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def HK_TargetAttr : HK_Attr<"Target", "target"> {
  let summary = "the chip a module is compiled for";
  let description = [{
    Placed on the enclosing `builtin.module` as `hk.target`:
    `module attributes {hk.target = #hk.target<"gfx942">}`.
  }];
  let parameters = (ins StringRefParameter<"chip name">:$chip);
  let assemblyFormat = "`<` $chip `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    const ::hk::ChipInfo &getChipInfo() const;
  }];
}

def HK_GridOrderAttr : HK_Attr<"GridOrder", "grid_order"> {
  let summary = "the block order a kernel asks hk-grid-swizzle for";
  let description = [{
    Written on an `hk.kernel` as `hk.grid_order` by its author:
    `#hk.grid_order<chunk = 4, group = 8>` asks `hk-grid-swizzle` for
    that block order (the parameters of its options) whatever the pass
    options say; `chunk = 0, group = 0` keeps the hardware order. Each is
    at most 1048576 (2^20 blocks per run or rows per group). The
    order suits the kernel's tiles and the chip: which blocks share
    operand tiles in L2, and where their output tiles fall in its sets.

    ```mlir
    hk.kernel @gemm(...) waves(8) attributes {
        hk.grid_order = #hk.grid_order<chunk = 4, group = 8>} { ... }
    ```
  }];
  let parameters = (ins "unsigned":$chunk, "unsigned":$group);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def HK_GridSwizzleAttr : HK_Attr<"GridSwizzle", "grid_swizzle"> {
  let summary = "the block order a kernel was given by hk-grid-swizzle";
  let description = [{
    Placed on an `hk.kernel` as `hk.grid_swizzle` by `hk-grid-swizzle`:
    `#hk.grid_swizzle<chunk = 4, group = 8, xcds = 8>` says the kernel's
    block ids are remapped with `chunk` consecutive blocks per XCD (0: no
    remap) over `xcds` XCDs, then in groups of `group` block rows (0:
    row-major). A kernel that carries it is not swizzled again.
  }];
  let parameters = (ins "unsigned":$chunk, "unsigned":$group,
                        "unsigned":$xcds);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // HK_ATTRS_TD
