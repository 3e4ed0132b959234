//===- HKToAMDGPU.cpp - hk tile programs to amdgpu, rocdl and vector ------===//
//
// Register tiles become one vector per lane, ordered by the tile's layout
// (see Layouts.h). Kernels become llvm.func AMDGPU kernels with the compact
// ABI: one pointer per global view, then each view's runtime sizes, then
// each view's strides (every dimension but the innermost), then the scalar
// arguments, all sizes and strides as i32.
//
//===----------------------------------------------------------------------===//

#include "hk/Conversion/Passes.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/Layouts.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace hk {
#define GEN_PASS_DEF_CONVERTHKTOAMDGPU
#include "hk/Conversion/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The LLVM dialect has no fp8 types: memory holds them as bytes.
Type getMemoryElementType(Type type) {
  if (isFnuzFp8(type) || isOcpFp8(type))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

int64_t getElementBytes(Type type) { return getElementBits(type) / 8; }

/// Register tiles become `vector<(R*C/64) x T>`: each lane's elements in
/// layout order.
class HKTypeConverter : public TypeConverter {
public:
  HKTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](RegisterTileType type) -> Type {
      if (!FragmentLayout::get(type.getLayout()))
        return Type();
      return VectorType::get({type.getNumElements() / 64},
                             type.getElementType());
    });
  }
};

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

Value constI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

Value toI32(OpBuilder &b, Location loc, Value index) {
  if (index.getType().isInteger(32))
    return index;
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
}

Value addI32(OpBuilder &b, Location loc, Value lhs, int64_t rhs) {
  if (rhs == 0)
    return lhs;
  return arith::AddIOp::create(b, loc, lhs, constI32(b, loc, rhs));
}

Value mulI32(OpBuilder &b, Location loc, Value lhs, int64_t rhs) {
  if (rhs == 1)
    return lhs;
  return arith::MulIOp::create(b, loc, lhs, constI32(b, loc, rhs));
}

Value ult(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs, rhs);
}

Value ule(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, lhs, rhs);
}

Value andAll(OpBuilder &b, Location loc, ArrayRef<Value> conditions) {
  Value result = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (Value condition : conditions)
    result = arith::AndIOp::create(b, loc, result, condition);
  return result;
}

Value threadId(OpBuilder &b, Location loc) {
  return ROCDL::ThreadIdXOp::create(b, loc, b.getI32Type());
}

/// Lane of the executing work-item in its wave (blocks are 1-D and a whole
/// number of waves).
Value laneId(OpBuilder &b, Location loc) {
  return arith::AndIOp::create(b, loc, threadId(b, loc), constI32(b, loc, 63));
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

/// Converts a scalar or vector between element types (float widths, the
/// fp8 formats, integer widths); fp8 arrives from memory as bytes.
Value convertElements(OpBuilder &b, Location loc, Value value, Type toElem) {
  Type type = value.getType();
  auto vecType = dyn_cast<VectorType>(type);
  Type fromElem = vecType ? vecType.getElementType() : type;
  if (fromElem == toElem)
    return value;
  auto withElem = [&](Type elem) -> Type {
    return vecType ? Type(VectorType::get(vecType.getShape(), elem)) : elem;
  };
  if (isa<IntegerType>(fromElem) && isa<FloatType>(toElem) &&
      getElementBits(fromElem) == getElementBits(toElem))
    return arith::BitcastOp::create(b, loc, withElem(toElem), value);
  if (isa<FloatType>(fromElem) && isa<IntegerType>(toElem) &&
      getElementBits(fromElem) == getElementBits(toElem))
    return arith::BitcastOp::create(b, loc, withElem(toElem), value);
  if (isa<FloatType>(fromElem) && isa<FloatType>(toElem)) {
    if (getElementBits(fromElem) < getElementBits(toElem))
      return arith::ExtFOp::create(b, loc, withElem(toElem), value);
    // fp8 <-> fp8 or f16 <-> bf16 of equal width go through f32.
    if (getElementBits(fromElem) == getElementBits(toElem)) {
      Value wide =
          arith::ExtFOp::create(b, loc, withElem(b.getF32Type()), value);
      return arith::TruncFOp::create(b, loc, withElem(toElem), wide);
    }
    return arith::TruncFOp::create(b, loc, withElem(toElem), value);
  }
  if (getElementBits(fromElem) < getElementBits(toElem))
    return arith::ExtSIOp::create(b, loc, withElem(toElem), value);
  return arith::TruncIOp::create(b, loc, withElem(toElem), value);
}

//===----------------------------------------------------------------------===//
// Global views
//===----------------------------------------------------------------------===//

/// The ABI values of one global view: its pointer, every size and every
/// stride (i32; the innermost stride is the constant 1).
struct ViewABI {
  GlobalViewType type;
  Value ptr;
  SmallVector<Value, 4> sizes;
  SmallVector<Value, 4> strides;
};

/// Number of ABI values a view contributes after its pointer.
int64_t getNumDynamicDims(GlobalViewType type) {
  return type.getNumDynamicDims();
}

/// The kernel lowering replaces every !hk.gl argument by an unrealized cast
/// of its ABI values; accesses read them back from that cast.
FailureOr<ViewABI> getViewABI(OpBuilder &b, Location loc, Value view) {
  auto cast = view.getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast)
    return failure();
  ViewABI abi;
  abi.type = llvm::cast<GlobalViewType>(view.getType());
  ValueRange inputs = cast.getInputs();
  abi.ptr = inputs.front();
  size_t next = 1;
  for (int64_t dim : abi.type.getShape()) {
    if (ShapedType::isDynamic(dim))
      abi.sizes.push_back(inputs[next++]);
    else
      abi.sizes.push_back(constI32(b, loc, dim));
  }
  for (int64_t d = 0; d + 1 < abi.type.getRank(); ++d)
    abi.strides.push_back(inputs[next++]);
  abi.strides.push_back(constI32(b, loc, 1));
  return abi;
}

