//===- TileAccess.cpp - Which elements each lane touches, per access ------===//

#include "hk/Dialect/HK/IR/TileAccess.h"

#include "hk/Dialect/HK/IR/HKAttrs.h"

#include <algorithm>

using namespace hk;

/// One unit per `width` slots of every base block of a rows x cols tile.
static llvm::SmallVector<AccessUnit> unitsPerBlock(const FragmentLayout &layout,
                                                   int64_t rows, int64_t cols,
                                                   int64_t width,
                                                   bool transposed) {
  int64_t perBlock = layout.getElementsPerBlock();
  int64_t blocksPerRow = cols / layout.getBaseCols();
  llvm::SmallVector<AccessUnit> units;
  for (int64_t br = 0; br < rows / layout.getBaseRows(); ++br)
    for (int64_t bc = 0; bc < blocksPerRow; ++bc)
      for (int64_t s = 0; s < perBlock; s += width) {
        auto [slotRow, slotCol] = layout.getSlotOffset(s);
        units.push_back({(br * blocksPerRow + bc) * perBlock + s,
                         br * layout.getBaseRows() + slotRow,
                         bc * layout.getBaseCols() + slotCol, width,
                         transposed});
      }
  return units;
}

llvm::SmallVector<AccessUnit>
hk::enumerateAccesses(const FragmentLayout &layout, int64_t rows, int64_t cols,
                      int64_t elementBytes, int64_t maxWidth,
                      int64_t maxBytes) {
  int64_t width = std::min({layout.getColumnRun(), maxWidth,
                            std::max<int64_t>(1, maxBytes / elementBytes)});
  width = std::max<int64_t>(width, 1);
  return unitsPerBlock(layout, rows, cols, width, /*transposed=*/false);
}

/// Elements one transposing read returns per lane.
static constexpr int64_t kTransposedRun = 4;

std::optional<llvm::SmallVector<AccessUnit>>
hk::enumerateTransposedReads(const FragmentLayout &layout, int64_t rows,
                             int64_t cols, int64_t elementBytes,
                             int64_t contiguous) {
  int64_t perBlock = layout.getElementsPerBlock();
  if (elementBytes != 2 || contiguous < kTransposedRun ||
      perBlock % kTransposedRun != 0 || !layout.tiles(rows, cols))
    return std::nullopt;
  // Every group of 16 lanes: 16 consecutive columns of the same rows,
  // starting at a multiple of 4 (so a lane's 4 addressed elements share one
  // contiguous run of the shared tile).
  for (unsigned lane = 0; lane < 64; ++lane) {
    auto [row, col] = layout.coordinatesInBlock(lane, 0);
    auto [groupRow, groupCol] = layout.coordinatesInBlock(lane & ~15u, 0);
    if (row != groupRow || col != groupCol + int64_t(lane % 16) ||
        groupCol % kTransposedRun != 0)
      return std::nullopt;
  }
  // Every run of 4 slots: 4 consecutive rows of one column.
  for (int64_t s = 0; s < perBlock; s += kTransposedRun) {
    auto [row, col] = layout.getSlotOffset(s);
    for (int64_t i = 1; i < kTransposedRun; ++i)
      if (layout.getSlotOffset(s + i) != std::make_pair(row + i, col))
        return std::nullopt;
  }
  return unitsPerBlock(layout, rows, cols, kTransposedRun,
                       /*transposed=*/true);
}

llvm::SmallVector<AccessUnit>
hk::enumerateSharedAccesses(const FragmentLayout &layout, int64_t rows,
                            int64_t cols, int64_t elementBytes,
                            int64_t contiguous, bool transposedReads) {
  if (transposedReads)
    if (auto units = enumerateTransposedReads(layout, rows, cols, elementBytes,
                                              contiguous))
      return std::move(*units);
  return enumerateAccesses(layout, rows, cols, elementBytes, contiguous);
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

GroupCopyPlan hk::planWaveCopy(int64_t rows, int64_t cols, int64_t elementBytes,
                               int64_t contiguous) {
  GroupCopyPlan plan =
      planGroupCopy(rows, cols, elementBytes, /*lanes=*/64, contiguous);
  plan.pairRows = plan.chunksPerRow == 8 && rows % 16 == 0;
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
  if (pairRows)
    row = row - row % 16 + row % 2 * 8 + row % 16 / 2;
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
