//===- Timing.h - Predicted kernel time, execution-driven -------*- C++ -*-===//
//
// The timing model turns a launch into a predicted time on a named device.
// It is execution-driven: a functional core (the emulator) decides what each
// wave executes, the model decides when. The model owns the resident waves
// of a simulated sample of the grid and asks the core to execute one
// instruction of one wave when its issue rules let the wave issue, so each
// wave executes the same instructions in the same order as in a functional
// run; only the interleaving between waves differs, which race-free kernels
// do not observe.
//
// The sample is one XCD's share of the grid: workgroups are dispatched
// round-robin over the XCDs (linear id i to XCD i mod 8), so XCD 0 runs
// workgroups 0, 8, 16, ... on its CUs with its L2, an eighth of the
// Infinity Cache and an eighth of HBM's bandwidth. The model simulates its
// first three dispatch waves (and its last, partial one when the grid ends
// with one), each freed slot refilled with the next workgroup, and times
// the other full waves as the second; see Prediction::sample and
// Prediction::extrapolation.
//
// Every figure this produces is a prediction of the model, not a
// measurement.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TIMING_TIMING_H
#define HK_TIMING_TIMING_H

#include "hk/ISA/Instruction.h"
#include "hk/Timing/DeviceModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hk::timing {

/// What one executed instruction did that its encoding does not say: the
/// functional core fills it (through the emulator's probe hooks) for the
/// instruction it was asked to execute.
struct StepEffects {
  /// Vector memory: each active lane's first byte address and the bytes
  /// it moves (flat and scratch addresses included as the core computed
  /// them).
  bool vmem = false;
  uint64_t vmemLanes = 0;
  unsigned vmemBytes = 0;
  uint64_t vmemAddress[64];
  /// The addresses are offsets into each lane's private (scratch) memory.
  bool vmemScratch = false;
  /// LDS: phases and bank-conflict cycles of the bank model.
  bool lds = false;
  unsigned ldsPhases = 0;
  unsigned ldsConflictCycles = 0;
  /// Scalar memory.
  bool smem = false;
  uint64_t smemAddress = 0;
  unsigned smemBytes = 0;

  void clear() {
    vmem = lds = smem = vmemScratch = false;
    vmemLanes = 0;
    ldsPhases = ldsConflictCycles = 0;
  }
};

/// The functional side of the model: it owns the workgroups' state and
/// executes their waves one instruction at a time. Workgroups live in
/// residency slots the model numbers from 0.
class ExecutionCore {
public:
  virtual ~ExecutionCore();
  /// Starts workgroup `id` in `slot`; returns its wave count.
  virtual llvm::Expected<unsigned> startWorkgroup(unsigned slot,
                                                  uint64_t id) = 0;
  /// The instruction wave `wave` of `slot` executes next; null once the
  /// wave has ended.
  virtual const isa::Instruction *next(unsigned slot, unsigned wave) = 0;
  /// Executes that instruction, recording what it did in `effects`.
  /// Returns false when the launch must stop (the core keeps the error).
  virtual bool step(unsigned slot, unsigned wave, StepEffects &effects) = 0;
  /// Lets every wave of `slot` waiting at s_barrier go on.
  virtual void releaseBarrier(unsigned slot) = 0;
  /// The workgroup of `slot` has ended (every wave ran s_endpgm).
  virtual void finishWorkgroup(unsigned slot) = 0;
  /// Puts everything the workgroups run so far changed back as it was
  /// before the first one started (memory, counters, reports), so that the
  /// sample can run again; false when the core cannot.
  virtual bool rewind() { return false; }
};

/// What the model needs to know about the kernel and the launch.
struct LaunchShape {
  uint64_t workgroups = 0; ///< The whole grid.
  unsigned wavesPerWorkgroup = 1;
  unsigned vgprs = 0; ///< Unified (arch + AGPR), as .vgpr_count.
  unsigned sgprs = 0;
  unsigned ldsBytes = 0; ///< Static + dynamic, per workgroup.
  /// Every instruction of the code object, in address order (loops are
  /// found from its backward branches).
  std::vector<const isa::Instruction *> program;
};

