//===- LaunchChecks.h - Source-aware checks of a launch ---------*- C++ -*-===//
//
// The parts of the sanitizers that need more than one workgroup's state:
// source locations for reports (the code object's line table and
// `.hk.source`), the shared-tile bounds check (each LDS access must stay in
// a tile the op at that source location addresses), and the detector of
// races on global memory between workgroups. Internal to lib/Emulator.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_EMULATOR_LAUNCHCHECKS_H
#define HK_LIB_EMULATOR_LAUNCHCHECKS_H

#include "hk/Emulator/Device.h"
#include "hk/Runtime/SourceInfo.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace hk::emu {

struct Instr;
struct Wave;

/// Global-memory buffers larger than this are not checked for races: the
/// detector keeps 32 bytes of shadow per byte.
inline constexpr uint64_t kMaxRaceCheckedAllocationBytes = 8ull << 20;

class LaunchChecks {
public:
  LaunchChecks(const Module &module, const KernelInfo &kernel,
               const GlobalMemory &memory, const SanitizerOptions &options);
  ~LaunchChecks();

  /// "at FILE:LINE:COL (OP) " for the instruction at `pc`, or "".
  std::string where(uint64_t pc) const;

  bool checksTiles() const { return tiles != nullptr; }
  /// The shared-tile check of lane `lane`'s LDS access [address,
  /// address + size) by `in` (bounds against the whole LDS are checked
  /// before).
  void checkTileAccess(Wave &w, const Instr &in, uint32_t address,
                       unsigned size, int lane, bool write) const;

  bool checksRaces() const { return raceChecks; }
  /// Records an access of global [address, address + size) by `w`'s
  /// workgroup (atomics are not recorded).
  void noteGlobalAccess(const Wave &w, const Instr &in, uint64_t address,
                        unsigned size, bool write);
  /// The races the launch's accesses make, one report per pair of
  /// instructions, in address order: the same whatever the host threads.
  void collectRaces(std::vector<SanitizerReport> &reports,
                    uint64_t &count) const;

private:
  struct RaceSlot {
    uint32_t wg = 0; ///< Linear workgroup id + 1; 0: empty.
    uint32_t pc = 0;
  };
  /// The two lowest (workgroup, pc) pairs with different workgroups that
  /// wrote, and that read, one byte.
  struct RaceEntry {
    RaceSlot write[2], read[2];
  };
  struct Shadow {
    uint64_t base = 0, size = 0;
    std::string label;
    std::unique_ptr<RaceEntry[]> entries;
    std::mutex stripes[64];
  };
  Shadow *findShadow(uint64_t address);
  static void insert(RaceSlot (&slots)[2], RaceSlot pair);

  const Module &module;
  const KernelInfo &kernel;
  const SourceInfo &source;
  const KernelSourceInfo *tiles = nullptr;
  /// Per decoded instruction (index into the program): the tiles the op
  /// at its source location addresses (null: any tile), and whether it
  /// is an atomic (a read-modify-write, or a device-coherent load or
  /// store: an atomic load or store at agent or system scope).
  std::vector<const std::vector<unsigned> *> allowedTiles;
  std::vector<bool> atomic;

  bool raceChecks = false;
  const GlobalMemory &memory;
  std::mutex shadowsMutex;
  std::unordered_map<uint64_t, std::unique_ptr<Shadow>> shadows;
  uint64_t shadowBytes = 0;
  /// Distinguishes launches in the per-thread lookup cache.
  uint64_t serial;
  static std::atomic<uint64_t> nextSerial;
};

} // namespace hk::emu

#endif // HK_LIB_EMULATOR_LAUNCHCHECKS_H
