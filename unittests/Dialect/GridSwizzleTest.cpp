//===- GridSwizzleTest.cpp - hk-grid-swizzle's block order ----------------===//
//
// Runs the pass on a kernel, then evaluates the index arithmetic it emitted
// for every block of many grids: the remap must be a permutation of the
// grid, agree with an independent statement of the XCD and grouped orders,
// and give each XCD runs of consecutive logical blocks.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/IR/HKDialect.h"
#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <array>
#include <set>
#include <string>

using namespace mlir;
using namespace hk;

namespace {

using Ids = std::array<uint64_t, 3>;

/// The block order written out directly, from the pass's documentation.
Ids referenceOrder(Ids grid, Ids block, unsigned xcds, unsigned chunk,
                   unsigned group) {
  uint64_t slice = grid[0] * grid[1];
  uint64_t r = block[1] * grid[0] + block[0], z = block[2];
  if (chunk > 0) {
    uint64_t run = uint64_t(xcds) * chunk;
    if (r < slice / run * run) {
      uint64_t local = r / xcds;
      r = local / chunk * run + r % xcds * chunk + local % chunk;
    }
  }
  if (group == 0)
    return {r % grid[0], r / grid[0], z};
  uint64_t perGroup = uint64_t(group) * grid[1];
  uint64_t first = r / perGroup * group;
  uint64_t rows = std::min<uint64_t>(grid[0] - first, group);
  uint64_t inGroup = r % perGroup;
  return {first + inGroup % rows, inGroup / rows, z};
}

/// Evaluates the straight-line index arithmetic of a swizzled kernel.
class Evaluator {
public:
  explicit Evaluator(KernelOp kernel) : kernel(kernel) {}

  /// The block ids the kernel's body sees when block `block` of `grid` runs.
  Ids run(Ids grid, Ids block) {
    values.clear();
    Ids seen = {~0ull, ~0ull, ~0ull};
    for (Operation &op : kernel.getBody().front()) {
      if (auto dim = dyn_cast<GridDimOp>(op))
        values[dim.getResult()] = grid[unsigned(dim.getDim())];
      else if (auto id = dyn_cast<BlockIdOp>(op))
        values[id.getResult()] = block[unsigned(id.getDim())];
      else if (auto constant = dyn_cast<arith::ConstantIndexOp>(op))
        values[constant.getResult()] = constant.value();
      else if (auto sink = dyn_cast<GroupLoadOp>(op)) {
        // The test kernel hands (x, y) and z to group loads.
        auto indices = sink.getIndices();
        if (indices.size() == 2 && seen[0] == ~0ull) {
          seen[0] = values.at(indices[0]);
          seen[1] = values.at(indices[1]);
        } else {
          seen[2] = values.at(indices[0]);
        }
      } else if (op.getNumResults() == 1 &&
                 isa<IndexType, IntegerType>(op.getResult(0).getType())) {
        values[op.getResult(0)] = evaluate(op);
      }
    }
    return seen;
  }

private:
  uint64_t evaluate(Operation &op) {
    auto operand = [&](unsigned i) { return values.at(op.getOperand(i)); };
    if (isa<arith::AddIOp>(op))
      return operand(0) + operand(1);
    if (isa<arith::SubIOp>(op))
      return operand(0) - operand(1);
    if (isa<arith::MulIOp>(op))
      return operand(0) * operand(1);
    if (isa<arith::DivUIOp>(op))
      return operand(0) / operand(1);
    if (isa<arith::RemUIOp>(op))
      return operand(0) % operand(1);
    if (isa<arith::MinUIOp>(op))
      return std::min(operand(0), operand(1));
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      EXPECT_EQ(cmp.getPredicate(), arith::CmpIPredicate::ult);
      return operand(0) < operand(1);
    }
    if (isa<arith::SelectOp>(op))
      return operand(0) ? operand(1) : operand(2);
    // Every lane computes the same ids; the narrowing to i32 must keep them.
    if (isa<arith::IndexCastUIOp>(op)) {
      EXPECT_LT(operand(0), 1ull << 31);
      return operand(0);
    }
    if (isa<ROCDL::ReadfirstlaneOp>(op))
      return operand(0);
    ADD_FAILURE() << "unexpected op " << op.getName().getStringRef().str();
    return 0;
  }

