//===- Lowering.cpp - Shared pieces of the hk to AMDGPU lowering ----------===//

#include "Lowering.h"

#include "hk/Dialect/HK/IR/SharedMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

HKTypeConverter::HKTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RegisterTileType type) -> Type {
    if (!FragmentLayout::get(type.getLayout()))
      return Type();
    return VectorType::get({type.getNumElements() / 64}, type.getElementType());
  });
  addConversion([](RegisterVectorType type) -> Type {
    auto layout = dyn_cast_if_present<VectorLayoutAttr>(type.getLayout());
    if (!layout)
      return Type();
    FragmentLayout fragment = *FragmentLayout::get(layout.getTile());
    return VectorType::get(
        {fragment.getVectorElementsPerLane(layout.getRows(), type.getLength())},
        type.getElementType());
  });
  auto ldsPointer = [](Type type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), /*addressSpace=*/3);
  };
  addConversion([=](SharedTileType type) { return ldsPointer(type); });
  addConversion([](TokenType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  addConversion([=](SharedVectorType type) { return ldsPointer(type); });
}

Type lowering::getMemoryElementType(Type type) {
  if (isFnuzFp8(type) || isOcpFp8(type))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

int64_t lowering::getElementBytes(Type type) {
  return getElementBits(type) / 8;
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

static int64_t getTileBytes(RegisterTileType type) {
  return type.getNumElements() * getElementBytes(type.getElementType());
}

/// Bytes a layout conversion of `type` moves through the wave's scratch.
static int64_t getScratchBytes(Type type) {
  if (auto tile = dyn_cast<RegisterTileType>(type))
    return getTileBytes(tile);
  auto vector = cast<RegisterVectorType>(type);
  return vector.getLength() * getElementBytes(vector.getElementType());
}

bool lowering::conversionMovesData(ConvertLayoutOp op) {
  if (auto from = dyn_cast<RegisterVectorType>(op.getSource().getType()))
    return !vectorLayoutsEquivalent(
        from.getLayout(), cast<RegisterVectorType>(op.getType()).getLayout(),
        from.getLength());
  auto from = dyn_cast<RegisterTileType>(op.getSource().getType());
  auto to = dyn_cast<RegisterTileType>(op.getType());
  return from && to &&
         !layoutsEquivalent(from.getLayout(), to.getLayout(), from.getRows(),
                            from.getCols());
}

static std::string ldsGlobalName(StringRef kernel) {
  return (kernel + "__lds").str();
}

void LdsPlan::markTileAccess(Operation *op) const {
  auto scopes = ArrayAttr::get(op->getContext(), {directScope});
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    load.setNoaliasScopesAttr(scopes);
  else if (auto store = dyn_cast<LLVM::StoreOp>(op))
    store.setNoaliasScopesAttr(scopes);
  else if (auto read = dyn_cast<ROCDL::ds_read_tr16_b64>(op))
    read.setNoaliasScopesAttr(scopes);
}

Value LdsPlan::getWaveScratch(OpBuilder &b, Location loc, Operation *op) const {
  auto kernel = kernels.find(getKernelName(op));
  if (kernel == kernels.end() || !kernel->second.scratchPerWave)
    return Value();
  Value offset = arith::AddIOp::create(
      b, loc, constI32(b, loc, kernel->second.scratchOffset),
      arith::MulIOp::create(b, loc, waveId(b, loc),
                            constI32(b, loc, kernel->second.scratchPerWave)));
  return getLdsPointer(b, loc, op, offset);
}

LogicalResult lowering::planLds(ModuleOp module, LdsPlan &plan) {
  MLIRContext *ctx = module.getContext();
  auto domain =
      LLVM::AliasScopeDomainAttr::get(ctx, StringAttr::get(ctx, "hk.lds"));
  plan.directScope = LLVM::AliasScopeAttr::get(
      domain, StringAttr::get(ctx, "hk.direct_to_lds"));
  OpBuilder builder(module.getBodyRegion());
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    KernelLds lds;
    SharedMemoryLayout layout = layoutSharedMemory(kernel);
    for (auto [alloc, offset] : layout.offsets)
      plan.allocOffsets[alloc] = offset;
    lds.bytes = layout.bytes;
    kernel.walk([&](ConvertLayoutOp op) {
      if (conversionMovesData(op))
        lds.scratchPerWave = std::max(
            lds.scratchPerWave, getScratchBytes(op.getSource().getType()));
    });
    if (lds.scratchPerWave) {
      lds.scratchPerWave = llvm::alignTo(lds.scratchPerWave, 16);
      lds.scratchOffset = llvm::alignTo(lds.bytes, 16);
      lds.bytes = lds.scratchOffset + lds.scratchPerWave * kernel.getWaves();
    }
    const ChipInfo *chip = lookupTargetChip(kernel);
    if (chip && lds.bytes > chip->ldsBytesPerWorkgroup)
      return kernel.emitOpError()
             << "needs " << lds.bytes << " bytes of LDS including "
             << lds.scratchPerWave * kernel.getWaves()
             << " bytes of scratch for layout conversions, but " << chip->name
             << " has " << chip->ldsBytesPerWorkgroup;
    if (lds.bytes) {
      builder.setInsertionPoint(kernel);
      auto arrayType = LLVM::LLVMArrayType::get(builder.getI8Type(), lds.bytes);
      LLVM::GlobalOp::create(builder, kernel.getLoc(), arrayType,
                             /*isConstant=*/false, LLVM::Linkage::Internal,
                             ldsGlobalName(kernel.getSymName()), Attribute(),
                             /*alignment=*/16, /*addrSpace=*/3);
    }
    plan.kernels[kernel.getSymName()] = lds;
  }
  return success();
}

StringRef lowering::getKernelName(Operation *op) {
  for (Operation *cur = op; cur; cur = cur->getParentOp()) {
    if (auto kernel = dyn_cast<KernelOp>(cur))
      return kernel.getSymName();
    if (auto func = dyn_cast<LLVM::LLVMFuncOp>(cur))
      return func.getSymName();
  }
  return "";
}

Value lowering::getLdsPointer(OpBuilder &b, Location loc, Operation *op,
                              Value offset) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType,
                                         ldsGlobalName(getKernelName(op)));
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{offset});
}

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

