//===- MemoryToAMDGPU.cpp - hk memory ops to LLVM loads and stores --------===//
//
// Register tiles move to and from global memory and LDS one lane-vector
// access at a time, in the order their layout gives. Group copies between
// global memory and LDS are spread over every lane of the block.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>
#include <map>
#include <tuple>

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

namespace {

void copySharedToGlobal(OpBuilder &b, Location loc, const LdsPlan &lds,
                        const ChipInfo &chip, SharedTileType shared,
                        Value ldsBase, Value rowOrigin, Value colOrigin,
                        const GroupCopyPlan &plan, const ViewABI &view,
                        ValueRange indices, bool viaBuffer, bool waveOnly);

//===----------------------------------------------------------------------===//
// Global <-> register tiles
//===----------------------------------------------------------------------===//

/// Everything one global tile access needs, computed once per op.
struct GlobalTileAccess {
  GlobalTileAccess(ViewABI view, FragmentLayout layout)
      : view(std::move(view)), layout(layout) {}

  ViewABI view;
  ViewBuffer buffer;
  bool viaBuffer = false; ///< In-bounds accesses also use the buffer.
  TileOrigin origin;
  FragmentLayout layout;
  Type memElem;
  int64_t rows = 0, cols = 0;
  Value laneOffset; ///< Offset of the lane's (0, 0) element.
  Value laneRow;    ///< Matrix row of the lane's (0, 0) element.
  Value laneCol;    ///< Matrix column of the lane's (0, 0) element.
  SmallVector<AccessUnit> units;

  Value isWholeTileInside(OpBuilder &b, Location loc) const {
    return origin.isInside(b, loc, rows, cols,
                           units.empty() ? 1 : units.front().width);
  }

  /// Offset of the lane's element at (row, col) past its (0, 0) element.
  Value offsetOf(OpBuilder &b, Location loc, int64_t row, int64_t col) const {
    Value offset = laneOffset;
    if (row != 0)
      offset =
          arith::AddIOp::create(b, loc, offset,
                                arith::MulIOp::create(b, loc, origin.rowStride,
                                                      constI32(b, loc, row)));
    return addI32(b, loc, offset, col);
  }

  /// Buffer byte offset of the lane's element at (row, col); out of range
  /// (reads zero, drops writes) when the element is outside the view.
  Value maskedOffset(OpBuilder &b, Location loc, int64_t row,
                     int64_t col) const {
    Value inside = origin.contains(b, loc, addI32(b, loc, laneRow, row),
                                   addI32(b, loc, laneCol, col));
    return buffer.maskedOffset(b, loc, inside, offsetOf(b, loc, row, col));
  }

  /// An in-bounds access of `type` at the lane's (row, col), through the
  /// buffer resource or a global pointer.
  Value loadUnit(OpBuilder &b, Location loc, Type type, int64_t row,
                 int64_t col, int64_t alignment) const {
    Value offset = offsetOf(b, loc, row, col);
    if (viaBuffer)
      return buffer.load(b, loc, type,
                         mulI32(b, loc, offset, buffer.elementBytes));
    return LLVM::LoadOp::create(
        b, loc, type, elementPointer(b, loc, view.ptr, memElem, offset),
        alignment);
  }
  void storeUnit(OpBuilder &b, Location loc, Value value, int64_t row,
                 int64_t col, int64_t alignment) const {
    Value offset = offsetOf(b, loc, row, col);
    if (viaBuffer) {
      buffer.store(b, loc, value, mulI32(b, loc, offset, buffer.elementBytes));
      return;
    }
    LLVM::StoreOp::create(b, loc, value,
                          elementPointer(b, loc, view.ptr, memElem, offset),
                          alignment);
  }
};

FailureOr<GlobalTileAccess> prepareGlobalAccess(OpBuilder &b, Location loc,
                                                Value view, ValueRange indices,
                                                RegisterTileType tile,
                                                const ChipInfo &chip,
                                                bool viaBuffer) {
  FailureOr<ViewABI> abi = getViewABI(b, loc, view);
  if (failed(abi))
    return failure();
  GlobalTileAccess access(*abi, *FragmentLayout::get(tile.getLayout()));
  access.memElem = getMemoryElementType(abi->type.getElementType());
  access.buffer = makeViewBuffer(b, loc, access.view, access.memElem, chip);
  access.viaBuffer = viaBuffer;
  access.rows = tile.getRows();
  access.cols = tile.getCols();
  access.origin =
      locateTile(b, loc, access.view, indices, tile.getRows(), tile.getCols());
  LanePlacement lane = placeLane(b, loc, access.layout);
  access.laneRow =
      arith::AddIOp::create(b, loc, access.origin.rowBase, lane.row);
  access.laneCol =
      arith::AddIOp::create(b, loc, access.origin.colBase, lane.col);
  Value laneOffset = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, lane.row, access.origin.rowStride),
      lane.col);
  access.laneOffset =
      arith::AddIOp::create(b, loc, access.origin.offset, laneOffset);
  access.units =
      enumerateAccesses(access.layout, tile.getRows(), tile.getCols(),
                        getElementBytes(access.memElem));
  return access;
}

/// Loads a lane's elements: vector accesses when the tile is inside the
/// view, otherwise element by element through the view's buffer resource,
/// where elements outside the view read zero (no branches).
Value emitGlobalTileLoad(OpBuilder &b, Location loc,
                         const GlobalTileAccess &access, int64_t perLane) {
  auto vecType = VectorType::get({perLane}, access.memElem);
  int64_t bytes = getElementBytes(access.memElem);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{vecType},
                                access.isWholeTileInside(b, loc),
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value result = zeroOf(b, loc, vecType);
    for (const AccessUnit &unit : access.units) {
      Type type = unit.width == 1
                      ? access.memElem
                      : Type(VectorType::get({unit.width}, access.memElem));
      Value v =
          access.loadUnit(b, loc, type, unit.row, unit.col, bytes * unit.width);
      result = insertAt(b, loc, v, result, unit.slot);
    }
    scf::YieldOp::create(b, loc, result);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    Value result = zeroOf(b, loc, vecType);
    for (const AccessUnit &unit : access.units)
      for (int64_t e = 0; e < unit.width; ++e) {
        Value v = access.buffer.load(
            b, loc, access.memElem,
            access.maskedOffset(b, loc, unit.row, unit.col + e));
        result = vector::InsertOp::create(b, loc, v, result, unit.slot + e);
      }
    scf::YieldOp::create(b, loc, result);
  }
  return ifOp.getResult(0);
}