/// Where a SIMD's cycles went.
enum class Stall : uint8_t {
  Mfma,        ///< The matrix pipe was busy.
  Valu,        ///< The vector ALU was busy (and the matrix pipe was not).
  Issue,       ///< Scalar, memory, branch and other issue.
  Vmcnt,       ///< Waves waited at s_waitcnt vmcnt.
  Lgkmcnt,     ///< ... lgkmcnt, on LDS or scalar memory.
  LdsConflict, ///< ... the part of an lgkmcnt wait bank conflicts caused.
  Barrier,     ///< Waves waited at s_barrier.
  Dependency,  ///< A register not yet written, a busy unit, s_nop/s_sleep.
  NoWave,      ///< No wave resident, or all of them ended.
  Count
};
llvm::StringRef stringifyStall(Stall s);

/// SIMD-cycles of one loop of the kernel (or of the code outside loops),
/// summed over the sampled SIMDs.
struct LoopBreakdown {
  uint64_t startPc = 0, endPc = 0; ///< [startPc, endPc]; 0, 0 outside.
  bool outsideLoops = false;
  std::array<uint64_t, size_t(Stall::Count)> cycles{};
  uint64_t total() const;
  /// The largest category other than Mfma (the loop's main stall); Mfma
  /// when there is none.
  Stall largestStall() const;
};

struct Prediction {
  std::string device;      ///< "MI355X"
  std::string chip;        ///< "gfx950"
  double seconds = 0;      ///< Predicted time of the whole launch.
  uint64_t cycles = 0;     ///< The same in device clock cycles.
  double clockMHz = 0;     ///< The clock `seconds` assumes.
  double peakClockMHz = 0; ///< The device's peak engine clock.
  /// The matrix pipes' busy fraction of the launch (its MFMA work over
  /// the peak rate of its main MFMA, at the peak clock): the load the
  /// sustained clock follows.
  double matrixUtilization = 0;
  std::string clockBasis; ///< Where clockMHz came from.
  /// The engine clock the memory side's rates and latencies (Infinity
  /// Cache, HBM: clocked apart from the engine) were converted to cycles
  /// at, and why that one.
  double memoryClockMHz = 0;
  std::string memoryClockBasis;
  unsigned simulations = 1;  ///< Of the sample: 2 when it ran again.
  double flops = 0;          ///< MFMA work of the whole launch.
  double bytes = 0;          ///< Global bytes read + written by the launch.
  double tflops = 0;         ///< flops / seconds / 1e12.
  double gbps = 0;           ///< bytes / seconds / 1e9.
  double peakTflops = 0;     ///< Dense peak of the kernel's main MFMA.
  std::string peakKind;      ///< Which MFMA that peak is for ("bf16").
  double hbmBytes = 0;       ///< Predicted HBM traffic of the launch.
  double peakGbps = 0;       ///< The device's HBM peak.
  double l2HitRate = 0;      ///< Of the sample's L1/scalar misses.
  std::string sample;        ///< What was simulated.
  std::string extrapolation; ///< How it became the whole launch.
  uint64_t sampledWorkgroups = 0;
  unsigned wavesPerSimd = 0; ///< Occupancy the model placed.
  unsigned workgroupsPerCu = 0;
  std::string occupancyLimit; ///< "VGPRs", "LDS", ...
  double modelSeconds = 0;    ///< Host time the model took.
  /// Per loop, in address order, the code outside loops last.
  std::vector<LoopBreakdown> loops;

  llvm::json::Object toJson() const;
  void print(llvm::raw_ostream &os) const;
};

/// How the sample is chosen.
struct SampleRequest {
  /// Empty: XCD 0's first three dispatch waves (plus its last partial
  /// one), refilled slot by slot.
  /// Otherwise exactly these workgroups, all placed on one XCD.
  std::vector<uint64_t> workgroups;
  /// The engine clock in MHz, as under a frequency cap; 0: the sustained
  /// clock the device model predicts for the launch's load.
  double clockMHz = 0;
};

/// The workgroups the default sample simulates for `shape` on `device`, in
/// dispatch order.
std::vector<uint64_t> defaultSample(const DeviceModel &device,
                                    const LaunchShape &shape);

/// Simulates the sample through `core` and extrapolates to the launch.
llvm::Expected<Prediction> predict(const DeviceModel &device,
                                   const LaunchShape &shape,
                                   ExecutionCore &core,
                                   const SampleRequest &request = {});

} // namespace hk::timing

#endif // HK_TIMING_TIMING_H