Value lowering::constI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

Value lowering::toI32(OpBuilder &b, Location loc, Value index) {
  if (index.getType().isInteger(32))
    return index;
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
}

Value lowering::addI32(OpBuilder &b, Location loc, Value lhs, int64_t rhs) {
  if (rhs == 0)
    return lhs;
  return arith::AddIOp::create(b, loc, lhs, constI32(b, loc, rhs));
}

Value lowering::mulI32(OpBuilder &b, Location loc, Value lhs, int64_t rhs) {
  if (rhs == 1)
    return lhs;
  return arith::MulIOp::create(b, loc, lhs, constI32(b, loc, rhs));
}

Value lowering::ult(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs, rhs);
}

Value lowering::ule(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, lhs, rhs);
}

Value lowering::andAll(OpBuilder &b, Location loc, ArrayRef<Value> conditions) {
  Value result = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (Value condition : conditions)
    result = arith::AndIOp::create(b, loc, result, condition);
  return result;
}

Value lowering::zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

Value lowering::threadId(OpBuilder &b, Location loc) {
  return ROCDL::ThreadIdXOp::create(b, loc, b.getI32Type());
}

Value lowering::laneId(OpBuilder &b, Location loc) {
  return arith::AndIOp::create(b, loc, threadId(b, loc), constI32(b, loc, 63));
}

Value lowering::anyInWave(OpBuilder &b, Location loc, Value flags) {
  if (isa<VectorType>(flags.getType()))
    flags =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, flags);
  Value lanes = ROCDL::BallotOp::create(b, loc, b.getI64Type(), flags);
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, lanes,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0)));
}

/// Whether `op` is readfirstlane(workitem.id.x >> 6), the wave id.
static bool isWaveId(Operation &op) {
  auto first = dyn_cast<ROCDL::ReadfirstlaneOp>(op);
  if (!first)
    return false;
  auto shift = first->getOperand(0).getDefiningOp<arith::ShRUIOp>();
  if (!shift || !shift.getLhs().getDefiningOp<ROCDL::ThreadIdXOp>())
    return false;
  auto amount = shift.getRhs().getDefiningOp<arith::ConstantIntOp>();
  return amount && amount.value() == 6;
}

