//===- TileAccessTest.cpp - Transposing LDS reads deliver the layout ------===//
//
// The addresses enumerateTransposedReads gives each lane, pushed through the
// transposing read as the CDNA4 ISA describes it (each group of 16 lanes
// loads a 4x16 tile of 16-bit elements, 4 per lane along a row; lane c
// receives column c), must hand every lane exactly the elements its
// register layout says it holds.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/IR/TileAccess.h"
#include "hk/Dialect/HK/IR/HKAttrs.h"
#include "hk/Dialect/HK/IR/HKDialect.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace hk;

namespace {

class TileAccessTest : public ::testing::Test {
protected:
  TileAccessTest() { context.loadDialect<HKDialect>(); }
  FragmentLayout mfma(MfmaOperand operand, unsigned m, unsigned n, unsigned k) {
    return *FragmentLayout::get(
        MfmaLayoutAttr::get(&context, operand, m, n, k));
  }
  FragmentLayout tile(TileLayout layout) {
    return *FragmentLayout::get(TileLayoutAttr::get(&context, layout));
  }
  mlir::MLIRContext context;
};

/// Simulates every transposed unit of a rows x cols tile read from a
/// row-major shared tile whose element (r, c) holds r * cols + c, and checks
/// each lane's slots against the layout.
void expectLayoutDelivered(const FragmentLayout &layout, int64_t rows,
                           int64_t cols) {
  SCOPED_TRACE(layout.describe() + ", " + std::to_string(rows) + "x" +
               std::to_string(cols));
  auto units = enumerateTransposedReads(layout, rows, cols, 2, cols);
  ASSERT_TRUE(units.has_value());
  // What every (lane, slot) must hold.
  std::map<std::pair<unsigned, int64_t>, int64_t> expected;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      FragmentLayout::Slot slot = layout.locate(r, c, cols);
      expected[{slot.lane, slot.index}] = r * cols + c;
    }
  int64_t delivered = 0;
  for (const AccessUnit &unit : *units) {
    ASSERT_TRUE(unit.transposed);
    ASSERT_EQ(unit.width, 4);
    int64_t loaded[64][4];
    for (unsigned lane = 0; lane < 64; ++lane) {
      auto [row, col] = layout.coordinatesInBlock(lane, 0);
      auto [rowOffset, colOffset] = transposedReadOffset(lane);
      int64_t r = row + unit.row + rowOffset, c = col + unit.col + colOffset;
      ASSERT_TRUE(r >= 0 && r < rows && c >= 0 && c + 3 < cols);
      ASSERT_EQ(c % 4, 0) << "8-byte reads stay aligned";
      for (int64_t e = 0; e < 4; ++e)
        loaded[lane][e] = r * cols + c + e;
    }
    for (unsigned lane = 0; lane < 64; ++lane) {
      unsigned group = lane & ~15u, c = lane % 16;
      for (int64_t r = 0; r < 4; ++r) {
        int64_t got = loaded[group + 4 * r + c / 4][c % 4];
        EXPECT_EQ(got, (expected[{lane, unit.slot + r}]))
            << "lane " << lane << " slot " << unit.slot + r;
        ++delivered;
      }
    }
  }
  EXPECT_EQ(delivered, rows * cols) << "every element read exactly once";
}

TEST_F(TileAccessTest, TransposedReadsDeliverColumnRunLayouts) {
  expectLayoutDelivered(mfma(MfmaOperand::B, 16, 16, 32), 32, 16);
  expectLayoutDelivered(mfma(MfmaOperand::B, 16, 16, 32), 64, 128);
  expectLayoutDelivered(mfma(MfmaOperand::B, 32, 32, 16), 16, 32);
  expectLayoutDelivered(mfma(MfmaOperand::B, 32, 32, 16), 64, 64);
  expectLayoutDelivered(mfma(MfmaOperand::B, 16, 16, 16), 16, 16);
  expectLayoutDelivered(tile(TileLayout::Col), 32, 48);
  expectLayoutDelivered(mfma(MfmaOperand::Acc, 16, 16, 32), 32, 32);
  expectLayoutDelivered(mfma(MfmaOperand::Acc, 32, 32, 16), 64, 32);
}

TEST_F(TileAccessTest, TransposedReadsOnlyWhereTheySuit) {
  // Lanes holding runs along a row, 32-bit elements, a swizzle splitting
  // rows into pieces of fewer than four elements.
  EXPECT_FALSE(enumerateTransposedReads(tile(TileLayout::Row), 16, 16, 2, 16));
  EXPECT_FALSE(enumerateTransposedReads(mfma(MfmaOperand::A, 16, 16, 32), 16,
                                        32, 2, 32));
  EXPECT_FALSE(enumerateTransposedReads(mfma(MfmaOperand::B, 16, 16, 32), 32,
                                        16, 4, 16));
  EXPECT_FALSE(
      enumerateTransposedReads(mfma(MfmaOperand::B, 16, 16, 32), 32, 16, 2, 2));
  // enumerateSharedAccesses falls back to plain reads then, and when the
  // chip has no transposing reads.
  auto plain = enumerateSharedAccesses(mfma(MfmaOperand::B, 16, 16, 32), 32, 16,
                                       2, 16, /*transposedReads=*/false);
  ASSERT_FALSE(plain.empty());
  EXPECT_FALSE(plain.front().transposed);
  EXPECT_EQ(plain.front().width, 1);
  auto rows = enumerateSharedAccesses(tile(TileLayout::Row), 16, 16, 2, 16,
                                      /*transposedReads=*/true);
  EXPECT_FALSE(rows.front().transposed);
}