/// Where a wave's tile starts inside a view, and whether it lies inside.
struct TileOrigin {
  Value offset;     ///< Element offset of the tile's (0, 0).
  Value rowBase;    ///< Matrix row of the tile's first row.
  Value colBase;    ///< Matrix column of the tile's first column.
  Value rows, cols; ///< Matrix extent of the last two dimensions.
  Value rowStride;  ///< Elements between rows.
  Value outerValid; ///< Every outer index is inside the view.
};

TileOrigin locateTile(OpBuilder &b, Location loc, const ViewABI &view,
                      ValueRange indices, int64_t tileRows, int64_t tileCols) {
  int64_t rank = view.type.getRank();
  TileOrigin origin;
  SmallVector<Value> idx;
  for (Value index : indices)
    idx.push_back(toI32(b, loc, index));
  origin.rowBase = mulI32(b, loc, idx[rank - 2], tileRows);
  origin.colBase = mulI32(b, loc, idx[rank - 1], tileCols);
  origin.rows = view.sizes[rank - 2];
  origin.cols = view.sizes[rank - 1];
  origin.rowStride = view.strides[rank - 2];
  Value offset = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, origin.rowBase, origin.rowStride),
      origin.colBase);
  SmallVector<Value> outerChecks;
  for (int64_t d = 0; d + 2 < rank; ++d) {
    offset = arith::AddIOp::create(
        b, loc, offset, arith::MulIOp::create(b, loc, idx[d], view.strides[d]));
    outerChecks.push_back(ult(b, loc, idx[d], view.sizes[d]));
  }
  origin.offset = offset;
  origin.outerValid = andAll(b, loc, outerChecks);
  return origin;
}

/// A lane's share of a register tile: the lane-dependent row and column of
/// its elements, from the layout's lane terms.
struct LanePlacement {
  Value row, col;
};

LanePlacement placeLane(OpBuilder &b, Location loc,
                        const FragmentLayout &layout) {
  Value lane = laneId(b, loc);
  Value period = constI32(b, loc, layout.getPeriod());
  Value p = arith::RemUIOp::create(b, loc, lane, period);
  Value q = arith::DivUIOp::create(b, loc, lane, period);
  FragmentLayout::LaneTerms terms = layout.getLaneTerms();
  auto combine = [&](int64_t perP, int64_t perQ) {
    return arith::AddIOp::create(b, loc, mulI32(b, loc, p, perP),
                                 mulI32(b, loc, q, perQ));
  };
  return {combine(terms.rowPerP, terms.rowPerQ),
          combine(terms.colPerP, terms.colPerQ)};
}

/// One memory access of a lane: `width` consecutive columns of one row,
/// stored at `slot` onwards in the lane's vector.
struct AccessUnit {
  int64_t slot;
  int64_t row, col;
  int64_t width;
};

