//===- ScheduleCost.h - What an interleave of a compute cluster costs -----===//
//
// hk-interleave's cost function. A compute cluster issues MFMAs, LDS reads
// (the fragments its MFMAs multiply) and vector-memory reads (the next
// tile's prefetch); the interleave's instruction groups fix their order.
// The cost of an order is the cluster's time on one wave of a SIMD, from a
// small in-order issue model whose figures are the timing model's
// (lib/Timing/DeviceModel.cpp): the MFMA's matrix-pipe cycles, the issue
// cadence, the LDS cycles and latency of a read with the CU's other waves
// reading alongside, and the L2 latency of a prefetch, which must land
// before the wait at the end of the iteration.
//
//   ClusterWork work = ...;
//   InterleaveChoice best = chooseInterleave(work, costs, {std::nullopt,
//                                                          std::nullopt, 0});
//
// The other instructions of the cluster (VALU, scalar) are not modelled: the
// groups do not order them.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_DIALECT_HK_TRANSFORMS_SCHEDULECOST_H
#define HK_LIB_DIALECT_HK_TRANSFORMS_SCHEDULECOST_H

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>

namespace hk {

/// Instructions of each class per scheduling group: `mfma` MFMAs, then
/// `dsReads` LDS reads, then `vmem` vector-memory reads (0 leaves the class
/// out of the groups).
struct GroupSizes {
  unsigned mfma, dsReads, vmem;
};

/// What one wave's compute cluster issues.
struct ClusterWork {
  int64_t mfmas = 0;
  unsigned mfmaCycles = 0; ///< Matrix-pipe cycles of one MFMA.
  int64_t dsReads = 0;
  int64_t vmemReads = 0;
  /// For each MFMA in issue order, how many of the LDS reads must be done
  /// before it (its operands' fragments and those of the MFMAs before it);
  /// empty: the reads feed the MFMAs in equal shares.
  llvm::SmallVector<int64_t> readsNeeded;
};

/// The device figures the cost reads (from the timing model's table).
struct InterleaveCosts {
  unsigned issueCadence;    ///< Cycles between a wave's issues.
  unsigned dsReadCycles;    ///< LDS cycles one wave's read occupies.
  unsigned ldsLatency;      ///< From the LDS serving a read to its data.
  unsigned vmemIssueCycles; ///< Address cycles of one vector-memory read.
  unsigned vmemLatency;     ///< A prefetch's latency (from HBM).
  unsigned wavesPerCu;      ///< Waves sharing the CU's LDS and memory.
};

/// Predicted cycles of the cluster when its instructions are grouped by
/// `sizes`. Reads the groups do not claim (a size of 0) issue first, as
/// LLVM's scheduler starts loads without inputs early; an MFMA waits for
/// the LDS reads it needs, which issue before it whatever the groups say.
double interleaveCycles(const ClusterWork &work, GroupSizes sizes,
                        const InterleaveCosts &costs);

struct InterleaveChoice {
  GroupSizes sizes;
  double cycles;
  unsigned candidates; ///< How many were costed.
};

/// The cheapest group sizes; a size given in `pinned` is kept. Candidates:
/// 1, 2, 4 or 8 MFMAs (at most the cluster's), 0, 1, 2 or 4 reads of each
/// class. Ties go to fewer MFMAs per group, then fewer reads.
InterleaveChoice
chooseInterleave(const ClusterWork &work, const InterleaveCosts &costs,
                 std::array<std::optional<unsigned>, 3> pinned);

} // namespace hk

#endif // HK_LIB_DIALECT_HK_TRANSFORMS_SCHEDULECOST_H
