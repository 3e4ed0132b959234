//===- MemoryModelTest.cpp - Caches and bandwidth servers -----------------===//

#include "MemoryModel.h"

#include "gtest/gtest.h"

using namespace hk::timing;

namespace {

TEST(Cache, LeastRecentlyUsedWayIsEvicted) {
  // Two sets of two ways of 128-byte lines.
  Cache c(4 * 128, 128, 2);
  EXPECT_FALSE(c.access(0, false));
  EXPECT_FALSE(c.access(2, false)); // Same set as 0.
  EXPECT_TRUE(c.access(0, false));  // 2 is now the older.
  EXPECT_FALSE(c.access(4, false)); // Evicts 2.
  EXPECT_TRUE(c.access(0, false));
  EXPECT_FALSE(c.access(2, false));
  EXPECT_FALSE(c.access(1, false)); // The other set is untouched.
}

TEST(Cache, DirtyLinesAreWrittenBackOnceEach) {
  Cache c(2 * 128, 128, 1);
  bool evictedDirty = true;
  c.access(0, true, &evictedDirty);
  EXPECT_FALSE(evictedDirty); // Nothing was there.
  c.access(2, false, &evictedDirty);
  EXPECT_TRUE(evictedDirty); // Line 0 was written.
  c.access(1, true);
  c.access(3, true, &evictedDirty);
  EXPECT_TRUE(evictedDirty);
  EXPECT_EQ(c.takeDirtyLines(), 1u); // Line 3.
  EXPECT_EQ(c.takeDirtyLines(), 0u);
}

// A hit on a line whose miss is still in flight sees the miss's arrival,
// not its own latency.
TEST(Cache, HitsWaitForTheMissInFlight) {
  Cache c(4 * 128, 128, 2);
  EXPECT_FALSE(c.access(7, false));
  c.setLastFill(1000);
  EXPECT_TRUE(c.access(7, false));
  EXPECT_EQ(c.lastFill(), 1000);
  // A line allocated again after eviction starts with no fill pending.
  c.access(9, false);
  c.access(11, false);
  EXPECT_FALSE(c.access(7, false));
  EXPECT_EQ(c.lastFill(), 0);
}

TEST(BandwidthServer, QueuesInArrivalOrder) {
  BandwidthServer s;
  s.bytesPerCycle = 64;
  EXPECT_EQ(s.serve(0, 128), 2);
  EXPECT_EQ(s.serve(1, 128), 4); // Waits for the first.
  EXPECT_EQ(s.serve(10, 64), 11);
  EXPECT_EQ(s.bytesServed, 320u);
}

// Writes wait in the write queue while reads go first, and go out in the
// time no read uses; a write the full queue cannot hold takes its turn.
TEST(BandwidthServer, ReadsPassQueuedWrites) {
  BandwidthServer s;
  s.bytesPerCycle = 64;
  s.writeQueueBytes = 256;
  s.write(0, 256);               // Queued: 4 cycles of writes.
  EXPECT_EQ(s.serve(0, 128), 2); // The read does not wait for them.
  // Cycles 2 to 4 are idle, so 128 bytes of writes drain in them; the
  // read at 4 starts at once.
  EXPECT_EQ(s.serve(4, 64), 5);
  EXPECT_EQ(s.queuedWrites, 128);
  // 128 queued and 256 more: 128 over the queue's size, served ahead of
  // the next read.
  s.write(5, 256);
  EXPECT_EQ(s.queuedWrites, 256);
  EXPECT_EQ(s.serve(5, 64), 8);
  // The rest goes out when asked (the kernel's release).
  EXPECT_EQ(s.flushWrites(8), 12);
  EXPECT_EQ(s.queuedWrites, 0);
  EXPECT_EQ(s.bytesServed, 768u);
}

// Idle time before a write arrived does not send it.
TEST(BandwidthServer, WritesDrainOnlyAfterTheyArrive) {
  BandwidthServer s;
  s.bytesPerCycle = 64;
  s.writeQueueBytes = 1024;
  EXPECT_EQ(s.serve(0, 64), 1);
  s.write(10, 640);               // 10 cycles of writes, queued at 10.
  EXPECT_EQ(s.serve(15, 64), 16); // 5 cycles of them went out, 10 to 15.
  EXPECT_EQ(s.queuedWrites, 320);
  EXPECT_EQ(s.flushWrites(16), 21);
}

// Without a queue, writes are served in arrival order like reads.
TEST(BandwidthServer, WritesWithoutAQueueAreServedInOrder) {
  BandwidthServer s;
  s.bytesPerCycle = 64;
  s.write(0, 128);
  EXPECT_EQ(s.serve(0, 64), 3);
}

// Two reads of one line from two CUs: the second is served from L2 and
// waits for the first's fill from HBM rather than seeing it early.
TEST(XcdMemory, SecondReadOfALineWaitsForTheFirst) {
  const DeviceModel &d = *DeviceModel::lookup("mi300x");
  XcdMemory memory(d, 0);
  Level from;
  double first = memory.read(0, 1 << 20, from);
  EXPECT_EQ(from, Level::Hbm);
  EXPECT_GE(first, d.hbmLatency);
  double second = memory.read(1, 1 << 20, from);
  EXPECT_EQ(from, Level::L2);
  EXPECT_EQ(second, first);
  // Long after, a hit costs the L2 latency.
  double third = memory.read(100000, 1 << 20, from);
  EXPECT_EQ(from, Level::L2);
  EXPECT_NEAR(third, 100000 + 1 + d.l2.latency, 1);
  // The L2 hit rate counts the merged read and the late one as hits.
  EXPECT_EQ(memory.l2Reads(), 3u);
  EXPECT_EQ(memory.l2Hits(), 2u);
}

// HBM sits on the I/O dies, clocked apart from the engine: with the
// engine at half its peak clock, a miss's HBM transfer and latency take
// half as many engine cycles; the L2 in front of it, on the compute die,
// takes as many as before.
TEST(XcdMemory, MemorySideKeepsItsTimeWhenTheEngineSlows) {
  const DeviceModel &d = *DeviceModel::lookup("mi355x");
  XcdMemory peak(d, 0), slow(d, d.clockMHz / 2);
  Level from;
  double atPeak = peak.read(0, 1 << 20, from);
  EXPECT_EQ(from, Level::Hbm);
  double halved = slow.read(0, 1 << 20, from);
  EXPECT_EQ(from, Level::Hbm);
  double l2 = d.l2.lineBytes / double(d.l2BytesPerCyclePerChannel);
  double hbm = d.l2.lineBytes / d.hbmBytesPerCyclePerXcd();
  EXPECT_NEAR(atPeak, l2 + hbm + d.hbmLatency, 1e-9);
  EXPECT_NEAR(halved, l2 + hbm / 2 + d.hbmLatency / 2.0, 1e-9);
}

} // namespace
