//===- LdsCost.cpp - LDS bank-conflict cost of shared-tile accesses -------===//

#include "hk/Dialect/HK/IR/LdsCost.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/TileAccess.h"

#include <cstdint>

using namespace mlir;
using namespace hk;

LdsAccessModel::LdsAccessModel(const ChipInfo &chip, SharedTileType type)
    : chip(chip), type(type), bytes(getElementBits(type.getElementType()) / 8) {
}

std::optional<LdsCost>
LdsAccessModel::evaluate(SwizzleAttr swizzle,
                         ArrayRef<Operation *> uses) const {
  LdsCost cost;
  for (Operation *use : uses) {
    if (auto groupLoad = dyn_cast<GroupLoadOp>(use);
        groupLoad && groupLoad.getPath() == TransferPath::Direct) {
      // Each wave's lanes write consecutive LDS addresses: no conflicts,
      // whatever the swizzle, as long as it keeps a lane's bytes together.
      int64_t laneBytes =
          std::min<int64_t>(chip.maxDirectToLdsBytes(), type.getCols() * bytes);
      if (swizzleContiguousElements(swizzle, type.getCols()) * bytes <
          laneBytes)
        return std::nullopt;
      continue;
    }
    if (auto load = dyn_cast<LoadOp>(use))
      addTileAccesses(cost, swizzle, load.getType(), !load.getIndices().empty(),
                      /*write=*/false);
    else if (auto store = dyn_cast<StoreOp>(use); store && store.getStage())
      addStagedStore(cost, swizzle, store); // (A via store's dest is global.)
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

void LdsAccessModel::addInstruction(LdsCost &cost, ArrayRef<uint32_t> addresses,
                                    unsigned width, bool write) const {
  unsigned lanesPerPhase =
      std::max(1u, write ? chip.lds.writeLanesPerPhase(width)
                         : chip.lds.readLanesPerPhase(width));
  unsigned conflicts = chip.lds.conflictCycles(addresses, width, write);
  cost.conflicts += conflicts;
  cost.cycles += (64 + lanesPerPhase - 1) / lanesPerPhase + conflicts;
  ++cost.instructions;
}

uint32_t LdsAccessModel::byteAddress(SwizzleAttr swizzle, int64_t row,
                                     int64_t col) const {
  return uint32_t(swizzledElementIndex(swizzle, type.getCols(), row, col) *
                  bytes);
}

void LdsAccessModel::addTileAccesses(LdsCost &cost, SwizzleAttr swizzle,
                                     Type regType, bool subtile,
                                     bool write) const {
  auto tile = dyn_cast<RegisterTileType>(regType);
  if (!tile)
    return;
  std::optional<FragmentLayout> layout = FragmentLayout::get(tile.getLayout());
  if (!layout)
    return;
  int64_t contiguous = swizzleContiguousElements(swizzle, type.getCols());
  SmallVector<AccessUnit> units =
      enumerateSharedAccesses(*layout, tile.getRows(), tile.getCols(), bytes,
                              contiguous, !write && chip.hasLdsTransposeRead);
  int64_t rowSteps = subtile ? type.getRows() / tile.getRows() : 1;
  int64_t colSteps = subtile ? type.getCols() / tile.getCols() : 1;
  SmallVector<uint32_t, 64> addresses(64);
  for (int64_t i = 0; i < rowSteps; ++i)
    for (int64_t j = 0; j < colSteps; ++j)
      for (const AccessUnit &unit : units) {
        for (unsigned lane = 0; lane < 64; ++lane) {
          auto [laneRow, laneCol] = layout->coordinatesInBlock(lane, 0);
          if (unit.transposed) {
            auto [rowOffset, colOffset] = transposedReadOffset(lane);
            laneRow += rowOffset;
            laneCol += colOffset;
          }
          addresses[lane] =
              byteAddress(swizzle, i * tile.getRows() + laneRow + unit.row,
                          j * tile.getCols() + laneCol + unit.col);
        }
        addInstruction(cost, addresses, unit.width * bytes, write);
      }
}

/// Lanes taking part in a group copy.
template <typename CopyOp> static int64_t copyLanes(CopyOp op) {
  return int64_t(op.getWaves().value_or(
             op->template getParentOfType<KernelOp>().getWaves())) *
         64;
}

void LdsAccessModel::addCopy(
    LdsCost &cost, const GroupCopyPlan &plan, int64_t pieces, unsigned width,
    bool write,
    function_ref<uint32_t(int64_t row, int64_t col, int64_t piece)> address)
    const {
  LdsCost total;
  SmallVector<uint32_t, 64> addresses(64);
  int64_t waves = plan.lanes / 64;
  for (int64_t wave = 0; wave < waves; ++wave)
    for (int64_t round = 0; round < plan.rounds; ++round)
      for (int64_t piece = 0; piece < pieces; ++piece) {
        bool any = false;
        for (unsigned lane = 0; lane < 64; ++lane) {
          int64_t row, col;
          if (!plan.chunkOf(wave * 64 + lane, round, row, col)) {
            addresses[lane] = UINT32_MAX;
            continue;
          }
          any = true;
          addresses[lane] = address(row, col, piece);
        }
        if (any)
          addInstruction(total, addresses, width, write);
      }
  cost.addShare(total, waves);
}

/// The LDS side of a group copy: each chunk in pieces the swizzle keeps
/// together.
template <typename CopyOp>
void LdsAccessModel::addGroupCopy(LdsCost &cost, SwizzleAttr swizzle, CopyOp op,
                                  bool write) const {
  GroupCopyPlan plan =
      planGroupCopy(type.getRows(), type.getCols(), bytes, copyLanes(op),
                    swizzleContiguousElements(swizzle, type.getCols()));
  addCopy(cost, plan, plan.chunkElems / plan.pieceElems,
          plan.pieceElems * bytes, write,
          [&](int64_t row, int64_t col, int64_t piece) {
            return byteAddress(swizzle, row, col + piece * plan.pieceElems);
          });
}

void LdsAccessModel::addStagedStore(LdsCost &cost, SwizzleAttr swizzle,
                                    StoreOp store) const {
  auto tile = cast<RegisterTileType>(store.getValue().getType());
  bool subtile = !store.getStageIndices().empty();
  if (!store.getStaged())
    addTileAccesses(cost, swizzle, tile, subtile, /*write=*/true);
  // The wave's lanes read its part back in 16-byte pieces of rows, at
  // every subtile position as addTileAccesses counts them.
  GroupCopyPlan plan =
      planWaveCopy(tile.getRows(), tile.getCols(), bytes,
                   swizzleContiguousElements(swizzle, type.getCols()));
  int64_t rowSteps = subtile ? type.getRows() / tile.getRows() : 1;
  int64_t colSteps = subtile ? type.getCols() / tile.getCols() : 1;
  for (int64_t i = 0; i < rowSteps; ++i)
    for (int64_t j = 0; j < colSteps; ++j)
      addCopy(cost, plan, plan.chunkElems / plan.pieceElems,
              plan.pieceElems * bytes, /*write=*/false,
              [&](int64_t row, int64_t col, int64_t piece) {
                return byteAddress(swizzle, i * tile.getRows() + row,
                                   j * tile.getCols() + col +
                                       piece * plan.pieceElems);
              });
}

/// A transposing group load: lanes read chunks down the rows of the global
/// tile (the shared tile's columns) and write their elements one by one
/// along a row of the shared tile.
void LdsAccessModel::addTransposedLoad(LdsCost &cost, SwizzleAttr swizzle,
                                       GroupLoadOp op) const {
  GroupCopyPlan plan =
      planTransposedCopy(type.getRows(), type.getCols(), bytes, copyLanes(op));
  addCopy(cost, plan, plan.chunkElems, bytes, /*write=*/true,
          [&](int64_t row, int64_t col, int64_t element) {
            return byteAddress(swizzle, col + element, row);
          });
}

SmallVector<SwizzleAttr> hk::candidateSwizzles(MLIRContext *ctx, int64_t cols,
                                               int64_t bytes) {
  SmallVector<SwizzleAttr> candidates = {SwizzleAttr::get(ctx, 1, 1, 1)};
  // Every (vec, per_phase, max_phase) over groups of `groups` bytes, in
  // the order ties are broken in.
  auto forEachShape = [&](ArrayRef<int64_t> groups, auto &&fn) {
    for (int64_t groupBytes : groups) {
      if (groupBytes < bytes)
        continue;
      int64_t vec = groupBytes / bytes;
      for (int64_t perPhase : {1, 2, 4, 8})
        for (int64_t maxPhase = 2; vec * maxPhase <= cols; maxPhase *= 2)
          fn(vec, perPhase, maxPhase);
    }
  };
  auto add = [&](ArrayRef<int64_t> groups, bool flip) {
    forEachShape(groups, [&](int64_t vec, int64_t perPhase, int64_t maxPhase) {
      candidates.push_back(
          SwizzleAttr::get(ctx, vec, perPhase, maxPhase, flip));
    });
  };
  // The plain swizzles first, so that they win ties; then 32-byte groups
  // and the flipped variants, for reads that touch rows a phase period
  // apart in one LDS phase (gfx950's transposing reads).
  add({4, 8, 16}, /*flip=*/false);
  add({32}, /*flip=*/false);
  add({4, 8, 16, 32}, /*flip=*/true);
  // Then masked phases, for reads whose LDS phases pair rows of different
  // groups (gfx950's ds_read_b128 of 32-byte runs): masks that are not a
  // smaller max_phase, of 4 or 8 phases.
  forEachShape(
      {4, 8, 16}, [&](int64_t vec, int64_t perPhase, int64_t maxPhase) {
        if (maxPhase < 4 || maxPhase > 8)
          return;
        for (int64_t mask = 1; mask < maxPhase - 1; ++mask)
          if (!llvm::isPowerOf2_64(mask + 1))
            candidates.push_back(SwizzleAttr::get(ctx, vec, perPhase, maxPhase,
                                                  /*flip=*/false, mask));
      });
  return candidates;
}

SwizzleAttr
hk::pickSwizzle(MLIRContext *ctx, int64_t cols, int64_t bytes,
                function_ref<std::optional<LdsCost>(SwizzleAttr)> cost) {
  SwizzleAttr best;
  LdsCost bestCost;
  for (SwizzleAttr candidate : candidateSwizzles(ctx, cols, bytes)) {
    std::optional<LdsCost> c = cost(candidate);
    // Ties go to the earlier (simpler) candidate.
    if (c && (!best || *c < bestCost)) {
      best = candidate;
      bestCost = *c;
    }
  }
  return best;
}