/// Stores a lane's elements (in memory element type): vector accesses when
/// the tile is inside the view, otherwise element by element through the
/// buffer resource, which drops writes outside the view.
void emitGlobalTileStore(OpBuilder &b, Location loc,
                         const GlobalTileAccess &access, Value values) {
  int64_t bytes = getElementBytes(access.memElem);
  auto ifOp =
      scf::IfOp::create(b, loc, TypeRange{}, access.isWholeTileInside(b, loc),
                        /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (const AccessUnit &unit : access.units)
      access.storeUnit(b, loc, extractAt(b, loc, values, unit.slot, unit.width),
                       unit.row, unit.col, bytes * unit.width);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    for (const AccessUnit &unit : access.units)
      for (int64_t e = 0; e < unit.width; ++e)
        access.buffer.store(
            b, loc, vector::ExtractOp::create(b, loc, values, unit.slot + e),
            access.maskedOffset(b, loc, unit.row, unit.col + e));
  }
}

//===----------------------------------------------------------------------===//
// Shared <-> register tiles
//===----------------------------------------------------------------------===//

/// Rows and columns by which an element of `type` may move without changing
/// how the swizzle permutes it: the swizzle's phase repeats every row
/// period, and XOR-ing a group index with a phase below `max_phase` leaves
/// its bits from log2(max_phase) up alone.
static std::pair<int64_t, int64_t> swizzlePeriods(SharedTileType type) {
  auto swizzle = dyn_cast_if_present<SwizzleAttr>(type.getSwizzle());
  if (!swizzle || swizzle.isIdentity())
    return {1, 1};
  return {swizzle.getRowPeriod(),
          int64_t(swizzle.getVec()) * swizzle.getMaxPhase()};
}

/// A lane's accesses to a register-tile-sized region of a shared tile.
///
/// Units whose offsets from one another are whole swizzle periods share a
/// base address and differ by a constant, which the backend folds into the
/// LDS instructions' immediate offsets: a loop re-adding a moving tile base
/// (double-buffered tiles) then adds it once per base, not per unit.
struct SharedTileAccess {
  SharedTileType shared;
  Value base;      ///< LDS pointer of the shared tile.
  Value rowOrigin; ///< Row of the register tile inside the shared tile.
  Value colOrigin; ///< Column of the register tile inside the shared tile.
  LanePlacement lane;
  /// Where the lane's addresses of transposed units lie (lane plus
  /// transposedReadOffset); set only when there are such units.
  LanePlacement transposedLane;
  Type memElem;
  SmallVector<AccessUnit> units;
  /// Base pointers by (transposed, row, column) within the periods.
  mutable std::map<std::tuple<bool, int64_t, int64_t>, Value> bases;

  Value pointerOf(OpBuilder &b, Location loc, const AccessUnit &unit) const {
    auto [rowPeriod, colPeriod] = swizzlePeriods(shared);
    int64_t rowIn = unit.row % rowPeriod, colIn = unit.col % colPeriod;
    Value &unitBase = bases[{unit.transposed, rowIn, colIn}];
    if (!unitBase) {
      const LanePlacement &from = unit.transposed ? transposedLane : lane;
      Value row = addI32(
          b, loc, arith::AddIOp::create(b, loc, rowOrigin, from.row), rowIn);
      Value col = addI32(
          b, loc, arith::AddIOp::create(b, loc, colOrigin, from.col), colIn);
      unitBase = elementPointer(b, loc, base, memElem,
                                sharedElementOffset(b, loc, shared, row, col));
    }
    int64_t offset = (unit.row - rowIn) * shared.getCols() + (unit.col - colIn);
    if (offset == 0)
      return unitBase;
    return elementPointer(b, loc, unitBase, memElem, constI32(b, loc, offset));
  }
};

/// The lane-dependent part of transposedReadOffset: with i = lane % 16,
/// rows i / 4 and columns 4 * (i % 4) - i.
LanePlacement placeTransposedLane(OpBuilder &b, Location loc,
                                  const LanePlacement &lane) {
  Value inGroup =
      arith::AndIOp::create(b, loc, laneId(b, loc), constI32(b, loc, 15));
  Value rows = arith::ShRUIOp::create(b, loc, inGroup, constI32(b, loc, 2));
  Value cols = arith::SubIOp::create(
      b, loc,
      arith::ShLIOp::create(
          b, loc, arith::AndIOp::create(b, loc, inGroup, constI32(b, loc, 3)),
          constI32(b, loc, 2)),
      inGroup);
  return {arith::AddIOp::create(b, loc, lane.row, rows),
          arith::AddIOp::create(b, loc, lane.col, cols)};
}

