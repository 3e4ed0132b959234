//===- HKOps.cpp - hk operations ------------------------------------------===//

#include "hk/Dialect/HK/IR/HKOps.h"

#include "hk/Dialect/HK/IR/Layouts.h"
#include "hk/Dialect/HK/IR/SharedMemory.h"

#include "OpHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hk;
using namespace hk::detail;

//===----------------------------------------------------------------------===//
// Custom assembly helpers
//===----------------------------------------------------------------------===//

/// `: T` when both binary operands have type T, `: T, S` otherwise.
static ParseResult parseBinaryTypes(OpAsmParser &parser, Type &lhs, Type &rhs) {
  if (parser.parseType(lhs))
    return failure();
  if (succeeded(parser.parseOptionalComma()))
    return parser.parseType(rhs);
  rhs = lhs;
  return success();
}

static void printBinaryTypes(OpAsmPrinter &printer, Operation *, Type lhs,
                             Type rhs) {
  printer << lhs;
  if (rhs != lhs)
    printer << ", " << rhs;
}

#define GET_OP_CLASSES
#include "hk/Dialect/HK/IR/HKOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

std::optional<MfmaElement> hk::getMfmaElement(Type type) {
  if (type.isBF16())
    return MfmaElement::BF16;
  if (type.isF16())
    return MfmaElement::F16;
  if (type.isF32())
    return MfmaElement::F32;
  if (type.isSignlessInteger(8))
    return MfmaElement::I8;
  if (isa<Float8E4M3FNUZType, Float8E4M3FNType>(type))
    return MfmaElement::Fp8;
  if (isa<Float8E5M2FNUZType, Float8E5M2Type>(type))
    return MfmaElement::Bf8;
  return std::nullopt;
}

const MfmaInstr *hk::getMfmaInstr(const ChipInfo &chip, MmaOp mma) {
  MfmaShapeAttr shape = mma.getInstrAttr();
  if (!shape)
    return nullptr;
  const MfmaInstr *found = nullptr;
  for (const MfmaInstr *candidate :
       getMfmaCandidates(chip, mma.getA().getType().getElementType(),
                         mma.getB().getType().getElementType()))
    if (candidate->m == shape.getM() && candidate->n == shape.getN() &&
        candidate->k == shape.getK())
      found = candidate;
  return found;
}

SmallVector<const MfmaInstr *> hk::getMfmaCandidates(const ChipInfo &chip,
                                                     Type a, Type b) {
  SmallVector<const MfmaInstr *> result;
  std::optional<MfmaElement> ea = getMfmaElement(a);
  std::optional<MfmaElement> eb = getMfmaElement(b);
  if (!ea || !eb)
    return result;
  bool fp8 = (*ea == MfmaElement::Fp8 || *ea == MfmaElement::Bf8) &&
             (*eb == MfmaElement::Fp8 || *eb == MfmaElement::Bf8);
  for (const MfmaInstr &instr : chip.mfmaInstrs) {
    if (instr.blocks != 1 || instr.m != instr.n)
      continue;
    if ((instr.a == *ea && instr.b == *eb) || (instr.scaled && fp8))
      result.push_back(&instr);
  }
  return result;
}

MfmaOperand hk::getRequiredMfmaOperand(MmaForm form, bool isA) {
  bool kAlongColumns = isA ? (form == MmaForm::AB || form == MmaForm::ABt)
                           : (form == MmaForm::ABt || form == MmaForm::AtBt);
  return kAlongColumns ? MfmaOperand::A : MfmaOperand::B;
}

bool hk::hasAccumulatorOperands(MmaOp mma) {
  if (mma.getForm() != MmaForm::AtB)
    return false;
  auto isAcc16 = [](Type type) {
    auto layout = dyn_cast_if_present<MfmaLayoutAttr>(
        cast<RegisterTileType>(type).getLayout());
    return layout && layout.getOperand() == MfmaOperand::Acc &&
           layout.getM() == 16 && layout.getN() == 16;
  };
  return isAcc16(mma.getA().getType()) && isAcc16(mma.getB().getType());
}

