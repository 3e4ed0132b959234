//===- TileAccess.cpp - Which elements each lane touches, per access ------===//

#include "hk/Dialect/HK/IR/TileAccess.h"

#include "hk/Dialect/HK/IR/HKAttrs.h"

#include <algorithm>

using namespace hk;

llvm::SmallVector<AccessUnit>
hk::enumerateAccesses(const FragmentLayout &layout, int64_t rows, int64_t cols,
                      int64_t elementBytes, int64_t maxWidth,
                      int64_t maxBytes) {
  int64_t width = std::min({layout.getColumnRun(), maxWidth,
                            std::max<int64_t>(1, maxBytes / elementBytes)});
  width = std::max<int64_t>(width, 1);
  int64_t perBlock = layout.getElementsPerBlock();
  int64_t blocksPerRow = cols / layout.getBaseCols();
  llvm::SmallVector<AccessUnit> units;
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

GroupCopyPlan hk::planGroupCopy(int64_t rows, int64_t cols,
                                int64_t elementBytes, int64_t lanes,
                                int64_t contiguous) {
  GroupCopyPlan plan;
  plan.rows = rows;
  plan.cols = cols;
  plan.chunkElems = std::min<int64_t>(16 / elementBytes, cols);
  plan.chunksPerRow = cols / plan.chunkElems;
  plan.chunks = rows * plan.chunksPerRow;
  plan.lanes = lanes;
  plan.rounds = (plan.chunks + lanes - 1) / lanes;
  plan.pieceElems = std::min(plan.chunkElems, contiguous);
  return plan;
}

GroupCopyPlan hk::planTransposedCopy(int64_t rows, int64_t cols,
                                     int64_t elementBytes, int64_t lanes) {
  GroupCopyPlan plan = planGroupCopy(cols, rows, elementBytes, lanes, rows);
  plan.pieceElems = 1;
  plan.downRows = true;
  return plan;
}

bool GroupCopyPlan::chunkOf(int64_t lane, int64_t round, int64_t &row,
                            int64_t &col) const {
  int64_t chunk = lane + round * lanes;
  if (lane >= lanes || chunk >= chunks)
    return false;
  if (downRows) {
    row = chunk % rows;
    col = chunk / rows * chunkElems;
  } else {
    row = chunk / chunksPerRow;
    col = chunk % chunksPerRow * chunkElems;
  }
  return true;
}

int64_t hk::swizzleContiguousElements(SwizzleAttr swizzle, int64_t cols) {
  if (!swizzle || swizzle.isIdentity())
    return cols;
  return swizzle.getVec();
}

int64_t hk::swizzledElementIndex(SwizzleAttr swizzle, int64_t cols, int64_t row,
                                 int64_t col) {
  int64_t swizzled =
      swizzle && !swizzle.isIdentity() ? swizzle.swizzleColumn(row, col) : col;
  return row * cols + swizzled;
}