SharedTileAccess prepareSharedAccess(OpBuilder &b, Location loc, Value base,
                                     SharedTileType shared, ValueRange indices,
                                     RegisterTileType tile,
                                     bool transposedReads) {
  SharedTileAccess access;
  access.shared = shared;
  access.base = base;
  if (indices.empty()) {
    access.rowOrigin = constI32(b, loc, 0);
    access.colOrigin = constI32(b, loc, 0);
  } else {
    access.rowOrigin =
        mulI32(b, loc, toI32(b, loc, indices[0]), tile.getRows());
    access.colOrigin =
        mulI32(b, loc, toI32(b, loc, indices[1]), tile.getCols());
  }
  FragmentLayout layout = *FragmentLayout::get(tile.getLayout());
  access.lane = placeLane(b, loc, layout);
  access.memElem = getMemoryElementType(shared.getElementType());
  access.units = enumerateSharedAccesses(
      layout, tile.getRows(), tile.getCols(), getElementBytes(access.memElem),
      sharedContiguousElements(shared), transposedReads);
  if (llvm::any_of(access.units,
                   [](const AccessUnit &unit) { return unit.transposed; }))
    access.transposedLane = placeTransposedLane(b, loc, access.lane);
  return access;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct AllocLowering : public OpConversionPattern<AllocOp> {
  AllocLowering(HKTypeConverter &converter, MLIRContext *ctx,
                const LdsPlan &plan)
      : OpConversionPattern(converter, ctx), plan(plan) {}

  LogicalResult
  matchAndRewrite(AllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto it = plan.allocOffsets.find(op);
    if (it == plan.allocOffsets.end())
      return rewriter.notifyMatchFailure(op, "allocation was not planned");
    rewriter.replaceOp(
        op, getLdsPointer(rewriter, op.getLoc(), op,
                          constI32(rewriter, op.getLoc(), it->second)));
    return success();
  }

  const LdsPlan &plan;
};

/// The global access of `op`, an hk.load or hk.store of register tile
/// `tile` at `indices` of global view `view` (converted), on the kernel's
/// target chip; a match failure that says why when there is none.
template <typename OpT>
static FailureOr<GlobalTileAccess>
matchGlobalAccess(ConversionPatternRewriter &rewriter, OpT op, Value view,
                  ValueRange indices, RegisterTileType tile) {
  const ChipInfo *chip = lookupTargetChip(op);
  if (!chip)
    return rewriter.notifyMatchFailure(op, "no target chip");
  FailureOr<GlobalTileAccess> access =
      prepareGlobalAccess(rewriter, op.getLoc(), view, indices, tile, *chip,
                          op.getPath() == TransferPath::Buffer);
  if (failed(access))
    return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
  return access;
}

struct LoadLowering : public OpConversionPattern<LoadOp> {
  LoadLowering(HKTypeConverter &converter, MLIRContext *ctx, const LdsPlan &lds)
      : OpConversionPattern(converter, ctx), lds(lds) {}
  const LdsPlan &lds;

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = dyn_cast<RegisterTileType>(op.getType());
    if (!tile)
      return rewriter.notifyMatchFailure(op, "register vectors not lowered");
    Location loc = op.getLoc();
    Value raw;
    if (isa<GlobalViewType>(op.getSource().getType())) {
      FailureOr<GlobalTileAccess> access = matchGlobalAccess(
          rewriter, op, adaptor.getSource(), adaptor.getIndices(), tile);
      if (failed(access))
        return failure();
      raw = emitGlobalTileLoad(rewriter, loc, *access,
                               tile.getNumElements() / 64);
    } else {
      const ChipInfo *chip = lookupTargetChip(op);
      if (!chip)
        return rewriter.notifyMatchFailure(op, "no target chip");
      raw = loadSharedTile(rewriter, loc, lds, *chip, adaptor.getSource(),
                           cast<SharedTileType>(op.getSource().getType()),
                           adaptor.getIndices(), tile);
    }
    rewriter.replaceOp(
        op, convertElements(rewriter, loc, raw, tile.getElementType()));
    return success();
  }
};

