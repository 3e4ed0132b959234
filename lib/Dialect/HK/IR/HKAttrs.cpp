//===- HKAttrs.cpp - hk attributes ----------------------------------------===//

#include "hk/Dialect/HK/IR/HKAttrs.h"

#include "hk/Dialect/HK/IR/HKDialect.h"
#include "hk/Dialect/HK/IR/Layouts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace hk;

#include "hk/Dialect/HK/IR/HKEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "hk/Dialect/HK/IR/HKAttrs.cpp.inc"

void HKDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "hk/Dialect/HK/IR/HKAttrs.cpp.inc"
      >();
}

/// Parses `MxNxK` (as a dimension list without trailing 'x').
static ParseResult parseShape3(AsmParser &parser, unsigned &m, unsigned &n,
                               unsigned &k) {
  SmallVector<int64_t, 3> dims;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                /*withTrailingX=*/false))
    return failure();
  if (dims.size() != 3)
    return parser.emitError(loc, "expected an MxNxK shape");
  for (int64_t d : dims)
    if (d <= 0)
      return parser.emitError(loc, "MFMA dimensions must be positive");
  m = dims[0];
  n = dims[1];
  k = dims[2];
  return success();
}

//===----------------------------------------------------------------------===//
// MfmaLayoutAttr
//===----------------------------------------------------------------------===//

Attribute MfmaLayoutAttr::parse(AsmParser &parser, Type) {
  StringRef operandName;
  unsigned m, n, k;
  if (parser.parseLess() || parser.parseKeyword(&operandName) ||
      parser.parseComma() || parseShape3(parser, m, n, k) ||
      parser.parseGreater())
    return {};
  std::optional<MfmaOperand> operand = symbolizeMfmaOperand(operandName);
  if (!operand) {
    parser.emitError(parser.getNameLoc(),
                     "expected MFMA operand 'a', 'b' or 'acc', got '")
        << operandName << "'";
    return {};
  }
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), *operand, m, n, k);
}

void MfmaLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyMfmaOperand(getOperand()) << ", " << getM() << "x"
          << getN() << "x" << getK() << ">";
}

LogicalResult
MfmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       MfmaOperand operand, unsigned m, unsigned n,
                       unsigned k) {
  if (m != n || (m != 16 && m != 32))
    return emitError() << "MFMA layouts exist for 16x16 and 32x32 blocks, got "
                       << m << "x" << n;
  if ((k * m) % 64 != 0)
    return emitError() << "MFMA K of " << k << " does not spread over 64 "
                       << "lanes for " << m << "x" << n << " blocks";
  return success();
}

//===----------------------------------------------------------------------===//
// MfmaShapeAttr
//===----------------------------------------------------------------------===//

Attribute MfmaShapeAttr::parse(AsmParser &parser, Type) {
  unsigned m, n, k;
  if (parser.parseLess() || parseShape3(parser, m, n, k) ||
      parser.parseGreater())
    return {};
  return get(parser.getContext(), m, n, k);
}

void MfmaShapeAttr::print(AsmPrinter &printer) const {
  printer << "<" << getM() << "x" << getN() << "x" << getK() << ">";
}

//===----------------------------------------------------------------------===//
// VectorLayoutAttr
//===----------------------------------------------------------------------===//

Attribute VectorLayoutAttr::parse(AsmParser &parser, Type) {
  StringRef axis;
  Attribute tile;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&axis))
    return {};
  if (axis != "rows" && axis != "cols") {
    parser.emitError(loc, "expected 'rows' or 'cols', got '") << axis << "'";
    return {};
  }
  if (parser.parseComma())
    return {};
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword, {"row", "col"}))) {
    tile =
        TileLayoutAttr::get(parser.getContext(), *symbolizeTileLayout(keyword));
  } else if (parser.parseAttribute(tile)) {
    return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    axis == "rows", tile);
}

void VectorLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<" << (getRows() ? "rows" : "cols") << ", ";
  if (auto tile = dyn_cast<TileLayoutAttr>(getTile()))
    printer << stringifyTileLayout(tile.getValue());
  else
    printer.printAttribute(getTile());
  printer << ">";
}

LogicalResult
VectorLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         bool rows, Attribute tile) {
  if (!FragmentLayout::get(tile))
    return emitError() << "vector layout must name a register-tile layout "
                          "(row, col or #hk.mfma), got "
                       << tile;
  return success();
}

//===----------------------------------------------------------------------===//
// SwizzleAttr
//===----------------------------------------------------------------------===//

/// Parses `= N` for the swizzle parameter `name` into `value`, rejecting a
/// negative N, which parsing into an unsigned would wrap around.
static ParseResult parseSwizzleParameter(AsmParser &parser, StringRef name,
                                         unsigned &value) {
  int64_t parsed;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseEqual() || parser.parseInteger(parsed))
    return failure();
  if (parsed < 0 || parsed > std::numeric_limits<unsigned>::max())
    return parser.emitError(at)
           << "swizzle " << name
           << " must be a small non-negative integer, got " << parsed;
  value = unsigned(parsed);
  return success();
}

Attribute SwizzleAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalKeyword("none"))) {
    if (parser.parseGreater())
      return {};
    return get(parser.getContext(), 1, 1, 1);
  }
  unsigned vec, perPhase, maxPhase;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword("vec") || parseSwizzleParameter(parser, "vec", vec) ||
      parser.parseComma() || parser.parseKeyword("per_phase") ||
      parseSwizzleParameter(parser, "per_phase", perPhase) ||
      parser.parseComma() || parser.parseKeyword("max_phase") ||
      parseSwizzleParameter(parser, "max_phase", maxPhase))
    return {};
  bool flip = false;
  unsigned mask = 0;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    if (keyword == "flip" && !flip) {
      flip = true;
    } else if (keyword == "mask" && !mask) {
      if (parseSwizzleParameter(parser, "mask", mask))
        return {};
      if (!mask) {
        parser.emitError(at) << "swizzle mask must not be zero: the "
                                "identity is #hk.swizzle<none>";
        return {};
      }
    } else {
      parser.emitError(at) << "expected 'flip' or 'mask = N' once each, got '"
                           << keyword << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    vec, perPhase, maxPhase, flip, mask);
}

