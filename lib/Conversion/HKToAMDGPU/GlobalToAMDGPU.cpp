//===- GlobalToAMDGPU.cpp - Atomics and indexed global accesses -----------===//
//
// hk.atomic_add into f32 views becomes no-return buffer atomics
// (buffer_atomic_add_f32) on the view's resource, whose range check drops
// the elements outside the view; into 16-bit views, relaxed agent-scope
// `atomicrmw fadd` on global pointers (global_atomic_pk_add_bf16/f16).
// The 16-bit atomics work on aligned 32-bit words: a lane adds a pair of
// neighbours in one instruction, or one element next to -0.0, the
// additive identity that leaves its neighbour unchanged.
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

/// One float add into `buffer` at `byteOffset`: no return value, the
/// default cache policy (device scope, as emitAtomicFAdd's). Offsets past
/// the buffer's range add nothing.
void emitBufferAtomicFAdd(OpBuilder &b, Location loc, const ViewBuffer &buffer,
                          Value value, Value byteOffset) {
  Value zero = constI32(b, loc, 0);
  ROCDL::RawPtrBufferAtomicFaddOp::create(b, loc, value, buffer.resource,
                                          byteOffset, zero, zero, ArrayAttr(),
                                          ArrayAttr(), ArrayAttr());
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

    int64_t perLane = tile.getNumElements() / 64;
    if (!packed) {
      // f32: buffer atomics on the view's resource, whose range check
      // drops the additions an out-of-range offset names: the elements
      // outside the view at its edges, with no branch per element.
      const ChipInfo *chip = lookupTargetChip(op);
      if (!chip)
        return rewriter.notifyMatchFailure(op, "no target chip");
      ViewBuffer buffer = makeViewBuffer(rewriter, loc, *view, memElem, *chip);
      Value inside = origin.isInside(rewriter, loc, tile.getRows(),
                                     tile.getCols(), /*width=*/1);
      auto whole = scf::IfOp::create(rewriter, loc, TypeRange{}, inside,
                                     /*withElseRegion=*/true);
      for (bool edge : {false, true}) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(edge ? whole.elseBlock()
                                               : whole.thenBlock());
        for (int64_t s = 0; s < perLane; ++s) {
          Value offset = slotOffset(rewriter, s);
          Value bytes =
              edge ? buffer.maskedOffset(
                         rewriter, loc,
                         origin.contains(rewriter, loc,
                                         addI32(rewriter, loc, laneRow,
                                                slots.rowOffsets[s]),
                                         addI32(rewriter, loc, laneCol,
                                                slots.colOffsets[s])),
                         offset)
                   : mulI32(rewriter, loc, offset, buffer.elementBytes);
          emitBufferAtomicFAdd(rewriter, loc, buffer,
                               extractAt(rewriter, loc, values, s, 1), bytes);
        }
      }
      rewriter.eraseOp(op);
      return success();
    }

    // Slots that start an aligned pair of one row, when every lane's first
    // column is even (the row layout's runs): the word they share is then
    // aligned wherever the tile's origin and row stride are even.
    FragmentLayout::LaneTerms terms = layout->getLaneTerms();
    bool evenLaneColumns = terms.colPerP % 2 == 0 && terms.colPerQ % 2 == 0;
    SmallVector<bool> pairStart(perLane, false);
    bool anyPair = false;
    if (evenLaneColumns)
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
    // One element alone: half of its word.
    auto addElement = [&](int64_t slot, Value offset) {
      emitHalfWordAdd(rewriter, loc, view->ptr, memElem, offset,
                      extractAt(rewriter, loc, values, slot, 1));
    };
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
        addElement(s, offset);
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
        addElement(s, slotOffset(rewriter, s));
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Where the rows of a gathered or scattered tile lie: per access unit of
/// the lane, the matrix row its index vector names, whether that row is
/// inside the view, and the element offset of the unit's first element.
struct RowIndexedAccess {
  ViewABI view;
  ViewBuffer buffer;
  TileOrigin origin;
  Type memElem;
  SmallVector<AccessUnit> units;
  SmallVector<Value> unitOffsets; ///< Element offset of each unit.
  SmallVector<Value> rowValid;    ///< Each unit's row is inside the view.
  Value laneCol;                  ///< Matrix column of the lane's column 0.
  /// Whole rows of the tile lie inside the view's columns and every unit
  /// starts on a multiple of its width: vector accesses are exact.
  Value columnsInside;
};