// A transposing read's 32-lane phase touches rows r..r+3 and r+8..r+11 (r a
// multiple of 4) of a B operand's shared tile. With 32-byte groups, a
// flipped swizzle gives those eight rows eight different phases, so their
// 32-byte pieces land in different banks; the plain one repeats its phases
// every 8 rows. Either way each row's columns are only permuted, with the
// groups kept whole.
TEST_F(TileAccessTest, FlippedSwizzleSeparatesRowsEightApart) {
  auto plain = SwizzleAttr::get(&context, 16, 1, 8);
  auto flipped = SwizzleAttr::get(&context, 16, 1, 8, /*flip=*/true);
  EXPECT_EQ(plain.getRowPeriod(), 8);
  EXPECT_EQ(flipped.getRowPeriod(), 16);
  for (int64_t r = 0; r < 64; r += 4) {
    std::set<int64_t> plainPhases, flippedPhases;
    for (int64_t row : {r, r + 1, r + 2, r + 3, r + 8, r + 9, r + 10, r + 11}) {
      plainPhases.insert(plain.phaseOf(row));
      flippedPhases.insert(flipped.phaseOf(row));
    }
    EXPECT_EQ(plainPhases.size(), 4u) << "rows from " << r;
    EXPECT_EQ(flippedPhases.size(), 8u) << "rows from " << r;
  }
  for (int64_t row = 0; row < 64; ++row) {
    EXPECT_EQ(flipped.phaseOf(row), flipped.phaseOf(row + 16));
    std::set<int64_t> columns;
    for (int64_t col = 0; col < 128; ++col) {
      int64_t stored = flipped.swizzleColumn(row, col);
      EXPECT_EQ(stored % 16, col % 16);
      columns.insert(stored);
    }
    EXPECT_EQ(columns.size(), 128u);
    EXPECT_EQ(*columns.rbegin(), 127);
  }
}

// gfx950's ds_read_b128 serves lanes 0-3, 12-15, 20-23 and 24-27 in one
// LDS phase. Reading an fp8 MFMA operand (32 bytes a lane, two 16-byte
// reads), that phase holds rows 0-3 and 12-15 at 16-byte group 2j and rows
// 4-7 and 8-11 at group 2j + 2; two rows fill the 64 banks. A masked phase
// that keeps row bits 1 and 3 puts the 16 reads in 16 distinct bank
// slots, where no plain swizzle does.
TEST_F(TileAccessTest, MaskedSwizzleSeparatesPairedFp8Reads) {
  auto masked = SwizzleAttr::get(&context, 16, 2, 8, /*flip=*/false, 5);
  EXPECT_EQ(masked.getPhaseMask(), 5u);
  EXPECT_EQ(SwizzleAttr::get(&context, 16, 2, 8).getPhaseMask(), 7u);
  EXPECT_EQ(masked.getRowPeriod(), 16);
  auto slots = [](SwizzleAttr swizzle, int64_t group) {
    std::set<int64_t> taken;
    for (int64_t row : {0, 1, 2, 3, 12, 13, 14, 15})
      taken.insert(row % 2 * 8 + swizzle.swizzleColumn(row, group * 16) / 16);
    for (int64_t row : {4, 5, 6, 7, 8, 9, 10, 11})
      taken.insert(row % 2 * 8 +
                   swizzle.swizzleColumn(row, (group + 2) * 16) / 16);
    return taken.size();
  };
  for (int64_t group : {0, 1, 4, 5})
    EXPECT_EQ(slots(masked, group), 16u) << "group " << group;
  for (unsigned perPhase : {1u, 2u, 4u})
    for (unsigned maxPhase : {2u, 4u, 8u})
      EXPECT_LT(slots(SwizzleAttr::get(&context, 16, perPhase, maxPhase), 0),
                16u)
          << perPhase << " " << maxPhase;
  for (int64_t row = 0; row < 32; ++row) {
    EXPECT_EQ(masked.phaseOf(row), (row / 2 % 8) & 5);
    std::set<int64_t> columns;
    for (int64_t col = 0; col < 128; ++col)
      columns.insert(masked.swizzleColumn(row, col));
    EXPECT_EQ(columns.size(), 128u);
  }
}

// A wave's copy of 128-byte rows covers every chunk once and gives each
// 16-lane LDS phase two rows 8 apart; narrower rows keep the plain order.
TEST(WaveCopyPlan, PairsRowsEightApartAndCoversEveryChunk) {
  GroupCopyPlan plan = planWaveCopy(/*rows=*/64, /*cols=*/64,
                                    /*elementBytes=*/2, /*contiguous=*/8);
  ASSERT_TRUE(plan.pairRows);
  ASSERT_EQ(plan.lanes, 64);
  std::set<std::pair<int64_t, int64_t>> seen;
  for (int64_t round = 0; round < plan.rounds; ++round)
    for (int64_t phase = 0; phase < 4; ++phase) {
      std::set<int64_t> rows;
      for (int64_t lane = phase * 16; lane < phase * 16 + 16; ++lane) {
        int64_t row, col;
        ASSERT_TRUE(plan.chunkOf(lane, round, row, col));
        EXPECT_TRUE(seen.insert({row, col}).second)
            << "chunk (" << row << ", " << col << ") copied twice";
        rows.insert(row);
      }
      ASSERT_EQ(rows.size(), 2u);
      EXPECT_EQ(*rows.rbegin() - *rows.begin(), 8);
      EXPECT_EQ(*rows.begin() / 16, *rows.rbegin() / 16);
    }
  EXPECT_EQ(seen.size(), size_t(64 * 8));

  GroupCopyPlan narrow = planWaveCopy(32, 32, 2, 8);
  EXPECT_FALSE(narrow.pairRows);
  int64_t row, col;
  ASSERT_TRUE(narrow.chunkOf(4, 0, row, col));
  EXPECT_EQ(row, 1);
}

} // namespace