Value lowering::waveId(OpBuilder &b, Location loc) {
  // readfirstlane is convergent, so LLVM never moves it out of a loop, nor
  // anything computed from it (a prefetch's lane addresses, say). The wave
  // id is the same everywhere in the kernel: compute it at the entry of the
  // enclosing function, where every use sees it and loops stay free of it.
  OpBuilder::InsertionGuard guard(b);
  Region *region = b.getInsertionBlock()->getParent();
  while (Operation *parent = region->getParentOp()) {
    if (isa<FunctionOpInterface, KernelOp>(parent) ||
        !parent->getParentRegion())
      break;
    region = parent->getParentRegion();
  }
  Block &entry = region->front();
  // One computation per function: reuse the one an earlier use left at the
  // top of the entry block.
  for (Operation &op : entry) {
    if (isWaveId(op))
      return op.getResult(0);
    if (!isa<ROCDL::ThreadIdXOp, arith::ConstantOp, arith::ShRUIOp,
             ROCDL::ReadfirstlaneOp>(op))
      break;
  }
  b.setInsertionPointToStart(&entry);
  Value wave =
      arith::ShRUIOp::create(b, loc, threadId(b, loc), constI32(b, loc, 6));
  return ROCDL::ReadfirstlaneOp::create(b, loc, b.getI32Type(), wave);
}

Value lowering::indexFromI32(OpBuilder &b, Location loc, Value value) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), value);
}

void lowering::waveBarrier(OpBuilder &b, Location loc) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, "wavefront");
}

Value lowering::convertElements(OpBuilder &b, Location loc, Value value,
                                Type toElem) {
  Type type = value.getType();
  auto vecType = dyn_cast<VectorType>(type);
  Type fromElem = vecType ? vecType.getElementType() : type;
  if (fromElem == toElem)
    return value;
  auto withElem = [&](Type elem) -> Type {
    return vecType ? Type(VectorType::get(vecType.getShape(), elem)) : elem;
  };
  unsigned fromBits = getElementBits(fromElem), toBits = getElementBits(toElem);
  if (isa<IntegerType>(fromElem) != isa<IntegerType>(toElem) &&
      fromBits == toBits)
    return arith::BitcastOp::create(b, loc, withElem(toElem), value);
  if (isa<FloatType>(fromElem) && isa<FloatType>(toElem)) {
    if (fromBits < toBits)
      return arith::ExtFOp::create(b, loc, withElem(toElem), value);
    // Same-width float formats (f16 <-> bf16, fp8 <-> fp8) go through f32.
    if (fromBits == toBits)
      value = arith::ExtFOp::create(b, loc, withElem(b.getF32Type()), value);
    return arith::TruncFOp::create(b, loc, withElem(toElem), value);
  }
  if (fromBits < toBits)
    return arith::ExtSIOp::create(b, loc, withElem(toElem), value);
  return arith::TruncIOp::create(b, loc, withElem(toElem), value);
}

Value lowering::mapElements(OpBuilder &b, Location loc, Value value,
                            function_ref<Value(Value)> fn) {
  auto vecType = dyn_cast<VectorType>(value.getType());
  if (!vecType)
    return fn(value);
  SmallVector<Value> mapped;
  for (int64_t i = 0; i < vecType.getNumElements(); ++i)
    mapped.push_back(fn(vector::ExtractOp::create(b, loc, value, i)));
  return vector::FromElementsOp::create(b, loc, vecType, mapped);
}

Value lowering::insertAt(OpBuilder &b, Location loc, Value part, Value into,
                         int64_t slot) {
  if (!isa<VectorType>(part.getType()))
    return vector::InsertOp::create(b, loc, part, into, slot);
  return vector::InsertStridedSliceOp::create(
      b, loc, part, into, ArrayRef<int64_t>{slot}, ArrayRef<int64_t>{1});
}

Value lowering::extractAt(OpBuilder &b, Location loc, Value from, int64_t slot,
                          int64_t width) {
  if (width == 1)
    return vector::ExtractOp::create(b, loc, from, slot);
  return vector::ExtractStridedSliceOp::create(
      b, loc, from, ArrayRef<int64_t>{slot}, ArrayRef<int64_t>{width},
      ArrayRef<int64_t>{1});
}

//===----------------------------------------------------------------------===//
// Lanes and accesses
//===----------------------------------------------------------------------===//