static std::string shapeString(int64_t rows, int64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

static KernelOp getEnclosingKernel(Operation *op) {
  return op->getParentOfType<KernelOp>();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  StringAttr nameAttr;
  if (parser.parseSymbolName(nameAttr, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();

  // Keep each argument's source name on its location: the lowering names
  // the kernel's ABI arguments after it in the code object's metadata.
  for (OpAsmParser::Argument &arg : args)
    if (!arg.sourceLoc && arg.ssaName.name.size() > 1)
      arg.sourceLoc =
          NameLoc::get(builder.getStringAttr(arg.ssaName.name.drop_front()),
                       parser.getEncodedSourceLoc(arg.ssaName.location));

  int32_t waves = 0;
  if (parser.parseKeyword("waves") || parser.parseLParen() ||
      parser.parseInteger(waves) || parser.parseRParen())
    return failure();
  result.addAttribute(getWavesAttrName(result.name),
                      builder.getI32IntegerAttr(waves));

  if (succeeded(parser.parseOptionalKeyword("schedule"))) {
    Attribute schedule;
    if (parser.parseLParen() || parser.parseAttribute(schedule) ||
        parser.parseRParen())
      return failure();
    result.addAttribute(getScheduleAttrName(result.name), schedule);
  }

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &arg : args)
    argTypes.push_back(arg.type);
  result.addAttribute(
      getFunctionTypeAttrName(result.name),
      TypeAttr::get(builder.getFunctionType(argTypes, resultTypes)));
  call_interface_impl::addArgAndResultAttrs(builder, result, args, resultAttrs,
                                            getArgAttrsAttrName(result.name),
                                            getResAttrsAttrName(result.name));

  Region *body = result.addRegion();
  return parser.parseRegion(*body, args);
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  p << " waves(" << getWaves() << ")";
  if (Attribute schedule = getScheduleAttr()) {
    p << " schedule(";
    p.printAttribute(schedule);
    p << ")";
  }
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getWavesAttrName(), getScheduleAttrName(), getFunctionTypeAttrName(),
       getArgAttrsAttrName(), getResAttrsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

/// A block is at most 1024 lanes.
static constexpr int64_t kMaxWavesPerBlock = 16;

LogicalResult
hk::verifyScheduleFits(Attribute schedule, unsigned waves,
                       function_ref<InFlightDiagnostic()> emitError) {
  unsigned needed = 0;
  if (auto pingpong = dyn_cast<PingPongAttr>(schedule))
    needed = pingpong.getWaves();
  else if (auto interleave = dyn_cast<InterleaveAttr>(schedule))
    needed = interleave.getWaves();
  else
    return emitError() << "schedule must be #hk.pingpong or #hk.interleave, "
                          "got "
                       << schedule;
  if (needed != waves)
    return emitError() << "schedule " << schedule << " needs " << needed
                       << " waves, but the kernel has " << waves;
  return success();
}

LogicalResult KernelOp::verify() {
  if (getWaves() > kMaxWavesPerBlock)
    return emitOpError() << "a block holds at most " << kMaxWavesPerBlock
                         << " waves (1024 lanes), got " << getWaves();
  if (Attribute schedule = getScheduleAttr())
    if (failed(verifyScheduleFits(schedule, getWaves(),
                                  [&] { return emitOpError(); })))
      return failure();
  if (!getResultTypes().empty())
    return emitOpError() << "kernels return nothing, got "
                         << getResultTypes().size() << " result type(s)";
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<GlobalViewType>(type) && !type.isSignlessInteger(32) &&
        !type.isF32())
      return emitOpError() << "argument " << i
                           << " must be an !hk.gl, i32 or f32, got " << type;
  return success();
}

int64_t KernelOp::getSharedMemoryBytes() {
  return layoutSharedMemory(*this).bytes;
}

Operation *KernelOp::getScheduledLoop() {
  for (Operation &op : getBody().front())
    if (op.hasAttr(HKDialect::getScheduleAttrName()))
      return &op;
  return nullptr;
}

Attribute KernelOp::getEffectiveSchedule() {
  if (Attribute schedule = getScheduleAttr())
    return schedule;
  if (Operation *loop = getScheduledLoop())
    return loop->getAttr(HKDialect::getScheduleAttrName());
  return {};
}

LogicalResult KernelOp::verifyRegions() {
  // Every wave must run as many barriers as every other one.
  int64_t groupBarriers[2] = {0, 0};
  for (Operation &op : getBody().front())
    if (auto barrier = dyn_cast<BarrierOp>(op); barrier && barrier.getGroup())
      ++groupBarriers[*barrier.getGroup() & 1];
  if (groupBarriers[0] != groupBarriers[1])
    return emitOpError() << "wave-group barriers do not balance: group 0 runs "
                         << groupBarriers[0] << ", group 1 runs "
                         << groupBarriers[1]
                         << "; each group must run as many as the other";
  return success();
}

//===----------------------------------------------------------------------===//
// Ids
//===----------------------------------------------------------------------===//

LogicalResult DimOp::verify() {
  int64_t rank = getView().getType().getRank();
  int64_t index = getIndexAttr().getInt();
  if (index < 0 || index >= rank)
    return emitOpError() << "dimension " << index
                         << " is out of range for a rank-" << rank
                         << " global view";
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  if (!getEnclosingKernel(*this))
    return emitOpError() << "must be inside an hk.kernel";
  return success();
}

Type hk::detail::getElementTypeOf(Type type) {
  return llvm::TypeSwitch<Type, Type>(type)
      .Case<RegisterTileType, RegisterVectorType, SharedTileType,
            SharedVectorType, GlobalViewType>(
          [](auto t) { return t.getElementType(); })
      .Default([](Type t) { return t; });
}

/// Checks a register <-> memory transfer (hk.load / hk.store): index count,
/// shapes and element-type conversion.
static LogicalResult verifyTransfer(Operation *op, Type memType, Type regType,
                                    size_t numIndices) {
  Type memElem = getElementTypeOf(memType);
  Type regElem = getElementTypeOf(regType);
  if (memElem != regElem &&
      !(isa<FloatType>(memElem) && isa<FloatType>(regElem)))
    return op->emitOpError() << "converts only between float element types, "
                                "got "
                             << memElem << " and " << regElem;

  if (auto view = dyn_cast<GlobalViewType>(memType)) {
    if (numIndices != size_t(view.getRank()))
      return op->emitOpError()
             << "expects " << view.getRank() << " indices for a rank-"
             << view.getRank() << " global view, got " << numIndices;
    if (isa<RegisterTileType>(regType) && view.getRank() < 2)
      return op->emitOpError()
             << "moves a 2-D register tile, which needs a global view of "
                "rank 2 or more, got rank "
             << view.getRank();
    return success();
  }

  if (auto shared = dyn_cast<SharedTileType>(memType)) {
    auto tile = dyn_cast<RegisterTileType>(regType);
    if (!tile)
      return op->emitOpError() << "moves a shared tile to or from a register "
                                  "tile, not "
                               << regType;
    if (numIndices == 0) {
      if (tile.getShape() != shared.getShape())
        return op->emitOpError()
               << "register tile "
               << shapeString(tile.getRows(), tile.getCols())
               << " must match shared tile "
               << shapeString(shared.getRows(), shared.getCols())
               << " (or index one of its subtiles)";
      return success();
    }
    if (numIndices != 2)
      return op->emitOpError()
             << "expects 0 or 2 subtile indices for a shared tile, got "
             << numIndices;
    if (shared.getRows() % tile.getRows() != 0 ||
        shared.getCols() % tile.getCols() != 0)
      return op->emitOpError()
             << "register tile " << shapeString(tile.getRows(), tile.getCols())
             << " does not divide shared tile "
             << shapeString(shared.getRows(), shared.getCols())
             << " into subtiles";
    return success();
  }

  auto shared = cast<SharedVectorType>(memType);
  auto vec = dyn_cast<RegisterVectorType>(regType);
  if (!vec)
    return op->emitOpError() << "moves a shared vector to or from a register "
                                "vector, not "
                             << regType;
  if (numIndices > 1)
    return op->emitOpError()
           << "expects 0 or 1 index for a shared vector, got " << numIndices;
  if (shared.getLength() % vec.getLength() != 0 ||
      (numIndices == 0 && shared.getLength() != vec.getLength()))
    return op->emitOpError()
           << "register vector of " << vec.getLength()
           << " does not match shared vector of " << shared.getLength();
  return success();
}

/// A transfer path names how global memory is accessed; direct-to-LDS only
/// makes sense for a group load.
static LogicalResult verifyPath(Operation *op, Type memType,
                                std::optional<TransferPath> path,
                                bool directAllowed) {
  if (!path)
    return success();
  if (!isa<GlobalViewType>(memType))
    return op->emitOpError() << "path #hk.path<" << stringifyTransferPath(*path)
                             << "> applies to global memory, not " << memType;
  if (*path == TransferPath::Direct && !directAllowed)
    return op->emitOpError()
           << "direct-to-LDS transfers are for hk.group_load only";
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyPath(*this, getSource().getType(), getPath(),
                        /*directAllowed=*/false)))
    return failure();
  return verifyTransfer(*this, getSource().getType(), getResult().getType(),
                        getIndices().size());
}

