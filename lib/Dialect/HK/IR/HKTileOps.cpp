//===- HKTileOps.cpp - slices, concatenation, transposes -----------------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/Layouts.h"

#include "OpHelpers.h"

using namespace mlir;
using namespace hk;
using namespace hk::detail;

/// Rows and columns of the blocks a register tile's layout is made of (16
/// when the layout is not chosen yet: every layout's blocks are multiples).
static std::pair<int64_t, int64_t> baseBlock(RegisterTileType type) {
  if (std::optional<FragmentLayout> layout =
          FragmentLayout::get(type.getLayout()))
    return {layout->getBaseRows(), layout->getBaseCols()};
  return {16, 16};
}

/// The extent of a register vector's blocks along the vector.
static int64_t baseExtent(RegisterVectorType type) {
  if (auto layout = dyn_cast_if_present<VectorLayoutAttr>(type.getLayout()))
    if (std::optional<FragmentLayout> tile =
            FragmentLayout::get(layout.getTile()))
      return tile->getBaseExtent(layout.getRows());
  return 16;
}

LogicalResult hk::detail::verifyBlockCut(Operation *op, Type type,
                                         ArrayRef<int64_t> offsets,
                                         ArrayRef<int64_t> sizes) {
  SmallVector<int64_t, 2> blocks;
  if (auto tile = dyn_cast<RegisterTileType>(type)) {
    auto [rows, cols] = baseBlock(tile);
    blocks = {rows, cols};
  } else {
    blocks = {baseExtent(cast<RegisterVectorType>(type))};
  }
  for (auto [dim, block] : llvm::enumerate(blocks))
    if (offsets[dim] % block || sizes[dim] % block)
      return op->emitOpError()
             << "cuts " << type << " at " << (dim ? "column " : "row ")
             << offsets[dim] << " with extent " << sizes[dim]
             << "; its layout keeps blocks of " << block
             << " together (slice at multiples of the block, or convert "
                "the layout first)";
  return success();
}

static SmallVector<int64_t, 2> shapeOf(Type type) {
  if (auto tile = dyn_cast<RegisterTileType>(type))
    return {tile.getRows(), tile.getCols()};
  if (auto shared = dyn_cast<SharedTileType>(type))
    return {shared.getRows(), shared.getCols()};
  return {cast<RegisterVectorType>(type).getLength()};
}

LogicalResult SliceOp::verify() {
  Type src = getSource().getType(), dst = getType();
  if (src.getTypeID() != dst.getTypeID())
    return emitOpError() << "slices keep the kind of value, but " << src
                         << " and " << dst << " differ";
  if (getElementTypeOf(src) != getElementTypeOf(dst))
    return emitOpError() << "keeps the element type, but " << src << " and "
                         << dst << " differ";
  SmallVector<int64_t, 2> from = shapeOf(src), to = shapeOf(dst);
  ArrayRef<int64_t> offsets = getOffsets();
  if (offsets.size() != from.size())
    return emitOpError() << "needs " << from.size() << " offset"
                         << (from.size() > 1 ? "s" : "") << " for " << src
                         << ", got " << offsets.size();
  for (auto [dim, offset] : llvm::enumerate(offsets))
    if (offset < 0 || offset + to[dim] > from[dim])
      return emitOpError() << "part at offset " << offset << " of extent "
                           << to[dim] << " lies outside " << src;
  if (auto shared = dyn_cast<SharedTileType>(src)) {
    auto result = cast<SharedTileType>(dst);
    if (offsets[1] != 0 || result.getCols() != shared.getCols())
      return emitOpError() << "a shared tile slices whole rows (column "
                              "offset 0, all "
                           << shared.getCols() << " columns)";
    if (shared.getSwizzle() && result.getSwizzle() &&
        shared.getSwizzle() != result.getSwizzle())
      return emitOpError() << "a shared slice keeps the tile's swizzle "
                           << shared.getSwizzle() << ", got "
                           << result.getSwizzle();
    return success();
  }
  if (getLayoutOf(src) && getLayoutOf(dst) &&
      getLayoutOf(src) != getLayoutOf(dst))
    return emitOpError() << "keeps the layout, but " << src << " and " << dst
                         << " differ";
  return verifyBlockCut(*this, src, offsets, to);
}

LogicalResult ConcatOp::verify() {
  Type result = getType();
  bool tiles = isa<RegisterTileType>(result);
  if (tiles != bool(getAxis()))
    return emitOpError() << (tiles ? "of tiles needs 'rows' or 'cols'"
                                   : "of vectors joins them end to end; "
                                     "'rows' or 'cols' applies to tiles");
  if (getInputs().size() < 2)
    return emitOpError() << "joins two or more values, got "
                         << getInputs().size();
  unsigned along = tiles && *getAxis() == Axis::Cols ? 1 : 0;
  SmallVector<int64_t, 2> total = shapeOf(result);
  int64_t sum = 0;
  for (Value input : getInputs()) {
    Type type = input.getType();
    if (type.getTypeID() != result.getTypeID() ||
        getElementTypeOf(type) != getElementTypeOf(result) ||
        (getLayoutOf(type) && getLayoutOf(result) &&
         getLayoutOf(type) != getLayoutOf(result)))
      return emitOpError() << "input " << type << " differs from the result "
                           << result << " in kind, element type or layout";
    SmallVector<int64_t, 2> shape = shapeOf(type);
    if (tiles && shape[1 - along] != total[1 - along])
      return emitOpError() << "joins along " << (along ? "columns" : "rows")
                           << ", so every input has " << total[1 - along]
                           << (along ? " rows" : " columns") << ", got "
                           << type;
    SmallVector<int64_t, 2> offsets(shape.size(), 0);
    offsets[along] = sum;
    if (failed(verifyBlockCut(*this, result, offsets, shape)))
      return failure();
    sum += shape[along];
  }
  if (sum != total[along])
    return emitOpError() << "inputs add up to " << sum << " along the "
                         << (tiles ? (along ? "columns" : "rows") : "vector")
                         << ", but the result has " << total[along];
  return success();
}

LogicalResult TransposeOp::verify() {
  RegisterTileType src = getSource().getType(), dst = getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "keeps the element type, but " << src << " and "
                         << dst << " differ";
  if (dst.getRows() != src.getCols() || dst.getCols() != src.getRows())
    return emitOpError() << "of " << src << " is " << src.getCols() << "x"
                         << src.getRows() << ", got " << dst;
  if (!src.getLayout() || !dst.getLayout() ||
      transposeSlots(src.getLayout(), dst.getLayout(), src.getRows(),
                     src.getCols()))
    return success();
  InFlightDiagnostic diag =
      emitOpError() << "keeps every element in its lane, so the result's "
                       "layout is the source's transposed";
  if (Attribute twin = transposedLayout(src.getLayout()))
    diag << " (" << twin << ")";
  return diag << ", got " << dst.getLayout()
              << "; convert the layout before or after";
}