/// Splits a tile into the accesses of one lane; each is at most 16 bytes.
SmallVector<AccessUnit> enumerateAccesses(const FragmentLayout &layout,
                                          int64_t rows, int64_t cols,
                                          int64_t elementBytes) {
  int64_t width = std::max<int64_t>(
      1, std::min<int64_t>(layout.getColumnRun(), 16 / elementBytes));
  int64_t perBlock = layout.getElementsPerBlock();
  int64_t blocksPerRow = cols / layout.getBaseCols();
  SmallVector<AccessUnit> units;
  for (int64_t br = 0; br < rows / layout.getBaseRows(); ++br)
    for (int64_t bc = 0; bc < blocksPerRow; ++bc)
      for (int64_t s = 0; s < perBlock; s += width) {
        auto [slotRow, slotCol] = layout.getSlotOffset(s);
        units.push_back({(br * blocksPerRow + bc) * perBlock + s,
                         br * layout.getBaseRows() + slotRow,
                         bc * layout.getBaseCols() + slotCol, width});
      }
  return units;
}

Value elementPointer(OpBuilder &b, Location loc, Value ptr, Type memElem,
                     Value offset) {
  return LLVM::GEPOp::create(b, loc, ptr.getType(), memElem, ptr,
                             ArrayRef<LLVM::GEPArg>{offset});
}

/// Everything a global tile access needs, computed once per access op.
struct GlobalTileAccess {
  ViewABI view;
  TileOrigin origin;
  FragmentLayout layout;
  LanePlacement lane = {};
  Value laneOffset = {}; ///< Offset of the lane's (0, 0) element.
  Value laneRow = {};    ///< Matrix row of the lane's (0, 0) element.
  Value laneCol = {};    ///< Matrix column of the lane's (0, 0) element.
  Type memElem = {};
  int64_t rows = 0, cols = 0;
  SmallVector<AccessUnit> units = {};

  /// True when every element of the tile lies inside the view and rows
  /// start on a whole access (the vector path may be taken).
  Value isWholeTileInside(OpBuilder &b, Location loc) const {
    SmallVector<Value> checks = {
        origin.outerValid,
        ule(b, loc, addI32(b, loc, origin.rowBase, rows), origin.rows),
        ule(b, loc, addI32(b, loc, origin.colBase, cols), origin.cols)};
    int64_t width = units.empty() ? 1 : units.front().width;
    if (width > 1) {
      Value rem = arith::RemUIOp::create(b, loc, origin.rowStride,
                                         constI32(b, loc, width));
      checks.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             rem, constI32(b, loc, 0)));
    }
    return andAll(b, loc, checks);
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

  /// True when element (row, col) of the tile (relative to the lane's
  /// placement) lies inside the view.
  Value isInside(OpBuilder &b, Location loc, int64_t row, int64_t col) const {
    return andAll(b, loc,
                  {origin.outerValid,
                   ult(b, loc, addI32(b, loc, laneRow, row), origin.rows),
                   ult(b, loc, addI32(b, loc, laneCol, col), origin.cols)});
  }
};

FailureOr<GlobalTileAccess> prepareGlobalAccess(OpBuilder &b, Location loc,
                                                Value view, ValueRange indices,
                                                RegisterTileType tile) {
  FailureOr<ViewABI> abi = getViewABI(b, loc, view);
  if (failed(abi))
    return failure();
  GlobalTileAccess access{*abi, {}, *FragmentLayout::get(tile.getLayout())};
  access.memElem = getMemoryElementType(abi->type.getElementType());
  access.rows = tile.getRows();
  access.cols = tile.getCols();
  access.origin =
      locateTile(b, loc, access.view, indices, tile.getRows(), tile.getCols());
  access.lane = placeLane(b, loc, access.layout);
  access.laneRow =
      arith::AddIOp::create(b, loc, access.origin.rowBase, access.lane.row);
  access.laneCol =
      arith::AddIOp::create(b, loc, access.origin.colBase, access.lane.col);
  Value laneOffset = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, access.lane.row, access.origin.rowStride),
      access.lane.col);
  access.laneOffset =
      arith::AddIOp::create(b, loc, access.origin.offset, laneOffset);
  access.units =
      enumerateAccesses(access.layout, tile.getRows(), tile.getCols(),
                        getElementBytes(access.memElem));
  return access;
}

