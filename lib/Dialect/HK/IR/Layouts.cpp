//===- Layouts.cpp - Lane layouts of register tiles -----------------------===//

#include "hk/Dialect/HK/IR/Layouts.h"

#include "hk/Dialect/HK/IR/HKAttrs.h"

#include "llvm/ADT/Twine.h"

using namespace hk;

FragmentLayout FragmentLayout::rowRuns(unsigned period, unsigned run) {
  return FragmentLayout(Kind::RowRuns, period, run, period, run * 64 / period);
}

FragmentLayout FragmentLayout::colRuns(unsigned period, unsigned run) {
  return FragmentLayout(Kind::ColRuns, period, run, run * 64 / period, period);
}

FragmentLayout FragmentLayout::accumulator(unsigned m, unsigned n) {
  return FragmentLayout(Kind::Accumulator, n, 4, m, n);
}

std::optional<FragmentLayout> FragmentLayout::get(mlir::Attribute layout) {
  if (auto tile = llvm::dyn_cast_if_present<TileLayoutAttr>(layout)) {
    // HipKittens' 16x16 base blocks with four elements per lane.
    if (tile.getValue() == TileLayout::Row)
      return rowRuns(16, 4);
    return colRuns(16, 4);
  }
  auto mfma = llvm::dyn_cast_if_present<MfmaLayoutAttr>(layout);
  if (!mfma)
    return std::nullopt;
  unsigned m = mfma.getM(), n = mfma.getN(), k = mfma.getK();
  switch (mfma.getOperand()) {
  case MfmaOperand::A:
    return rowRuns(m, k * m / 64);
  case MfmaOperand::B:
    return colRuns(n, k * n / 64);
  case MfmaOperand::Acc:
    return accumulator(m, n);
  }
  return std::nullopt;
}

FragmentLayout::Slot FragmentLayout::locateInBlock(int64_t r, int64_t c) const {
  switch (kind) {
  case Kind::RowRuns:
    return {static_cast<unsigned>(r + period * (c / run)), c % run};
  case Kind::ColRuns:
    return {static_cast<unsigned>(c + period * (r / run)), r % run};
  case Kind::Accumulator: {
    // Four consecutive rows per register group; 64/N lane groups.
    int64_t n = period;
    int64_t index = (r % 4) + 4 * (r / (256 / n));
    int64_t lane = c + n * ((r / 4) % (64 / n));
    return {static_cast<unsigned>(lane), index};
  }
  }
  return {0, 0};
}

FragmentLayout::LaneTerms FragmentLayout::getLaneTerms() const {
  switch (kind) {
  case Kind::RowRuns:
    return {1, 0, 0, run};
  case Kind::ColRuns:
    return {0, run, 1, 0};
  case Kind::Accumulator:
    return {0, 4, 1, 0};
  }
  return {0, 0, 0, 0};
}

std::pair<int64_t, int64_t> FragmentLayout::getSlotOffset(int64_t slot) const {
  switch (kind) {
  case Kind::RowRuns:
    return {0, slot};
  case Kind::ColRuns:
    return {slot, 0};
  case Kind::Accumulator:
    // Groups of four rows; the next group is 256/N rows further down.
    return {(256 / int64_t(period)) * (slot / 4) + slot % 4, 0};
  }
  return {0, 0};
}

std::pair<int64_t, int64_t>
FragmentLayout::coordinatesInBlock(unsigned lane, int64_t slot) const {
  LaneTerms terms = getLaneTerms();
  int64_t p = lane % period, q = lane / period;
  auto [slotRow, slotCol] = getSlotOffset(slot);
  return {p * terms.rowPerP + q * terms.rowPerQ + slotRow,
          p * terms.colPerP + q * terms.colPerQ + slotCol};
}

FragmentLayout::Slot FragmentLayout::locate(int64_t r, int64_t c,
                                            int64_t cols) const {
  int64_t blocksPerRow = cols / baseCols;
  int64_t block = (r / baseRows) * blocksPerRow + (c / baseCols);
  Slot inBlock = locateInBlock(r % baseRows, c % baseCols);
  return {inBlock.lane, block * getElementsPerBlock() + inBlock.index};
}

std::string FragmentLayout::describe() const {
  const char *name = kind == Kind::RowRuns   ? "row runs"
                     : kind == Kind::ColRuns ? "column runs"
                                             : "accumulator";
  return (llvm::Twine(name) + " over " + llvm::Twine(baseRows) + "x" +
          llvm::Twine(baseCols) + " blocks")
      .str();
}

int64_t FragmentLayout::getVectorSlots(bool alongRows) const {
  // Row runs spread a lane's elements along a row; the other kinds down a
  // column.
  bool slotsAlongRows = kind != Kind::RowRuns;
  return slotsAlongRows == alongRows ? getElementsPerBlock() : 1;
}

int64_t FragmentLayout::getVectorIndex(bool alongRows, int64_t slot,
                                       int64_t cols) const {
  int64_t perBlock = getElementsPerBlock();
  int64_t block = slot / perBlock;
  int64_t blocksPerRow = cols / baseCols;
  int64_t blockAlong = alongRows ? block / blocksPerRow : block % blocksPerRow;
  int64_t slots = getVectorSlots(alongRows);
  return blockAlong * slots + (slots > 1 ? slot % perBlock : 0);
}