LogicalResult StoreOp::verify() {
  if (failed(verifyPath(*this, getDest().getType(), getPath(),
                        /*directAllowed=*/false)))
    return failure();
  if (failed(verifyTransfer(*this, getDest().getType(), getValue().getType(),
                            getIndices().size())))
    return failure();
  SharedTileType stage = getStage() ? getStage().getType() : nullptr;
  if (!stage) {
    if (getStaged())
      return emitOpError() << "is 'staged' but names no shared tile to copy "
                              "from (`via %tile[i, j]`)";
    return success();
  }
  auto view = dyn_cast<GlobalViewType>(getDest().getType());
  if (!view || !isa<RegisterTileType>(getValue().getType()))
    return emitOpError()
           << "stores via a shared tile only a register tile to a global "
              "view";
  if (stage.getElementType() != view.getElementType())
    return emitOpError() << "stages " << view.getElementType()
                         << " elements in a shared tile of "
                         << stage.getElementType()
                         << "; the two must hold the same type";
  return verifyTransfer(*this, stage, getValue().getType(),
                        getStageIndices().size());
}

/// Checks a cooperative global <-> shared copy.
static LogicalResult verifyGroupCopy(Operation *op, GlobalViewType view,
                                     SharedTileType shared, size_t numIndices,
                                     std::optional<uint32_t> waves) {
  if (view.getRank() < 2)
    return op->emitOpError() << "copies a 2-D shared tile, which needs a "
                                "global view of rank 2 or more, got rank "
                             << view.getRank();
  if (numIndices != size_t(view.getRank()))
    return op->emitOpError()
           << "expects " << view.getRank() << " indices for a rank-"
           << view.getRank() << " global view, got " << numIndices;
  if (view.getElementType() != shared.getElementType())
    return op->emitOpError()
           << "copies raw elements, but the global view holds "
           << view.getElementType() << " and the shared tile "
           << shared.getElementType();
  if (waves) {
    KernelOp kernel = getEnclosingKernel(op);
    if (kernel && *waves > kernel.getWaves())
      return op->emitOpError()
             << "uses a group of " << *waves << " waves, but the kernel has "
             << kernel.getWaves();
  }
  return success();
}

