//===- HKMathOps.cpp - compare, select, iota, integer ops -----------------===//

#include "hk/Dialect/HK/IR/HKOps.h"

#include "OpHelpers.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace hk;
using namespace hk::detail;

/// A register tile or vector like `type` with elements of `elem`.
static Type withElementType(Type type, Type elem) {
  if (auto tile = dyn_cast<RegisterTileType>(type))
    return tile.withElementType(elem);
  auto vector = cast<RegisterVectorType>(type);
  return RegisterVectorType::get(type.getContext(), vector.getLength(), elem,
                                 vector.getLayout());
}

/// f32, f16 and bf16: the float types the lowering computes on.
static bool isArithmeticFloat(Type type) {
  return type.isF32() || type.isF16() || type.isBF16();
}

LogicalResult hk::detail::verifyArithmetic(Operation *op, Type lhs, Type rhs,
                                           bool integers) {
  Type elem = getElementTypeOf(lhs);
  if (!isArithmeticFloat(elem) && !(integers && elem.isSignlessInteger(32)))
    return op->emitOpError()
           << "computes on f32, f16 or bf16" << (integers ? " or i32" : "")
           << " elements, got " << elem
           << (integers ? "" : " (integer division is not provided)");
  return verifyBinary(op, lhs, rhs);
}

LogicalResult hk::detail::verifyElementConversion(Operation *op, Type from,
                                                  Type to) {
  bool fromInt = isa<IntegerType>(from), toInt = isa<IntegerType>(to);
  if (!fromInt && !toInt)
    return success();
  if (to.isSignlessInteger(1))
    return op->emitOpError() << "cannot make a mask from " << from
                             << "; compare with hk.cmpf or hk.cmpi";
  bool ok = false;
  if (from.isSignlessInteger(1))
    ok = to.isF32() || to.isSignlessInteger(32);
  else if (fromInt && toInt)
    ok = true; // i8 <-> i32
  else
    ok = (fromInt ? to : from).isF32();
  if (ok)
    return success();
  return op->emitOpError() << "has no direct conversion from " << from << " to "
                           << to
                           << "; integers convert to and from f32 only "
                              "(convert through f32 in two steps)";
}

//===----------------------------------------------------------------------===//
// Compare and select
//===----------------------------------------------------------------------===//

static LogicalResult inferMaskType(ValueRange operands,
                                   SmallVectorImpl<Type> &types) {
  if (operands.empty() ||
      !isa<RegisterTileType, RegisterVectorType>(operands[0].getType()))
    return failure();
  Type lhs = operands[0].getType();
  types.push_back(withElementType(lhs, IntegerType::get(lhs.getContext(), 1)));
  return success();
}

LogicalResult CmpFOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       ValueRange operands, DictionaryAttr,
                                       OpaqueProperties, RegionRange,
                                       SmallVectorImpl<Type> &types) {
  return inferMaskType(operands, types);
}

LogicalResult CmpIOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       ValueRange operands, DictionaryAttr,
                                       OpaqueProperties, RegionRange,
                                       SmallVectorImpl<Type> &types) {
  return inferMaskType(operands, types);
}

LogicalResult CmpFOp::verify() {
  Type elem = getElementTypeOf(getLhs().getType());
  if (!isArithmeticFloat(elem))
    return emitOpError() << "compares f32, f16 or bf16 elements, got " << elem
                         << (isa<IntegerType>(elem) ? "; use hk.cmpi" : "");
  return verifyBinary(*this, getLhs().getType(), getRhs().getType());
}

LogicalResult CmpIOp::verify() {
  Type elem = getElementTypeOf(getLhs().getType());
  if (!elem.isSignlessInteger(32))
    return emitOpError() << "compares i32 elements, got " << elem
                         << (isa<FloatType>(elem) ? "; use hk.cmpf" : "");
  return verifyBinary(*this, getLhs().getType(), getRhs().getType());
}

