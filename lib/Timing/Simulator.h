//===- Simulator.h - One XCD running a sample of a grid ---------*- C++ -*-===//
//
// Internal to lib/Timing: the pieces predict() puts together.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_TIMING_SIMULATOR_H
#define HK_LIB_TIMING_SIMULATOR_H

#include "MemoryModel.h"

#include "hk/Timing/Timing.h"

#include "llvm/ADT/DenseMap.h"

#include <utility>
#include <vector>

namespace hk::timing {

/// The kernel's loops: each backward direct branch closes one, from its
/// target to itself. Every instruction belongs to its innermost loop, or
/// to "outside loops" (index outside()).
class LoopTable {
public:
  explicit LoopTable(llvm::ArrayRef<const isa::Instruction *> program);
  unsigned size() const { return unsigned(loops.size()) + 1; }
  unsigned outside() const { return unsigned(loops.size()); }
  std::pair<uint64_t, uint64_t> range(unsigned loop) const {
    return loops[loop];
  }
  unsigned loopOf(uint64_t pc) const;

private:
  std::vector<std::pair<uint64_t, uint64_t>> loops;
  llvm::DenseMap<uint64_t, unsigned> byPc;
};

/// How many of the kernel's waves and workgroups a CU holds at once.
struct Occupancy {
  unsigned wavesPerSimd = 0;       ///< Register limits.
  unsigned wavesPerSimdPlaced = 0; ///< What whole workgroups fill.
  unsigned workgroupsPerCu = 0;
  const char *limit = "";
};
Occupancy computeOccupancy(const DeviceModel &device, const LaunchShape &shape);

/// What simulating one sample produced.
struct SampleResult {
  uint64_t end = 0;      ///< Cycle the last workgroup (and its memory) ended.
  uint64_t flushEnd = 0; ///< ... and L2's dirty lines reached HBM.
  uint64_t workgroups = 0;
  /// In sample order, the cycles each workgroup held its slot: from its
  /// dispatch to the end of its last wave, when the next one may start.
  std::vector<uint64_t> residency;
  uint64_t instructions = 0;
  uint64_t simds = 0; ///< SIMDs of the CUs that ran a workgroup.
  double flops = 0, globalBytes = 0, hbmBytes = 0;
  uint64_t ldsConflictCycles = 0;
  uint64_t l2Reads = 0, l2Hits = 0;
  const MfmaInstr *mainMfma = nullptr;
  unsigned mainMfmaFormats = 0; ///< cbsz << 8 | blgp.
  std::vector<LoopBreakdown> loops;
};

/// Runs workgroups `ids` on one XCD's CUs from an idle, cold device: as
/// many as the CUs hold start at once, round-robin over the CUs, and each
/// later one starts, in order, in the slot the next workgroup to end frees.
/// The engine clock is `engineClockMHz` (0: the peak); the memory side
/// beyond L2 keeps its own clocks (XcdMemory).
llvm::Expected<SampleResult>
simulateSample(const DeviceModel &device, ExecutionCore &core,
               const Occupancy &occupancy, const LoopTable &loops,
               llvm::ArrayRef<uint64_t> ids, double engineClockMHz);

} // namespace hk::timing

#endif // HK_LIB_TIMING_SIMULATOR_H