/// `hk.wait` or `hk.wait [%t0, %t1]`.
ParseResult WaitOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> tokens;
  if (parser.parseOperandList(tokens, OpAsmParser::Delimiter::OptionalSquare))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("fence")))
    result.addAttribute(getFenceAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  SMLoc dictLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  // The attribute dictionary may name it too, as a unit attribute only
  // (anything else would be dropped silently on the way to the property).
  Attribute fence = result.attributes.get(getFenceAttrName(result.name));
  if (fence && !isa<UnitAttr>(fence))
    return parser.emitError(dictLoc)
           << "'fence' is a unit attribute: write `hk.wait fence`";
  Type tokenType = TokenType::get(parser.getContext());
  return parser.resolveOperands(tokens, tokenType, result.operands);
}

void WaitOp::print(OpAsmPrinter &p) {
  if (!getTokens().empty()) {
    p << " [";
    p.printOperands(getTokens());
    p << "]";
  }
  if (getFence())
    p << " fence";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          /*elidedAttrs=*/{getFenceAttrName()});
}

LogicalResult WaitOp::verify() {
  if (!getFence())
    return success();
  if (!getTokens().empty())
    return emitOpError() << "fence waits for every outstanding memory "
                            "operation; it takes no tokens";
  auto kernel = dyn_cast_if_present<KernelOp>((*this)->getParentOp());
  auto loop = dyn_cast_if_present<scf::ForOp>((*this)->getPrevNode());
  if (!kernel || !loop ||
      !isa_and_present<PingPongAttr>(kernel.getEffectiveSchedule()))
    return emitOpError() << "fence must directly follow the main loop of a "
                            "#hk.pingpong kernel, in the kernel body";
  return success();
}

LogicalResult InBoundsOp::verify() {
  return verifyGroupCopy(*this, getSource().getType(), getDest().getType(),
                         getIndices().size(), std::nullopt);
}

LogicalResult GroupLoadOp::verify() {
  if (getAsync() != bool(getToken()))
    return emitOpError() << (getAsync() ? "async group load must return a "
                                          "!hk.token"
                                        : "synchronous group load returns no "
                                          "token; add 'async'");
  if (failed(verifyGroupCopy(*this, getSource().getType(), getDest().getType(),
                             getIndices().size(), getWaves())))
    return failure();
  if (getPath() != TransferPath::Direct)
    return success();
  if (getTranspose())
    return emitOpError() << "transposes through registers; a direct-to-LDS "
                            "load cannot transpose";
  return success();
}

LogicalResult GroupStoreOp::verify() {
  if (getPath() == TransferPath::Direct)
    return emitOpError()
           << "direct-to-LDS transfers are for hk.group_load only";
  return verifyGroupCopy(*this, getDest().getType(), getSource().getType(),
                         getIndices().size(), getWaves());
}

