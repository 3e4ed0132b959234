//===- HKGlobalOps.cpp - atomics and indexed global accesses --------------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/Layouts.h"

#include "OpHelpers.h"

using namespace mlir;
using namespace hk;
using namespace hk::detail;

/// Checks that a register tile addresses a tile of `view` with one index
/// per dimension.
static LogicalResult verifyTileIndices(Operation *op, GlobalViewType view,
                                       size_t numIndices) {
  if (view.getRank() < 2)
    return op->emitOpError() << "addresses a 2-D register tile, which needs a "
                                "global view of rank 2 or more, got rank "
                             << view.getRank();
  if (numIndices != size_t(view.getRank()))
    return op->emitOpError()
           << "expects " << view.getRank() << " indices for a rank-"
           << view.getRank() << " global view, got " << numIndices;
  return success();
}

LogicalResult AtomicAddOp::verify() {
  GlobalViewType view = getDest().getType();
  Type memElem = view.getElementType();
  if (!memElem.isF32() && !memElem.isBF16() && !memElem.isF16())
    return emitOpError() << "adds into f32, bf16 or f16 global views, got "
                         << memElem;
  Type regElem = getValue().getType().getElementType();
  if (!isa<FloatType>(regElem))
    return emitOpError() << "adds a float register tile, got " << regElem
                         << " elements";
  return verifyTileIndices(*this, view, getIndices().size());
}

RegisterTileType GatherOp::getTileType() { return getType(); }
RegisterTileType ScatterOp::getTileType() { return getValue().getType(); }

/// Checks a row-indexed access: the view's indices (all but the row), the
/// element types, and the row-index vector.
static LogicalResult verifyRowIndexed(Operation *op, GlobalViewType view,
                                      size_t numIndices, RegisterTileType tile,
                                      RegisterVectorType rows) {
  if (view.getRank() < 2)
    return op->emitOpError() << "addresses rows of a matrix, which needs a "
                                "global view of rank 2 or more, got rank "
                             << view.getRank();
  if (numIndices != size_t(view.getRank() - 1))
    return op->emitOpError()
           << "expects " << view.getRank() - 1
           << " indices (outer dimensions and the tile column) for a rank-"
           << view.getRank() << " global view, got " << numIndices;
  Type memElem = view.getElementType(), regElem = tile.getElementType();
  if (memElem != regElem &&
      !(isa<FloatType>(memElem) && isa<FloatType>(regElem)))
    return op->emitOpError() << "converts only between float element types, "
                                "got "
                             << memElem << " and " << regElem;
  if (!rows.getElementType().isSignlessInteger(32))
    return op->emitOpError()
           << "takes i32 row indices, got " << rows.getElementType();
  if (rows.getLength() != tile.getRows())
    return op->emitOpError()
           << "needs one row index per tile row (" << tile.getRows()
           << "), got a vector of " << rows.getLength();
  auto vecLayout = dyn_cast_if_present<VectorLayoutAttr>(rows.getLayout());
  if (!vecLayout || !tile.getLayout())
    return success();
  auto aligned =
      VectorLayoutAttr::get(op->getContext(), /*rows=*/true, tile.getLayout());
  if (!vectorLayoutsEquivalent(vecLayout, aligned, rows.getLength()))
    return op->emitOpError()
           << "row indices in layout " << vecLayout
           << " are not aligned with the rows of a tile in layout "
           << tile.getLayout();
  return success();
}

LogicalResult GatherOp::verify() {
  return verifyRowIndexed(*this, getSource().getType(), getIndices().size(),
                          getType(), getRows().getType());
}

LogicalResult ScatterOp::verify() {
  return verifyRowIndexed(*this, getDest().getType(), getIndices().size(),
                          getValue().getType(), getRows().getType());
}
