//===- LdsCost.h - LDS bank-conflict cost of shared-tile accesses -*- C++
//-*-===//
//
// The cost model hk-lds-layout chooses swizzles with, and the layout
// conversions' scratch reuses: every LDS instruction an access pattern
// issues is simulated under the chip's bank model (ChipInfo::lds), as the
// cost to one wave.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_LDSCOST_H
#define HK_DIALECT_HK_IR_LDSCOST_H

#include "hk/Dialect/HK/IR/HKAttrs.h"
#include "hk/Dialect/HK/IR/HKTypes.h"
#include "hk/Support/ChipInfo.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <tuple>

namespace hk {

class GroupLoadOp;
class StoreOp;
struct GroupCopyPlan;

/// What one swizzle costs for the accesses of a tile.
struct LdsCost {
  uint64_t cycles = 0;       ///< Phases plus conflict cycles.
  uint64_t instructions = 0; ///< LDS instructions per wave.
  uint64_t conflicts = 0;    ///< Conflict cycles alone.

  bool operator<(const LdsCost &o) const {
    return std::tie(cycles, instructions) < std::tie(o.cycles, o.instructions);
  }

  /// Adds one wave's share of work that `waves` waves split between them.
  void addShare(const LdsCost &total, int64_t waves) {
    cycles += (total.cycles + waves - 1) / waves;
    instructions += (total.instructions + waves - 1) / waves;
    conflicts += (total.conflicts + waves - 1) / waves;
  }
};

/// Simulates the LDS instructions of the accesses to one shared tile, as
/// the cost to one wave: its own tile reads and writes, and its share of
/// the group copies.
class LdsAccessModel {
public:
  LdsAccessModel(const ChipInfo &chip, SharedTileType type);

  /// The cost of `swizzle` for the ops in `uses`, or nothing when a
  /// direct-to-LDS load rules it out (it would split the bytes a lane
  /// writes).
  std::optional<LdsCost> evaluate(SwizzleAttr swizzle,
                                  llvm::ArrayRef<mlir::Operation *> uses) const;

  /// A register tile read or written at every subtile position (once, at
  /// the origin, without `subtile`).
  void addTileAccesses(LdsCost &cost, SwizzleAttr swizzle, mlir::Type regType,
                       bool subtile, bool write) const;

private:
  void addInstruction(LdsCost &cost, llvm::ArrayRef<uint32_t> addresses,
                      unsigned width, bool write) const;
  uint32_t byteAddress(SwizzleAttr swizzle, int64_t row, int64_t col) const;
  /// One wave's share of the LDS instructions of a group copy under
  /// `plan`: `pieces` instructions of `width` bytes per chunk, each lane's
  /// address from `address(row, col, piece)` of its chunk.
  void
  addCopy(LdsCost &cost, const GroupCopyPlan &plan, int64_t pieces,
          unsigned width, bool write,
          llvm::function_ref<uint32_t(int64_t row, int64_t col, int64_t piece)>
              address) const;
  template <typename CopyOp>
  void addGroupCopy(LdsCost &cost, SwizzleAttr swizzle, CopyOp op,
                    bool write) const;
  void addTransposedLoad(LdsCost &cost, SwizzleAttr swizzle,
                         GroupLoadOp op) const;
  /// A register tile stored to global memory `via` this shared tile: its
  /// writes (unless already `staged`) and the wave's reads of its part.
  void addStagedStore(LdsCost &cost, SwizzleAttr swizzle, StoreOp store) const;

  const ChipInfo &chip;
  SharedTileType type;
  int64_t bytes;
};

/// The XOR swizzles worth trying for a tile with `cols` columns of
/// `bytes`-byte elements: groups of 4 to 32 bytes, every phase period and
/// phase count that fits the row, with and without `flip`.
llvm::SmallVector<SwizzleAttr> candidateSwizzles(mlir::MLIRContext *ctx,
                                                 int64_t cols, int64_t bytes);

/// The candidate swizzle of least `cost` (ties to the simpler one); null
/// when `cost` rules every candidate out.
SwizzleAttr
pickSwizzle(mlir::MLIRContext *ctx, int64_t cols, int64_t bytes,
            llvm::function_ref<std::optional<LdsCost>(SwizzleAttr)> cost);

} // namespace hk

#endif // HK_DIALECT_HK_IR_LDSCOST_H