FailureOr<RowIndexedAccess> prepareRowIndexedAccess(OpBuilder &b, Location loc,
                                                    Operation *op, Value view,
                                                    ValueRange indices,
                                                    Value rowIndices,
                                                    RegisterTileType tile) {
  const ChipInfo *chip = lookupTargetChip(op);
  if (!chip)
    return failure();
  FailureOr<ViewABI> abi = getViewABI(b, loc, view);
  if (failed(abi))
    return failure();
  RowIndexedAccess access;
  access.view = *abi;
  FragmentLayout layout = *FragmentLayout::get(tile.getLayout());
  access.memElem = getMemoryElementType(abi->type.getElementType());
  access.buffer = makeViewBuffer(b, loc, access.view, access.memElem, *chip);
  // The tile's origin with row 0: the index vector supplies the rows.
  SmallVector<Value> withRow(indices.begin(), indices.end());
  withRow.insert(withRow.end() - 1, arith::ConstantIndexOp::create(b, loc, 0));
  access.origin =
      locateTile(b, loc, access.view, withRow, tile.getRows(), tile.getCols());
  LanePlacement lane = placeLane(b, loc, layout);
  access.laneCol =
      arith::AddIOp::create(b, loc, access.origin.colBase, lane.col);
  Value laneOffset =
      arith::AddIOp::create(b, loc, access.origin.offset, lane.col);
  access.units = enumerateAccesses(layout, tile.getRows(), tile.getCols(),
                                   getElementBytes(access.memElem));
  for (const AccessUnit &unit : access.units) {
    int64_t position =
        layout.getVectorIndex(/*alongRows=*/true, unit.slot, tile.getCols());
    Value row = vector::ExtractOp::create(b, loc, rowIndices, position);
    access.rowValid.push_back(andAll(
        b, loc,
        {access.origin.outerValid, ult(b, loc, row, access.origin.rows)}));
    Value rowOffset =
        arith::MulIOp::create(b, loc, row, access.origin.rowStride);
    access.unitOffsets.push_back(
        addI32(b, loc, arith::AddIOp::create(b, loc, laneOffset, rowOffset),
               unit.col));
  }
  int64_t width = access.units.empty() ? 1 : access.units.front().width;
  SmallVector<Value> checks = {
      ule(b, loc, addI32(b, loc, access.origin.colBase, tile.getCols()),
          access.origin.cols)};
  if (width > 1)
    for (Value v : {access.origin.rowStride, access.origin.offset})
      checks.push_back(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, loc, v, constI32(b, loc, width)),
          constI32(b, loc, 0)));
  access.columnsInside = andAll(b, loc, checks);
  return access;
}

/// The buffer byte offset of element `e` of unit `u`, out of range when the
/// element is outside the view.
Value elementByteOffset(OpBuilder &b, Location loc,
                        const RowIndexedAccess &access, size_t u, int64_t e) {
  const AccessUnit &unit = access.units[u];
  Value col = addI32(b, loc, access.laneCol, unit.col + e);
  Value valid = andAll(
      b, loc, {access.rowValid[u], ult(b, loc, col, access.origin.cols)});
  return access.buffer.maskedOffset(b, loc, valid,
                                    addI32(b, loc, access.unitOffsets[u], e));
}

struct GatherLowering : public OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterTileType tile = op.getType();
    FailureOr<RowIndexedAccess> access =
        prepareRowIndexedAccess(rewriter, loc, op, adaptor.getSource(),
                                adaptor.getIndices(), adaptor.getRows(), tile);
    if (failed(access))
      return rewriter.notifyMatchFailure(op,
                                         "no chip, or view not an argument");
    auto vecType =
        VectorType::get({tile.getNumElements() / 64}, access->memElem);
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{vecType},
                                  access->columnsInside,
                                  /*withElseRegion=*/true);
    {
      // Whole units: a row outside the view reads zeros as a whole.
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      Value result = zeroOf(rewriter, loc, vecType);
      for (auto [u, unit] : llvm::enumerate(access->units)) {
        Type type = unit.width == 1
                        ? access->memElem
                        : Type(VectorType::get({unit.width}, access->memElem));
        Value offset = access->buffer.maskedOffset(
            rewriter, loc, access->rowValid[u], access->unitOffsets[u]);
        result = insertAt(rewriter, loc,
                          access->buffer.load(rewriter, loc, type, offset),
                          result, unit.slot);
      }
      scf::YieldOp::create(rewriter, loc, result);
    }
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      Value result = zeroOf(rewriter, loc, vecType);
      for (auto [u, unit] : llvm::enumerate(access->units))
        for (int64_t e = 0; e < unit.width; ++e)
          result = vector::InsertOp::create(
              rewriter, loc,
              access->buffer.load(
                  rewriter, loc, access->memElem,
                  elementByteOffset(rewriter, loc, *access, u, e)),
              result, unit.slot + e);
      scf::YieldOp::create(rewriter, loc, result);
    }
    rewriter.replaceOp(op, convertElements(rewriter, loc, ifOp.getResult(0),
                                           tile.getElementType()));
    return success();
  }
};

struct ScatterLowering : public OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterTileType tile = op.getValue().getType();
    FailureOr<RowIndexedAccess> access =
        prepareRowIndexedAccess(rewriter, loc, op, adaptor.getDest(),
                                adaptor.getIndices(), adaptor.getRows(), tile);
    if (failed(access))
      return rewriter.notifyMatchFailure(op,
                                         "no chip, or view not an argument");
    Type destElem = op.getDest().getType().getElementType();
    Value values = convertElements(rewriter, loc, adaptor.getValue(), destElem);
    values = convertElements(rewriter, loc, values, access->memElem);
    auto ifOp =
        scf::IfOp::create(rewriter, loc, TypeRange{}, access->columnsInside,
                          /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      for (auto [u, unit] : llvm::enumerate(access->units))
        access->buffer.store(
            rewriter, loc,
            extractAt(rewriter, loc, values, unit.slot, unit.width),
            access->buffer.maskedOffset(rewriter, loc, access->rowValid[u],
                                        access->unitOffsets[u]));
    }
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      for (auto [u, unit] : llvm::enumerate(access->units))
        for (int64_t e = 0; e < unit.width; ++e)
          access->buffer.store(
              rewriter, loc,
              vector::ExtractOp::create(rewriter, loc, values, unit.slot + e),
              elementByteOffset(rewriter, loc, *access, u, e));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateGlobalPatterns(HKTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<AtomicAddLowering, GatherLowering, ScatterLowering>(
      converter, patterns.getContext());
}
