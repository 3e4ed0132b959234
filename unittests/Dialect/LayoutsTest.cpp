//===- LayoutsTest.cpp - Register layouts against AMD's tables ------------===//
//
// The MFMA operand layouts the compiler assumes must agree with every row of
// the tables produced from AMD's Matrix Instruction Calculator.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/IR/Layouts.h"
#include "hk/Dialect/HK/IR/HKAttrs.h"
#include "hk/Dialect/HK/IR/HKDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <set>

using namespace hk;

namespace {

struct OracleTable {
  std::string name;
  llvm::json::Value json = nullptr;
};

std::vector<OracleTable> loadOracleTables() {
  std::vector<OracleTable> tables;
  std::error_code ec;
  llvm::SmallString<256> dir(HK_ORACLE_DIR);
  llvm::sys::path::append(dir, "mfma", "gfx942");
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".json")
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (!buffer)
      continue;
    auto value = llvm::json::parse((*buffer)->getBuffer());
    if (!value) {
      llvm::consumeError(value.takeError());
      continue;
    }
    tables.push_back(
        {llvm::sys::path::stem(it->path()).str(), std::move(*value)});
  }
  return tables;
}

int64_t at(const llvm::json::Value &row, size_t i) {
  return *(*row.getAsArray())[i].getAsInteger();
}

class LayoutOracleTest : public ::testing::Test {
protected:
  void SetUp() override { context.loadDialect<HKDialect>(); }
  mlir::MLIRContext context;
};

TEST_F(LayoutOracleTest, EveryOracleTableIsRead) {
  // Ten tables ship with the oracles; a missing one would silently shrink
  // the test below.
  EXPECT_EQ(loadOracleTables().size(), 10u);
}

TEST_F(LayoutOracleTest, MfmaLayoutsMatchEveryRow) {
  for (const OracleTable &table : loadOracleTables()) {
    SCOPED_TRACE(table.name);
    const llvm::json::Object &obj = *table.json.getAsObject();
    unsigned m = *obj.getInteger("M"), n = *obj.getInteger("N"),
             k = *obj.getInteger("K");
    ASSERT_EQ(*obj.getInteger("blocks"), 1);
    auto layoutOf = [&](MfmaOperand operand) {
      return *FragmentLayout::get(
          MfmaLayoutAttr::get(&context, operand, m, n, k));
    };
    FragmentLayout a = layoutOf(MfmaOperand::A);
    FragmentLayout b = layoutOf(MfmaOperand::B);
    FragmentLayout d = layoutOf(MfmaOperand::Acc);

    size_t rows = 0;
    for (const llvm::json::Value &row : *obj.getArray("a")) {
      // [i, k, gpr, lane, bit_lo, bits]
      FragmentLayout::Slot slot = a.locateInBlock(at(row, 0), at(row, 1));
      int64_t bits = at(row, 5);
      EXPECT_EQ(slot.lane, at(row, 3));
      EXPECT_EQ(slot.index * bits / 32, at(row, 2));
      EXPECT_EQ(slot.index * bits % 32, at(row, 4));
      ++rows;
    }
    EXPECT_EQ(rows, size_t(m) * k);
    for (const llvm::json::Value &row : *obj.getArray("b")) {
      // [k, j, gpr, lane, bit_lo, bits]
      FragmentLayout::Slot slot = b.locateInBlock(at(row, 0), at(row, 1));
      int64_t bits = at(row, 5);
      EXPECT_EQ(slot.lane, at(row, 3));
      EXPECT_EQ(slot.index * bits / 32, at(row, 2));
      EXPECT_EQ(slot.index * bits % 32, at(row, 4));
    }
    rows = 0;
    for (const llvm::json::Value &row : *obj.getArray("d")) {
      // [i, j, gpr, lane]
      FragmentLayout::Slot slot = d.locateInBlock(at(row, 0), at(row, 1));
      EXPECT_EQ(slot.lane, at(row, 3));
      EXPECT_EQ(slot.index, at(row, 2));
      ++rows;
    }
    EXPECT_EQ(rows, size_t(m) * n);
  }
}

/// Every layout must be a bijection from a tile's elements to (lane, slot).
TEST_F(LayoutOracleTest, LayoutsAreBijections) {
  std::vector<mlir::Attribute> layouts = {
      TileLayoutAttr::get(&context, TileLayout::Row),
      TileLayoutAttr::get(&context, TileLayout::Col),
      MfmaLayoutAttr::get(&context, MfmaOperand::A, 16, 16, 32),
      MfmaLayoutAttr::get(&context, MfmaOperand::B, 32, 32, 16),
      MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 32, 32, 8),
      MfmaLayoutAttr::get(&context, MfmaOperand::A, 16, 16, 128),
  };
  for (mlir::Attribute attr : layouts) {
    FragmentLayout layout = *FragmentLayout::get(attr);
    int64_t rows = layout.getBaseRows() * 2, cols = layout.getBaseCols() * 3;
    std::set<std::pair<unsigned, int64_t>> seen;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        FragmentLayout::Slot slot = layout.locate(r, c, cols);
        EXPECT_LT(slot.lane, 64u);
        EXPECT_LT(slot.index, layout.getElementsPerLane(rows, cols));
        EXPECT_TRUE(seen.insert({slot.lane, slot.index}).second);
      }
  }
}

