//===- HKTypes.cpp - hk types ---------------------------------------------===//

#include "hk/Dialect/HK/IR/HKTypes.h"

#include "hk/Dialect/HK/IR/HKDialect.h"
#include "hk/Dialect/HK/IR/Layouts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hk;

/// `NxT` in a shared or register vector type.
static ParseResult parseVectorShape(AsmParser &parser, int64_t &length,
                                    Type &elementType) {
  SmallVector<int64_t, 1> dims;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseDimensionList(dims, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return failure();
  if (dims.size() != 1)
    return parser.emitError(loc, "expected a 1-D vector shape, got rank ")
           << dims.size();
  length = dims[0];
  return success();
}

static void printVectorShape(AsmPrinter &printer, int64_t length,
                             Type elementType) {
  printer << length << "x" << elementType;
}

#define GET_TYPEDEF_CLASSES
#include "hk/Dialect/HK/IR/HKTypes.cpp.inc"

void HKDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "hk/Dialect/HK/IR/HKTypes.cpp.inc"
      >();
}

bool hk::isFnuzFp8(Type type) {
  return isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(type);
}

bool hk::isOcpFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool hk::isTileElementType(Type type) {
  return type.isF32() || type.isF16() || type.isBF16() || isFnuzFp8(type) ||
         isOcpFp8(type) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(32);
}

unsigned hk::getElementBits(Type type) { return type.getIntOrFloatBitWidth(); }

static LogicalResult
verifyElementType(function_ref<InFlightDiagnostic()> emitError, StringRef what,
                  Type type) {
  if (isTileElementType(type))
    return success();
  return emitError() << what
                     << " element type must be f32, f16, bf16, an fp8 type, "
                        "i8 or i32, got "
                     << type;
}

/// Registers also hold masks (i1), which have no memory format.
static LogicalResult
verifyRegisterElementType(function_ref<InFlightDiagnostic()> emitError,
                          StringRef what, Type type) {
  if (type.isSignlessInteger(1) || isTileElementType(type))
    return success();
  return emitError() << what
                     << " element type must be f32, f16, bf16, an fp8 type, "
                        "i8, i32 or i1 (a mask), got "
                     << type;
}

/// Parses `RxCxT` followed by an optional `, <layout-or-swizzle>`.
static ParseResult parseTileBody(AsmParser &parser,
                                 SmallVectorImpl<int64_t> &shape,
                                 Type &elementType, Attribute &extra,
                                 bool allowLayoutKeyword) {
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    if (allowLayoutKeyword &&
        succeeded(parser.parseOptionalKeyword(&keyword, {"row", "col"}))) {
      extra = TileLayoutAttr::get(parser.getContext(),
                                  *symbolizeTileLayout(keyword));
    } else if (parser.parseAttribute(extra)) {
      return failure();
    }
  }
  return parser.parseGreater();
}

static void printTileBody(AsmPrinter &printer, ArrayRef<int64_t> shape,
                          Type elementType, Attribute extra) {
  printer << "<";
  for (int64_t d : shape)
    printer << d << "x";
  printer << elementType;
  if (extra) {
    printer << ", ";
    if (auto layout = dyn_cast<TileLayoutAttr>(extra))
      printer << stringifyTileLayout(layout.getValue());
    else
      printer.printAttribute(extra);
  }
  printer << ">";
}

//===----------------------------------------------------------------------===//
// RegisterTileType
//===----------------------------------------------------------------------===//

Type RegisterTileType::parse(AsmParser &parser) {
  SmallVector<int64_t, 2> shape;
  Type elementType;
  Attribute layout;
  SMLoc loc = parser.getCurrentLocation();
  if (parseTileBody(parser, shape, elementType, layout,
                    /*allowLayoutKeyword=*/true))
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType, layout);
}

void RegisterTileType::print(AsmPrinter &printer) const {
  printTileBody(printer, getShape(), getElementType(), getLayout());
}

/// Architectural plus accumulation VGPRs one wave can hold.
static constexpr int64_t kMaxRegistersPerLane = 512;

LogicalResult
RegisterTileType::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, Type elementType,
                         Attribute layout) {
  if (shape.size() != 2)
    return emitError() << "register tile must be 2-D, got rank "
                       << shape.size();
  if (failed(
          verifyRegisterElementType(emitError, "register tile", elementType)))
    return failure();
  int64_t baseRows = 16, baseCols = 16;
  if (layout) {
    std::optional<FragmentLayout> fragment = FragmentLayout::get(layout);
    if (!fragment)
      return emitError()
             << "register tile layout must be row, col or #hk.mfma, got "
             << layout;
    baseRows = fragment->getBaseRows();
    baseCols = fragment->getBaseCols();
  }
  if (shape[0] <= 0 || shape[1] <= 0 || shape[0] % baseRows != 0 ||
      shape[1] % baseCols != 0)
    return emitError() << "register tile " << shape[0] << "x" << shape[1]
                       << " is not a whole number of its " << baseRows << "x"
                       << baseCols << " base blocks";
  int64_t registers =
      shape[0] * shape[1] / 64 * getElementBits(elementType) / 32;
  if (registers > kMaxRegistersPerLane)
    return emitError() << "register tile " << shape[0] << "x" << shape[1] << "x"
                       << elementType << " needs " << registers
                       << " registers per lane; a wave has "
                       << kMaxRegistersPerLane;
  return success();
}

