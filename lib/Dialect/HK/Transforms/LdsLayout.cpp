//===- LdsLayout.cpp - Bank-conflict-free swizzles for shared tiles -------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/TileAccess.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

#include "ValueClasses.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

namespace hk {
#define GEN_PASS_DEF_HKLDSLAYOUT
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// What one swizzle costs for the accesses of a tile.
struct Cost {
  uint64_t cycles = 0;       ///< Phases plus conflict cycles.
  uint64_t instructions = 0; ///< LDS instructions per wave.
  uint64_t conflicts = 0;    ///< Conflict cycles alone.

  bool operator<(const Cost &o) const {
    return std::tie(cycles, instructions) < std::tie(o.cycles, o.instructions);
  }

  /// Adds one wave's share of work that `waves` waves split between them.
  void addShare(const Cost &total, int64_t waves) {
    cycles += (total.cycles + waves - 1) / waves;
    instructions += (total.instructions + waves - 1) / waves;
    conflicts += (total.conflicts + waves - 1) / waves;
  }
};

/// Simulates the LDS instructions of every access to one shared tile, as
/// the cost to one wave: its own tile reads and writes, and its share of
/// the group copies.
class AccessSimulator {
public:
  AccessSimulator(const ChipInfo &chip, SharedTileType type)
      : chip(chip), type(type),
        bytes(getElementBits(type.getElementType()) / 8) {}

  /// The cost of `swizzle`, or nothing when a direct-to-LDS load rules it
  /// out (it would split the bytes a lane writes).
  std::optional<Cost> evaluate(SwizzleAttr swizzle,
                               ArrayRef<Operation *> uses) {
    Cost cost;
    for (Operation *use : uses) {
      if (auto groupLoad = dyn_cast<GroupLoadOp>(use);
          groupLoad && groupLoad.getPath() == TransferPath::Direct) {
        // Each wave's lanes write consecutive LDS addresses: no conflicts,
        // whatever the swizzle, as long as it keeps a lane's bytes together.
        int64_t laneBytes = std::min<int64_t>(chip.maxDirectToLdsBytes(),
                                              type.getCols() * bytes);
        if (swizzleContiguousElements(swizzle, type.getCols()) * bytes <
            laneBytes)
          return std::nullopt;
        continue;
      }
      if (auto load = dyn_cast<LoadOp>(use))
        addTileAccesses(cost, swizzle, load.getType(),
                        !load.getIndices().empty(),
                        /*write=*/false);
      else if (auto store = dyn_cast<StoreOp>(use))
        addTileAccesses(cost, swizzle, store.getValue().getType(),
                        !store.getIndices().empty(), /*write=*/true);
      else if (auto groupLoad = dyn_cast<GroupLoadOp>(use);
               groupLoad && groupLoad.getTranspose())
        addTransposedLoad(cost, swizzle, groupLoad);
      else if (auto groupLoad = dyn_cast<GroupLoadOp>(use))
        addGroupCopy(cost, swizzle, groupLoad, /*write=*/true);
      else if (auto groupStore = dyn_cast<GroupStoreOp>(use))
        addGroupCopy(cost, swizzle, groupStore, /*write=*/false);
    }
    return cost;
  }

private:
  void addInstruction(Cost &cost, ArrayRef<uint32_t> addresses, unsigned width,
                      bool write) {
    unsigned lanesPerPhase =
        std::max(1u, write ? chip.lds.writeLanesPerPhase(width)
                           : chip.lds.readLanesPerPhase(width));
    unsigned conflicts = chip.lds.conflictCycles(addresses, width, write);
    cost.conflicts += conflicts;
    cost.cycles += (64 + lanesPerPhase - 1) / lanesPerPhase + conflicts;
    ++cost.instructions;
  }

  uint32_t byteAddress(SwizzleAttr swizzle, int64_t row, int64_t col) const {
    return uint32_t(swizzledElementIndex(swizzle, type.getCols(), row, col) *
                    bytes);
  }

  /// A register tile read or written at every subtile position.
  void addTileAccesses(Cost &cost, SwizzleAttr swizzle, Type regType,
                       bool subtile, bool write) {
    auto tile = dyn_cast<RegisterTileType>(regType);
    if (!tile)
      return;
    std::optional<FragmentLayout> layout =
        FragmentLayout::get(tile.getLayout());
    if (!layout)
      return;
    int64_t contiguous = swizzleContiguousElements(swizzle, type.getCols());
    SmallVector<AccessUnit> units = enumerateAccesses(
        *layout, tile.getRows(), tile.getCols(), bytes, contiguous);
    int64_t rowSteps = subtile ? type.getRows() / tile.getRows() : 1;
    int64_t colSteps = subtile ? type.getCols() / tile.getCols() : 1;
    SmallVector<uint32_t, 64> addresses(64);
    for (int64_t i = 0; i < rowSteps; ++i)
      for (int64_t j = 0; j < colSteps; ++j)
        for (const AccessUnit &unit : units) {
          for (unsigned lane = 0; lane < 64; ++lane) {
            auto [laneRow, laneCol] = layout->coordinatesInBlock(lane, 0);
            addresses[lane] =
                byteAddress(swizzle, i * tile.getRows() + laneRow + unit.row,
                            j * tile.getCols() + laneCol + unit.col);
          }
          addInstruction(cost, addresses, unit.width * bytes, write);
        }
  }