LanePlacement lowering::placeLane(OpBuilder &b, Location loc,
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

SlotPlacement lowering::placeSlots(OpBuilder &b, Location loc,
                                   RegisterTileType tile) {
  FragmentLayout layout = *FragmentLayout::get(tile.getLayout());
  int64_t perBlock = layout.getElementsPerBlock();
  int64_t blocksPerRow = tile.getCols() / layout.getBaseCols();
  SlotPlacement placement{placeLane(b, loc, layout), {}, {}};
  for (int64_t slot = 0; slot < tile.getNumElements() / 64; ++slot) {
    int64_t block = slot / perBlock;
    auto [r, c] = layout.getSlotOffset(slot % perBlock);
    placement.rowOffsets.push_back(
        (block / blocksPerRow) * layout.getBaseRows() + r);
    placement.colOffsets.push_back(
        (block % blocksPerRow) * layout.getBaseCols() + c);
  }
  return placement;
}

VectorPlacement lowering::placeVector(OpBuilder &b, Location loc,
                                      RegisterVectorType type) {
  auto vecLayout = cast<VectorLayoutAttr>(type.getLayout());
  bool alongRows = vecLayout.getRows();
  FragmentLayout layout = *FragmentLayout::get(vecLayout.getTile());
  LanePlacement lane = placeLane(b, loc, layout);
  VectorPlacement placement{alongRows ? lane.row : lane.col, {}};
  for (int64_t index = 0,
               e = layout.getVectorElementsPerLane(alongRows, type.getLength());
       index < e; ++index)
    placement.offsets.push_back(
        layout.getVectorCoordinate(alongRows, 0, index));
  return placement;
}

SmallVector<Value> lowering::vectorCoordinates(OpBuilder &b, Location loc,
                                               RegisterVectorType type,
                                               Value base) {
  VectorPlacement placement = placeVector(b, loc, type);
  Value start = placement.lane;
  if (base)
    start = arith::AddIOp::create(b, loc, base, start);
  SmallVector<Value> coordinates;
  for (int32_t offset : placement.offsets)
    coordinates.push_back(addI32(b, loc, start, offset));
  return coordinates;
}

Value lowering::laneCoordinates(OpBuilder &b, Location loc, Value lane,
                                ArrayRef<int32_t> offsets) {
  auto type = VectorType::get({int64_t(offsets.size())}, b.getI32Type());
  Value constants = arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, offsets));
  return arith::AddIOp::create(
      b, loc, vector::BroadcastOp::create(b, loc, type, lane), constants);
}

//===----------------------------------------------------------------------===//
// Global views
//===----------------------------------------------------------------------===//

FailureOr<ViewABI> lowering::getViewABI(OpBuilder &b, Location loc,
                                        Value view) {
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

TileOrigin lowering::locateTile(OpBuilder &b, Location loc, const ViewABI &view,
                                ValueRange indices, int64_t tileRows,
                                int64_t tileCols) {
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

Value TileOrigin::isInside(OpBuilder &b, Location loc, int64_t tileRows,
                           int64_t tileCols, int64_t width) const {
  SmallVector<Value> checks = {
      outerValid, ule(b, loc, addI32(b, loc, rowBase, tileRows), rows),
      ule(b, loc, addI32(b, loc, colBase, tileCols), cols)};
  // Rows that do not overlap, so that a tile row's elements lie past every
  // element of the rows above it (direct copies rely on it; a view whose
  // rows overlap takes the edge path).
  if (tileRows > 1)
    checks.push_back(ule(b, loc, cols, rowStride));
  if (width > 1) {
    Value rem =
        arith::RemUIOp::create(b, loc, rowStride, constI32(b, loc, width));
    checks.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           rem, constI32(b, loc, 0)));
  }
  return andAll(b, loc, checks);
}

Value TileOrigin::contains(OpBuilder &b, Location loc, Value row,
                           Value col) const {
  return andAll(b, loc,
                {outerValid, ult(b, loc, row, rows), ult(b, loc, col, cols)});
}

/// How many of the indices from `base` on lie below `limit`: limit - base,
/// or 0 when base is past it.
static Value remainingFrom(OpBuilder &b, Location loc, Value base,
                           Value limit) {
  return arith::SelectOp::create(b, loc, ult(b, loc, base, limit),
                                 arith::SubIOp::create(b, loc, limit, base),
                                 constI32(b, loc, 0));
}