struct StoreLowering : public OpConversionPattern<StoreOp> {
  StoreLowering(HKTypeConverter &converter, MLIRContext *ctx,
                const LdsPlan &lds)
      : OpConversionPattern(converter, ctx), lds(lds) {}
  const LdsPlan &lds;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = dyn_cast<RegisterTileType>(op.getValue().getType());
    if (!tile)
      return rewriter.notifyMatchFailure(op, "register vectors not lowered");
    Location loc = op.getLoc();
    Type destElem =
        isa<GlobalViewType>(op.getDest().getType())
            ? cast<GlobalViewType>(op.getDest().getType()).getElementType()
            : cast<SharedTileType>(op.getDest().getType()).getElementType();
    auto convert = [&](OpBuilder &b, Value part) {
      return convertElements(b, loc, convertElements(b, loc, part, destElem),
                             getMemoryElementType(destElem));
    };
    if (auto shared = dyn_cast<SharedTileType>(op.getDest().getType())) {
      // Converted piece by piece as stored (see storeSharedTile).
      storeSharedTile(rewriter, loc, lds, adaptor.getDest(), shared,
                      adaptor.getIndices(), tile, adaptor.getValue(), convert);
      rewriter.eraseOp(op);
      return success();
    }
    if (op.getStage())
      return lowerVia(op, adaptor, rewriter, tile, convert);
    FailureOr<GlobalTileAccess> access = matchGlobalAccess(
        rewriter, op, adaptor.getDest(), adaptor.getIndices(), tile);
    if (failed(access))
      return failure();
    emitGlobalTileStore(rewriter, loc, *access,
                        convert(rewriter, adaptor.getValue()));
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// `via`: the tile goes to the wave's part of the shared tile, then from
  /// there to the view in 16-byte pieces of its rows, by the wave's lanes
  /// alone. A wave's LDS accesses complete in order, so it reads back what
  /// it wrote without a wait of its own.
  LogicalResult
  lowerVia(StoreOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter,
           RegisterTileType tile,
           function_ref<Value(OpBuilder &, Value)> convert) const {
    Location loc = op.getLoc();
    FailureOr<ViewABI> view = getViewABI(rewriter, loc, adaptor.getDest());
    if (failed(view))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    const ChipInfo *chip = lookupTargetChip(op);
    if (!chip)
      return rewriter.notifyMatchFailure(op, "no target chip");
    SharedTileType stage = op.getStage().getType();
    ValueRange stageIndices = adaptor.getStageIndices();
    if (!op.getStaged())
      storeSharedTile(rewriter, loc, lds, adaptor.getStage(), stage,
                      stageIndices, tile, adaptor.getValue(), convert);
    Value rowOrigin = constI32(rewriter, loc, 0);
    Value colOrigin = rowOrigin;
    if (!stageIndices.empty()) {
      rowOrigin = mulI32(rewriter, loc, toI32(rewriter, loc, stageIndices[0]),
                         tile.getRows());
      colOrigin = mulI32(rewriter, loc, toI32(rewriter, loc, stageIndices[1]),
                         tile.getCols());
    }
    Type memElem = getMemoryElementType(stage.getElementType());
    GroupCopyPlan plan =
        planWaveCopy(tile.getRows(), tile.getCols(), getElementBytes(memElem),
                     sharedContiguousElements(stage));
    copySharedToGlobal(rewriter, loc, lds, *chip, stage, adaptor.getStage(),
                       rowOrigin, colOrigin, plan, *view, adaptor.getIndices(),
                       op.getPath() == TransferPath::Buffer,
                       /*waveOnly=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

GroupCopyPlan planGroupCopy(SharedTileType shared, int64_t lanes) {
  return hk::planGroupCopy(
      shared.getRows(), shared.getCols(),
      getElementBytes(getMemoryElementType(shared.getElementType())), lanes,
      sharedContiguousElements(shared));
}

namespace {
/// The chunk lane `tid` copies in one round: its first element's row and
/// column in the tile, and whether the lane has one.
struct ChunkPosition {
  Value row, col, present;
};
} // namespace

static ChunkPosition locateChunk(OpBuilder &b, Location loc,
                                 const GroupCopyPlan &plan, Value tid,
                                 Value round, bool mayBePartial,
                                 bool waveOnly) {
  Value chunk = arith::AddIOp::create(
      b, loc, tid,
      arith::MulIOp::create(b, loc, round, constI32(b, loc, plan.lanes)));
  // Along the rows of chunks, or down their columns (GroupCopyPlan).
  ChunkPosition position;
  if (plan.downRows) {
    position.row =
        arith::RemUIOp::create(b, loc, chunk, constI32(b, loc, plan.rows));
    position.col = mulI32(
        b, loc,
        arith::DivUIOp::create(b, loc, chunk, constI32(b, loc, plan.rows)),
        plan.chunkElems);
  } else {
    position.row = arith::DivUIOp::create(b, loc, chunk,
                                          constI32(b, loc, plan.chunksPerRow));
    position.col =
        mulI32(b, loc,
               arith::RemUIOp::create(b, loc, chunk,
                                      constI32(b, loc, plan.chunksPerRow)),
               plan.chunkElems);
  }
  if (plan.pairRows) {
    // Row r of each sixteen goes to r / 2 + (r % 2) * 8 (GroupCopyPlan).
    Value r = position.row;
    Value within = arith::AndIOp::create(b, loc, r, constI32(b, loc, 15));
    position.row = arith::AddIOp::create(
        b, loc, arith::SubIOp::create(b, loc, r, within),
        arith::AddIOp::create(
            b, loc,
            mulI32(b, loc,
                   arith::AndIOp::create(b, loc, within, constI32(b, loc, 1)),
                   8),
            arith::ShRUIOp::create(b, loc, within, constI32(b, loc, 1))));
  }
  // (A wave's lanes all take part in a copy of 64 lanes.)
  SmallVector<Value> conditions;
  if (!waveOnly || plan.lanes < 64)
    conditions.push_back(ult(b, loc, tid, constI32(b, loc, plan.lanes)));
  if (mayBePartial)
    conditions.push_back(ult(b, loc, chunk, constI32(b, loc, plan.chunks)));
  position.present = conditions.empty() ? Value() : andAll(b, loc, conditions);
  return position;
}

/// Emits `body(row, col)` for each chunk the executing lane copies (row
/// and column of the chunk's first element in the tile); lanes past the
/// participating ones and the tail of the last round do nothing.
///
/// The in-bounds path unrolls the rounds: their addresses are loop
/// invariants worth keeping in registers. The edge path (`asLoop`) is one
/// loop over the rounds, so its per-chunk masks are computed inside it
/// instead of being hoisted into registers held across the caller's loops.
void forEachChunk(OpBuilder &b, Location loc, const GroupCopyPlan &plan,
                  bool asLoop, function_ref<void(Value row, Value col)> body,
                  bool waveOnly = false) {
  // The copy's lane index: the block's thread, or the wave's lane.
  auto lane = [&] { return waveOnly ? laneId(b, loc) : threadId(b, loc); };
  Value tid;
  auto emitRound = [&](Value round, bool mayBePartial) {
    ChunkPosition chunk =
        locateChunk(b, loc, plan, tid, round, mayBePartial, waveOnly);
    OpBuilder::InsertionGuard g(b);
    if (chunk.present) {
      auto guard = scf::IfOp::create(b, loc, TypeRange{}, chunk.present, false);
      b.setInsertionPointToStart(guard.thenBlock());
    }
    body(chunk.row, chunk.col);
  };
  bool anyPartial = plan.rounds * plan.lanes > plan.chunks;
  if (asLoop) {
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    auto loop =
        scf::ForOp::create(b, loc, index(0), index(plan.rounds), index(1));
    // Unrolled, the loop's masks become invariants of the caller's loop
    // again.
    MLIRContext *ctx = b.getContext();
    auto noUnroll = LLVM::LoopUnrollAttr::get(
        ctx, /*disable=*/b.getBoolAttr(true), /*count=*/{},
        /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
        /*followupRemainder=*/{}, /*followupAll=*/{});
    loop->setAttr("llvm.loop_annotation",
                  LLVM::LoopAnnotationAttr::get(
                      ctx, /*disableNonforced=*/{}, /*vectorize=*/{},
                      /*interleave=*/{}, noUnroll, /*unrollAndJam=*/{},
                      /*licm=*/{}, /*distribute=*/{}, /*pipeline=*/{},
                      /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
                      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
                      /*parallelAccesses=*/{}));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    // LLVM's LICM would still hoist what depends on the lane alone (a
    // chunk's column when the rounds cover whole rows, and each element's
    // column from it) out of both loops, holding a register per element
    // through the caller's loop for a path the steady state never runs.
    // The lane id read through an opaque, side-effecting move cannot leave
    // this loop, and neither can anything computed from it.
    Value raw = lane();
    tid = LLVM::InlineAsmOp::create(
              b, loc, raw.getType(), ValueRange{raw}, "", "=v,0",
              /*has_side_effects=*/true, /*is_align_stack=*/false,
              LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
              ArrayAttr())
              .getResult(0);
    emitRound(toI32(b, loc, loop.getInductionVar()), anyPartial);
    return;
  }
  tid = lane();
  for (int64_t round = 0; round < plan.rounds; ++round)
    emitRound(constI32(b, loc, round), (round + 1) * plan.lanes > plan.chunks);
}

/// Lanes sharing a group copy; the conversion pass has recorded every
/// copy's wave count before any kernel is converted.
int64_t groupLanes(std::optional<uint32_t> waves) {
  assert(waves && "group copy without a wave count");
  return int64_t(*waves) * 64;
}

/// The largest immediate offset of a MUBUF instruction (12 bits).
constexpr int64_t kMaxBufferImmediate = 4095;

