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

// Two reads of one line from two CUs: the second is served from L2 and
// waits for the first's fill from HBM rather than seeing it early.
TEST(XcdMemory, SecondReadOfALineWaitsForTheFirst) {
  const DeviceModel &d = *DeviceModel::lookup("mi300x");
  XcdMemory memory(d);
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

} // namespace