  KernelOp kernel;
  llvm::DenseMap<Value, uint64_t> values;
};

constexpr llvm::StringLiteral kKernel = R"mlir(
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(1) {
    %x = hk.block_id x
    %y = hk.block_id y
    %z = hk.block_id z
    %s = hk.alloc : !hk.st<16x16xbf16>
    hk.group_load %a[%x, %y], %s : !hk.gl<?x?xbf16>, !hk.st<16x16xbf16>
    hk.group_load %a[%z, %z], %s : !hk.gl<?x?xbf16>, !hk.st<16x16xbf16>
    hk.return
  }
}
)mlir";

struct Swizzled {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;

  Swizzled(unsigned chunk, unsigned group, llvm::StringRef source = kKernel) {
    context.loadDialect<HKDialect, arith::ArithDialect>();
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    PassManager pm(&context);
    pm.addPass(createHKGridSwizzle(HKGridSwizzleOptions{chunk, group}));
    EXPECT_TRUE(succeeded(pm.run(*module)));
  }
  KernelOp kernel() { return *module->getOps<KernelOp>().begin(); }
};

struct Case {
  unsigned chunk, group;
};

class GridSwizzleTest : public ::testing::TestWithParam<Case> {};

TEST_P(GridSwizzleTest, PermutesEveryGridAsDocumented) {
  Case c = GetParam();
  Swizzled swizzled(c.chunk, c.group);
  Evaluator evaluator(swizzled.kernel());
  // Grids divisible by 8 * chunk and not, with group sizes that divide the
  // rows and do not, tall and flat, with and without z.
  const std::vector<Ids> grids = {{1, 1, 1},  {8, 8, 1},   {16, 16, 1},
                                  {7, 5, 1},  {13, 11, 1}, {3, 40, 1},
                                  {40, 3, 1}, {9, 9, 3},   {32, 2, 2}};
  for (Ids grid : grids) {
    std::set<Ids> images;
    for (uint64_t z = 0; z < grid[2]; ++z)
      for (uint64_t y = 0; y < grid[1]; ++y)
        for (uint64_t x = 0; x < grid[0]; ++x) {
          Ids block = {x, y, z};
          Ids got = evaluator.run(grid, block);
          Ids want = referenceOrder(grid, block, 8, c.chunk, c.group);
          ASSERT_EQ(got, want)
              << "grid " << grid[0] << "x" << grid[1] << "x" << grid[2]
              << " block " << x << "," << y << "," << z;
          ASSERT_LT(got[0], grid[0]);
          ASSERT_LT(got[1], grid[1]);
          ASSERT_LT(got[2], grid[2]);
          images.insert(got);
        }
    EXPECT_EQ(images.size(), grid[0] * grid[1] * grid[2])
        << "not a permutation of grid " << grid[0] << "x" << grid[1] << "x"
        << grid[2];
  }
}

INSTANTIATE_TEST_SUITE_P(Orders, GridSwizzleTest,
                         ::testing::Values(Case{0, 0}, Case{1, 0}, Case{4, 0},
                                           Case{0, 4}, Case{0, 3}, Case{2, 4},
                                           Case{4, 8}),
                         [](const ::testing::TestParamInfo<Case> &info) {
                           return "chunk" + std::to_string(info.param.chunk) +
                                  "_group" + std::to_string(info.param.group);
                         });

/// On a grid of whole runs, the blocks an XCD receives (hardware ids
/// xcd, xcd + 8, ...) are logical ids in runs of `chunk` consecutive ones.
TEST(GridSwizzle, EachXcdGetsConsecutiveLogicalBlocks) {
  const unsigned chunk = 4;
  Swizzled swizzled(chunk, 0);
  Evaluator evaluator(swizzled.kernel());
  Ids grid = {64, 2, 1};
  for (uint64_t xcd = 0; xcd < 8; ++xcd) {
    std::vector<uint64_t> logical;
    for (uint64_t hw = xcd; hw < grid[0] * grid[1]; hw += 8) {
      Ids got = evaluator.run(grid, {hw % grid[0], hw / grid[0], 0});
      logical.push_back(got[1] * grid[0] + got[0]);
    }
    for (size_t i = 0; i < logical.size(); ++i) {
      if (i % chunk != 0)
        EXPECT_EQ(logical[i], logical[i - 1] + 1) << "xcd " << xcd;
      else
        EXPECT_EQ(logical[i] % (8 * chunk), xcd * chunk) << "xcd " << xcd;
    }
  }
}