  /// The LDS side of a group copy, wave by wave and round by round. A
  /// direct-to-LDS load writes each wave's lanes to consecutive addresses,
  /// whatever the swizzle.
  template <typename CopyOp>
  void addGroupCopy(Cost &cost, SwizzleAttr swizzle, CopyOp op, bool write) {
    int64_t lanes = int64_t(op.getWaves().value_or(
                        op->template getParentOfType<KernelOp>().getWaves())) *
                    64;
    GroupCopyPlan plan =
        planGroupCopy(type.getRows(), type.getCols(), bytes, lanes,
                      swizzleContiguousElements(swizzle, type.getCols()));
    Cost total;
    SmallVector<uint32_t, 64> addresses(64);
    for (int64_t wave = 0; wave < lanes / 64; ++wave)
      for (int64_t round = 0; round < plan.rounds; ++round)
        for (int64_t piece = 0; piece < plan.chunkElems;
             piece += plan.pieceElems) {
          bool any = false;
          for (unsigned lane = 0; lane < 64; ++lane) {
            int64_t row, col;
            if (!plan.chunkOf(wave * 64 + lane, round, row, col)) {
              addresses[lane] = UINT32_MAX;
              continue;
            }
            any = true;
            addresses[lane] = byteAddress(swizzle, row, col + piece);
          }
          if (any)
            addInstruction(total, addresses, plan.pieceElems * bytes, write);
        }
    cost.addShare(total, lanes / 64);
  }

  /// A transposing group load: lanes read chunks of rows of the global
  /// tile (the shared tile's columns) and write their elements one by one
  /// down the shared tile's columns.
  void addTransposedLoad(Cost &cost, SwizzleAttr swizzle, GroupLoadOp op) {
    int64_t lanes = int64_t(op.getWaves().value_or(
                        op->getParentOfType<KernelOp>().getWaves())) *
                    64;
    GroupCopyPlan plan =
        planTransposedCopy(type.getRows(), type.getCols(), bytes, lanes);
    Cost total;
    SmallVector<uint32_t, 64> addresses(64);
    for (int64_t wave = 0; wave < lanes / 64; ++wave)
      for (int64_t round = 0; round < plan.rounds; ++round)
        for (int64_t element = 0; element < plan.chunkElems; ++element) {
          bool any = false;
          for (unsigned lane = 0; lane < 64; ++lane) {
            int64_t row, col;
            if (!plan.chunkOf(wave * 64 + lane, round, row, col)) {
              addresses[lane] = UINT32_MAX;
              continue;
            }
            any = true;
            addresses[lane] = byteAddress(swizzle, col + element, row);
          }
          if (any)
            addInstruction(total, addresses, bytes, /*write=*/true);
        }
    cost.addShare(total, lanes / 64);
  }

  const ChipInfo &chip;
  SharedTileType type;
  int64_t bytes;
};

/// The XOR swizzles worth trying for a tile with `cols` columns of
/// `bytes`-byte elements: groups of 4 to 16 bytes, every phase period and
/// phase count that fits the row.
SmallVector<SwizzleAttr> candidateSwizzles(MLIRContext *ctx, int64_t cols,
                                           int64_t bytes) {
  SmallVector<SwizzleAttr> candidates = {SwizzleAttr::get(ctx, 1, 1, 1)};
  for (int64_t groupBytes : {4, 8, 16}) {
    if (groupBytes < bytes)
      continue;
    int64_t vec = groupBytes / bytes;
    for (int64_t perPhase : {1, 2, 4, 8})
      for (int64_t maxPhase = 2; vec * maxPhase <= cols; maxPhase *= 2)
        candidates.push_back(SwizzleAttr::get(ctx, vec, perPhase, maxPhase));
  }
  return candidates;
}

class LdsLayoutPass : public hk::impl::HKLdsLayoutBase<LdsLayoutPass> {
public:
  using HKLdsLayoutBase::HKLdsLayoutBase;

  void runOnOperation() override {
    // Shared tiles joined by selects, branches or loops (double buffers)
    // must share one swizzle: choose it for the uses of all of them.
    ValueClasses<SharedTileType> classes;
    getOperation().walk([&](Operation *op) { classes.visitControlFlow(op); });
    for (auto &[root, members] : classes.classes()) {
      auto type = cast<SharedTileType>(root.getType());
      if (type.getSwizzle())
        continue;
      SwizzleAttr chosen;
      if (!swizzle) {
        chosen = SwizzleAttr::get(&getContext(), 1, 1, 1);
      } else {
        Operation *anchor = root.getDefiningOp()
                                ? root.getDefiningOp()
                                : root.getParentRegion()->getParentOp();
        const ChipInfo *chip = lookupTargetChip(anchor);
        if (!chip) {
          anchor->emitOpError()
              << "needs a target chip to choose a swizzle; run hk-target first";
          return signalPassFailure();
        }
        chosen = choose(*chip, members, type);
      }
      for (Value member : members)
        member.setType(
            cast<SharedTileType>(member.getType()).withSwizzle(chosen));
    }
  }

private:
  SwizzleAttr choose(const ChipInfo &chip, ArrayRef<Value> members,
                     SharedTileType type) {
    SmallVector<Operation *> uses;
    for (Value member : members)
      for (Operation *user : member.getUsers())
        uses.push_back(user);
    AccessSimulator simulator(chip, type);
    int64_t bytes = getElementBits(type.getElementType()) / 8;
    SwizzleAttr best;
    Cost bestCost;
    for (SwizzleAttr candidate :
         candidateSwizzles(&getContext(), type.getCols(), bytes)) {
      std::optional<Cost> cost = simulator.evaluate(candidate, uses);
      // Ties go to the earlier (simpler) candidate.
      if (cost && (!best || *cost < bestCost)) {
        best = candidate;
        bestCost = *cost;
      }
    }
    return best;
  }
};

} // namespace