//===----------------------------------------------------------------------===//
// Creation and conversion
//===----------------------------------------------------------------------===//

LogicalResult ZeroOp::verify() { return success(); }

LogicalResult FillOp::verify() {
  Type elem = getElementTypeOf(getType());
  if (getValue().getType() != elem)
    return emitOpError() << "fill value of type " << getValue().getType()
                         << " does not match element type " << elem;
  return success();
}

/// Shape (tile) or length (vector) of a register value, and its layout.
bool hk::detail::sameShape(Type a, Type b) {
  if (auto ta = dyn_cast<RegisterTileType>(a))
    if (auto tb = dyn_cast<RegisterTileType>(b))
      return ta.getShape() == tb.getShape();
  if (auto va = dyn_cast<RegisterVectorType>(a))
    if (auto vb = dyn_cast<RegisterVectorType>(b))
      return va.getLength() == vb.getLength();
  return false;
}

Attribute hk::detail::getLayoutOf(Type type) {
  if (auto tile = dyn_cast<RegisterTileType>(type))
    return tile.getLayout();
  return cast<RegisterVectorType>(type).getLayout();
}

LogicalResult ConvertOp::verify() {
  Type src = getSource().getType(), dst = getType();
  if (!sameShape(src, dst))
    return emitOpError() << "changes element types only, but " << src << " and "
                         << dst << " differ in kind or shape";
  if (getLayoutOf(src) != getLayoutOf(dst))
    return emitOpError() << "keeps the layout; use hk.convert_layout to move "
                            "between "
                         << getLayoutOf(src) << " and " << getLayoutOf(dst);
  return verifyElementConversion(*this, getElementTypeOf(src),
                                 getElementTypeOf(dst));
}

