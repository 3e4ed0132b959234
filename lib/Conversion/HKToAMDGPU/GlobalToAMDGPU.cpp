//===- GlobalToAMDGPU.cpp - Atomics and indexed global accesses -----------===//
//
// hk.atomic_add becomes relaxed, agent-scope `atomicrmw fadd` on global
// pointers, which LLVM selects as the chips' no-return float atomics
// (global_atomic_add_f32, global_atomic_pk_add_bf16/f16). The 16-bit
// atomics work on aligned 32-bit words: a lane adds a pair of neighbours
// in one instruction, or one element next to -0.0, the additive identity
// that leaves its neighbour unchanged.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

namespace {

/// One relaxed, device-scope float add at `ptr`. The kernel's views are
/// device memory, which is what makes the hardware float atomics exact
/// there (no fine-grained or peer memory); without saying so LLVM would
/// emit compare-and-swap loops.
void emitAtomicFAdd(OpBuilder &b, Location loc, Value ptr, Value value,
                    int64_t alignment) {
  auto rmw = LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::fadd, ptr,
                                       value, LLVM::AtomicOrdering::monotonic,
                                       "agent", alignment);
  auto *rocdl = b.getContext()->getLoadedDialect<ROCDL::ROCDLDialect>();
  rocdl->getNoRemoteMemoryAttrHelper().setAttr(rmw, b.getUnitAttr());
  rocdl->getNoFineGrainedMemoryAttrHelper().setAttr(rmw, b.getUnitAttr());
}

/// Adds the 16-bit `value` to element `offset` of `base`: a packed add on
/// the aligned word holding it, with -0.0 in the other half.
void emitHalfWordAdd(OpBuilder &b, Location loc, Value base, Type memElem,
                     Value offset, Value value) {
  Value odd = arith::AndIOp::create(b, loc, offset, constI32(b, loc, 1));
  Value isOdd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, odd,
                                      constI32(b, loc, 0));
  Value word = arith::SubIOp::create(b, loc, offset, odd);
  Value negZero = arith::ConstantOp::create(
      b, loc, memElem,
      b.getFloatAttr(memElem, APFloat::getZero(
                                  cast<FloatType>(memElem).getFloatSemantics(),
                                  /*Negative=*/true)));
  Value lo = arith::SelectOp::create(b, loc, isOdd, negZero, value);
  Value hi = arith::SelectOp::create(b, loc, isOdd, value, negZero);
  auto pairType = VectorType::get({2}, memElem);
  Value pair = vector::FromElementsOp::create(b, loc, pairType, {lo, hi});
  emitAtomicFAdd(b, loc, elementPointer(b, loc, base, memElem, word), pair,
                 /*alignment=*/4);
}

