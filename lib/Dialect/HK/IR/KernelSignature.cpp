//===- KernelSignature.cpp - A kernel as launchers see it -----------------===//

#include "hk/Dialect/HK/IR/KernelSignature.h"

#include "hk/Dialect/HK/IR/HKOps.h"

#include "hk/Target/HSACO.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace hk;

namespace {

/// Inclusive bounds of a value that does not depend on the block ids.
struct Range {
  int64_t lo, hi;
};

/// Bounds of `v` built from the wave id, constants, +, * by a constant,
/// unsigned / and % by a positive constant; nullopt otherwise.
std::optional<Range> rangeOf(Value v, int64_t waves, unsigned depth = 0) {
  if (depth > 16)
    return std::nullopt;
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return Range{constant.getSExtValue(), constant.getSExtValue()};
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (isa<WaveIdOp>(op))
    return Range{0, waves - 1};
  auto constantOperand = [](Value operand) -> std::optional<int64_t> {
    APInt c;
    if (matchPattern(operand, m_ConstantInt(&c)))
      return c.getSExtValue();
    return std::nullopt;
  };
  if (auto add = dyn_cast<arith::AddIOp>(op)) {
    auto lhs = rangeOf(add.getLhs(), waves, depth + 1);
    auto rhs = rangeOf(add.getRhs(), waves, depth + 1);
    if (lhs && rhs)
      return Range{lhs->lo + rhs->lo, lhs->hi + rhs->hi};
    return std::nullopt;
  }
  if (auto mul = dyn_cast<arith::MulIOp>(op)) {
    for (auto [x, c] : {std::pair{mul.getLhs(), mul.getRhs()},
                        std::pair{mul.getRhs(), mul.getLhs()}})
      if (auto factor = constantOperand(c); factor && *factor >= 0)
        if (auto range = rangeOf(x, waves, depth + 1))
          return Range{range->lo * *factor, range->hi * *factor};
    return std::nullopt;
  }
  if (auto div = dyn_cast<arith::DivUIOp>(op)) {
    auto divisor = constantOperand(div.getRhs());
    auto range = rangeOf(div.getLhs(), waves, depth + 1);
    if (divisor && *divisor > 0 && range && range->lo >= 0)
      return Range{range->lo / *divisor, range->hi / *divisor};
    return std::nullopt;
  }
  if (auto rem = dyn_cast<arith::RemUIOp>(op)) {
    auto divisor = constantOperand(rem.getRhs());
    auto range = rangeOf(rem.getLhs(), waves, depth + 1);
    if (divisor && *divisor > 0 && range && range->lo >= 0)
      return Range{0, std::min(range->hi, *divisor - 1)};
    return std::nullopt;
  }
  return std::nullopt;
}

/// `v` as block_id(axis) * scale + r with r's bounds; scale 0 when `v` does
/// not depend on the block id (then r is `v` itself). nullopt when `v`
/// depends on some block id in another form.
struct Decomposed {
  int64_t scale;
  Range rest;
};

std::optional<Decomposed> decompose(Value v, unsigned axis, int64_t waves,
                                    unsigned depth = 0) {
  if (depth > 16)
    return std::nullopt;
  if (auto range = rangeOf(v, waves))
    return Decomposed{0, *range};
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto id = dyn_cast<BlockIdOp>(op)) {
    if (unsigned(id.getDim()) != axis)
      return std::nullopt;
    return Decomposed{1, {0, 0}};
  }
  if (auto add = dyn_cast<arith::AddIOp>(op)) {
    auto lhs = decompose(add.getLhs(), axis, waves, depth + 1);
    auto rhs = decompose(add.getRhs(), axis, waves, depth + 1);
    if (!lhs || !rhs || (lhs->scale && rhs->scale))
      return std::nullopt;
    return Decomposed{
        lhs->scale + rhs->scale,
        {lhs->rest.lo + rhs->rest.lo, lhs->rest.hi + rhs->rest.hi}};
  }
  if (auto mul = dyn_cast<arith::MulIOp>(op)) {
    for (auto [x, c] : {std::pair{mul.getLhs(), mul.getRhs()},
                        std::pair{mul.getRhs(), mul.getLhs()}}) {
      APInt factor;
      if (!matchPattern(c, m_ConstantInt(&factor)) || factor.isNegative())
        continue;
      int64_t f = factor.getSExtValue();
      if (auto inner = decompose(x, axis, waves, depth + 1))
        return Decomposed{inner->scale * f,
                          {inner->rest.lo * f, inner->rest.hi * f}};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// Whether `v` depends on a block id of dimension `axis`.
bool usesBlockId(Value v, unsigned axis, unsigned depth = 0) {
  if (depth > 32)
    return true;
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (auto id = dyn_cast<BlockIdOp>(op))
    return unsigned(id.getDim()) == axis;
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return usesBlockId(operand, axis, depth + 1);
  });
}

/// Elements one unit of store index `position` spans in a rank-`rank` view
/// when `value` is stored: tiles count in tiles along the last two
/// dimensions, register vectors in vectors along the last, everything else
/// in elements.
int64_t indexUnit(Type value, size_t position, size_t rank) {
  if (auto tile = dyn_cast<RegisterTileType>(value)) {
    if (position + 1 == rank)
      return tile.getCols();
    if (position + 2 == rank)
      return tile.getRows();
    return 1;
  }
  if (auto tile = dyn_cast<SharedTileType>(value)) {
    if (position + 1 == rank)
      return tile.getCols();
    if (position + 2 == rank)
      return tile.getRows();
    return 1;
  }
  if (auto vector = dyn_cast<RegisterVectorType>(value))
    return position + 1 == rank ? vector.getLength() : 1;
  return 1;
}

} // namespace