/// Global -> LDS with direct-to-LDS buffer loads: instruction i of the copy
/// moves `laneBytes` per lane for 64 lanes into LDS bytes
/// [i*64*laneBytes, (i+1)*64*laneBytes) of the tile, in lane order; each
/// lane fetches the elements that belong there, i.e. the swizzle is applied
/// on the global side. Wave w issues instructions w, w + waves, ...
void emitDirectCopy(OpBuilder &b, Location loc, GroupLoadOp op,
                    const ChipInfo &chip, const LdsPlan &lds,
                    const ViewBuffer &buffer, const TileOrigin &origin,
                    Value ldsBase) {
  SharedTileType shared = op.getDest().getType();
  DirectCopyPlan plan = planDirectCopy(op, chip);
  int64_t bytes = buffer.elementBytes;
  int64_t instructionBytes = plan.laneBytes * 64;
  int64_t tileBytes = shared.getRows() * shared.getCols() * bytes;
  Value wave = waveId(b, loc);
  Value lane = laneId(b, loc);
  Value laneByte = mulI32(b, loc, lane, plan.laneBytes);
  Value zero = constI32(b, loc, 0);
  Value tileOffset = mulI32(b, loc, origin.offset, bytes);
  // When every wave of the block takes part, only the rounds decide which
  // waves issue, and a round every wave issues needs no branch at all.
  int64_t blockWaves = std::numeric_limits<int64_t>::max();
  if (auto func = op->getParentOfType<LLVM::LLVMFuncOp>())
    if (auto size = func->getAttrOfType<DenseI32ArrayAttr>(
            "rocdl.reqd_work_group_size"))
      blockWaves = size[0] / 64;
  // Rounds that can share an LDS pointer through the instructions' 12-bit
  // immediate offset: each round must start on a row of the tile.
  int64_t roundBytes = plan.waves * instructionBytes;
  int64_t rowBytes = shared.getCols() * bytes;
  int64_t immediateRounds = 1;
  if (roundBytes % rowBytes == 0)
    immediateRounds =
        std::max<int64_t>(1, kMaxBufferImmediate / roundBytes + 1);
  // The lane's offset in the view of the tile byte `tileByte`.
  auto laneOffset = [&](Value tileByte) {
    Value element =
        arith::DivUIOp::create(b, loc, tileByte, constI32(b, loc, bytes));
    Value row = arith::DivUIOp::create(b, loc, element,
                                       constI32(b, loc, shared.getCols()));
    Value stored = arith::RemUIOp::create(b, loc, element,
                                          constI32(b, loc, shared.getCols()));
    Value col = swizzledColumn(b, loc, shared, row, stored);
    return mulI32(b, loc, origin.withinTileOffset(b, loc, row, col), bytes);
  };
  // When a round covers whole rows and the swizzle's phases repeat within
  // them, round r's lanes fetch round 0's columns r * roundRows rows
  // further down: its offsets are round 0's plus a uniform step, one add
  // per instruction instead of the swizzle and a multiply (the prologue
  // issues its loads back to back, the loop's hoisted setup shrinks).
  int64_t roundRows = roundBytes / rowBytes;
  auto swizzle = dyn_cast_if_present<SwizzleAttr>(shared.getSwizzle());
  Value firstRoundOffset, roundStep;
  if (roundBytes % rowBytes == 0 &&
      roundRows % (swizzle ? swizzle.getRowPeriod() : 1) == 0) {
    firstRoundOffset = laneOffset(arith::AddIOp::create(
        b, loc, mulI32(b, loc, wave, instructionBytes), laneByte));
    roundStep = mulI32(b, loc, origin.rowStride, roundRows * bytes);
  }
  for (int64_t round = 0; round < plan.rounds(); ++round) {
    // The instruction this wave issues in this round (uniform).
    Value instruction = addI32(b, loc, wave, round * plan.waves);
    SmallVector<Value> conditions;
    if (plan.waves < blockWaves)
      conditions.push_back(ult(b, loc, wave, constI32(b, loc, plan.waves)));
    if ((round + 1) * plan.waves > plan.instructions)
      conditions.push_back(
          ult(b, loc, instruction, constI32(b, loc, plan.instructions)));
    Value tileByte = arith::AddIOp::create(
        b, loc, mulI32(b, loc, instruction, instructionBytes), laneByte);
    // Only a tile that does not fill its last instruction has idle lanes.
    if (tileBytes % instructionBytes != 0)
      conditions.push_back(ult(b, loc, tileByte, constI32(b, loc, tileBytes)));
    OpBuilder::InsertionGuard g(b);
    if (!conditions.empty()) {
      auto guard =
          scf::IfOp::create(b, loc, TypeRange{}, andAll(b, loc, conditions),
                            /*withElseRegion=*/false);
      b.setInsertionPointToStart(guard.thenBlock());
    }
    // The copy runs only for tiles wholly inside the view, so the tile's
    // origin can go to the scalar offset, which the range check ignores;
    // the lanes' offsets then stay the same from tile to tile.
    Value offset = firstRoundOffset;
    if (!firstRoundOffset)
      offset = laneOffset(tileByte);
    else if (round > 0)
      offset = arith::AddIOp::create(b, loc, firstRoundOffset,
                                     mulI32(b, loc, roundStep, round));
    // The instruction's immediate offset moves both addresses (the LDS
    // load intrinsics in LLVM's IntrinsicsAMDGPU.td), so rounds
    // [first, first + immediateRounds) share one LDS pointer (one M0
    // write): round r's LDS bytes lie (r - first) * roundBytes past it, and
    // its lanes' global offsets are that much smaller. They stay
    // non-negative: round r starts at tile row r * roundBytes / rowBytes,
    // whose elements lie at least that many bytes into the view when rows
    // do not overlap (checked with the tile's bounds).
    int64_t first = round - round % immediateRounds;
    int64_t immediate = (round - first) * roundBytes;
    if (immediate != 0)
      offset =
          arith::SubIOp::create(b, loc, offset, constI32(b, loc, immediate));
    Value ldsPtr =
        elementPointer(b, loc, ldsBase, b.getI8Type(),
                       mulI32(b, loc, addI32(b, loc, wave, first * plan.waves),
                              instructionBytes));
    ROCDL::RawPtrBufferLoadLdsOp::create(
        b, loc, buffer.resource, ldsPtr, constI32(b, loc, plan.laneBytes),
        offset, tileOffset, constI32(b, loc, immediate), zero,
        /*alias_scopes=*/ArrayAttr::get(b.getContext(), {lds.directScope}),
        ArrayAttr(), ArrayAttr());
  }
}

