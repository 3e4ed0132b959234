//===- MainLoop.h - The loop a kernel's schedule applies to -------*- C++
//-*-===//
//
// What the schedule passes (hk-double-buffer, hk-ping-pong, hk-interleave)
// share: finding a kernel's main loop, telling whether a kernel was
// scheduled before, counting the MFMAs an hk.mma issues and the LDS reads
// of a fragment (for the cost functions), and unrolling a
// double-buffered loop so that its buffers stay in place.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_DIALECT_HK_TRANSFORMS_MAINLOOP_H
#define HK_LIB_DIALECT_HK_TRANSFORMS_MAINLOOP_H

#include "hk/Dialect/HK/IR/HKOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallVector.h"

#include <array>

namespace hk {

/// The loop a kernel's schedule applies to: the one that names a schedule
/// of its own (`hk.schedule`), or else the kernel's one top-level scf.for
/// holding hk.mma ops. Emits an error when there is none.
mlir::FailureOr<mlir::scf::ForOp> findMainLoop(KernelOp kernel);

/// Every hk.mma of `loop` has its MFMA instruction; emits an error naming
/// `pass` on the first one that does not.
mlir::LogicalResult checkMfmaInstrs(mlir::scf::ForOp loop,
                                    llvm::StringRef pass);

/// The kernel already has its wave-group barriers (ping-pong) or its
/// instruction groups (interleave).
bool hasWaveGroupBarriers(KernelOp kernel);
bool hasInstructionGroups(KernelOp kernel);

/// The loop's body is made of hk.cluster ops (anywhere in it).
bool hasClusters(mlir::scf::ForOp loop);

/// The scf.if among `cluster`'s own ops whose branches issue group loads
/// and whose condition comes from outside the cluster (hk-double-buffer's
/// prefetch, versioned alone in a GEMM body), if any.
mlir::scf::IfOp findVersionedPrefetch(ClusterOp cluster);

/// Replaces `cluster` by an scf.if on `prefetch`'s condition around two
/// clones of the cluster, each with one of `prefetch`'s branches in place
/// of it, and versions each clone again while it holds a versioned
/// prefetch of its own (an interleave prefetch's steady-state version
/// holds the per-iteration choice in its else branch); returns the
/// clusters that hold no choice left, the branch-free version first. For
/// what needs the loads in the basic block of the ops after them:
/// instruction groups that interleave them with the MFMAs, and
/// register-staged copies, whose LDS writes the lowering defers to the end
/// of that block.
llvm::SmallVector<ClusterOp> versionWholeCluster(ClusterOp cluster,
                                                 mlir::scf::IfOp prefetch);

/// MFMA instructions an hk.mma with its instruction issues.
int64_t countMfmas(MmaOp mma);

/// VGPRs a lane of `lanes` holds of a register tile or vector value (0 for
/// other types).
int64_t vgprsOf(mlir::Type type, int64_t lanes);

/// The vector-ALU work of register values, as the cost functions estimate
/// it: about one instruction per VGPR of each value an op makes, and an
/// exponential per element of a softmax's tile.
struct VectorWork {
  int64_t valu = 0; ///< VALU instructions.
  int64_t transcendental = 0;
  int64_t largestVgprs = 0; ///< The largest value made.

  /// Adds `op`'s results (an MFMA's accumulator is not counted).
  void add(mlir::Operation *op, int64_t lanes);
  /// The vector ALU's cycles for it, at `valuCycles` a VALU instruction
  /// and `transCycles` a transcendental one.
  int64_t cycles(unsigned valuCycles, unsigned transCycles) const {
    return valu * valuCycles + transcendental * transCycles;
  }
};

/// Bytes one lane moves with one LDS read into registers (ds_read_b128),
/// as the cost functions count LDS reads.
constexpr int64_t kDsReadBytesPerLane = 16;

/// LDS reads a wave of `lanes` issues to load `tile` from a shared tile.
int64_t countLdsReads(RegisterTileType tile, int64_t lanes);

/// Cycles the CU's LDS spends on one wave's read of kDsReadBytesPerLane a
/// lane: one per phase of the chip's bank model.
unsigned ldsReadCycles(const ChipInfo &chip);

/// Unrolls `loop` by two when some of its shared buffers trade places every
/// iteration (as hk-double-buffer's current and spare tiles do, through the
/// loop's iter_args), by three when they rotate in rings of three (its
/// three-stage form). In each copy the buffers are then fixed, so their LDS
/// addresses become constants, folded into the immediate offsets of the
/// LDS instructions, instead of values carried and re-added every
/// iteration. A later copy runs when its iteration exists (a uniform
/// branch), so no remainder loop is needed for other counts.
void unrollRotatedBuffers(mlir::scf::ForOp loop);

/// The priority (s_setprio) of ping-pong's compute clusters.
constexpr int32_t kComputePriority = 1;

} // namespace hk

#endif // HK_LIB_DIALECT_HK_TRANSFORMS_MAINLOOP_H