/// The lane/slot decomposition the lowering emits must invert locate().
TEST_F(LayoutOracleTest, LaneTermsInvertLocate) {
  std::vector<mlir::Attribute> layouts = {
      TileLayoutAttr::get(&context, TileLayout::Row),
      TileLayoutAttr::get(&context, TileLayout::Col),
      MfmaLayoutAttr::get(&context, MfmaOperand::A, 32, 32, 16),
      MfmaLayoutAttr::get(&context, MfmaOperand::B, 16, 16, 32),
      MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 16, 16, 16),
      MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 32, 32, 8),
  };
  for (mlir::Attribute attr : layouts) {
    FragmentLayout layout = *FragmentLayout::get(attr);
    for (unsigned lane = 0; lane < 64; ++lane)
      for (int64_t slot = 0; slot < layout.getElementsPerBlock(); ++slot) {
        auto [r, c] = layout.coordinatesInBlock(lane, slot);
        FragmentLayout::Slot back = layout.locateInBlock(r, c);
        EXPECT_EQ(back.lane, lane);
        EXPECT_EQ(back.index, slot);
      }
  }
}

TEST_F(LayoutOracleTest, HipKittensWordsAreMfmaLayouts) {
  auto row = TileLayoutAttr::get(&context, TileLayout::Row);
  auto col = TileLayoutAttr::get(&context, TileLayout::Col);
  auto a16 = MfmaLayoutAttr::get(&context, MfmaOperand::A, 16, 16, 16);
  auto b16 = MfmaLayoutAttr::get(&context, MfmaOperand::B, 16, 16, 16);
  auto acc16 = MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 16, 16, 16);
  auto a32 = MfmaLayoutAttr::get(&context, MfmaOperand::A, 16, 16, 32);
  EXPECT_TRUE(layoutsEquivalent(row, a16, 32, 32));
  EXPECT_TRUE(layoutsEquivalent(col, b16, 32, 32));
  EXPECT_TRUE(layoutsEquivalent(col, acc16, 32, 32));
  EXPECT_FALSE(layoutsEquivalent(row, col, 32, 32));
  EXPECT_FALSE(layoutsEquivalent(row, a32, 32, 32));
}

/// Register vectors aligned with a tile: every lane's vector holds exactly
/// the rows (columns) of its tile elements, and the reduction lane bits are
/// exactly the ones that keep those rows (columns) and change the others.
TEST_F(LayoutOracleTest, VectorsAlignWithTheirTiles) {
  mlir::Attribute layouts[] = {
      TileLayoutAttr::get(&context, TileLayout::Row),
      TileLayoutAttr::get(&context, TileLayout::Col),
      MfmaLayoutAttr::get(&context, MfmaOperand::A, 32, 32, 16),
      MfmaLayoutAttr::get(&context, MfmaOperand::B, 16, 16, 32),
      MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 16, 16, 16),
      MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 32, 32, 8),
  };
  for (mlir::Attribute attr : layouts) {
    FragmentLayout layout = *FragmentLayout::get(attr);
    int64_t rows = 2 * layout.getBaseRows(), cols = 3 * layout.getBaseCols();
    for (bool alongRows : {true, false}) {
      SCOPED_TRACE(layout.describe() + (alongRows ? " rows" : " cols"));
      int64_t length = alongRows ? rows : cols;
      int64_t perLane = layout.getVectorElementsPerLane(alongRows, length);
      std::vector<std::set<int64_t>> held(64);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
          FragmentLayout::Slot slot = layout.locate(r, c, cols);
          int64_t index = layout.getVectorIndex(alongRows, slot.index, cols);
          ASSERT_LT(index, perLane);
          EXPECT_EQ(layout.getVectorCoordinate(alongRows, slot.lane, index),
                    alongRows ? r : c);
          held[slot.lane].insert(alongRows ? r : c);
        }
      // No position is wasted: a lane holds perLane distinct coordinates.
      for (unsigned lane = 0; lane < 64; ++lane)
        EXPECT_EQ(int64_t(held[lane].size()), perLane);
      unsigned mask = layout.getReductionLaneMask(alongRows);
      for (unsigned bit = 1; bit < 64; bit <<= 1)
        for (unsigned lane = 0; lane < 64; ++lane)
          EXPECT_EQ(held[lane] == held[lane ^ bit], bool(mask & bit))
              << "lane " << lane << " bit " << bit;
    }
  }
}

TEST_F(LayoutOracleTest, VectorLayoutEquivalence) {
  auto vec = [&](bool rows, mlir::Attribute tile) {
    return VectorLayoutAttr::get(&context, rows, tile);
  };
  auto acc16 = MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 16, 16, 16);
  auto acc16k32 = MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 16, 16, 32);
  auto acc32 = MfmaLayoutAttr::get(&context, MfmaOperand::Acc, 32, 32, 8);
  auto col = TileLayoutAttr::get(&context, TileLayout::Col);
  auto row = TileLayoutAttr::get(&context, TileLayout::Row);
  // The accumulator's K does not move its rows; `col` puts rows where the
  // 16x16 accumulator does.
  EXPECT_TRUE(
      vectorLayoutsEquivalent(vec(true, acc16), vec(true, acc16k32), 64));
  EXPECT_TRUE(vectorLayoutsEquivalent(vec(true, acc16), vec(true, col), 64));
  EXPECT_FALSE(vectorLayoutsEquivalent(vec(true, acc16), vec(true, acc32), 64));
  EXPECT_FALSE(vectorLayoutsEquivalent(vec(true, row), vec(false, row), 64));
  EXPECT_FALSE(vectorLayoutsEquivalent(vec(true, row), vec(true, col), 64));
}

} // namespace