/// Whether a group copy of `plan` from `origin` may take its interior path:
/// the whole tile inside the view, rows aligned for whole chunks.
static Value isWholeTileInside(OpBuilder &b, Location loc,
                               const TileOrigin &origin,
                               const GroupCopyPlan &plan) {
  return origin.isInside(b, loc, plan.rows, plan.cols, plan.chunkElems);
}

/// The copy plan of a group load of `shared` (lanes only matter for the
/// rounds, not for the chunks the bounds are checked in).
static GroupCopyPlan planGroupLoad(SharedTileType shared, bool transpose,
                                   int64_t lanes) {
  if (!transpose)
    return planGroupCopy(shared, lanes);
  int64_t bytes =
      getElementBytes(getMemoryElementType(shared.getElementType()));
  return planTransposedCopy(shared.getRows(), shared.getCols(), bytes, lanes);
}

struct InBoundsLowering : public OpConversionPattern<InBoundsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(InBoundsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ViewABI> view = getViewABI(rewriter, loc, adaptor.getSource());
    if (failed(view))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    GroupCopyPlan plan =
        planGroupLoad(op.getDest().getType(), op.getTranspose(), groupLanes(1));
    TileOrigin origin = locateTile(rewriter, loc, *view, adaptor.getIndices(),
                                   plan.rows, plan.cols);
    rewriter.replaceOp(op, isWholeTileInside(rewriter, loc, origin, plan));
    return success();
  }
};

/// Where an asynchronous, `inbounds` group load staged through registers
/// writes LDS, when that can be later than its loads: before the first
/// later op of its block that is or holds an `hk.wait` or `hk.barrier`, or
/// else before the block's terminator. Null when nothing lies between. The
/// data is the program's only after a wait on the token (and a barrier),
/// so any point before those is as correct as right after the loads; a
/// later one lets the loads' latency overlap the ops in between (the
/// computation of a double-buffered loop's interior version) instead of
/// stalling the wave at once. The edge path (a tile that may cross the
/// view's end) keeps its writes next to its loads.
static Operation *deferredWritePoint(GroupLoadOp op) {
  if (!op.getToken() || !op.getInbounds())
    return nullptr;
  auto synchronizes = [](Operation *next) {
    return next->hasTrait<OpTrait::IsTerminator>() ||
           next->walk([](Operation *inner) {
                 return isa<WaitOp, BarrierOp, amdgpu::MemoryCounterWaitOp,
                            ROCDL::SBarrierOp>(inner)
                            ? WalkResult::interrupt()
                            : WalkResult::advance();
               })
               .wasInterrupted();
  };
  Operation *point = op->getNextNode();
  while (point && !synchronizes(point))
    point = point->getNextNode();
  return point == op->getNextNode() ? nullptr : point;
}