/// Loads a lane's elements; vector accesses when the tile is inside the
/// view, masked element accesses (zeros outside) otherwise.
Value emitGlobalTileLoad(OpBuilder &b, Location loc,
                         const GlobalTileAccess &access, int64_t perLane) {
  auto vecType = VectorType::get({perLane}, access.memElem);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{vecType},
                                access.isWholeTileInside(b, loc),
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value result = zeroOf(b, loc, vecType);
    int64_t bytes = getElementBytes(access.memElem);
    for (const AccessUnit &unit : access.units) {
      Value ptr = elementPointer(b, loc, access.view.ptr, access.memElem,
                                 access.offsetOf(b, loc, unit.row, unit.col));
      if (unit.width == 1) {
        Value v = LLVM::LoadOp::create(b, loc, access.memElem, ptr, bytes);
        result = vector::InsertOp::create(b, loc, v, result, unit.slot);
        continue;
      }
      auto unitType = VectorType::get({unit.width}, access.memElem);
      Value v = LLVM::LoadOp::create(b, loc, unitType, ptr, bytes * unit.width);
      result = vector::InsertStridedSliceOp::create(
          b, loc, v, result, ArrayRef<int64_t>{unit.slot},
          ArrayRef<int64_t>{1});
    }
    scf::YieldOp::create(b, loc, result);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    Value result = zeroOf(b, loc, vecType);
    int64_t bytes = getElementBytes(access.memElem);
    for (const AccessUnit &unit : access.units)
      for (int64_t e = 0; e < unit.width; ++e) {
        Value inside = access.isInside(b, loc, unit.row, unit.col + e);
        auto load = scf::IfOp::create(b, loc, TypeRange{access.memElem}, inside,
                                      /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(load.thenBlock());
          Value ptr =
              elementPointer(b, loc, access.view.ptr, access.memElem,
                             access.offsetOf(b, loc, unit.row, unit.col + e));
          scf::YieldOp::create(b, loc,
                               ValueRange{LLVM::LoadOp::create(
                                   b, loc, access.memElem, ptr, bytes)});
          b.setInsertionPointToStart(load.elseBlock());
          scf::YieldOp::create(b, loc,
                               ValueRange{zeroOf(b, loc, access.memElem)});
        }
        result = vector::InsertOp::create(b, loc, load.getResult(0), result,
                                          unit.slot + e);
      }
    scf::YieldOp::create(b, loc, result);
  }
  return ifOp.getResult(0);
}

/// Stores a lane's elements (already in memory element type); elements
/// outside the view are not written.
void emitGlobalTileStore(OpBuilder &b, Location loc,
                         const GlobalTileAccess &access, Value values) {
  auto ifOp =
      scf::IfOp::create(b, loc, TypeRange{}, access.isWholeTileInside(b, loc),
                        /*withElseRegion=*/true);
  int64_t bytes = getElementBytes(access.memElem);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (const AccessUnit &unit : access.units) {
      Value ptr = elementPointer(b, loc, access.view.ptr, access.memElem,
                                 access.offsetOf(b, loc, unit.row, unit.col));
      Value v;
      if (unit.width == 1)
        v = vector::ExtractOp::create(b, loc, values, unit.slot);
      else
        v = vector::ExtractStridedSliceOp::create(
            b, loc, values, ArrayRef<int64_t>{unit.slot},
            ArrayRef<int64_t>{unit.width}, ArrayRef<int64_t>{1});
      LLVM::StoreOp::create(b, loc, v, ptr, bytes * unit.width);
    }
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    for (const AccessUnit &unit : access.units)
      for (int64_t e = 0; e < unit.width; ++e) {
        Value inside = access.isInside(b, loc, unit.row, unit.col + e);
        auto store = scf::IfOp::create(b, loc, TypeRange{}, inside,
                                       /*withElseRegion=*/false);
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(store.thenBlock());
        Value ptr =
            elementPointer(b, loc, access.view.ptr, access.memElem,
                           access.offsetOf(b, loc, unit.row, unit.col + e));
        Value v = vector::ExtractOp::create(b, loc, values, unit.slot + e);
        LLVM::StoreOp::create(b, loc, v, ptr, bytes);
      }
  }
}

//===----------------------------------------------------------------------===//
// Kernels and ids
//===----------------------------------------------------------------------===//