int64_t FragmentLayout::getVectorCoordinate(bool alongRows, unsigned lane,
                                            int64_t index) const {
  int64_t slots = getVectorSlots(alongRows);
  auto [row, col] = coordinatesInBlock(lane, slots > 1 ? index % slots : 0);
  return index / slots * getBaseExtent(alongRows) + (alongRows ? row : col);
}

unsigned FragmentLayout::getReductionLaneMask(bool alongRows) const {
  // Coordinates are linear in the bits of p = lane % period and
  // q = lane / period (period is a power of two), so each lane bit moves by
  // a fixed step along rows and columns.
  unsigned mask = 0;
  for (unsigned bit = 1; bit < 64; bit <<= 1) {
    auto [row, col] = coordinatesInBlock(bit, 0);
    if ((alongRows ? row : col) == 0)
      mask |= bit;
  }
  return mask;
}

bool hk::vectorLayoutsEquivalent(mlir::Attribute a, mlir::Attribute b,
                                 int64_t length) {
  if (a == b)
    return true;
  auto va = llvm::dyn_cast_if_present<VectorLayoutAttr>(a);
  auto vb = llvm::dyn_cast_if_present<VectorLayoutAttr>(b);
  if (!va || !vb || va.getRows() != vb.getRows())
    return false;
  bool rows = va.getRows();
  std::optional<FragmentLayout> la = FragmentLayout::get(va.getTile());
  std::optional<FragmentLayout> lb = FragmentLayout::get(vb.getTile());
  if (!la || !lb || !la->tilesVector(rows, length) ||
      !lb->tilesVector(rows, length))
    return false;
  int64_t perLane = la->getVectorElementsPerLane(rows, length);
  if (perLane != lb->getVectorElementsPerLane(rows, length))
    return false;
  for (unsigned lane = 0; lane < 64; ++lane)
    for (int64_t index = 0; index < perLane; ++index)
      if (la->getVectorCoordinate(rows, lane, index) !=
          lb->getVectorCoordinate(rows, lane, index))
        return false;
  return true;
}

bool hk::layoutsEquivalent(mlir::Attribute a, mlir::Attribute b, int64_t rows,
                           int64_t cols) {
  if (a == b)
    return true;
  std::optional<FragmentLayout> la = FragmentLayout::get(a);
  std::optional<FragmentLayout> lb = FragmentLayout::get(b);
  if (!la || !lb || !la->tiles(rows, cols) || !lb->tiles(rows, cols))
    return false;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      if (!(la->locate(r, c, cols) == lb->locate(r, c, cols)))
        return false;
  return true;
}

/// The attribute naming `layout`: `row` / `col` for HipKittens' runs of
/// four over 16x16 blocks, else the MFMA operand layout with those runs.
static mlir::Attribute attributeOf(mlir::MLIRContext *ctx,
                                   FragmentLayout::Kind kind, unsigned period,
                                   unsigned run) {
  bool rows = kind == FragmentLayout::Kind::RowRuns;
  if (period == 16 && run == 4)
    return TileLayoutAttr::get(ctx, rows ? TileLayout::Row : TileLayout::Col);
  return MfmaLayoutAttr::get(ctx, rows ? MfmaOperand::A : MfmaOperand::B,
                             period, period, run * 64 / period);
}

mlir::Attribute hk::transposedLayout(mlir::Attribute layout) {
  std::optional<FragmentLayout> fragment = FragmentLayout::get(layout);
  if (!fragment)
    return {};
  mlir::MLIRContext *ctx = layout.getContext();
  switch (fragment->getKind()) {
  case FragmentLayout::Kind::RowRuns:
    return attributeOf(ctx, FragmentLayout::Kind::ColRuns,
                       fragment->getPeriod(), fragment->getRun());
  case FragmentLayout::Kind::ColRuns:
  case FragmentLayout::Kind::Accumulator:
    // An accumulator holds runs of four rows per column, like column runs.
    return attributeOf(ctx, FragmentLayout::Kind::RowRuns,
                       fragment->getPeriod(), fragment->getRun());
  }
  return {};
}

std::optional<llvm::SmallVector<int64_t>>
hk::transposeSlots(mlir::Attribute from, mlir::Attribute to, int64_t rows,
                   int64_t cols) {
  std::optional<FragmentLayout> src = FragmentLayout::get(from);
  std::optional<FragmentLayout> dst = FragmentLayout::get(to);
  if (!src || !dst || !src->tiles(rows, cols) || !dst->tiles(cols, rows))
    return std::nullopt;
  llvm::SmallVector<int64_t> map(rows * cols / 64, -1);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      FragmentLayout::Slot s = src->locate(r, c, cols);
      FragmentLayout::Slot d = dst->locate(c, r, rows);
      if (s.lane != d.lane)
        return std::nullopt;
      if (map[d.index] == -1)
        map[d.index] = s.index;
      else if (map[d.index] != s.index)
        return std::nullopt;
    }
  return map;
}