/// The deferred form of a staged copy: every round's chunk is loaded here
/// (zero where the lane has none) and written to LDS before `point`.
static void emitDeferredCopy(
    ConversionPatternRewriter &rewriter, Location loc,
    const GroupCopyPlan &plan, VectorType chunkType, Operation *point,
    function_ref<Value(OpBuilder &, Value row, Value col)> loadChunk,
    function_ref<void(OpBuilder &, Value row, Value col, Value chunk)>
        storePieces) {
  Value tid = threadId(rewriter, loc);
  SmallVector<std::pair<ChunkPosition, Value>> staged;
  for (int64_t round = 0; round < plan.rounds; ++round) {
    ChunkPosition chunk =
        locateChunk(rewriter, loc, plan, tid, constI32(rewriter, loc, round),
                    (round + 1) * plan.lanes > plan.chunks, /*waveOnly=*/false);
    auto guard = scf::IfOp::create(rewriter, loc, TypeRange{chunkType},
                                   chunk.present, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPointToStart(guard.thenBlock());
    scf::YieldOp::create(rewriter, loc,
                         loadChunk(rewriter, chunk.row, chunk.col));
    rewriter.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(rewriter, loc, zeroOf(rewriter, loc, chunkType));
    staged.emplace_back(chunk, guard.getResult(0));
  }
  OpBuilder::InsertionGuard g(rewriter);
  rewriter.setInsertionPoint(point);
  for (auto &[chunk, value] : staged) {
    auto guard = scf::IfOp::create(rewriter, loc, TypeRange{}, chunk.present,
                                   /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(guard.thenBlock());
    storePieces(rewriter, chunk.row, chunk.col, value);
    rewriter.setInsertionPoint(point);
  }
}

/// Global -> LDS, staged through registers: each lane loads 16-byte chunks
/// (masked element by element when the tile is not wholly inside the view)
/// and writes them to their swizzled place.
struct GroupLoadLowering : public OpConversionPattern<GroupLoadOp> {
  GroupLoadLowering(HKTypeConverter &converter, MLIRContext *ctx,
                    const LdsPlan &lds)
      : OpConversionPattern(converter, ctx), lds(lds) {}
  const LdsPlan &lds;

  LogicalResult
  matchAndRewrite(GroupLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto shared = cast<SharedTileType>(op.getDest().getType());
    FailureOr<ViewABI> view = getViewABI(rewriter, loc, adaptor.getSource());
    if (failed(view))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    int64_t lanes = groupLanes(op.getWaves());
    Type memElem = getMemoryElementType(shared.getElementType());
    int64_t bytes = getElementBytes(memElem);
    bool transpose = op.getTranspose();
    GroupCopyPlan plan = planGroupLoad(shared, transpose, lanes);
    TileOrigin origin = locateTile(rewriter, loc, *view, adaptor.getIndices(),
                                   plan.rows, plan.cols);
    Value ldsBase = adaptor.getDest();
    const ChipInfo *chip = lookupTargetChip(op);
    if (!chip)
      return rewriter.notifyMatchFailure(op, "no target chip");
    ViewBuffer buffer = makeViewBuffer(rewriter, loc, *view, memElem, *chip);
    TransferPath path = op.getPath().value_or(TransferPath::Global);

    auto storePieces = [&](OpBuilder &b, Value row, Value col, Value chunk) {
      if (transpose) {
        for (int64_t e = 0; e < plan.chunkElems; ++e) {
          Value off =
              sharedElementOffset(b, loc, shared, addI32(b, loc, col, e), row);
          lds.markTileAccess(LLVM::StoreOp::create(
              b, loc, extractAt(b, loc, chunk, e, 1),
              elementPointer(b, loc, ldsBase, memElem, off), bytes));
        }
        return;
      }
      for (int64_t p = 0; p < plan.chunkElems; p += plan.pieceElems) {
        Value off =
            sharedElementOffset(b, loc, shared, row, addI32(b, loc, col, p));
        lds.markTileAccess(LLVM::StoreOp::create(
            b, loc, extractAt(b, loc, chunk, p, plan.pieceElems),
            elementPointer(b, loc, ldsBase, memElem, off),
            bytes * plan.pieceElems));
      }
    };
    auto chunkType = VectorType::get({plan.chunkElems}, memElem);
    // The interior path's chunk at (row, col) of the tile.
    auto loadChunk = [&](OpBuilder &b, Value row, Value col) -> Value {
      Value within = origin.withinTileOffset(b, loc, row, col);
      if (path == TransferPath::Buffer)
        // Inside the view: the tile's origin in the scalar offset.
        return buffer.load(b, loc, chunkType, mulI32(b, loc, within, bytes),
                           mulI32(b, loc, origin.offset, bytes));
      Value offset = arith::AddIOp::create(b, loc, origin.offset, within);
      return LLVM::LoadOp::create(
          b, loc, chunkType, elementPointer(b, loc, view->ptr, memElem, offset),
          bytes * plan.chunkElems);
    };
    if (Operation *point =
            path == TransferPath::Direct ? nullptr : deferredWritePoint(op)) {
      emitDeferredCopy(rewriter, loc, plan, chunkType, point, loadChunk,
                       storePieces);
      // hk.wait counts no staged loads (see Waits.cpp).
      rewriter.replaceOp(op, constI32(rewriter, loc, 0));
      return success();
    }
    // A load marked inbounds is the interior path alone (see hk.in_bounds);
    // otherwise the tile's position picks the interior or the edge path.
    scf::IfOp whole;
    if (!op.getInbounds())
      whole = scf::IfOp::create(rewriter, loc, TypeRange{},
                                isWholeTileInside(rewriter, loc, origin, plan),
                                /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      if (whole)
        rewriter.setInsertionPointToStart(whole.thenBlock());
      if (path == TransferPath::Direct) {
        emitDirectCopy(rewriter, loc, op, *chip, lds, buffer, origin, ldsBase);
      } else {
        forEachChunk(
            rewriter, loc, plan, /*asLoop=*/false, [&](Value row, Value col) {
              storePieces(rewriter, row, col, loadChunk(rewriter, row, col));
            });
      }
    }
    if (whole) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(whole.elseBlock());
      forEachChunk(
          rewriter, loc, plan, /*asLoop=*/true, [&](Value row, Value col) {
            // Element by element; elements outside the view read zero. The
            // chunk then goes to LDS as the in-bounds path writes it.
            Value chunk = zeroOf(rewriter, loc, chunkType);
            for (int64_t e = 0; e < plan.chunkElems; ++e) {
              Value c = addI32(rewriter, loc, col, e);
              Value offset = buffer.maskedOffset(
                  rewriter, loc,
                  origin.containsTileElement(rewriter, loc, row, c),
                  origin.tileElementOffset(rewriter, loc, row, c));
              chunk = vector::InsertOp::create(
                  rewriter, loc, buffer.load(rewriter, loc, memElem, offset),
                  chunk, e);
            }
            storePieces(rewriter, row, col, chunk);
          });
    }

    if (op.getToken()) {
      // hk.wait counts the loads behind a token statically (see Waits.cpp);
      // the value itself carries nothing.
      rewriter.replaceOp(op, constI32(rewriter, loc, 0));
      return success();
    }
    // The synchronous form is complete when it returns: a direct copy waits
    // for its loads (the newest vector memory operations, so vmcnt(0)).
    if (path == TransferPath::Direct)
      amdgpu::MemoryCounterWaitOp::create(
          rewriter, loc, rewriter.getI32IntegerAttr(0), IntegerAttr(),
          IntegerAttr(), IntegerAttr(), IntegerAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

/// LDS -> global: copies the plan.rows x plan.cols part of `shared` whose
/// first element is (rowOrigin, colOrigin) to the global tile of that shape
/// at `indices` of the view.
/// Each lane (of the block, or of the executing wave alone with
/// `waveOnly`) reads 16-byte chunks and stores them, masked element by
/// element when the tile is not wholly inside the view.
void copySharedToGlobal(OpBuilder &b, Location loc, const LdsPlan &lds,
                        const ChipInfo &chip, SharedTileType shared,
                        Value ldsBase, Value rowOrigin, Value colOrigin,
                        const GroupCopyPlan &plan, const ViewABI &view,
                        ValueRange indices, bool viaBuffer, bool waveOnly) {
  Type memElem = getMemoryElementType(shared.getElementType());
  int64_t bytes = getElementBytes(memElem);
  TileOrigin origin = locateTile(b, loc, view, indices, plan.rows, plan.cols);
  ViewBuffer buffer = makeViewBuffer(b, loc, view, memElem, chip);
  auto chunkType = VectorType::get({plan.chunkElems}, memElem);
  auto readChunk = [&](Value row, Value col) {
    Value chunk = zeroOf(b, loc, chunkType);
    for (int64_t p = 0; p < plan.chunkElems; p += plan.pieceElems) {
      Value off = sharedElementOffset(
          b, loc, shared, arith::AddIOp::create(b, loc, rowOrigin, row),
          arith::AddIOp::create(b, loc, colOrigin, addI32(b, loc, col, p)));
      Type type = plan.pieceElems == 1
                      ? memElem
                      : Type(VectorType::get({plan.pieceElems}, memElem));
      auto piece = LLVM::LoadOp::create(
          b, loc, type, elementPointer(b, loc, ldsBase, memElem, off),
          bytes * plan.pieceElems);
      lds.markTileAccess(piece);
      chunk = insertAt(b, loc, piece, chunk, p);
    }
    return chunk;
  };
  auto whole = scf::IfOp::create(
      b, loc, TypeRange{},
      origin.isInside(b, loc, plan.rows, plan.cols, plan.chunkElems),
      /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(whole.thenBlock());
  forEachChunk(
      b, loc, plan, /*asLoop=*/false,
      [&](Value row, Value col) {
        Value offset = origin.tileElementOffset(b, loc, row, col);
        Value chunk = readChunk(row, col);
        if (viaBuffer) {
          buffer.store(b, loc, chunk, mulI32(b, loc, offset, bytes));
          return;
        }
        LLVM::StoreOp::create(b, loc, chunk,
                              elementPointer(b, loc, view.ptr, memElem, offset),
                              bytes * plan.chunkElems);
      },
      waveOnly);
  b.setInsertionPointToStart(whole.elseBlock());
  forEachChunk(
      b, loc, plan, /*asLoop=*/true,
      [&](Value row, Value col) {
        // Element by element; writes outside the view are dropped.
        Value chunk = readChunk(row, col);
        for (int64_t e = 0; e < plan.chunkElems; ++e) {
          Value c = addI32(b, loc, col, e);
          Value offset = buffer.maskedOffset(
              b, loc, origin.containsTileElement(b, loc, row, c),
              origin.tileElementOffset(b, loc, row, c));
          buffer.store(b, loc, vector::ExtractOp::create(b, loc, chunk, e),
                       offset);
        }
      },
      waveOnly);
}

struct GroupStoreLowering : public OpConversionPattern<GroupStoreOp> {
  GroupStoreLowering(HKTypeConverter &converter, MLIRContext *ctx,
                     const LdsPlan &lds)
      : OpConversionPattern(converter, ctx), lds(lds) {}
  const LdsPlan &lds;

  LogicalResult
  matchAndRewrite(GroupStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto shared = cast<SharedTileType>(op.getSource().getType());
    FailureOr<ViewABI> view = getViewABI(rewriter, loc, adaptor.getDest());
    if (failed(view))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    const ChipInfo *chip = lookupTargetChip(op);
    if (!chip)
      return rewriter.notifyMatchFailure(op, "no target chip");
    GroupCopyPlan plan = planGroupCopy(shared, groupLanes(op.getWaves()));
    Value zero = constI32(rewriter, loc, 0);
    copySharedToGlobal(rewriter, loc, lds, *chip, shared, adaptor.getSource(),
                       zero, zero, plan, *view, adaptor.getIndices(),
                       op.getPath() == TransferPath::Buffer,
                       /*waveOnly=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

Value lowering::loadSharedTile(OpBuilder &b, Location loc, const LdsPlan &lds,
                               const ChipInfo &chip, Value base,
                               SharedTileType shared, ValueRange indices,
                               RegisterTileType tile) {
  SharedTileAccess access = prepareSharedAccess(b, loc, base, shared, indices,
                                                tile, chip.hasLdsTransposeRead);
  int64_t bytes = getElementBytes(access.memElem);
  Value raw = zeroOf(
      b, loc, VectorType::get({tile.getNumElements() / 64}, access.memElem));
  for (const AccessUnit &unit : access.units) {
    Type type = unit.width == 1
                    ? access.memElem
                    : Type(VectorType::get({unit.width}, access.memElem));
    Value pointer = access.pointerOf(b, loc, unit);
    Operation *read;
    if (unit.transposed)
      read = ROCDL::ds_read_tr16_b64::create(b, loc, type, pointer, nullptr,
                                             nullptr, nullptr);
    else
      read = LLVM::LoadOp::create(b, loc, type, pointer, bytes * unit.width);
    lds.markTileAccess(read);
    raw = insertAt(b, loc, read->getResult(0), raw, unit.slot);
  }
  return raw;
}

void lowering::storeSharedTile(
    OpBuilder &b, Location loc, const LdsPlan &lds, Value base,
    SharedTileType shared, ValueRange indices, RegisterTileType tile,
    Value values, function_ref<Value(OpBuilder &, Value)> convert) {
  SharedTileAccess access = prepareSharedAccess(
      b, loc, base, shared, indices, tile, /*transposedReads=*/false);
  int64_t bytes = getElementBytes(access.memElem);
  auto piece = [&](int64_t slot, int64_t width) {
    Value part = extractAt(b, loc, values, slot, width);
    return convert ? convert(b, part) : part;
  };
  ArrayRef<AccessUnit> units = access.units;
  for (size_t i = 0; i < units.size(); ++i) {
    const AccessUnit &unit = units[i];
    // Consecutive two-byte elements stored apart (an MFMA result's rows,
    // one per element) are converted as a pair into one register and
    // written from its halves: one packed conversion instead of two.
    if (convert && bytes == 2 && unit.width == 1 && unit.slot % 2 == 0 &&
        i + 1 < units.size() && units[i + 1].width == 1 &&
        units[i + 1].slot == unit.slot + 1) {
      Value pair =
          LLVM::BitcastOp::create(b, loc, b.getI32Type(), piece(unit.slot, 2));
      Value high = LLVM::LShrOp::create(b, loc, pair, constI32(b, loc, 16));
      lds.markTileAccess(LLVM::StoreOp::create(
          b, loc, LLVM::TruncOp::create(b, loc, b.getI16Type(), pair),
          access.pointerOf(b, loc, unit), bytes));
      lds.markTileAccess(LLVM::StoreOp::create(
          b, loc, LLVM::TruncOp::create(b, loc, b.getI16Type(), high),
          access.pointerOf(b, loc, units[++i]), bytes));
      continue;
    }
    lds.markTileAccess(LLVM::StoreOp::create(
        b, loc, piece(unit.slot, unit.width), access.pointerOf(b, loc, unit),
        bytes * unit.width));
  }
}

void lowering::populateMemoryPatterns(HKTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const LdsPlan &plan) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AllocLowering, LoadLowering, StoreLowering, GroupLoadLowering,
               GroupStoreLowering>(converter, ctx, plan);
  patterns.add<InBoundsLowering>(converter, ctx);
}