Value TileOrigin::containsTileElement(OpBuilder &b, Location loc, Value row,
                                      Value col) const {
  // Compared against what remains of the view past the tile's origin, not
  // as rowBase + row < rows: the remainders depend only on the tile's
  // (uniform) origin, so a loop moving the tile updates two scalars, and
  // the lanes' row and column within the tile stay loop invariants.
  return andAll(b, loc,
                {outerValid,
                 ult(b, loc, row, remainingFrom(b, loc, rowBase, rows)),
                 ult(b, loc, col, remainingFrom(b, loc, colBase, cols))});
}

Value TileOrigin::tileElementOffset(OpBuilder &b, Location loc, Value row,
                                    Value col) const {
  return arith::AddIOp::create(b, loc, offset,
                               withinTileOffset(b, loc, row, col));
}

Value TileOrigin::withinTileOffset(OpBuilder &b, Location loc, Value row,
                                   Value col) const {
  Value rowOffset = arith::MulIOp::create(b, loc, row, rowStride);
  return arith::AddIOp::create(b, loc, rowOffset, col);
}

Value lowering::elementPointer(OpBuilder &b, Location loc, Value ptr,
                               Type memElem, Value offset) {
  return LLVM::GEPOp::create(b, loc, ptr.getType(), memElem, ptr,
                             ArrayRef<LLVM::GEPArg>{offset});
}

/// A buffer over `ptr` whose range check ends after `bytes` (i32, wave
/// uniform).
static ViewBuffer makeBuffer(OpBuilder &b, Location loc, Value ptr, Value bytes,
                             int64_t elementBytes, const ChipInfo &chip) {
  // The resource must live in SGPRs. Its fields are uniform, but when the
  // backend computes one with vector instructions it no longer knows that
  // and wraps every buffer access in a waterfall loop; readfirstlane says
  // it.
  Value numRecords =
      ROCDL::ReadfirstlaneOp::create(b, loc, b.getI32Type(), bytes);
  auto rsrcType = LLVM::LLVMPointerType::get(b.getContext(), 8);
  Value stride = arith::ConstantIntOp::create(b, loc, 0, 16);
  Value flags = constI32(b, loc, chip.bufferResourceFlags);
  Value records64 = arith::ExtUIOp::create(b, loc, b.getI64Type(), numRecords);
  Value resource = ROCDL::MakeBufferRsrcOp::create(b, loc, rsrcType, ptr,
                                                   stride, records64, flags);
  return {resource, numRecords, elementBytes};
}

ViewBuffer lowering::makeViewBuffer(OpBuilder &b, Location loc,
                                    const ViewABI &view, Type memElem,
                                    const ChipInfo &chip) {
  // Elements spanned: 1 + sum((size_d - 1) * stride_d), or 0 when empty.
  Value span = constI32(b, loc, 1);
  Value empty = arith::ConstantIntOp::create(b, loc, 0, 1);
  for (auto [size, stride] : llvm::zip(view.sizes, view.strides)) {
    Value last = arith::SubIOp::create(b, loc, size, constI32(b, loc, 1));
    span = arith::AddIOp::create(b, loc, span,
                                 arith::MulIOp::create(b, loc, last, stride));
    empty = arith::OrIOp::create(
        b, loc, empty,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                              constI32(b, loc, 0)));
  }
  int64_t bytes = getElementBytes(memElem);
  return makeBuffer(b, loc, view.ptr,
                    arith::SelectOp::create(b, loc, empty, constI32(b, loc, 0),
                                            mulI32(b, loc, span, bytes)),
                    bytes, chip);
}

ViewBuffer lowering::makeLineBuffer(OpBuilder &b, Location loc,
                                    const ViewABI &view, Type memElem,
                                    const ChipInfo &chip, Value lineOffset,
                                    Value valid) {
  // Elements before the line's end: lineOffset + size of the last
  // dimension (the innermost stride is 1).
  int64_t bytes = getElementBytes(memElem);
  Value end = arith::AddIOp::create(b, loc, lineOffset, view.sizes.back());
  return makeBuffer(b, loc, view.ptr,
                    arith::SelectOp::create(b, loc, valid,
                                            mulI32(b, loc, end, bytes),
                                            constI32(b, loc, 0)),
                    bytes, chip);
}

