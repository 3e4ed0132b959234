//===- ElementwiseToAMDGPU.cpp - compares, masks, indices, conversions ----===//
//
// Element-by-element ops that go beyond float arithmetic. A mask (an i1
// tile) becomes a vector of i1 per lane, which the AMDGPU backend keeps as
// one lane-mask register pair per element: masks are cheapest consumed
// right where they are made (compare, then select). Index tiles add the
// lane's row or column to a constant per slot.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

namespace {

VectorType convertToVector(const TypeConverter *converter, Type type) {
  return dyn_cast_if_present<VectorType>(converter->convertType(type));
}

/// The right-hand side as a vector like `type` (scalars are broadcast).
Value broadcastRhs(OpBuilder &b, Location loc, VectorType type, Value rhs) {
  if (isa<VectorType>(rhs.getType()))
    return rhs;
  return vector::BroadcastOp::create(b, loc, type, rhs);
}

template <typename SourceOp, typename CmpOp>
struct CompareLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lhsType = dyn_cast<VectorType>(adaptor.getLhs().getType());
    if (!lhsType)
      return rewriter.notifyMatchFailure(op, "operand not lowered");
    rewriter.replaceOpWithNewOp<CmpOp>(
        op, op.getPredicate(), adaptor.getLhs(),
        broadcastRhs(rewriter, op.getLoc(), lhsType, adaptor.getRhs()));
    return success();
  }
};

struct SelectTileLowering : public OpConversionPattern<SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCondition(),
                                                 adaptor.getTrueValue(),
                                                 adaptor.getFalseValue());
    return success();
  }
};

/// Tiles: the lane's row (column) plus the slot's offset in the layout.
/// Vectors: the same for the row (column) each position holds, counted
/// along the vector.
struct IotaLowering : public OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = convertToVector(getTypeConverter(), op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "type not lowered");
    Location loc = op.getLoc();
    Value indices;
    if (auto tile = dyn_cast<RegisterTileType>(op.getType())) {
      SlotPlacement slots = placeSlots(rewriter, loc, tile);
      bool rows = *op.getAxis() == Axis::Rows;
      indices =
          laneCoordinates(rewriter, loc, rows ? slots.lane.row : slots.lane.col,
                          rows ? slots.rowOffsets : slots.colOffsets);
    } else {
      VectorPlacement placement =
          placeVector(rewriter, loc, cast<RegisterVectorType>(op.getType()));
      indices =
          laneCoordinates(rewriter, loc, placement.lane, placement.offsets);
    }
    if (type.getElementType().isF32())
      indices = arith::SIToFPOp::create(rewriter, loc, type, indices);
    rewriter.replaceOp(op, indices);
    return success();
  }
};

/// Shift counts are taken modulo 32, as v_lshlrev_b32 and kin do; LLVM
/// folds the mask into the instruction.
template <typename SourceOp, typename ShiftOp>
struct ShiftLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(adaptor.getLhs().getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "operand not lowered");
    Location loc = op.getLoc();
    Value count = broadcastRhs(rewriter, loc, type, adaptor.getRhs());
    Value mask = arith::ConstantOp::create(
        rewriter, loc, type,
        DenseElementsAttr::get(type,
                               rewriter.getI32IntegerAttr(31).getValue()));
    rewriter.replaceOpWithNewOp<ShiftOp>(
        op, adaptor.getLhs(),
        arith::AndIOp::create(rewriter, loc, count, mask));
    return success();
  }
};

struct BitcastLowering : public OpConversionPattern<BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = convertToVector(getTypeConverter(), op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "type not lowered");
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type,
                                                  adaptor.getSource());
    return success();
  }
};

/// Saturates signed integers to [lo, hi].
Value clampInteger(OpBuilder &b, Location loc, Value value, int64_t lo,
                   int64_t hi) {
  auto type = cast<VectorType>(value.getType());
  auto splat = [&](int64_t v) {
    return arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(
            type, b.getIntegerAttr(type.getElementType(), v).getValue()));
  };
  return arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, value, splat(lo)), splat(hi));
}

/// hk.convert's value conversions, as the op documents them.
Value convertValues(OpBuilder &b, Location loc, Value value, Type toElem) {
  auto type = cast<VectorType>(value.getType());
  Type fromElem = type.getElementType();
  auto to = VectorType::get(type.getShape(), toElem);
  bool fromInt = isa<IntegerType>(fromElem), toInt = isa<IntegerType>(toElem);
  if (!fromInt && !toInt)
    return convertElements(b, loc, value, toElem);
  if (fromElem.isSignlessInteger(1))
    return toInt ? Value(arith::ExtUIOp::create(b, loc, to, value))
                 : Value(arith::UIToFPOp::create(b, loc, to, value));
  if (fromInt && toInt) {
    if (getElementBits(toElem) > getElementBits(fromElem))
      return arith::ExtSIOp::create(b, loc, to, value);
    unsigned bits = getElementBits(toElem);
    int64_t lo = -(int64_t(1) << (bits - 1)),
            hi = (int64_t(1) << (bits - 1)) - 1;
    return arith::TruncIOp::create(b, loc, to,
                                   clampInteger(b, loc, value, lo, hi));
  }
  if (fromInt)
    return arith::SIToFPOp::create(b, loc, to, value);
  // Round to nearest even, then the saturating conversion: v_cvt_i32_f32
  // clamps and turns NaN into 0, as llvm.fptosi.sat defines.
  Value rounded = math::RoundEvenOp::create(b, loc, value);
  return LLVM::CallIntrinsicOp::create(b, loc, Type(to),
                                       b.getStringAttr("llvm.fptosi.sat"),
                                       ValueRange{rounded})
      .getResult(0);
}

struct ConvertLowering : public OpConversionPattern<ConvertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = convertToVector(getTypeConverter(), op.getType());
    if (!type || !isa<VectorType>(adaptor.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "type not lowered");
    rewriter.replaceOp(op,
                       convertValues(rewriter, op.getLoc(), adaptor.getSource(),
                                     type.getElementType()));
    return success();
  }
};

} // namespace

void lowering::populateElementwisePatterns(HKTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<CompareLowering<CmpFOp, arith::CmpFOp>,
               CompareLowering<CmpIOp, arith::CmpIOp>, SelectTileLowering,
               IotaLowering, BitcastLowering, ConvertLowering,
               ShiftLowering<ShlOp, arith::ShLIOp>,
               ShiftLowering<ShrSOp, arith::ShRSIOp>,
               ShiftLowering<ShrUOp, arith::ShRUIOp>>(converter, ctx);
}