struct AtomicAddLowering : public OpConversionPattern<AtomicAddOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AtomicAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterTileType tile = op.getValue().getType();
    std::optional<FragmentLayout> layout =
        FragmentLayout::get(tile.getLayout());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    FailureOr<ViewABI> view = getViewABI(rewriter, loc, adaptor.getDest());
    if (failed(view))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Type memElem = getMemoryElementType(view->type.getElementType());
    bool packed = getElementBytes(memElem) == 2;
    Value values = convertElements(rewriter, loc, adaptor.getValue(), memElem);

    TileOrigin origin = locateTile(rewriter, loc, *view, adaptor.getIndices(),
                                   tile.getRows(), tile.getCols());
    SlotPlacement slots = placeSlots(rewriter, loc, tile);
    Value laneRow =
        arith::AddIOp::create(rewriter, loc, origin.rowBase, slots.lane.row);
    Value laneCol =
        arith::AddIOp::create(rewriter, loc, origin.colBase, slots.lane.col);
    Value laneOffset = arith::AddIOp::create(
        rewriter, loc, origin.offset,
        arith::AddIOp::create(rewriter, loc,
                              arith::MulIOp::create(rewriter, loc,
                                                    slots.lane.row,
                                                    origin.rowStride),
                              slots.lane.col));
    auto slotOffset = [&](OpBuilder &b, int64_t slot) {
      Value rowOffset = arith::MulIOp::create(
          b, loc, origin.rowStride, constI32(b, loc, slots.rowOffsets[slot]));
      return addI32(b, loc,
                    arith::AddIOp::create(b, loc, laneOffset, rowOffset),
                    slots.colOffsets[slot]);
    };

    // Slots that start an aligned pair of one row, when every lane's first
    // column is even (the row layout's runs): the word they share is then
    // aligned wherever the tile's origin and row stride are even.
    FragmentLayout::LaneTerms terms = layout->getLaneTerms();
    bool evenLaneColumns = terms.colPerP % 2 == 0 && terms.colPerQ % 2 == 0;
    int64_t perLane = tile.getNumElements() / 64;
    SmallVector<bool> pairStart(perLane, false);
    bool anyPair = false;
    if (packed && evenLaneColumns)
      for (int64_t s = 0; s + 1 < perLane; ++s)
        if (slots.colOffsets[s] % 2 == 0 &&
            slots.rowOffsets[s + 1] == slots.rowOffsets[s] &&
            slots.colOffsets[s + 1] == slots.colOffsets[s] + 1 &&
            (s == 0 || !pairStart[s - 1]))
          anyPair = pairStart[s] = true;

    Value inside = origin.isInside(rewriter, loc, tile.getRows(),
                                   tile.getCols(), anyPair ? 2 : 1);
    if (anyPair) {
      Value originOdd = arith::AndIOp::create(rewriter, loc, origin.offset,
                                              constI32(rewriter, loc, 1));
      inside = andAll(rewriter, loc,
                      {inside, arith::CmpIOp::create(
                                   rewriter, loc, arith::CmpIPredicate::eq,
                                   originOdd, constI32(rewriter, loc, 0))});
    }
    auto whole = scf::IfOp::create(rewriter, loc, TypeRange{}, inside,
                                   /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(whole.thenBlock());
      for (int64_t s = 0; s < perLane; ++s) {
        Value offset = slotOffset(rewriter, s);
        if (pairStart[s]) {
          emitAtomicFAdd(
              rewriter, loc,
              elementPointer(rewriter, loc, view->ptr, memElem, offset),
              extractAt(rewriter, loc, values, s, 2),
              /*alignment=*/4);
          ++s;
          continue;
        }
        Value value = extractAt(rewriter, loc, values, s, 1);
        if (packed)
          emitHalfWordAdd(rewriter, loc, view->ptr, memElem, offset, value);
        else
          emitAtomicFAdd(
              rewriter, loc,
              elementPointer(rewriter, loc, view->ptr, memElem, offset), value,
              getElementBytes(memElem));
      }
    }
    {
      // At the view's edges, element by element, skipping those outside.
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(whole.elseBlock());
      for (int64_t s = 0; s < perLane; ++s) {
        Value contained = origin.contains(
            rewriter, loc, addI32(rewriter, loc, laneRow, slots.rowOffsets[s]),
            addI32(rewriter, loc, laneCol, slots.colOffsets[s]));
        auto guardIf = scf::IfOp::create(rewriter, loc, TypeRange{}, contained,
                                         /*withElseRegion=*/false);
        OpBuilder::InsertionGuard inner(rewriter);
        rewriter.setInsertionPointToStart(guardIf.thenBlock());
        Value offset = slotOffset(rewriter, s);
        Value value = extractAt(rewriter, loc, values, s, 1);
        if (packed)
          emitHalfWordAdd(rewriter, loc, view->ptr, memElem, offset, value);
        else
          emitAtomicFAdd(
              rewriter, loc,
              elementPointer(rewriter, loc, view->ptr, memElem, offset), value,
              getElementBytes(memElem));
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateGlobalPatterns(HKTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<AtomicAddLowering>(converter, patterns.getContext());
}