//===----------------------------------------------------------------------===//
// RegisterVectorType
//===----------------------------------------------------------------------===//

Type RegisterVectorType::parse(AsmParser &parser) {
  int64_t length;
  Type elementType;
  Attribute layout;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parseVectorShape(parser, length, elementType))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(layout))
    return {};
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    length, elementType, layout);
}

void RegisterVectorType::print(AsmPrinter &printer) const {
  printer << "<";
  printVectorShape(printer, getLength(), getElementType());
  if (getLayout()) {
    printer << ", ";
    printer.printAttribute(getLayout());
  }
  printer << ">";
}

LogicalResult
RegisterVectorType::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t length, Type elementType, Attribute layout) {
  if (length <= 0 || length % 16 != 0)
    return emitError() << "register vector length must be a positive "
                          "multiple of 16, got "
                       << length;
  if (failed(
          verifyRegisterElementType(emitError, "register vector", elementType)))
    return failure();
  if (!layout)
    return success();
  auto vec = dyn_cast<VectorLayoutAttr>(layout);
  if (!vec)
    return emitError() << "register vector layout must be #hk.vec, got "
                       << layout;
  std::optional<FragmentLayout> fragment = FragmentLayout::get(vec.getTile());
  if (fragment && !fragment->tilesVector(vec.getRows(), length))
    return emitError() << "register vector of " << length << " is not a whole "
                       << "number of " << fragment->getBaseExtent(vec.getRows())
                       << "-element blocks of " << layout;
  return success();
}

//===----------------------------------------------------------------------===//
// SharedTileType
//===----------------------------------------------------------------------===//

Type SharedTileType::parse(AsmParser &parser) {
  SmallVector<int64_t, 2> shape;
  Type elementType;
  Attribute swizzle;
  SMLoc loc = parser.getCurrentLocation();
  if (parseTileBody(parser, shape, elementType, swizzle,
                    /*allowLayoutKeyword=*/false))
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType, swizzle);
}

void SharedTileType::print(AsmPrinter &printer) const {
  printTileBody(printer, getShape(), getElementType(), getSwizzle());
}

LogicalResult
SharedTileType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType,
                       Attribute swizzle) {
  if (shape.size() != 2)
    return emitError() << "shared tile must be 2-D, got rank " << shape.size();
  if (failed(verifyElementType(emitError, "shared tile", elementType)))
    return failure();
  if (shape[0] <= 0 || shape[1] <= 0 || shape[0] % 16 != 0 ||
      shape[1] % 16 != 0)
    return emitError() << "shared tile " << shape[0] << "x" << shape[1]
                       << " must have dimensions that are multiples of 16";
  if (!swizzle)
    return success();
  auto sw = dyn_cast<SwizzleAttr>(swizzle);
  if (!sw)
    return emitError() << "shared tile swizzle must be #hk.swizzle, got "
                       << swizzle;
  int64_t span = int64_t(sw.getVec()) * sw.getMaxPhase();
  if (!sw.isIdentity() && span > shape[1])
    return emitError() << "swizzle permutes groups of " << sw.getVec()
                       << " elements over " << sw.getMaxPhase()
                       << " phases, spanning " << span
                       << " columns, but the tile has " << shape[1];
  return success();
}

int64_t SharedTileType::getSizeInBytes() const {
  return getRows() * getCols() * getElementBits(getElementType()) / 8;
}

//===----------------------------------------------------------------------===//
// SharedVectorType
//===----------------------------------------------------------------------===//

LogicalResult
SharedVectorType::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t length, Type elementType) {
  if (length <= 0)
    return emitError() << "shared vector length must be positive, got "
                       << length;
  return verifyElementType(emitError, "shared vector", elementType);
}

int64_t SharedVectorType::getSizeInBytes() const {
  return getLength() * getElementBits(getElementType()) / 8;
}

//===----------------------------------------------------------------------===//
// GlobalViewType
//===----------------------------------------------------------------------===//

Type GlobalViewType::parse(AsmParser &parser) {
  SmallVector<int64_t, 4> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType);
}

void GlobalViewType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape()) {
    if (ShapedType::isDynamic(d))
      printer << "?";
    else
      printer << d;
    printer << "x";
  }
  printer << getElementType() << ">";
}

LogicalResult
GlobalViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty() || shape.size() > 4)
    return emitError() << "global view rank must be 1 to 4, got "
                       << shape.size();
  for (int64_t d : shape)
    if (!ShapedType::isDynamic(d) && d <= 0)
      return emitError() << "global view dimensions must be positive or '?', "
                            "got "
                         << d;
  return verifyElementType(emitError, "global view", elementType);
}

int64_t GlobalViewType::getNumDynamicDims() const {
  return llvm::count_if(getShape(), ShapedType::isDynamic);
}