LogicalResult SelectOp::verify() {
  Type cond = getCondition().getType(), type = getType();
  if (!getElementTypeOf(cond).isSignlessInteger(1))
    return emitOpError() << "condition must be a mask (i1 elements), got "
                         << cond;
  Type elem = getElementTypeOf(type);
  if (cond != withElementType(type, IntegerType::get(getContext(), 1)))
    return emitOpError() << "condition " << cond
                         << " must have the shape and layout of " << type;
  if (!isArithmeticFloat(elem) && !elem.isSignlessInteger(32) &&
      !elem.isSignlessInteger(1))
    return emitOpError() << "selects f32, f16, bf16, i32 or i1 elements, got "
                         << elem;
  return success();
}

//===----------------------------------------------------------------------===//
// Index tiles
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  Type elem = getElementTypeOf(getType());
  if (!elem.isSignlessInteger(32) && !elem.isF32())
    return emitOpError() << "makes i32 or f32 indices, got " << elem;
  bool tile = isa<RegisterTileType>(getType());
  if (tile && !getAxis())
    return emitOpError() << "of a tile needs 'rows' or 'cols'";
  if (!tile && getAxis())
    return emitOpError() << "of a vector numbers its elements; 'rows' or "
                            "'cols' applies to tiles only";
  return success();
}

//===----------------------------------------------------------------------===//
// Integer and mask arithmetic
//===----------------------------------------------------------------------===//

/// Bitwise ops take i32 tiles or masks; shifts and unsigned min/max i32.
static LogicalResult verifyIntegerBinary(Operation *op, Type lhs, Type rhs,
                                         bool masks) {
  Type elem = getElementTypeOf(lhs);
  if (!elem.isSignlessInteger(32) && !(masks && elem.isSignlessInteger(1)))
    return op->emitOpError() << "works on i32" << (masks ? " or i1" : "")
                             << " elements, got " << elem;
  return verifyBinary(op, lhs, rhs);
}

#define HK_VERIFY_INTEGER(OP, MASKS)                                           \
  LogicalResult OP::verify() {                                                 \
    return verifyIntegerBinary(*this, getLhs().getType(), getRhs().getType(),  \
                               MASKS);                                         \
  }
HK_VERIFY_INTEGER(AndOp, true)
HK_VERIFY_INTEGER(OrOp, true)
HK_VERIFY_INTEGER(XorOp, true)
HK_VERIFY_INTEGER(ShlOp, false)
HK_VERIFY_INTEGER(ShrSOp, false)
HK_VERIFY_INTEGER(ShrUOp, false)
HK_VERIFY_INTEGER(UMaxOp, false)
HK_VERIFY_INTEGER(UMinOp, false)
#undef HK_VERIFY_INTEGER

//===----------------------------------------------------------------------===//
// Bits
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  Type src = getSource().getType(), dst = getType();
  if (!sameShape(src, dst) || getLayoutOf(src) != getLayoutOf(dst))
    return emitOpError() << "keeps shape and layout, but " << src << " and "
                         << dst << " differ";
  Type from = getElementTypeOf(src), to = getElementTypeOf(dst);
  if (from.isSignlessInteger(1) || to.isSignlessInteger(1) ||
      getElementBits(from) != getElementBits(to))
    return emitOpError() << "reinterprets elements of one width, got " << from
                         << " and " << to;
  return success();
}

//===----------------------------------------------------------------------===//
// Activations and other transcendental functions
//===----------------------------------------------------------------------===//

static LogicalResult verifyMathElements(Operation *op, Type type) {
  Type elem = getElementTypeOf(type);
  if (!isArithmeticFloat(elem))
    return op->emitOpError()
           << "computes on f32, f16 or bf16 elements, got " << elem;
  return success();
}

#define HK_VERIFY_MATH(OP)                                                     \
  LogicalResult OP::verify() { return verifyMathElements(*this, getType()); }
HK_VERIFY_MATH(TanhOp)
HK_VERIFY_MATH(SigmoidOp)
HK_VERIFY_MATH(SiluOp)
HK_VERIFY_MATH(ErfOp)
HK_VERIFY_MATH(GeluOp)
HK_VERIFY_MATH(GeluTanhOp)
HK_VERIFY_MATH(SinOp)
HK_VERIFY_MATH(CosOp)
#undef HK_VERIFY_MATH
