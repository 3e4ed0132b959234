//===- ScheduleCostTest.cpp - The schedules' cost functions ---------------===//
//
// Timelines small enough to work out by hand: one wave, issue every 4
// cycles, and the cheapest group sizes for clusters whose best order is
// known without the model; ping-pong iterations of a few cluster pairs,
// and whether their compute clusters should run at raised priority.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Dialect/HK/Transforms/ScheduleCost.h"

#include "gtest/gtest.h"

using namespace hk;

namespace {

// One wave on the CU; an LDS read holds the LDS 8 cycles and returns 64
// later; a prefetch holds the address unit 4 cycles and returns 1000
// later.
const InterleaveCosts kCosts{
    /*issueCadence=*/4,   /*dsReadCycles=*/8,
    /*ldsLatency=*/64,    /*vmemIssueCycles=*/4,
    /*vmemLatency=*/1000, /*wavesPerCu=*/1};

TEST(ScheduleCost, MfmasBackToBack) {
  ClusterWork work;
  work.mfmas = 4;
  work.mfmaCycles = 32;
  // Issued at 0, 32, 64, 96: the pipe is free at 128.
  EXPECT_DOUBLE_EQ(interleaveCycles(work, {1, 0, 0}, kCosts), 128);
  EXPECT_DOUBLE_EQ(interleaveCycles(work, {4, 0, 0}, kCosts), 128);
}

TEST(ScheduleCost, MfmaWaitsForItsRead) {
  ClusterWork work;
  work.mfmas = 1;
  work.mfmaCycles = 32;
  work.dsReads = 1;
  // The read issues at 0, the LDS serves it until 8, data at 72; the MFMA
  // starts at 72 and ends at 104, whatever the groups say.
  EXPECT_DOUBLE_EQ(interleaveCycles(work, {1, 0, 0}, kCosts), 104);
  EXPECT_DOUBLE_EQ(interleaveCycles(work, {1, 1, 0}, kCosts), 104);
}

TEST(ScheduleCost, PrefetchLatencyCountsUntilTheWait) {
  ClusterWork work;
  work.mfmas = 2;
  work.mfmaCycles = 32;
  work.vmemReads = 1;
  // Unclaimed, the prefetch issues first: address unit until 4, data at
  // 1004. In a group after the first MFMA (issued at 0) it issues at 4:
  // data at 1008.
  EXPECT_DOUBLE_EQ(interleaveCycles(work, {1, 0, 0}, kCosts), 1004);
  EXPECT_DOUBLE_EQ(interleaveCycles(work, {1, 0, 1}, kCosts), 1008);
  InterleaveChoice best = chooseInterleave(work, kCosts, {});
  EXPECT_EQ(best.sizes.mfma, 1u);
  EXPECT_EQ(best.sizes.vmem, 0u);
  EXPECT_DOUBLE_EQ(best.cycles, 1004);
  // 1, 2 MFMAs per group (4 and 8 exceed the cluster's two), 4 read and 4
  // prefetch sizes each.
  EXPECT_EQ(best.candidates, 2u * 4u * 4u);
}

TEST(ScheduleCost, ReadsSpreadBehindLongMfmas) {
  // Eight MFMAs of 64 cycles, each needing one more read. All reads first
  // delay nothing the MFMAs need (the LDS serves one every 8 cycles, far
  // ahead of the 64-cycle MFMAs): 8 reads issued at 0..28, the first done
  // at 72; MFMAs at 72, 136, ..., 520: end 584.
  ClusterWork work;
  work.mfmas = 8;
  work.mfmaCycles = 64;
  work.dsReads = 8;
  EXPECT_DOUBLE_EQ(interleaveCycles(work, {1, 0, 0}, kCosts), 584);
  // Pinned sizes are kept: the search covers the others only.
  InterleaveChoice pinned = chooseInterleave(work, kCosts, {2u, 1u, 0u});
  EXPECT_EQ(pinned.sizes.mfma, 2u);
  EXPECT_EQ(pinned.sizes.dsReads, 1u);
  EXPECT_EQ(pinned.candidates, 1u);
}

TEST(ScheduleCost, FrontLoadedNeeds) {
  // Two MFMAs that need both reads before the first: the second read waits
  // for the first in the LDS (8 cycles), data at 16 + 64 = 80.
  ClusterWork work;
  work.mfmas = 2;
  work.mfmaCycles = 16;
  work.dsReads = 2;
  work.readsNeeded = {2, 2};
  EXPECT_DOUBLE_EQ(interleaveCycles(work, {1, 1, 0}, kCosts), 80 + 32);
}

// Ping-pong: a read holds the LDS 4 cycles for each of the group's 4 waves
// and returns 64 later; a barrier costs 16; 256 VGPRs, 64 of them reserved,
// 100 carried.
const PingPongCosts kPingPong{
    /*dsReadCycles=*/4,    /*ldsLatency=*/64,
    /*barrierLatency=*/16, /*groupWaves=*/4,
    /*vgprBudget=*/256,    /*vgprReserve=*/64,
    /*carriedVgprs=*/100};

/// Three runs, each one read of `fragments` VGPRs and two 16-cycle MFMAs.
llvm::SmallVector<PingPongPair> threePairs(int64_t fragments) {
  PingPongPair pair;
  pair.dsReads = 1;
  pair.fragmentVgprs = fragments;
  pair.mfmas = 2;
  pair.mfmaCycles = 16;
  return {pair, pair, pair};
}

TEST(ScheduleCost, PingPongIntervals) {
  auto pairs = threePairs(10);
  // As written: memory clusters of 16 + 64 = 80 beside compute ones of 32,
  // six intervals of 80 and six barriers.
  PingPongPlan written;
  written.first = {0, 1, 2};
  EXPECT_DOUBLE_EQ(pingPongCycles(pairs, written, kPingPong), 6 * 80 + 6 * 16);
  EXPECT_EQ(written.vgprs, 100 + 10 + 64);
  // Runs 0 and 1 joined: clusters of 96, 64, 80, 32; the intervals hold
  // (96, 32), (64, 96), (80, 64), (32, 80).
  PingPongPlan two;
  two.first = {0, 2};
  EXPECT_DOUBLE_EQ(pingPongCycles(pairs, two, kPingPong),
                   96 + 96 + 80 + 80 + 4 * 16);
  EXPECT_EQ(two.vgprs, 100 + 20 + 64);
}

TEST(ScheduleCost, PingPongStagedPrefetch) {
  // Group 0 waits 250 cycles for its staged prefetch in its first memory
  // cluster: 80 + 250 beside group 1's last compute cluster (32), then
  // the other five intervals as before.
  PingPongCosts costs = kPingPong;
  costs.stagedPrefetchCycles = 250;
  PingPongPlan written;
  written.first = {0, 1, 2};
  EXPECT_DOUBLE_EQ(pingPongCycles(threePairs(10), written, costs),
                   330 + 5 * 80 + 6 * 16);
}

TEST(ScheduleCost, PingPongJoinsWhatFits) {
  // All three joined: 3 * 16 + 64 = 112 beside 96, twice, two barriers;
  // 100 + 30 + 64 VGPRs fit.
  PingPongPlan best = choosePingPong(threePairs(10), kPingPong, std::nullopt);
  EXPECT_EQ(best.first, (llvm::SmallVector<unsigned>{0}));
  EXPECT_DOUBLE_EQ(best.cycles, 2 * 112 + 2 * 16);
  EXPECT_TRUE(best.fits);
  EXPECT_EQ(best.candidates, 4u);
  // Fragments of 40: all three would need 284 VGPRs; two joined, 244. The
  // two ways of joining two tie at 416 cycles; the first tried wins.
  best = choosePingPong(threePairs(40), kPingPong, std::nullopt);
  EXPECT_EQ(best.first, (llvm::SmallVector<unsigned>{0, 1}));
  EXPECT_DOUBLE_EQ(best.cycles, 416);
  EXPECT_EQ(best.vgprs, 244);
}

TEST(ScheduleCost, PingPongManyPairs) {
  // Past 8 pairs only all joined and the loop as written are costed. Ten
  // pairs joined: 10 * 16 + 64 = 224 cycles of reads beside 320 of MFMAs,
  // twice, two barriers; as written, twenty intervals of 80.
  auto three = threePairs(1);
  llvm::SmallVector<PingPongPair> pairs(10, three.front());
  PingPongPlan best = choosePingPong(pairs, kPingPong, std::nullopt);
  EXPECT_EQ(best.first, (llvm::SmallVector<unsigned>{0}));
  EXPECT_DOUBLE_EQ(best.cycles, 2 * 320 + 2 * 16);
  EXPECT_EQ(best.candidates, 2u);
  PingPongPlan written = choosePingPong(pairs, kPingPong, 10u);
  EXPECT_EQ(written.first.size(), 10u);
  EXPECT_DOUBLE_EQ(written.cycles, 20 * 80 + 20 * 16);
}

TEST(ScheduleCost, PingPongGivenOrNothingFits) {
  // Three pairs asked for: the loop as written, the only such grouping.
  PingPongPlan given = choosePingPong(threePairs(10), kPingPong, 3u);
  EXPECT_EQ(given.first, (llvm::SmallVector<unsigned>{0, 1, 2}));
  EXPECT_EQ(given.candidates, 1u);
  // One asked for, over the budget: kept, and marked so.
  given = choosePingPong(threePairs(100), kPingPong, 1u);
  EXPECT_EQ(given.first, (llvm::SmallVector<unsigned>{0}));
  EXPECT_FALSE(given.fits);
  EXPECT_EQ(given.vgprs, 100 + 300 + 64);
  // Nothing fits and nothing is asked for: the loop stays as written.
  PingPongPlan kept = choosePingPong(threePairs(100), kPingPong, std::nullopt);
  EXPECT_EQ(kept.first, (llvm::SmallVector<unsigned>{0, 1, 2}));
  EXPECT_FALSE(kept.fits);
}

TEST(ScheduleCost, PingPongVectorWorkInMemoryClusters) {
  // Attention's shape: pair 0 reads K and multiplies (4 MFMAs of 64
  // cycles); pair 1 reads V, runs a softmax of 300 cycles on pair 0's
  // scores, then multiplies. The softmax may move into pair 1's memory
  // cluster, not into a cluster pair that starts at pair 0.
  auto pairs = threePairs(10);
  pairs.pop_back();
  for (PingPongPair &pair : pairs) {
    pair.mfmas = 4;
    pair.mfmaCycles = 64;
  }
  pairs[0].movableValuCycles = {0};
  pairs[1].valuCycles = 300;
  pairs[1].movableValuCycles = {0, 300};
  // In place: clusters of 80, 256, 80, 556: intervals 556, 256, 256, 556.
  PingPongPlan inPlace;
  inPlace.first = {0, 1};
  EXPECT_DOUBLE_EQ(pingPongCycles(pairs, inPlace, kPingPong),
                   2 * 556 + 2 * 256 + 4 * 16);
  // Moved: clusters of 80, 256, max(80, 300), 256.
  PingPongPlan moved = inPlace;
  moved.vectorInMemory = true;
  EXPECT_DOUBLE_EQ(pingPongCycles(pairs, moved, kPingPong),
                   2 * 256 + 2 * 300 + 4 * 16);
  EXPECT_EQ(moved.movedValuCycles, 300);
  // The choice: both pairs, moved. Joined, nothing can move (the softmax
  // needs the cluster's own MFMAs), so only three candidates: joined, and
  // both pairs either way.
  PingPongPlan best = choosePingPong(pairs, kPingPong, std::nullopt);
  EXPECT_EQ(best.first, (llvm::SmallVector<unsigned>{0, 1}));
  EXPECT_TRUE(best.vectorInMemory);
  EXPECT_DOUBLE_EQ(best.cycles, 1176);
  EXPECT_EQ(best.candidates, 3u);
  // The kernel keeps the vector work in place: joined wins (812 beside 96,
  // twice).
  PingPongPlan kept = choosePingPong(pairs, kPingPong, std::nullopt, false);
  EXPECT_EQ(kept.first, (llvm::SmallVector<unsigned>{0}));
  EXPECT_FALSE(kept.vectorInMemory);
  EXPECT_DOUBLE_EQ(kept.cycles, 2 * 812 + 2 * 16);
  // Nothing fits (100 carried + 100 of fragments + 64 > 256): the loop as
  // written, with the work moved, which changes no estimate.
  for (PingPongPair &pair : pairs)
    pair.fragmentVgprs = 100;
  PingPongPlan over = choosePingPong(pairs, kPingPong, std::nullopt);
  EXPECT_FALSE(over.fits);
  EXPECT_EQ(over.first, (llvm::SmallVector<unsigned>{0, 1}));
  EXPECT_TRUE(over.vectorInMemory);
  EXPECT_DOUBLE_EQ(over.cycles, 1176);
}

// Priority: issue every 4 cycles, so the two s_setprio of a compute
// cluster cost 8 cycles wherever it bounds its interval.
PingPongCluster memory(double cycles, int64_t valu, int64_t lds) {
  return {cycles, /*mfmas=*/0, valu, lds};
}
PingPongCluster compute(double cycles, int64_t mfmas, int64_t valu,
                        int64_t lds) {
  return {cycles, mfmas, valu, lds};
}

TEST(ScheduleCost, PriorityNotWorthItForReadsOnly) {
  // A GEMM's loop: memory clusters read LDS, compute clusters issue only
  // MFMAs, which bound both intervals: nothing to win, 2 x 8 to lose.
  llvm::SmallVector<PingPongCluster> loop{memory(100, 0, 8),
                                          compute(512, 32, 0, 0)};
  PriorityChoice choice = choosePriority(loop, 4);
  EXPECT_FALSE(choice.raise);
  EXPECT_DOUBLE_EQ(choice.without, 2 * 512);
  EXPECT_DOUBLE_EQ(choice.withPriority, 2 * (512 + 8));
}

TEST(ScheduleCost, PriorityWinsBackContendedSlots) {
  // Group 0's memory cluster issues 10 VALU and 8 LDS instructions; group
  // 1's compute cluster shares both ports (its 2 LDS instructions a layout
  // round trip): 10 + 2 slots of 4 cycles lost without the priority.
  llvm::SmallVector<PingPongCluster> loop{memory(100, 10, 8),
                                          compute(512, 32, 40, 2)};
  PriorityChoice choice = choosePriority(loop, 4);
  EXPECT_TRUE(choice.raise);
  EXPECT_DOUBLE_EQ(choice.without, 512 + 512 + 12 * 4);
  EXPECT_DOUBLE_EQ(choice.withPriority, 2 * (512 + 8));
  // Three VALU instructions steal 12 cycles, less than the 16 the two
  // groups' s_setprio cost.
  loop[0] = memory(100, 3, 8);
  loop[1] = compute(512, 32, 0, 0);
  EXPECT_FALSE(choosePriority(loop, 4).raise);
}

TEST(ScheduleCost, PriorityStealsOnlyWhatTheNextMemoryClusterIssues) {
  // Two pairs: group 1's first compute cluster runs beside group 0's
  // second memory cluster, its second beside the next iteration's first.
  // Only the second memory cluster has VALU work.
  llvm::SmallVector<PingPongCluster> loop{
      memory(100, 0, 8), compute(300, 16, 0, 0), memory(100, 20, 8),
      compute(300, 16, 0, 0)};
  PriorityChoice choice = choosePriority(loop, 4);
  EXPECT_DOUBLE_EQ(choice.without, 4 * 300 + 16 * 4);
  EXPECT_DOUBLE_EQ(choice.withPriority, 4 * (300 + 8));
  EXPECT_TRUE(choice.raise);
}

TEST(ScheduleCost, NoPriorityWhereMemoryBoundsTheIntervals) {
  // The memory clusters outlast the compute clusters by more than the two
  // instructions: a tie, which keeps the wave's priority.
  llvm::SmallVector<PingPongCluster> loop{memory(600, 0, 16),
                                          compute(512, 32, 90, 4)};
  PriorityChoice choice = choosePriority(loop, 4);
  EXPECT_DOUBLE_EQ(choice.without, 2 * 600);
  EXPECT_DOUBLE_EQ(choice.withPriority, 2 * 600);
  EXPECT_FALSE(choice.raise);
}

} // namespace
