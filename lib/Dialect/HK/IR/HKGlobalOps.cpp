//===- HKGlobalOps.cpp - atomics and indexed global accesses --------------===//

#include "hk/Dialect/HK/IR/HKOps.h"

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