/// hk.kernel -> llvm.func with the compact ABI.
struct KernelLowering : public OpConversionPattern<KernelOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(KernelOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
    Type i32 = rewriter.getI32Type();
    ArrayRef<Type> argTypes = op.getArgumentTypes();

    // Pointers, then sizes, then strides, then scalars.
    SmallVector<Type> abiTypes;
    SmallVector<int64_t> ptrIndex(argTypes.size(), -1),
        sizeIndex(argTypes.size(), -1), strideIndex(argTypes.size(), -1),
        scalarIndex(argTypes.size(), -1);
    for (auto [i, type] : llvm::enumerate(argTypes))
      if (isa<GlobalViewType>(type)) {
        ptrIndex[i] = abiTypes.size();
        abiTypes.push_back(ptrType);
      }
    for (auto [i, type] : llvm::enumerate(argTypes))
      if (auto view = dyn_cast<GlobalViewType>(type)) {
        sizeIndex[i] = abiTypes.size();
        abiTypes.append(getNumDynamicDims(view), i32);
      }
    for (auto [i, type] : llvm::enumerate(argTypes))
      if (auto view = dyn_cast<GlobalViewType>(type)) {
        strideIndex[i] = abiTypes.size();
        abiTypes.append(view.getRank() - 1, i32);
      }
    for (auto [i, type] : llvm::enumerate(argTypes))
      if (!isa<GlobalViewType>(type)) {
        scalarIndex[i] = abiTypes.size();
        abiTypes.push_back(type);
      }

    auto funcType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), abiTypes);
    auto func =
        LLVM::LLVMFuncOp::create(rewriter, loc, op.getSymName(), funcType);
    int64_t lanes = int64_t(op.getWaves()) * 64;
    func->setAttr("rocdl.kernel", rewriter.getUnitAttr());
    func->setAttr("rocdl.flat_work_group_size",
                  rewriter.getStringAttr(Twine(lanes) + "," + Twine(lanes)));
    func->setAttr(
        "rocdl.reqd_work_group_size",
        rewriter.getDenseI32ArrayAttr({static_cast<int32_t>(lanes), 1, 1}));

    Block *entry =
        rewriter.createBlock(&func.getBody(), {}, abiTypes,
                             SmallVector<Location>(abiTypes.size(), loc));
    SmallVector<Value> replacements;
    for (auto [i, type] : llvm::enumerate(argTypes)) {
      auto view = dyn_cast<GlobalViewType>(type);
      if (!view) {
        replacements.push_back(entry->getArgument(scalarIndex[i]));
        continue;
      }
      SmallVector<Value> parts = {entry->getArgument(ptrIndex[i])};
      for (int64_t d = 0; d < getNumDynamicDims(view); ++d)
        parts.push_back(entry->getArgument(sizeIndex[i] + d));
      for (int64_t d = 0; d + 1 < view.getRank(); ++d)
        parts.push_back(entry->getArgument(strideIndex[i] + d));
      replacements.push_back(
          UnrealizedConversionCastOp::create(rewriter, loc, type, parts)
              .getResult(0));
    }
    rewriter.mergeBlocks(&op.getBody().front(), entry, replacements);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnLowering : public OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    return success();
  }
};

Value indexFromI32(OpBuilder &b, Location loc, Value value) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), value);
}

struct WaveIdLowering : public OpConversionPattern<WaveIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaveIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value wave = arith::ShRUIOp::create(rewriter, loc, threadId(rewriter, loc),
                                        constI32(rewriter, loc, 6));
    // Uniform across the wave: keep it in a scalar register.
    wave = ROCDL::ReadfirstlaneOp::create(rewriter, loc, rewriter.getI32Type(),
                                          wave);
    rewriter.replaceOp(op, indexFromI32(rewriter, loc, wave));
    return success();
  }
};

struct BlockIdLowering : public OpConversionPattern<BlockIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value id;
    switch (op.getDim()) {
    case Dim::X:
      id = ROCDL::BlockIdXOp::create(rewriter, loc, i32);
      break;
    case Dim::Y:
      id = ROCDL::BlockIdYOp::create(rewriter, loc, i32);
      break;
    case Dim::Z:
      id = ROCDL::BlockIdZOp::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOp(op, indexFromI32(rewriter, loc, id));
    return success();
  }
};

