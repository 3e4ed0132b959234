//===- Counters.h - What a launch counted and what it caught -------*- C++
//-*-===//
//
// Per-kernel counters (instruction mix, bytes per memory level, LDS bank
// conflicts per ds_* instruction, MFMA work) and sanitizer reports.
//
//===----------------------------------------------------------------------===//

#ifndef HK_EMULATOR_COUNTERS_H
#define HK_EMULATOR_COUNTERS_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace hk::emu {

/// Instruction classes of the mix (one per executed wave-instruction).
enum class InstrClass : uint8_t {
  Salu,
  Valu,
  Mfma,
  Lds,
  Vmem,
  Smem,
  Wait,
  Barrier,
  Branch,
  Other, ///< s_nop, s_setprio, s_sleep, s_endpgm and other hints.
  Count
};

llvm::StringRef stringifyInstrClass(InstrClass c);

/// Bank-conflict figures of one ds_* instruction (by its address).
struct LdsConflictStats {
  std::string mnemonic;
  uint64_t executions = 0;  ///< Wave-level executions.
  uint64_t phases = 0;      ///< LDS phases (conflict-free cost).
  uint64_t extraCycles = 0; ///< Phases lost to bank conflicts.
};

struct KernelCounters {
  std::array<uint64_t, size_t(InstrClass::Count)> mix{};
  uint64_t waveInstructions = 0;
  uint64_t globalReadBytes = 0;
  uint64_t globalWriteBytes = 0;
  uint64_t ldsReadBytes = 0;
  uint64_t ldsWriteBytes = 0;
  uint64_t directToLdsBytes = 0; ///< Bytes moved by buffer/global ... lds.
  uint64_t scalarReadBytes = 0;
  uint64_t mfmaCount = 0;
  uint64_t mfmaFlops = 0;
  /// ds_* instructions keyed by code address.
  std::map<uint64_t, LdsConflictStats> ldsConflicts;

  void merge(const KernelCounters &other);
  uint64_t ldsConflictCycles() const;
  llvm::json::Object toJson() const;
  void print(llvm::raw_ostream &os) const;
};

/// One finding of a sanitizer.
struct SanitizerReport {
  enum Kind : uint8_t {
    GlobalOutOfBounds,
    LdsOutOfBounds,
    ScratchOutOfBounds,
    ReadBeforeWait,
    LdsRace,
    BarrierImbalance,
    SharedTileOutOfBounds,
    GlobalRace,
  };
  Kind kind;
  std::string kernel;
  uint64_t pc = 0;
  uint64_t workgroup = 0; ///< Linear workgroup id.
  unsigned wave = 0;
  int lane = -1; ///< -1 when the finding is about the whole wave.
  uint64_t address = 0;
  std::string message; ///< The full one-line description.
};

llvm::StringRef stringifyReportKind(SanitizerReport::Kind kind);

} // namespace hk::emu

#endif // HK_EMULATOR_COUNTERS_H
