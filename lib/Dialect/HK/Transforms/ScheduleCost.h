//===- ScheduleCost.h - What a schedule of a main loop costs --------------===//
//
// The cost functions of the schedules.
//
// hk-interleave's: a compute cluster issues MFMAs, LDS reads
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
// hk-ping-pong's: whether the compute clusters run at raised priority
// (choosePriority).
//
// hk-double-buffer's for ping-pong: how many memory/compute cluster pairs
// an iteration is cut into, and where. Each pair costs two barriers, at
// which the groups wait for each other; fewer, larger clusters hold more
// fragments in registers at once; and whether each memory cluster takes
// over the vector work of its compute cluster that needs nothing of its
// pair. The cost is the iteration's time from its barrier intervals, under
// a VGPR estimate that must fit the wave's share of the SIMD
// (choosePingPong).
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_DIALECT_HK_TRANSFORMS_SCHEDULECOST_H
#define HK_LIB_DIALECT_HK_TRANSFORMS_SCHEDULECOST_H

#include "llvm/ADT/ArrayRef.h"
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

//===----------------------------------------------------------------------===//
// Ping-pong: how many memory/compute cluster pairs an iteration has
//===----------------------------------------------------------------------===//

/// One run of a plain ping-pong loop body, as the cost function counts it
/// per wave: a run of shared-tile reads and the run of computation after
/// it.
struct PingPongPair {
  int64_t dsReads = 0;       ///< LDS reads of the read run.
  int64_t fragmentVgprs = 0; ///< VGPRs the read run's fragments take.
  int64_t mfmas = 0;
  unsigned mfmaCycles = 0; ///< Matrix-pipe cycles of one MFMA.
  int64_t valuCycles = 0;  ///< Vector-ALU cycles of the computation.
  int64_t tempVgprs = 0;   ///< The largest other register value it makes.
  /// Of `valuCycles`, what a memory cluster may run instead: entry k (for
  /// a cluster pair starting at pair k, at most this one) counts the
  /// vector work that depends on no read, MFMA or layout conversion of
  /// pairs k to this one.
  llvm::SmallVector<int64_t> movableValuCycles;
};

/// Waves of a ping-pong wave group: [0, 4) and [4, 8), one per SIMD.
constexpr unsigned kPingPongGroupWaves = 4;

/// Cycles of a ping-pong memory cluster's `reads` LDS reads per wave: the
/// group's `groupWaves` waves read through the CU's LDS in turn,
/// `dsReadCycles` a read, and the last read's data arrives `ldsLatency`
/// later (none without reads).
double groupReadCycles(int64_t reads, unsigned dsReadCycles,
                       unsigned ldsLatency, unsigned groupWaves);

/// The device figures the ping-pong cost reads (the timing model's).
struct PingPongCosts {
  unsigned dsReadCycles;   ///< LDS cycles one wave's read occupies.
  unsigned ldsLatency;     ///< From the LDS serving a read to its data.
  unsigned barrierLatency; ///< A block barrier's round trip.
  unsigned groupWaves;     ///< Waves of a group, reading LDS at once.
  int64_t vgprBudget;      ///< VGPRs a wave may hold (two per SIMD).
  int64_t vgprReserve;     ///< Held beside the estimate (addresses, masks).
  int64_t carriedVgprs;    ///< Loop-carried and loop-invariant tiles.
  /// Cycles group 0's first memory cluster waits for a prefetch staged
  /// through registers (its LDS writes need its loads' data); 0 when the
  /// prefetch goes direct to LDS.
  unsigned stagedPrefetchCycles = 0;
};

/// Pairs [first[i], first[i + 1]) form memory/compute cluster pair i.
struct PingPongPlan {
  llvm::SmallVector<unsigned> first;
  /// Each memory cluster also runs the vector work of its compute cluster
  /// that depends on none of the pair's reads, MFMAs or layout
  /// conversions (a softmax on the previous pair's scores), beside the
  /// other group's MFMAs instead of its own.
  bool vectorInMemory = false;
  int64_t movedValuCycles = 0; ///< Moved vector work per iteration.
  double cycles = 0;           ///< Predicted cycles of an iteration on a SIMD.
  int64_t vgprs = 0;           ///< Estimated VGPRs of a wave.
  unsigned candidates = 0;
  bool fits = false; ///< Within the budget (else the fewest VGPRs).

  /// The loop as written: one cluster pair per pair.
  static PingPongPlan asWritten(size_t pairs) {
    PingPongPlan plan;
    for (size_t i = 0; i < pairs; ++i)
      plan.first.push_back(unsigned(i));
    return plan;
  }