/// Blocks per grid dimension, from the HSA dispatch packet: grid_size_{x,y,z}
/// (work-items, at bytes 12/16/20) over workgroup_size_{x,y,z} (u16 at bytes
/// 4/6/8).
struct GridDimLowering : public OpConversionPattern<GridDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GridDimOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto constPtr = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/4);
    Value packet =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, Type(constPtr),
            rewriter.getStringAttr("llvm.amdgcn.dispatch.ptr"), ValueRange{})
            .getResult(0);
    int64_t dim = static_cast<int64_t>(op.getDim());
    Type i8 = rewriter.getI8Type();
    auto fieldPtr = [&](int64_t byte) {
      return LLVM::GEPOp::create(rewriter, loc, constPtr, i8, packet,
                                 ArrayRef<LLVM::GEPArg>{byte});
    };
    Value gridSize = LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(),
                                          fieldPtr(12 + 4 * dim), 4);
    Value groupSize = LLVM::LoadOp::create(rewriter, loc, rewriter.getI16Type(),
                                           fieldPtr(4 + 2 * dim), 2);
    groupSize =
        arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), groupSize);
    Value blocks = arith::DivUIOp::create(rewriter, loc, gridSize, groupSize);
    rewriter.replaceOp(op, indexFromI32(rewriter, loc, blocks));
    return success();
  }
};

struct DimLowering : public OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ViewABI> abi =
        getViewABI(rewriter, op.getLoc(), adaptor.getView());
    if (failed(abi))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    rewriter.replaceOp(op,
                       indexFromI32(rewriter, op.getLoc(),
                                    abi->sizes[op.getIndexAttr().getInt()]));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

struct GlobalLoadLowering : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = dyn_cast<RegisterTileType>(op.getType());
    if (!tile || !isa<GlobalViewType>(op.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not a global tile load");
    Location loc = op.getLoc();
    FailureOr<GlobalTileAccess> access = prepareGlobalAccess(
        rewriter, loc, adaptor.getSource(), adaptor.getIndices(), tile);
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Value raw =
        emitGlobalTileLoad(rewriter, loc, *access, tile.getNumElements() / 64);
    rewriter.replaceOp(
        op, convertElements(rewriter, loc, raw, tile.getElementType()));
    return success();
  }
};

struct GlobalStoreLowering : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = dyn_cast<RegisterTileType>(op.getValue().getType());
    if (!tile || !isa<GlobalViewType>(op.getDest().getType()))
      return rewriter.notifyMatchFailure(op, "not a global tile store");
    Location loc = op.getLoc();
    FailureOr<GlobalTileAccess> access = prepareGlobalAccess(
        rewriter, loc, adaptor.getDest(), adaptor.getIndices(), tile);
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Type viewElem =
        cast<GlobalViewType>(op.getDest().getType()).getElementType();
    Value values = convertElements(rewriter, loc, adaptor.getValue(), viewElem);
    values = convertElements(rewriter, loc, values, access->memElem);
    emitGlobalTileStore(rewriter, loc, *access, values);
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Creation, conversion and elementwise math
//===----------------------------------------------------------------------===//

struct ZeroLowering : public OpConversionPattern<ZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ZeroOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || !isa<VectorType>(type))
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    rewriter.replaceOp(op, zeroOf(rewriter, op.getLoc(), type));
    return success();
  }
};

struct FillLowering : public OpConversionPattern<FillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || !isa<VectorType>(type))
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getValue());
    return success();
  }
};

struct ConvertLowering : public OpConversionPattern<ConvertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_if_present<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    rewriter.replaceOp(op, convertElements(rewriter, op.getLoc(),
                                           adaptor.getSource(),
                                           type.getElementType()));
    return success();
  }
};

struct ConvertLayoutLowering : public OpConversionPattern<ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = dyn_cast<RegisterTileType>(op.getSource().getType());
    auto to = dyn_cast<RegisterTileType>(op.getType());
    if (!from || !to ||
        !layoutsEquivalent(from.getLayout(), to.getLayout(), from.getRows(),
                           from.getCols()))
      return rewriter.notifyMatchFailure(op, "layouts move data");
    rewriter.replaceOp(op, adaptor.getSource());
    return success();
  }
};

template <typename SourceOp, typename FloatOp, typename IntOp>
struct BinaryLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_if_present<VectorType>(
        this->getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    Value rhs = adaptor.getRhs();
    if (!isa<VectorType>(rhs.getType()))
      rhs = vector::BroadcastOp::create(rewriter, op.getLoc(), type, rhs);
    if (isa<FloatType>(type.getElementType()))
      rewriter.replaceOpWithNewOp<FloatOp>(op, adaptor.getLhs(), rhs);
    else
      rewriter.replaceOpWithNewOp<IntOp>(op, adaptor.getLhs(), rhs);
    return success();
  }
};