Value ViewBuffer::maskedOffset(OpBuilder &b, Location loc, Value valid,
                               Value offset) const {
  return arith::SelectOp::create(
      b, loc, valid, mulI32(b, loc, offset, elementBytes), numRecords);
}

/// The type a buffer transfer of `type` is issued as. The AMDGPU backend
/// selects buffer loads and stores of whole dwords (or of one element of 8
/// or 16 bits); vectors of narrow elements such as `vector<16xi8>` are
/// therefore moved as dwords and bitcast.
static Type bufferTransferType(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.getElementType().getIntOrFloatBitWidth() >= 32)
    return type;
  unsigned bits =
      vector.getNumElements() * vector.getElementType().getIntOrFloatBitWidth();
  MLIRContext *ctx = type.getContext();
  if (bits % 32 == 0)
    return bits == 32 ? Type(IntegerType::get(ctx, 32))
                      : VectorType::get(bits / 32, IntegerType::get(ctx, 32));
  return IntegerType::get(ctx, bits);
}

Value ViewBuffer::load(OpBuilder &b, Location loc, Type type, Value byteOffset,
                       Value uniformByteOffset) const {
  Value zero = constI32(b, loc, 0);
  Type transfer = bufferTransferType(type);
  Value value = ROCDL::RawPtrBufferLoadOp::create(
      b, loc, transfer, resource, byteOffset,
      uniformByteOffset ? uniformByteOffset : zero, zero, ArrayAttr(),
      ArrayAttr(), ArrayAttr());
  if (transfer == type)
    return value;
  return LLVM::BitcastOp::create(b, loc, type, value);
}

void ViewBuffer::store(OpBuilder &b, Location loc, Value value,
                       Value byteOffset) const {
  Value zero = constI32(b, loc, 0);
  Type transfer = bufferTransferType(value.getType());
  if (transfer != value.getType())
    value = LLVM::BitcastOp::create(b, loc, transfer, value);
  ROCDL::RawPtrBufferStoreOp::create(b, loc, value, resource, byteOffset, zero,
                                     zero, ArrayAttr(), ArrayAttr(),
                                     ArrayAttr());
}

//===----------------------------------------------------------------------===//
// Shared tiles
//===----------------------------------------------------------------------===//

Value lowering::swizzledColumn(OpBuilder &b, Location loc, SharedTileType type,
                               Value row, Value col) {
  auto swizzle = dyn_cast_if_present<SwizzleAttr>(type.getSwizzle());
  if (!swizzle || swizzle.isIdentity())
    return col;
  unsigned vecLog = llvm::Log2_32(swizzle.getVec());
  unsigned perPhaseLog = llvm::Log2_32(swizzle.getPerPhase());
  Value group = arith::ShRUIOp::create(b, loc, col, constI32(b, loc, vecLog));
  Value within = arith::AndIOp::create(b, loc, col,
                                       constI32(b, loc, swizzle.getVec() - 1));
  Value phase = arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc, row, constI32(b, loc, perPhaseLog)),
      constI32(b, loc, swizzle.getPhaseMask()));
  if (swizzle.getFlip()) {
    // The top phase bit flips on odd runs of per_phase * max_phase rows:
    // row bit log2(run) moved down to bit log2(max_phase / 2).
    unsigned runLog = perPhaseLog + llvm::Log2_32(swizzle.getMaxPhase());
    unsigned topLog = llvm::Log2_32(swizzle.getMaxPhase() / 2);
    Value flipped = arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, row, constI32(b, loc, runLog - topLog)),
        constI32(b, loc, swizzle.getMaxPhase() / 2));
    phase = arith::XOrIOp::create(b, loc, phase, flipped);
  }
  Value permuted = arith::XOrIOp::create(b, loc, group, phase);
  return arith::OrIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, permuted, constI32(b, loc, vecLog)),
      within);
}

Value lowering::sharedElementOffset(OpBuilder &b, Location loc,
                                    SharedTileType type, Value row, Value col) {
  return arith::AddIOp::create(b, loc, mulI32(b, loc, row, type.getCols()),
                               swizzledColumn(b, loc, type, row, col));
}
