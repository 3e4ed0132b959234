//===- HKOps.h - hk operations ------------------------------------*- C++
//-*-===//

#ifndef HK_DIALECT_HK_IR_HKOPS_H
#define HK_DIALECT_HK_IR_HKOPS_H

#include "hk/Dialect/HK/IR/HKAttrs.h"
#include "hk/Dialect/HK/IR/HKDialect.h"
#include "hk/Dialect/HK/IR/HKTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace hk::trait {
/// Marks ops whose register operands and results share one lane layout
/// (ODS: HK_SameLayout).
template <typename ConcreteType>
class SameLayout : public mlir::OpTrait::TraitBase<ConcreteType, SameLayout> {};

/// Rejects an attribute the op does not define unless a dialect prefix
/// names its owner (`hk.schedule`, `llvm.loop_annotation`): a misspelt or
/// misplaced option (`{skip_ones}` on hk.div_row) would otherwise be kept
/// and ignored. Every hk op has it (ODS: HK_Op).
template <typename ConcreteType>
class KnownAttributes
    : public mlir::OpTrait::TraitBase<ConcreteType, KnownAttributes> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    for (mlir::NamedAttribute attr : op->getDiscardableAttrs())
      if (!attr.getName().getValue().contains('.'))
        return op->emitOpError() << "has no attribute named '"
                                 << attr.getName().getValue() << "'";
    return mlir::success();
  }
};
} // namespace hk::trait

#define GET_OP_CLASSES
#include "hk/Dialect/HK/IR/HKOps.h.inc"

namespace hk {

/// The chip named by the nearest enclosing `hk.target`, or null when the
/// module does not name one. For passes that need the chip's facts;
/// verifiers never ask (chip rules: ChipLegality.h).
const ChipInfo *lookupTargetChip(mlir::Operation *op);

/// Checks that `schedule` is a schedule attribute made for a block of
/// `waves` waves.
mlir::LogicalResult
verifyScheduleFits(mlir::Attribute schedule, unsigned waves,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The MFMA element kind that reads operands of `type`, if any.
std::optional<MfmaElement> getMfmaElement(mlir::Type type);

/// Single-block square MFMAs of `chip` that multiply `a` by `b` elements
/// (gfx950's scaled f8f6f4 instructions included for fp8).
llvm::SmallVector<const MfmaInstr *>
getMfmaCandidates(const ChipInfo &chip, mlir::Type a, mlir::Type b);

/// The candidate of `chip` with `mma`'s chosen shape (its `instr`), or null
/// when none is chosen or the chip has none of that shape.
const MfmaInstr *getMfmaInstr(const ChipInfo &chip, MmaOp mma);

/// The operand layout role an hk.mma operand plays for the matrix cores:
/// operands stored with K along their columns (A of `ab`, B of `abt`) need
/// the A-operand layout, the others the B-operand layout.
MfmaOperand getRequiredMfmaOperand(MmaForm form, bool isA);

/// True when `mma` multiplies two operands held in the 16x16 MFMA
/// accumulator layout: an `atb` product (A is K x M, B is K x N) whose A
/// and B both carry `#hk.mfma<acc, 16x16xK>`. Each lane then feeds the
/// instruction the rows it holds of consecutive 16-row blocks: K slot
/// 4r*g + j of lane group g (r blocks per instruction) is row 4g + j % 4 of
/// block j / 4, the same order on both sides, so the products pair up and
/// the sum over K is unchanged. An accumulator (S^T's probabilities) is
/// then an operand without moving between lanes.
bool hasAccumulatorOperands(MmaOp mma);

} // namespace hk

#endif // HK_DIALECT_HK_IR_HKOPS_H
