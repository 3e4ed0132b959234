//===- HKDialect.td - The hk tile dialect ------------------*- tablegen -*-===//

#ifndef HK_DIALECT_TD
#define HK_DIALECT_TD

include "mlir/IR/OpBase.td"

def HK_Dialect : Dialect {
  let name = "hk";
  let cppNamespace = "::hk";
  let summary = "Tile programs for AMD Instinct matrix cores";
  let description = [{
    The `hk` dialect expresses GPU kernels as operations on tiles, after the
    HipKittens programming model. A kernel (`hk.kernel`) runs as a grid of
    blocks of 64-lane waves. Each wave owns register tiles (`!hk.rt`) and
    register vectors (`!hk.rv`) with value semantics; blocks share LDS tiles
    (`!hk.st`, `!hk.sv`); kernel arguments are global tensor views (`!hk.gl`).

    Ops are executed by the whole wave unless stated otherwise. The lowering
    distributes every register tile over the lanes according to its layout:
    `row` and `col` in HipKittens' words, or an exact MFMA operand layout
    (`#hk.mfma<a|b|acc, MxNxK>`) chosen by `hk-mfma-layout`.

    The target chip is named once on the enclosing module
    (`hk.target = #hk.target<"gfx950">`). Op verifiers check only what an
    op alone determines; what the chip can do (its matrix-core shapes, fp8
    formats and LDS size) is checked by the `hk-check-chip` pass. An
    attribute an hk op does not define is an error unless a dialect prefix
    names its owner (`hk.schedule`, `llvm.loop_annotation`).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute naming the target chip.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("hk.target");
    }
    /// Name of the kernel attribute asking for a block order.
    static constexpr ::llvm::StringLiteral getGridOrderAttrName() {
      return ::llvm::StringLiteral("hk.grid_order");
    }
    /// Name of the kernel attribute recording the block order.
    static constexpr ::llvm::StringLiteral getGridSwizzleAttrName() {
      return ::llvm::StringLiteral("hk.grid_swizzle");
    }
    /// Name of the loop attribute naming the schedule of that loop.
    static constexpr ::llvm::StringLiteral getScheduleAttrName() {
      return ::llvm::StringLiteral("hk.schedule");
    }
  private:
    void registerAttributes();
    void registerTypes();
  public:
  }];
}

// Every hk op rejects attributes it does not define, unless a dialect
// prefix names their owner (hk::trait::KnownAttributes).
def HK_KnownAttributes : NativeOpTrait<"KnownAttributes"> {
  let cppNamespace = "::hk::trait";
}

class HK_Op<string mnemonic, list<Trait> traits = []>
    : Op<HK_Dialect, mnemonic, !listconcat(traits, [HK_KnownAttributes])>;

#endif // HK_DIALECT_TD
