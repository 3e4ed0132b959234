//===- MemoryModel.h - Caches and bandwidth of the timing model -*- C++ -*-===//
//
// The memory hierarchy one XCD sees: per-CU vector L1 and scalar caches,
// the XCD's L2 (set-associative, in channels, so reuse between workgroups
// on the XCD counts), an eighth of the Infinity Cache and an eighth of
// HBM's bandwidth. Requests are resolved when they are issued, in issue
// order: every level is a set-associative LRU cache in front of a
// bandwidth server (a queue that serves bytes at a fixed rate), so a
// request's completion time is known when it leaves the SIMD.
//
// Internal to lib/Timing.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_TIMING_MEMORYMODEL_H
#define HK_LIB_TIMING_MEMORYMODEL_H

#include "hk/Timing/DeviceModel.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hk::timing {

/// A set-associative cache with LRU replacement, tracking tags only.
class Cache {
public:
  Cache() = default;
  Cache(uint64_t bytes, unsigned lineBytes, unsigned ways);
  unsigned lineBytes() const { return lineSize; }
  /// Looks `line` (an address divided by the line size) up and allocates it
  /// on a miss. Returns whether it hit. A dirty line evicted to make room
  /// is returned through `evictedDirty` (when given).
  bool access(uint64_t line, bool write, bool *evictedDirty = nullptr);
  /// When the data of the line the last access found or allocated is
  /// there: a hit on a line whose miss is still in flight waits for it
  /// (the miss is merged, as the hardware's miss queues do) instead of
  /// seeing its data early.
  double lastFill() const { return fill[last]; }
  void setLastFill(double time) { fill[last] = time; }
  /// Lines still dirty (written back when the kernel ends); clears them.
  uint64_t takeDirtyLines();

private:
  unsigned lineSize = 128, numWays = 1;
  uint64_t numSets = 1;
  uint64_t clock = 0;
  std::vector<uint64_t> tags;  ///< line + 1; 0 is empty.
  std::vector<uint64_t> stamp; ///< Last use, for LRU.
  std::vector<uint8_t> dirty;
  std::vector<double> fill;
  size_t last = 0;
};

/// A queue that serves requests at `bytesPerCycle`. Reads are served in
/// arrival order. Writes (L2 write-backs) wait in a write queue of
/// `writeQueueBytes` and go out while no read is waiting, as DRAM
/// controllers drain their write queues ([DRAM-WQ] in DeviceModel.cpp);
/// a write that finds the queue full is served in arrival order, as a
/// read is. No request waits on a write, so writes return nothing.
struct BandwidthServer {
  double bytesPerCycle = 1;
  double writeQueueBytes = 0;
  double busyUntil = 0;
  double queuedWrites = 0; ///< Bytes in the write queue.
  double writesSince = 0;  ///< When the queue last became non-empty.
  uint64_t bytesServed = 0;
  /// Serves `bytes` read at `time`; returns when the last byte is out.
  double serve(double time, double bytes) {
    drainWrites(time);
    bytesServed += uint64_t(bytes);
    return occupy(time, bytes);
  }
  /// Takes `bytes` written at `time`.
  void write(double time, double bytes) {
    drainWrites(time);
    if (queuedWrites <= 0)
      writesSince = time;
    queuedWrites += bytes;
    bytesServed += uint64_t(bytes);
    if (queuedWrites > writeQueueBytes) {
      occupy(time, queuedWrites - writeQueueBytes);
      queuedWrites = writeQueueBytes;
    }
  }
  /// Serves every queued write from `time` on; returns when they are out
  /// (`time` when none are queued).
  double flushWrites(double time) {
    if (queuedWrites <= 0)
      return time;
    double done = occupy(time, queuedWrites);
    queuedWrites = 0;
    return done;
  }

private:
  /// Holds the server for `bytes` from `time` or when it frees, whichever
  /// is later; returns when they are out.
  double occupy(double time, double bytes) {
    busyUntil = std::max(time, busyUntil) + bytes / bytesPerCycle;
    return busyUntil;
  }
  /// Sends queued writes in the idle time before `time` (from when they
  /// were queued).
  void drainWrites(double time) {
    double from = std::max(busyUntil, writesSince);
    if (time <= from || queuedWrites <= 0)
      return;
    double bytes = std::min(queuedWrites, (time - from) * bytesPerCycle);
    busyUntil = from + bytes / bytesPerCycle;
    queuedWrites -= bytes;
  }
};

/// Where a request was served.
enum class Level : uint8_t { L1, L2, Mall, Hbm };

/// The XCD's shared levels: L2 channels, its Infinity Cache share, HBM.
class XcdMemory {
public:
  /// The XCD's memory with its engine clock at `engineClockMHz` (0: the
  /// peak): the memory side beyond L2 keeps its own clocks.
  XcdMemory(const DeviceModel &device, double engineClockMHz);
  /// A 128-byte (L2 line) read arriving at L2 at `time`: when its data is
  /// back at the CU, and where it came from.
  double read(double time, uint64_t address, Level &from);
  /// A write of a line arriving at `time`: when L2 has taken it.
  double write(double time, uint64_t address);
  /// An atomic on a line (performed in L2): when its result is back.
  double atomic(double time, uint64_t address);
  /// Writes back every dirty L2 line (the release at the end of a kernel)
  /// starting at `time`; returns when HBM has taken them.
  double writeBackAll(double time);
  uint64_t hbmBytes() const { return hbm.bytesServed; }
  /// Line reads that reached L2 (reads and atomics), and those it served.
  uint64_t l2Reads() const { return reads; }
  uint64_t l2Hits() const { return hits; }

private:
  const DeviceModel &device;
  std::vector<Cache> l2;
  std::vector<BandwidthServer> l2Channel;
  Cache mall;
  BandwidthServer mallPort, hbm;
  /// Cycles from a line's turn at the Infinity Cache or HBM to its data.
  double mallLatency, hbmLatency;
  uint64_t reads = 0, hits = 0;
  unsigned channelOf(uint64_t line) const;
  double fetchBelowL2(double time, uint64_t line, Level &from);
};

} // namespace hk::timing

#endif // HK_LIB_TIMING_MEMORYMODEL_H