void SwizzleAttr::print(AsmPrinter &printer) const {
  if (isIdentity()) {
    printer << "<none>";
    return;
  }
  printer << "<vec = " << getVec() << ", per_phase = " << getPerPhase()
          << ", max_phase = " << getMaxPhase();
  if (getFlip())
    printer << ", flip";
  if (getMask())
    printer << ", mask = " << getMask();
  printer << ">";
}

LogicalResult SwizzleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  unsigned vec, unsigned perPhase,
                                  unsigned maxPhase, bool flip, unsigned mask) {
  for (auto [name, value] : {std::pair<StringRef, unsigned>{"vec", vec},
                             {"per_phase", perPhase},
                             {"max_phase", maxPhase}})
    if (value == 0 || !llvm::isPowerOf2_32(value))
      return emitError() << "swizzle " << name
                         << " must be a power of two, got " << value;
  if (flip && maxPhase == 1)
    return emitError() << "a swizzle with flip needs max_phase >= 2: the "
                          "identity has no phase bit to flip";
  if (mask && maxPhase < 4)
    return emitError() << "a swizzle mask needs max_phase >= 4, got "
                       << maxPhase
                       << ": one phase bit is either kept (no mask) or "
                          "dropped (the identity)";
  if (mask && mask >= maxPhase - 1)
    return emitError() << "swizzle mask must keep some but not all of the "
                       << llvm::Log2_32(maxPhase) << " phase bits (1 to "
                       << maxPhase - 2 << " with max_phase = " << maxPhase
                       << "), got " << mask;
  return success();
}

int64_t SwizzleAttr::phaseOf(int64_t row) const {
  int64_t run = int64_t(getPerPhase()) * getMaxPhase();
  int64_t phase = (row / getPerPhase()) % getMaxPhase() & getPhaseMask();
  if (getFlip() && (row / run) % 2)
    phase ^= getMaxPhase() / 2;
  return phase;
}

int64_t SwizzleAttr::getRowPeriod() const {
  if (isIdentity())
    return 1;
  return int64_t(getPerPhase()) * getMaxPhase() * (getFlip() ? 2 : 1);
}

int64_t SwizzleAttr::swizzleColumn(int64_t row, int64_t col) const {
  int64_t vec = getVec();
  return ((col / vec) ^ phaseOf(row)) * vec + col % vec;
}

//===----------------------------------------------------------------------===//
// Schedules and target
//===----------------------------------------------------------------------===//

/// The ring of copies hk-double-buffer keeps of each loaded shared tile.
/// Eight is past what any useful tile fits in LDS (the LDS check says so)
/// and catches a negative count, which the unsigned parser wraps around.
static LogicalResult verifyStages(function_ref<InFlightDiagnostic()> emitError,
                                  llvm::StringRef schedule,
                                  std::optional<unsigned> stages) {
  if (stages && (*stages < 2 || *stages > 8))
    return emitError() << schedule
                       << " keeps 2 to 8 copies of each loaded shared tile, "
                          "got stages = "
                       << int32_t(*stages);
  return success();
}

LogicalResult PingPongAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   unsigned waves,
                                   std::optional<unsigned> clusters,
                                   std::optional<unsigned> stages,
                                   BoolAttr setprio, BoolAttr vectorInMemory) {
  if (failed(verifyStages(emitError, "ping-pong", stages)))
    return failure();
  if (waves != 8)
    return emitError() << "ping-pong runs two groups of four waves (one per "
                          "SIMD each), so it needs 8 waves, got "
                       << waves;
  // 64 bounds it well past any loop body and catches a negative count,
  // which the unsigned parameter's parser wraps around.
  if (clusters && (*clusters == 0 || *clusters > 64))
    return emitError() << "a ping-pong iteration has 1 to 64 memory/compute "
                          "cluster pairs (clusters), got "
                       << int32_t(*clusters);
  return success();
}

LogicalResult InterleaveAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned waves,
    std::optional<unsigned> mfma, std::optional<unsigned> dsReads,
    std::optional<unsigned> vmem, std::optional<unsigned> stages) {
  if (failed(verifyStages(emitError, "interleave", stages)))
    return failure();
  if (waves != 4)
    return emitError() << "interleave runs one wave per SIMD, so it needs 4 "
                          "waves, got "
                       << waves;
  if (mfma && *mfma == 0)
    return emitError() << "interleave groups need at least one MFMA each";
  return success();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip) {
  if (!ChipInfo::lookup(chip))
    return emitError() << "unknown chip '" << chip
                       << "'; known chips: " << ChipInfo::knownChipNames();
  return success();
}

LogicalResult
GridOrderAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      unsigned chunk, unsigned group) {
  // Beyond any sensible run or group; also where a negative value, which
  // the unsigned parameters wrap, lands.
  constexpr unsigned kMax = 1u << 20;
  if (chunk > kMax || group > kMax)
    return emitError() << "grid order chunk and group must be at most " << kMax
                       << ", got chunk = " << chunk << ", group = " << group;
  return success();
}

const ChipInfo &TargetAttr::getChipInfo() const {
  return *ChipInfo::lookup(getChip());
}