/// In a grid of several z slices whose size is not a multiple of the XCD
/// count, each slice's first XCD is rotated; an XCD still receives runs of
/// `chunk` consecutive logical blocks of the slice it is working on, and
/// never a block of another slice.
TEST(GridSwizzle, RotatedSlicesKeepRunsPerXcd) {
  const unsigned chunk = 4;
  Swizzled swizzled(chunk, 0);
  Evaluator evaluator(swizzled.kernel());
  Ids grid = {36, 2, 3};
  uint64_t slice = grid[0] * grid[1], whole = slice / 32 * 32;
  for (uint64_t xcd = 0; xcd < 8; ++xcd)
    for (uint64_t z = 0; z < grid[2]; ++z) {
      std::vector<uint64_t> logical;
      for (uint64_t pid = 0; pid < whole; ++pid) {
        if ((z * slice + pid) % 8 != xcd)
          continue;
        Ids got = evaluator.run(grid, {pid % grid[0], pid / grid[0], z});
        ASSERT_EQ(got[2], z);
        logical.push_back(got[1] * grid[0] + got[0]);
      }
      ASSERT_EQ(logical.size(), whole / 8);
      for (size_t i = 0; i < logical.size(); ++i) {
        if (i % chunk != 0)
          EXPECT_EQ(logical[i], logical[i - 1] + 1) << "xcd " << xcd;
        else
          EXPECT_EQ(logical[i] % chunk, 0u) << "xcd " << xcd;
      }
    }
}

/// A kernel's own hk.grid_order is the order it gets, whatever the pass
/// options say.
TEST(GridSwizzle, KernelOrderOverridesOptions) {
  std::string source = kKernel.str();
  llvm::StringRef waves = "waves(1)";
  size_t at = source.find(waves.str()) + waves.size();
  source.insert(at, " attributes {hk.grid_order = "
                    "#hk.grid_order<chunk = 4, group = 8>}");
  Swizzled swizzled(1, 3, source);
  EXPECT_FALSE(swizzled.kernel()->hasAttr(HKDialect::getGridOrderAttrName()));
  Evaluator evaluator(swizzled.kernel());
  for (Ids grid : {Ids{32, 32, 1}, Ids{13, 11, 1}, Ids{40, 3, 2}})
    for (uint64_t z = 0; z < grid[2]; ++z)
      for (uint64_t y = 0; y < grid[1]; ++y)
        for (uint64_t x = 0; x < grid[0]; ++x)
          ASSERT_EQ(evaluator.run(grid, {x, y, z}),
                    referenceOrder(grid, {x, y, z}, 8, 4, 8))
              << "grid " << grid[0] << "x" << grid[1] << "x" << grid[2]
              << " block " << x << "," << y << "," << z;
}

TEST(GridSwizzle, RecordsItselfAndIsNotAppliedTwice) {
  Swizzled swizzled(2, 4);
  auto attr = swizzled.kernel()->getAttrOfType<GridSwizzleAttr>(
      HKDialect::getGridSwizzleAttrName());
  ASSERT_TRUE(attr);
  EXPECT_EQ(attr.getChunk(), 2u);
  EXPECT_EQ(attr.getGroup(), 4u);
  EXPECT_EQ(attr.getXcds(), 8u);
  unsigned before = 0;
  swizzled.kernel().walk([&](Operation *) { ++before; });
  PassManager pm(&swizzled.context);
  pm.addPass(createHKGridSwizzle(HKGridSwizzleOptions{2, 4}));
  ASSERT_TRUE(succeeded(pm.run(*swizzled.module)));
  unsigned after = 0;
  swizzled.kernel().walk([&](Operation *) { ++after; });
  EXPECT_EQ(before, after);
}

} // namespace