std::optional<LaunchGrid> hk::inferLaunchGrid(KernelOp kernel) {
  if (Attribute recorded = kernel->getAttr(kLaunchGridAttrName))
    return launchGridFromAttr(recorded, kernel.getArgumentTypes().size());
  Block &entry = kernel.getBody().front();
  int64_t waves = kernel.getWaves();
  std::array<bool, 3> used = {false, false, false};
  kernel.walk([&](BlockIdOp id) { used[unsigned(id.getDim())] = true; });

  LaunchGrid grid;
  bool understood = true;
  auto addStore = [&](Type value, Value view, ValueRange indices) {
    auto argument = dyn_cast<BlockArgument>(view);
    if (!argument || argument.getOwner() != &entry) {
      understood = false;
      return;
    }
    for (auto [position, index] : llvm::enumerate(indices))
      for (unsigned axis = 0; axis < 3; ++axis) {
        if (!used[axis] || !usesBlockId(index, axis))
          continue;
        auto parts = decompose(index, axis, waves);
        if (!parts || parts->scale <= 0 || parts->rest.lo < 0 ||
            parts->rest.hi >= parts->scale) {
          understood = false;
          continue;
        }
        GridExtent rule{argument.getArgNumber(), unsigned(position),
                        parts->scale *
                            indexUnit(value, position, indices.size())};
        if (!llvm::any_of(grid[axis], [&](const GridExtent &other) {
              return other.param == rule.param && other.dim == rule.dim &&
                     other.extent == rule.extent;
            }))
          grid[axis].push_back(rule);
      }
  };
  kernel.walk([&](Operation *op) {
    if (auto store = dyn_cast<StoreOp>(op);
        store && isa<GlobalViewType>(store.getDest().getType()))
      addStore(store.getValue().getType(), store.getDest(), store.getIndices());
    else if (auto store = dyn_cast<GroupStoreOp>(op))
      addStore(store.getSource().getType(), store.getDest(),
               store.getIndices());
  });
  if (!understood)
    return std::nullopt;
  for (unsigned axis = 0; axis < 3; ++axis)
    if (used[axis] && grid[axis].empty())
      return std::nullopt;
  return grid;
}

ArrayAttr hk::launchGridToAttr(MLIRContext *context, const LaunchGrid &grid) {
  Builder b(context);
  SmallVector<Attribute> axes;
  for (const std::vector<GridExtent> &rules : grid) {
    SmallVector<Attribute> list;
    for (const GridExtent &rule : rules)
      list.push_back(b.getI64ArrayAttr(
          {int64_t(rule.param), int64_t(rule.dim), rule.extent}));
    axes.push_back(b.getArrayAttr(list));
  }
  return b.getArrayAttr(axes);
}

