//===- DeviceModel.h - The devices the timing model predicts ----*- C++ -*-===//
//
// One row per device (MI300X and MI325X on gfx942, MI350X and MI355X on
// gfx950): clocks, compute units, the memory hierarchy's capacities,
// latencies and bandwidths, and the issue rules of a compute unit. Every
// figure carries its source in lib/Timing/DeviceModel.cpp; a figure no
// public document gives is marked there as an assumption. The timing model
// reads nothing else about a device.
//
//   const auto *d = hk::timing::DeviceModel::lookup("mi355x");
//   d->clockMHz == 2400; d->mfmaCycles(*instr, cbsz, blgp) == 16
//
//===----------------------------------------------------------------------===//

#ifndef HK_TIMING_DEVICEMODEL_H
#define HK_TIMING_DEVICEMODEL_H

#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace hk::timing {

/// A set-associative cache level.
struct CacheSpec {
  uint64_t bytes;     ///< Capacity (of the whole level as one XCD sees it).
  unsigned lineBytes; ///< Allocation granule.
  unsigned ways;
  unsigned latency; ///< Cycles from request to data on a hit.
};

/// The engine clock a device holds through a dense GEMM of one element
/// kind, from AMD's measurements: power management lowers the clock when
/// the matrix pipes are busy, so a GEMM runs below the peak clock the data
/// sheets' matrix peaks assume.
struct DenseClock {
  llvm::StringRef kind;   ///< "bf16", "f16", "fp8": the MFMA's A operand.
  double clockFraction;   ///< The measured clock over the peak clock.
  double pipeUtilization; ///< The GEMM's TFLOP/s over the peak at that
                          ///< clock: how busy its matrix pipes were.
};

/// MFMA issue-to-result cycles of one chip, by mnemonic.
struct MfmaTiming {
  llvm::StringRef mnemonic;
  unsigned cycles;
};

struct DeviceModel {
  llvm::StringRef name;     ///< "MI300X"
  llvm::StringRef chipName; ///< "gfx942"
  unsigned clockMHz;        ///< Peak engine clock.
  unsigned xcds;
  unsigned cusPerXcd;

  // Issue: every SIMD gets an issue opportunity once per `issueCadence`
  // cycles and may then issue one instruction per unit type, each from a
  // different wave, oldest wave first within the highest priority.
  unsigned issueCadence;
  unsigned valuCycles;  ///< A wave64 VALU instruction holds the VALU.
  unsigned transCycles; ///< A transcendental one.
  unsigned transLatency;
  unsigned saluLatency;
  unsigned branchTakenPenalty;
  unsigned barrierLatency;
  unsigned sleepUnitCycles; ///< s_sleep N waits N times this.
  unsigned workgroupLaunchCycles;

  // Occupancy.
  unsigned maxWavesPerSimd;
  unsigned maxWorkgroupsPerCu;
  unsigned vgprsPerSimdLane; ///< Unified arch + acc file.
  unsigned vgprGranule;
  unsigned sgprsPerSimd;
  unsigned sgprGranule;
  unsigned ldsBytesPerCu;

  // LDS: one instruction at a time per CU, for the phases the bank model
  // gives (each phase one cycle) plus its conflict cycles.
  unsigned ldsLatency;

  // Vector memory.
  unsigned vmemAddressCycles; ///< Address processing per wave64 instruction.
  unsigned l1BytesPerCycle;   ///< Per CU, L1 <-> L2 and L1 -> SIMD.
  CacheSpec l1;
  CacheSpec l2; ///< Per XCD.
  unsigned l2Channels;
  unsigned l2BytesPerCyclePerChannel;
  CacheSpec mall; ///< Infinity Cache: the whole device's.
  double mallTBps;
  CacheSpec scalarCache; ///< Per CU.
  double hbmTBps;        ///< Peak.
  double hbmEfficiency;  ///< Fraction of peak a stream reaches.
  unsigned hbmLatency;
  /// Bytes of write-backs the XCD's memory controllers hold while reads
  /// go first (MemoryModel.h, BandwidthServer).
  double hbmWriteQueueBytes;

  llvm::ArrayRef<MfmaTiming> mfmaTimings;
  llvm::ArrayRef<DenseClock> denseClocks;

  /// Cycles one MFMA occupies its SIMD's matrix pipe, which is also when
  /// its result can be read. Scaled f8f6f4 MFMAs run at the rate of their
  /// widest operand format (cbsz and blgp give the A and B formats: 0 fp8,
  /// 1 bf8, 2 fp6, 3 bf6, 4 fp4). 0 when the table has no figure.
  unsigned mfmaCycles(const MfmaInstr &instr, unsigned cbsz = 0,
                      unsigned blgp = 0) const;

  /// The engine clock the model predicts for a launch whose matrix pipes
  /// are busy `utilization` (0-1) of its time with MFMAs of element `kind`
  /// (Prediction::peakKind): the peak clock when they idle, falling
  /// linearly to the measured dense-GEMM clock of that kind when they are
  /// as busy as in AMD's measurement, and no lower. Kinds AMD did not
  /// measure take bf16's figure.
  double sustainedClockMHz(llvm::StringRef kind, double utilization) const;

  unsigned computeUnits() const { return xcds * cusPerXcd; }
  double clockHz() const { return clockMHz * 1e6; }
  /// Dense peak of the MFMA `instr` over the whole device, in FLOP/s.
  double peakFlops(const MfmaInstr &instr, unsigned cbsz = 0,
                   unsigned blgp = 0) const;
  /// HBM bytes per engine cycle one XCD gets when all XCDs stream (peak
  /// times the stream efficiency, split evenly), with the engine clock at
  /// `engineClockMHz` (0: the peak). HBM and the Infinity Cache sit on the
  /// I/O dies, clocked apart from the compute dies' engine clock: their
  /// bytes per second hold when power management lowers it, so an engine
  /// cycle gets more of them.
  double hbmBytesPerCyclePerXcd(double engineClockMHz = 0) const;
  double mallBytesPerCyclePerXcd(double engineClockMHz = 0) const;
  /// `cycles` of memory-side latency (Infinity Cache, HBM: given in cycles
  /// of the peak engine clock) in cycles of an engine clock of
  /// `engineClockMHz` (0: the peak): the same nanoseconds.
  double memorySideCycles(double cycles, double engineClockMHz = 0) const;

  const ChipInfo &chip() const { return *ChipInfo::lookup(chipName); }

  /// The device called `name` (any case: "mi300x", "MI355X"), or null.
  static const DeviceModel *lookup(llvm::StringRef name);
  /// The device a code object for `chip` runs on unless told otherwise:
  /// MI300X for gfx942, MI355X for gfx950.
  static const DeviceModel &defaultFor(const ChipInfo &chip);
  static llvm::ArrayRef<DeviceModel> all();
  /// "mi300x, mi325x, mi350x, mi355x": for diagnostics.
  static std::string knownNames();
};

} // namespace hk::timing

#endif // HK_TIMING_DEVICEMODEL_H