LogicalResult ConvertLayoutOp::verify() {
  Type src = getSource().getType(), dst = getType();
  if (!sameShape(src, dst) || getElementTypeOf(src) != getElementTypeOf(dst))
    return emitOpError() << "changes the layout only, but " << src << " and "
                         << dst << " differ in kind, shape or element type";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  // Chains of conversions collapse onto the first source.
  if (auto producer = getSource().getDefiningOp<ConvertLayoutOp>())
    if (producer.getSource().getType() == getType())
      return producer.getSource();
  return {};
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

int64_t MmaOp::getK() {
  RegisterTileType a = getA().getType();
  bool aHasKInColumns = getForm() == MmaForm::AB || getForm() == MmaForm::ABt;
  return aHasKInColumns ? a.getCols() : a.getRows();
}

/// Checks the operands' MFMA layouts against their roles, each other and
/// the pinned instruction. Every MFMA layout names the same M x N block.
/// A and B name the same K per block, which may be a multiple of the
/// instruction's: each lane then holds that many consecutive K elements per
/// block and feeds them to several instructions, in an order both operands
/// share, so the sum over K is unchanged.
static LogicalResult verifyMmaLayouts(MmaOp op, MfmaShapeAttr pinned) {
  struct Operand {
    StringRef name;
    RegisterTileType type;
    MfmaOperand role;
  };
  // Two accumulator-laid operands of `atb` (hasAccumulatorOperands) pair
  // their K order; they need a 16x16 instruction.
  bool accOperands = hasAccumulatorOperands(op);
  if (accOperands && pinned &&
      (pinned.getM() != 16 || pinned.getN() != 16 || pinned.getK() % 16))
    return op.emitOpError()
           << "multiplies operands in the 16x16 accumulator layout, which "
              "needs a 16x16xK instruction with K a multiple of 16, got "
           << pinned;
  MfmaOperand aRole = accOperands ? MfmaOperand::Acc
                                  : getRequiredMfmaOperand(op.getForm(), true);
  MfmaOperand bRole = accOperands ? MfmaOperand::Acc
                                  : getRequiredMfmaOperand(op.getForm(), false);
  Operand operands[] = {{"A", op.getA().getType(), aRole},
                        {"B", op.getB().getType(), bRole},
                        {"C", op.getAcc().getType(), MfmaOperand::Acc}};
  std::optional<MfmaLayoutAttr> blockOwner, kOwner;
  StringRef blockName, kName;
  for (const Operand &operand : operands) {
    auto layout = dyn_cast_if_present<MfmaLayoutAttr>(operand.type.getLayout());
    if (!layout)
      continue;
    if (layout.getOperand() != operand.role)
      return op.emitOpError()
             << "operand " << operand.name << " of '"
             << stringifyMmaForm(op.getForm()) << "' needs the '"
             << stringifyMfmaOperand(operand.role) << "' MFMA layout, got "
             << layout;
    if (pinned &&
        (layout.getM() != pinned.getM() || layout.getN() != pinned.getN()))
      return op.emitOpError()
             << "operand " << operand.name << " is laid out for "
             << layout.getM() << "x" << layout.getN()
             << " blocks, but the pinned instruction is " << pinned;
    if (blockOwner && (blockOwner->getM() != layout.getM() ||
                       blockOwner->getN() != layout.getN()))
      return op.emitOpError()
             << "operand " << operand.name << " is laid out for "
             << layout.getM() << "x" << layout.getN() << " blocks, but operand "
             << blockName << " for " << blockOwner->getM() << "x"
             << blockOwner->getN();
    blockOwner = layout;
    blockName = operand.name;
    if (operand.role == MfmaOperand::Acc)
      continue;
    if (kOwner && kOwner->getK() != layout.getK())
      return op.emitOpError()
             << "operands A and B must hold the same K per block; operand "
             << kName << " holds " << kOwner->getK() << ", operand "
             << operand.name << " " << layout.getK();
    kOwner = layout;
    kName = operand.name;
    if (pinned && layout.getK() % pinned.getK() != 0)
      return op.emitOpError()
             << "operand " << operand.name << " holds " << layout.getK()
             << " K elements per block, not a multiple of the pinned "
             << pinned;
  }
  return success();
}

LogicalResult MmaOp::verify() {
  RegisterTileType a = getA().getType(), b = getB().getType(),
                   acc = getAcc().getType();
  MmaForm form = getForm();
  int64_t m = acc.getRows(), n = acc.getCols(), k = getK();

  bool aTransposed = form == MmaForm::AtB || form == MmaForm::AtBt;
  bool bTransposed = form == MmaForm::ABt || form == MmaForm::AtBt;
  int64_t aOther = aTransposed ? a.getCols() : a.getRows();
  if (aOther != m)
    return emitOpError() << "operand A of '" << stringifyMmaForm(form)
                         << "' must be " << (aTransposed ? "KxM" : "MxK")
                         << " with M = " << m << " (the accumulator's rows), "
                         << "got " << shapeString(a.getRows(), a.getCols());
  int64_t bK = bTransposed ? b.getCols() : b.getRows();
  int64_t bN = bTransposed ? b.getRows() : b.getCols();
  if (bK != k || bN != n)
    return emitOpError() << "operand B of '" << stringifyMmaForm(form)
                         << "' must be " << (bTransposed ? "NxK = " : "KxN = ")
                         << (bTransposed ? shapeString(n, k)
                                         : shapeString(k, n))
                         << ", got " << shapeString(b.getRows(), b.getCols());

  Type ea = a.getElementType(), eb = b.getElementType();
  bool fp8Pair = (isFnuzFp8(ea) || isOcpFp8(ea)) &&
                 (isFnuzFp8(eb) || isOcpFp8(eb)) &&
                 isFnuzFp8(ea) == isFnuzFp8(eb);
  if (ea != eb && !fp8Pair)
    return emitOpError() << "multiplies " << ea << " by " << eb
                         << "; A and B must share an element type (or be "
                            "two fp8 types of one format)";
  if (!getMfmaElement(ea))
    return emitOpError() << "has no matrix-core form for " << ea << " operands";
  Type expectedAcc = Builder(getContext()).getF32Type();
  if (ea.isSignlessInteger(8))
    expectedAcc = Builder(getContext()).getI32Type();
  if (acc.getElementType() != expectedAcc)
    return emitOpError() << "accumulates " << ea << " products in "
                         << expectedAcc << ", got " << acc.getElementType();

  std::optional<MfmaShapeAttr> shape;
  if (getInstrAttr())
    shape = getInstrAttr();
  if (failed(verifyMmaLayouts(*this, getInstrAttr())))
    return failure();

  if (shape && (m % shape->getM() || n % shape->getN() || k % shape->getK()))
    return emitOpError() << "MxNxK = " << m << "x" << n << "x" << k
                         << " is not a multiple of the MFMA " << *shape;

  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult hk::detail::verifyFloatElements(Operation *op, Type type) {
  Type elem = getElementTypeOf(type);
  if (!isa<FloatType>(elem))
    return op->emitOpError() << "expects floating-point elements, got " << elem;
  return success();
}

#define HK_VERIFY_UNARY(OP)                                                    \
  LogicalResult OP::verify() { return verifyFloatElements(*this, getType()); }
HK_VERIFY_UNARY(Exp2Op)
HK_VERIFY_UNARY(ExpOp)
HK_VERIFY_UNARY(LogOp)
HK_VERIFY_UNARY(Log2Op)
HK_VERIFY_UNARY(AbsOp)
HK_VERIFY_UNARY(NegOp)
HK_VERIFY_UNARY(ReluOp)
HK_VERIFY_UNARY(SqrtOp)
HK_VERIFY_UNARY(RsqrtOp)
#undef HK_VERIFY_UNARY

LogicalResult hk::detail::verifyBinary(Operation *op, Type lhs, Type rhs) {
  if (rhs == lhs)
    return success();
  Type elem = getElementTypeOf(lhs);
  if (rhs == elem)
    return success();
  return op->emitOpError() << "right-hand side must be " << lhs
                           << " or a scalar " << elem << ", got " << rhs;
}

#define HK_VERIFY_BINARY(OP, INTEGERS)                                         \
  LogicalResult OP::verify() {                                                 \
    return verifyArithmetic(*this, getLhs().getType(), getRhs().getType(),     \
                            INTEGERS);                                         \
  }
HK_VERIFY_BINARY(AddOp, true)
HK_VERIFY_BINARY(SubOp, true)
HK_VERIFY_BINARY(MulOp, true)
HK_VERIFY_BINARY(DivOp, false)
HK_VERIFY_BINARY(MaxOp, true)
HK_VERIFY_BINARY(MinOp, true)
#undef HK_VERIFY_BINARY

//===----------------------------------------------------------------------===//
// Broadcasts and reductions
//===----------------------------------------------------------------------===//

/// Checks that `vector` holds one value per row (or column) of `tile`.
LogicalResult hk::detail::verifyAlignedVector(Operation *op,
                                              RegisterTileType tile,
                                              RegisterVectorType vector,
                                              bool alongRows, StringRef what) {
  if (failed(verifyFloatElements(op, tile)))
    return failure();
  int64_t expected = alongRows ? tile.getRows() : tile.getCols();
  if (vector.getLength() != expected)
    return op->emitOpError()
           << what << " needs one value per " << (alongRows ? "row" : "column")
           << " (" << expected << "), got a vector of " << vector.getLength();
  if (vector.getElementType() != tile.getElementType())
    return op->emitOpError()
           << what << " element type " << vector.getElementType()
           << " differs from the tile's " << tile.getElementType();
  auto vecLayout = dyn_cast_if_present<VectorLayoutAttr>(vector.getLayout());
  if (!vecLayout || !tile.getLayout())
    return success();
  auto aligned =
      VectorLayoutAttr::get(op->getContext(), alongRows, tile.getLayout());
  if (!vectorLayoutsEquivalent(vecLayout, aligned, vector.getLength()))
    return op->emitOpError()
           << what << " layout " << vecLayout << " is not aligned with the "
           << (alongRows ? "rows" : "columns") << " of a tile in layout "
           << tile.getLayout();
  return success();
}

#define HK_VERIFY_BROADCAST(OP)                                                \
  LogicalResult OP::verify() {                                                 \
    return verifyAlignedVector(*this, getTile().getType(),                     \
                               getVector().getType(), alongRows(), "vector");  \
  }
HK_VERIFY_BROADCAST(AddRowOp)
HK_VERIFY_BROADCAST(SubRowOp)
HK_VERIFY_BROADCAST(MulRowOp)
HK_VERIFY_BROADCAST(DivRowOp)
HK_VERIFY_BROADCAST(AddColOp)
HK_VERIFY_BROADCAST(SubColOp)
HK_VERIFY_BROADCAST(MulColOp)
HK_VERIFY_BROADCAST(DivColOp)
#undef HK_VERIFY_BROADCAST

/// Checks an argmax/argmin: a float tile and one i32 index per row
/// (column), aligned with it.
template <typename ArgOp> static LogicalResult verifyArgReduce(ArgOp op) {
  RegisterTileType tile = op.getTile().getType();
  RegisterVectorType result = op.getType();
  if (failed(verifyFloatElements(op, tile)))
    return failure();
  if (!result.getElementType().isSignlessInteger(32))
    return op.emitOpError()
           << "result holds i32 indices, got " << result.getElementType();
  bool alongRows = ArgOp::alongRows();
  int64_t expected = alongRows ? tile.getRows() : tile.getCols();
  if (result.getLength() != expected)
    return op.emitOpError()
           << "result needs one index per " << (alongRows ? "row" : "column")
           << " (" << expected << "), got a vector of " << result.getLength();
  auto vecLayout = dyn_cast_if_present<VectorLayoutAttr>(result.getLayout());
  if (!vecLayout || !tile.getLayout())
    return success();
  auto aligned =
      VectorLayoutAttr::get(op.getContext(), alongRows, tile.getLayout());
  if (!vectorLayoutsEquivalent(vecLayout, aligned, result.getLength()))
    return op.emitOpError()
           << "result layout " << vecLayout << " is not aligned with the "
           << (alongRows ? "rows" : "columns") << " of a tile in layout "
           << tile.getLayout();
  return success();
}

LogicalResult RowArgMaxOp::verify() { return verifyArgReduce(*this); }
LogicalResult RowArgMinOp::verify() { return verifyArgReduce(*this); }
LogicalResult ColArgMaxOp::verify() { return verifyArgReduce(*this); }
LogicalResult ColArgMinOp::verify() { return verifyArgReduce(*this); }

template <typename ReduceOp> static LogicalResult verifyReduce(ReduceOp op) {
  return verifyAlignedVector(op, op.getTile().getType(), op.getType(),
                             ReduceOp::alongRows(), "result");
}

#define HK_VERIFY_REDUCE(OP)                                                   \
  LogicalResult OP::verify() { return verifyReduce(*this); }
HK_VERIFY_REDUCE(RowMaxOp)
HK_VERIFY_REDUCE(RowMinOp)
HK_VERIFY_REDUCE(RowSumOp)
HK_VERIFY_REDUCE(ColMaxOp)
HK_VERIFY_REDUCE(ColMinOp)
HK_VERIFY_REDUCE(ColSumOp)
#undef HK_VERIFY_REDUCE

//===----------------------------------------------------------------------===//
// Masks and softmax
//===----------------------------------------------------------------------===//

#define HK_VERIFY_MASK(OP)                                                     \
  LogicalResult OP::verify() { return verifyFloatElements(*this, getType()); }
HK_VERIFY_MASK(TrilOp)
HK_VERIFY_MASK(TriuOp)
HK_VERIFY_MASK(CausalMaskOp)
HK_VERIFY_MASK(BoundsMaskOp)
#undef HK_VERIFY_MASK

LogicalResult SoftmaxOp::verify() {
  RegisterTileType scores = getScores().getType();
  if (!scores.getElementType().isF32())
    return emitOpError() << "works on f32 scores, got "
                         << scores.getElementType();
  // Probabilities reach 2^slack; up to 2^64 leaves f32 sums and bf16 P
  // far from overflow.
  if (std::optional<APFloat> slack = getMaxSlack();
      slack &&
      !(slack->convertToFloat() >= 0.0f && slack->convertToFloat() <= 64.0f)) {
    SmallString<16> text;
    slack->toString(text);
    return emitOpError() << "max_slack must be between 0 and 64, got " << text;
  }
  return verifyAlignedVector(*this, scores, getMax().getType(), alongRows(),
                             "running max");
}

//===----------------------------------------------------------------------===//
// ClusterOp
//===----------------------------------------------------------------------===//

LogicalResult BarrierOp::verify() {
  std::optional<uint32_t> group = getGroup();
  if (!group)
    return success();
  auto kernel = dyn_cast_if_present<KernelOp>((*this)->getParentOp());
  if (!kernel)
    return emitOpError() << "with a wave group must sit directly in the "
                            "kernel body, where it runs once";
  if (!isa_and_present<PingPongAttr>(kernel.getEffectiveSchedule()))
    return emitOpError() << "with a wave group needs a kernel with a "
                            "#hk.pingpong schedule";
  if (*group > 1)
    return emitOpError() << "a ping-pong kernel has wave groups 0 and 1, got "
                         << *group;
  return success();
}

LogicalResult ClusterOp::verify() {
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "yields (" << yield.getValues().getTypes()
                         << ") but returns (" << getResultTypes() << ")";
  // Schedules count the barriers between clusters; one inside a cluster
  // would shift the wave groups' phases unseen.
  bool isMemory = getKind() == ClusterKind::Memory;
  WalkResult misplaced = getBody().walk([&](Operation *op) {
    if (isa<BarrierOp>(op)) {
      emitOpError() << "holds an hk.barrier; clusters are fenced by the "
                       "barriers between them, not inside them";
      return WalkResult::interrupt();
    }
    if (isMemory && isa<MmaOp>(op)) {
      emitOpError() << "is a memory cluster but holds an hk.mma; put matrix "
                       "work in a compute cluster";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(misplaced.wasInterrupted());
}

void ClusterOp::getSuccessorRegions(RegionBranchPoint point,
                                    SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent()) {
    regions.push_back(RegionSuccessor(&getBody()));
    return;
  }
  regions.push_back(RegionSuccessor(getOperation(), getResults()));
}