template <typename SourceOp, typename TargetOp>
struct UnaryLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa_and_present<VectorType>(
            this->getTypeConverter()->convertType(op.getType())))
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    rewriter.replaceOpWithNewOp<TargetOp>(op, adaptor.getSource());
    return success();
  }
};

struct ReluLowering : public OpConversionPattern<ReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_if_present<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    Value zero = zeroOf(rewriter, op.getLoc(), type);
    rewriter.replaceOpWithNewOp<arith::MaxNumFOp>(op, adaptor.getSource(),
                                                  zero);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Synchronization and clusters
//===----------------------------------------------------------------------===//

struct BarrierLowering : public OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Completes this wave's LDS traffic, then meets the other waves.
    rewriter.replaceOpWithNewOp<amdgpu::LDSBarrierOp>(op);
    return success();
  }
};

/// Without tokens to count, a wait drains every counter.
struct WaitLowering : public OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getTokens().empty())
      return rewriter.notifyMatchFailure(op, "token waits need exact counts");
    rewriter.replaceOpWithNewOp<amdgpu::MemoryCounterWaitOp>(
        op, rewriter.getI32IntegerAttr(0), rewriter.getI32IntegerAttr(0),
        rewriter.getI32IntegerAttr(0), IntegerAttr(), IntegerAttr());
    return success();
  }
};

struct ClusterLowering : public OpConversionPattern<ClusterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClusterOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Value> results(yield.getValues());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&body, op);
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Reports what the lowering cannot handle with a message that says what to
/// do, before dialect conversion would report a bare legalization failure.
LogicalResult checkLowerable(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto tile = dyn_cast<RegisterTileType>(type);
      if (tile && !tile.getLayout()) {
        op->emitError() << "register tile " << tile
                        << " has no layout; run hk-mfma-layout first";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct ConvertHKToAMDGPUPass
    : public hk::impl::ConvertHKToAMDGPUBase<ConvertHKToAMDGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkLowerable(module)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    HKTypeConverter typeConverter;
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<HKDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, ROCDL::ROCDLDialect,
                           amdgpu::AMDGPUDialect, arith::ArithDialect,
                           math::MathDialect, vector::VectorDialect>();
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
    scf::populateSCFStructuralTypeConversionsAndLegality(typeConverter,
                                                         patterns, target);

    patterns.add<KernelLowering, ReturnLowering, WaveIdLowering,
                 BlockIdLowering, GridDimLowering, DimLowering,
                 GlobalLoadLowering, GlobalStoreLowering, ZeroLowering,
                 FillLowering, ConvertLowering, ConvertLayoutLowering,
                 ReluLowering, BarrierLowering, WaitLowering, ClusterLowering>(
        typeConverter, ctx);
    patterns.add<BinaryLowering<AddOp, arith::AddFOp, arith::AddIOp>,
                 BinaryLowering<SubOp, arith::SubFOp, arith::SubIOp>,
                 BinaryLowering<MulOp, arith::MulFOp, arith::MulIOp>,
                 BinaryLowering<DivOp, arith::DivFOp, arith::DivSIOp>,
                 BinaryLowering<MaxOp, arith::MaxNumFOp, arith::MaxSIOp>,
                 BinaryLowering<MinOp, arith::MinNumFOp, arith::MinSIOp>>(
        typeConverter, ctx);
    patterns.add<
        UnaryLowering<Exp2Op, math::Exp2Op>, UnaryLowering<ExpOp, math::ExpOp>,
        UnaryLowering<LogOp, math::LogOp>, UnaryLowering<Log2Op, math::Log2Op>,
        UnaryLowering<AbsOp, math::AbsFOp>, UnaryLowering<NegOp, arith::NegFOp>,
        UnaryLowering<SqrtOp, math::SqrtOp>,
        UnaryLowering<RsqrtOp, math::RsqrtOp>>(typeConverter, ctx);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // The view casts have served their purpose.
    module.walk([](UnrealizedConversionCastOp cast) {
      if (cast->use_empty() && cast.getNumResults() == 1 &&
          isa<GlobalViewType>(cast.getResult(0).getType()))
        cast.erase();
    });
  }
};

} // namespace