std::optional<LaunchGrid> hk::launchGridFromAttr(Attribute attr,
                                                 unsigned numParams) {
  auto axes = dyn_cast_or_null<ArrayAttr>(attr);
  if (!axes || axes.size() != 3)
    return std::nullopt;
  LaunchGrid grid;
  for (auto [axis, rules] : llvm::enumerate(axes)) {
    auto list = dyn_cast<ArrayAttr>(rules);
    if (!list)
      return std::nullopt;
    for (Attribute entry : list) {
      auto triple = dyn_cast<ArrayAttr>(entry);
      if (!triple || triple.size() != 3)
        return std::nullopt;
      int64_t values[3];
      for (auto [i, element] : llvm::enumerate(triple)) {
        auto integer = dyn_cast<IntegerAttr>(element);
        if (!integer)
          return std::nullopt;
        values[i] = integer.getInt();
      }
      if (values[0] < 0 || values[0] >= numParams || values[1] < 0 ||
          values[2] < 1)
        return std::nullopt;
      grid[axis].push_back(
          {unsigned(values[0]), unsigned(values[1]), values[2]});
    }
  }
  return grid;
}

void hk::recordLaunchGrid(KernelOp kernel) {
  if (kernel->hasAttr(kLaunchGridAttrName))
    return;
  if (std::optional<LaunchGrid> grid = inferLaunchGrid(kernel))
    kernel->setAttr(kLaunchGridAttrName,
                    launchGridToAttr(kernel.getContext(), *grid));
}

std::string hk::getKernelArgumentName(KernelOp kernel, unsigned index) {
  if (auto name = dyn_cast<NameLoc>(kernel.getArgument(index).getLoc()))
    return name.getName().str();
  return "arg" + std::to_string(index);
}

static std::string stringifyType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Parameters of the argument types `types` (views and scalars), unnamed.
static std::vector<KernelParam> getParams(TypeRange types) {
  std::vector<KernelParam> params;
  for (Type type : types) {
    KernelParam param;
    if (auto view = dyn_cast<GlobalViewType>(type)) {
      param.kind = KernelParam::View;
      for (int64_t d : view.getShape())
        param.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
      param.elementBytes = getElementBits(view.getElementType()) / 8;
      param.elementType = stringifyType(view.getElementType());
    } else {
      param.kind = type.isF32() ? KernelParam::F32 : KernelParam::I32;
    }
    params.push_back(std::move(param));
  }
  return params;
}

KernelSignature hk::getKernelSignature(KernelOp kernel) {
  KernelSignature signature;
  signature.name = kernel.getSymName().str();
  signature.waves = kernel.getWaves();
  signature.params = getParams(kernel.getArgumentTypes());
  for (auto [i, param] : llvm::enumerate(signature.params))
    param.name = getKernelArgumentName(kernel, i);
  signature.grid = inferLaunchGrid(kernel);
  return signature;
}

std::optional<KernelSignature>
hk::getLoweredKernelSignature(LLVM::LLVMFuncOp func) {
  auto typeAttr = func->getAttrOfType<TypeAttr>(kKernelTypeAttrName);
  auto type =
      typeAttr ? dyn_cast<FunctionType>(typeAttr.getValue()) : FunctionType();
  auto workGroup =
      func->getAttrOfType<DenseI32ArrayAttr>("rocdl.reqd_work_group_size");
  if (!type || !workGroup || workGroup.size() < 1 || workGroup[0] % 64)
    return std::nullopt;
  KernelSignature signature;
  signature.name = func.getSymName().str();
  signature.waves = workGroup[0] / 64;
  signature.params = getParams(type.getInputs());
  // The ABI fields' names give the parameters' names: a view's pointer and
  // a scalar carry the parameter's own name.
  std::vector<AbiField> fields = getAbiFields(signature);
  if (fields.size() != func.getNumArguments())
    return std::nullopt;
  for (auto [i, field] : llvm::enumerate(fields)) {
    if (field.kind != AbiField::Pointer && field.kind != AbiField::Scalar)
      continue;
    if (auto name = func.getArgAttrOfType<StringAttr>(i, kArgNameAttrName))
      signature.params[field.param].name = name.str();
  }
  if (Attribute grid = func->getAttr(kLaunchGridAttrName)) {
    signature.grid = launchGridFromAttr(grid, signature.params.size());
    if (!signature.grid)
      return std::nullopt;
  }
  return signature;
}
