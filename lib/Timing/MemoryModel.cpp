//===- MemoryModel.cpp - Caches and bandwidth of the timing model ---------===//

#include "MemoryModel.h"

#include <algorithm>

using namespace hk;
using namespace hk::timing;

Cache::Cache(uint64_t bytes, unsigned lineBytes, unsigned ways)
    : lineSize(lineBytes), numWays(std::max(1u, ways)) {
  numSets = std::max<uint64_t>(1, bytes / lineBytes / numWays);
  tags.assign(numSets * numWays, 0);
  stamp.assign(numSets * numWays, 0);
  dirty.assign(numSets * numWays, 0);
  fill.assign(numSets * numWays, 0);
}

bool Cache::access(uint64_t line, bool write, bool *evictedDirty) {
  uint64_t set = line % numSets;
  uint64_t *t = &tags[set * numWays];
  uint64_t *s = &stamp[set * numWays];
  uint8_t *d = &dirty[set * numWays];
  ++clock;
  unsigned victim = 0;
  for (unsigned way = 0; way < numWays; ++way) {
    if (t[way] == line + 1) {
      last = set * numWays + way;
      s[way] = clock;
      d[way] |= write;
      return true;
    }
    if (s[way] < s[victim])
      victim = way;
  }
  if (evictedDirty)
    *evictedDirty = t[victim] != 0 && d[victim];
  last = set * numWays + victim;
  fill[last] = 0;
  t[victim] = line + 1;
  s[victim] = clock;
  d[victim] = write;
  return false;
}

uint64_t Cache::takeDirtyLines() {
  uint64_t count = 0;
  for (size_t i = 0; i < tags.size(); ++i) {
    count += tags[i] != 0 && dirty[i];
    dirty[i] = 0;
  }
  return count;
}

XcdMemory::XcdMemory(const DeviceModel &device, double engineClockMHz)
    : device(device),
      mallLatency(device.memorySideCycles(device.mall.latency, engineClockMHz)),
      hbmLatency(device.memorySideCycles(device.hbmLatency, engineClockMHz)) {
  const CacheSpec &l2Spec = device.l2;
  unsigned channels = std::max(1u, device.l2Channels);
  for (unsigned c = 0; c < channels; ++c) {
    l2.emplace_back(l2Spec.bytes / channels, l2Spec.lineBytes, l2Spec.ways);
    BandwidthServer port;
    port.bytesPerCycle = device.l2BytesPerCyclePerChannel;
    l2Channel.push_back(port);
  }
  // The XCD's share of the memory-side cache and of HBM: every XCD streams
  // at once in a full launch.
  mall = Cache(device.mall.bytes / device.xcds, device.mall.lineBytes,
               device.mall.ways);
  mallPort.bytesPerCycle = device.mallBytesPerCyclePerXcd(engineClockMHz);
  hbm.bytesPerCycle = device.hbmBytesPerCyclePerXcd(engineClockMHz);
  hbm.writeQueueBytes = device.hbmWriteQueueBytes;
}

unsigned XcdMemory::channelOf(uint64_t line) const {
  // Channels interleave by line with a hash of the higher bits, so that
  // power-of-two strides still spread (assumption: the exact hash is not
  // public).
  return unsigned((line ^ (line >> 4) ^ (line >> 8) ^ (line >> 12)) %
                  l2Channel.size());
}

double XcdMemory::fetchBelowL2(double time, uint64_t line, Level &from) {
  uint64_t mallLine = line * device.l2.lineBytes / device.mall.lineBytes;
  if (mall.access(mallLine, false)) {
    from = Level::Mall;
    return std::max(mall.lastFill(),
                    mallPort.serve(time, device.l2.lineBytes) + mallLatency);
  }
  from = Level::Hbm;
  double done = hbm.serve(time, device.l2.lineBytes) + hbmLatency;
  mall.setLastFill(done);
  return done;
}

double XcdMemory::read(double time, uint64_t address, Level &from) {
  uint64_t line = address / device.l2.lineBytes;
  unsigned c = channelOf(line);
  double t = l2Channel[c].serve(time, device.l2.lineBytes);
  bool evictedDirty = false;
  Cache &cache = l2[c];
  bool hit = cache.access(line / l2Channel.size(), false, &evictedDirty);
  if (evictedDirty)
    hbm.write(t, device.l2.lineBytes);
  ++reads;
  if (hit) {
    ++hits;
    from = Level::L2;
    return std::max(t + device.l2.latency, cache.lastFill());
  }
  double done = fetchBelowL2(t, line, from);
  cache.setLastFill(done);
  return done;
}

double XcdMemory::write(double time, uint64_t address) {
  uint64_t line = address / device.l2.lineBytes;
  unsigned c = channelOf(line);
  double t = l2Channel[c].serve(time, device.l2.lineBytes);
  bool evictedDirty = false;
  l2[c].access(line / l2Channel.size(), true, &evictedDirty);
  if (evictedDirty)
    hbm.write(t, device.l2.lineBytes);
  return t + device.l2.latency;
}

double XcdMemory::atomic(double time, uint64_t address) {
  // Atomics execute in L2 (on the line, fetched first if absent).
  Level from;
  double t = read(time, address, from);
  uint64_t line = address / device.l2.lineBytes;
  l2[channelOf(line)].access(line / l2Channel.size(), true);
  return t;
}

double XcdMemory::writeBackAll(double time) {
  uint64_t lines = 0;
  for (Cache &channel : l2)
    lines += channel.takeDirtyLines();
  if (lines)
    hbm.write(time, double(lines) * device.l2.lineBytes);
  return hbm.flushWrites(time);
}