  /// One past the last pair of cluster pair `group`, of `pairs` in all.
  size_t end(size_t group, size_t pairs) const {
    return group + 1 < first.size() ? first[group + 1] : pairs;
  }
};

/// Predicted cycles of one iteration of `pairs` grouped as `plan.first`
/// says, both wave groups on a SIMD one cluster apart: every barrier
/// interval lasts as long as the slower of the two clusters it holds (a
/// memory cluster: its reads through the CU's LDS, shared by the group's
/// waves, and the drain of the last, and in group 0's first one the wait
/// for a staged prefetch; a compute cluster: its MFMAs and vector ALU
/// work), plus the barrier's round trip. With `plan.vectorInMemory`, a
/// memory cluster lasts as long as the longer of its reads and the vector
/// work it takes over (which does not wait for them), and its compute
/// cluster is that much shorter. Also fills `plan.movedValuCycles` and
/// `plan.vgprs`: the carried tiles, the fragments of the largest memory
/// cluster and the computation's largest other value, plus the reserve.
double pingPongCycles(llvm::ArrayRef<PingPongPair> pairs, PingPongPlan &plan,
                      const PingPongCosts &costs);

/// Pairs up to which choosePingPong tries every grouping.
constexpr size_t kMaxGroupedRuns = 8;

/// The cheapest grouping of `pairs` into consecutive memory/compute cluster
/// pairs whose VGPR estimate fits the budget; `clusters`, when given, fixes
/// how many, and `vectorInMemory`, when given, where the movable vector
/// work goes. Candidates: every grouping (or, past kMaxGroupedRuns pairs,
/// the one as written and the single pair), each with the vector work in
/// its compute clusters and in its memory clusters. Ties go to fewer
/// barriers, then to the vector work left in place. When no
/// grouping fits, the one of fewest estimated VGPRs (the loop as written,
/// when `clusters` is not given), with the vector work where it costs less
/// (moving it changes no estimate).
PingPongPlan choosePingPong(llvm::ArrayRef<PingPongPair> pairs,
                            const PingPongCosts &costs,
                            std::optional<unsigned> clusters,
                            std::optional<bool> vectorInMemory = std::nullopt);

//===----------------------------------------------------------------------===//
// Ping-pong: whether compute clusters run at raised priority
//===----------------------------------------------------------------------===//

/// One cluster of a ping-pong loop, per wave: its time alone, and its
/// instructions on the issue ports the two groups share.
struct PingPongCluster {
  double cycles = 0; ///< Alone: a memory cluster's reads, a compute
                     ///< cluster's MFMAs and vector ALU work.
  int64_t mfmas = 0; ///< MFMAs (0 in a memory cluster).
  int64_t valu = 0;  ///< Vector-ALU instructions other than MFMAs.
  int64_t lds = 0;   ///< LDS instructions (reads; layout round trips).
};

/// The cost of an iteration with and without s_setprio around every compute
/// cluster, and the choice.
struct PriorityChoice {
  bool raise = false;
  double withPriority = 0, without = 0; ///< Cycles of an iteration.
};

/// Whether `s_setprio 1` ... `s_setprio 0` around each compute cluster of
/// a ping-pong loop (`clusters` in loop order, memory first) makes its
/// iteration shorter. Group 1 runs one cluster behind group 0, so each
/// compute cluster runs twice per iteration beside the other group's memory
/// cluster: group 0's beside group 1's memory cluster before it, group 1's
/// beside group 0's memory cluster after it. A SIMD issues one instruction
/// per port (vector ALU, which MFMAs share, LDS, ...) per slot, to the
/// highest-priority ready wave, the oldest first among equals; group 0's
/// waves are the older. So the priority decides something only for group
/// 1's compute cluster: without it, each instruction of group 0's memory
/// cluster on a port the compute cluster also uses may take a slot the
/// compute cluster wanted, delaying it by an issue slot (the worst case,
/// counted in full, up to the compute cluster's own instructions on that
/// port). With it, both groups' compute clusters issue two more
/// instructions in line with their MFMAs (one before the first, one after
/// the last). An interval between barriers lasts as long as the longer of
/// its two clusters. Ties keep the wave's priority: where the memory
/// clusters bound the intervals the priority wins nothing the count sees,
/// and the timing model predicted its two instructions a cost there (the
/// ping-pong attention per 64 keys: 3390 cycles with, 3382 without on
/// gfx942; 1940 and 1936 on gfx950), once the memory clusters issued their
/// reads before their prefetch.
PriorityChoice choosePriority(llvm::ArrayRef<PingPongCluster> clusters,
                              unsigned issueCadence);

} // namespace hk

#endif // HK_LIB_DIALECT_HK_TRANSFORMS_SCHEDULECOST_H
