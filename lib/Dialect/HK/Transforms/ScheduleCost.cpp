//===- ScheduleCost.cpp - What a schedule of a main loop costs ------------===//

#include "ScheduleCost.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <limits>

using namespace hk;

namespace {

enum class Kind : uint8_t { Mfma, DsRead, Vmem };

/// LDS reads MFMA `index` (0-based) waits for, at most the cluster's.
int64_t readsNeeded(const ClusterWork &work, int64_t index) {
  if (size_t(index) < work.readsNeeded.size())
    return std::clamp<int64_t>(work.readsNeeded[size_t(index)], 0,
                               work.dsReads);
  if (work.dsReads == 0 || work.mfmas == 0)
    return 0;
  return ((index + 1) * work.dsReads + work.mfmas - 1) / work.mfmas;
}

/// The issue order the groups give. A read an MFMA needs is hoisted in
/// front of it when the groups would place it later (the dependence wins
/// over the groups).
llvm::SmallVector<Kind> issueOrder(const ClusterWork &work, GroupSizes sizes) {
  llvm::SmallVector<Kind> order;
  int64_t ds = work.dsReads, vmem = work.vmemReads, issuedDs = 0;
  auto take = [&](Kind kind, int64_t &left, int64_t count) {
    count = std::max<int64_t>(0, std::min(left, count));
    order.append(size_t(count), kind);
    left -= count;
    if (kind == Kind::DsRead)
      issuedDs += count;
  };
  // Unclaimed loads first, the longest latency first.
  if (sizes.vmem == 0)
    take(Kind::Vmem, vmem, vmem);
  if (sizes.dsReads == 0)
    take(Kind::DsRead, ds, ds);
  for (int64_t mfma = 0; mfma < work.mfmas;) {
    for (unsigned i = 0; i < sizes.mfma && mfma < work.mfmas; ++i, ++mfma) {
      take(Kind::DsRead, ds, readsNeeded(work, mfma) - issuedDs);
      order.push_back(Kind::Mfma);
    }
    take(Kind::DsRead, ds, sizes.dsReads);
    take(Kind::Vmem, vmem, sizes.vmem);
  }
  take(Kind::DsRead, ds, ds);
  take(Kind::Vmem, vmem, vmem);
  return order;
}

} // namespace

double hk::interleaveCycles(const ClusterWork &work, GroupSizes sizes,
                            const InterleaveCosts &costs) {
  double issue = 0;    // the wave's next issue slot
  double pipeFree = 0; // the matrix pipe
  double ldsFree = 0, vmemFree = 0;
  double end = 0; // the last result the iteration waits for
  llvm::SmallVector<double> readDone;
  int64_t mfma = 0;
  for (Kind kind : issueOrder(work, sizes)) {
    switch (kind) {
    case Kind::DsRead:
      // The CU's LDS serves the reads of its waves in turn.
      ldsFree = std::max(ldsFree, issue) +
                double(costs.dsReadCycles) * costs.wavesPerCu;
      readDone.push_back(ldsFree + costs.ldsLatency);
      issue += costs.issueCadence;
      break;
    case Kind::Vmem:
      vmemFree = std::max(vmemFree, issue) +
                 double(costs.vmemIssueCycles) * costs.wavesPerCu;
      end = std::max(end, vmemFree + costs.vmemLatency);
      issue += costs.issueCadence;
      break;
    case Kind::Mfma: {
      int64_t needed = readsNeeded(work, mfma++);
      double ready = needed ? readDone[size_t(needed - 1)] : 0;
      double start = std::max({issue, pipeFree, ready});
      pipeFree = start + work.mfmaCycles;
      issue = start + costs.issueCadence;
      break;
    }
    }
  }
  return std::max({end, pipeFree, issue});
}

InterleaveChoice
hk::chooseInterleave(const ClusterWork &work, const InterleaveCosts &costs,
                     std::array<std::optional<unsigned>, 3> pinned) {
  auto options = [&](unsigned which, std::initializer_list<unsigned> all) {
    llvm::SmallVector<unsigned, 4> list;
    if (pinned[which])
      list.push_back(*pinned[which]);
    else
      list.assign(all.begin(), all.end());
    return list;
  };
  InterleaveChoice best{{1, 1, 1}, std::numeric_limits<double>::infinity(), 0};
  for (unsigned mfma : options(0, {1, 2, 4, 8})) {
    if (!pinned[0] && mfma > 1 && mfma > work.mfmas)
      continue;
    for (unsigned ds : options(1, {0, 1, 2, 4}))
      for (unsigned vmem : options(2, {0, 1, 2, 4})) {
        GroupSizes sizes{mfma, ds, vmem};
        double cycles = interleaveCycles(work, sizes, costs);
        ++best.candidates;
        // Candidates come in the tie-break order: keep the first best.
        if (cycles < best.cycles) {
          best.sizes = sizes;
          best.cycles = cycles;
        }
      }
  }
  return best;
}

double hk::groupReadCycles(int64_t reads, unsigned dsReadCycles,
                           unsigned ldsLatency, unsigned groupWaves) {
  return double(reads) * dsReadCycles * groupWaves + (reads ? ldsLatency : 0);
}

double hk::pingPongCycles(llvm::ArrayRef<PingPongPair> pairs,
                          PingPongPlan &plan, const PingPongCosts &costs) {
  // Cluster times in loop order: memory 0, compute 0, memory 1, ...
  llvm::SmallVector<double> times;
  int64_t fragments = 0, temps = 0;
  plan.movedValuCycles = 0;
  for (size_t group = 0; group < plan.first.size(); ++group) {
    size_t first = plan.first[group], end = plan.end(group, pairs.size());
    int64_t reads = 0, groupFragments = 0, moved = 0;
    double compute = 0;
    for (size_t i = first; i < end; ++i) {
      reads += pairs[i].dsReads;
      groupFragments += pairs[i].fragmentVgprs;
      compute += double(pairs[i].mfmas) * pairs[i].mfmaCycles +
                 double(pairs[i].valuCycles);
      temps = std::max(temps, pairs[i].tempVgprs);
      if (plan.vectorInMemory && first < pairs[i].movableValuCycles.size())
        moved += pairs[i].movableValuCycles[first];
    }
    fragments = std::max(fragments, groupFragments);
    plan.movedValuCycles += moved;
    // The barrier after the cluster waits for the last read's data; the
    // vector work it took over runs meanwhile.
    times.push_back(
        std::max(groupReadCycles(reads, costs.dsReadCycles, costs.ldsLatency,
                                 costs.groupWaves),
                 double(moved)));
    times.push_back(compute - double(moved));
  }
  plan.vgprs = costs.carriedVgprs + fragments + temps + costs.vgprReserve;
  // Group 1 runs one cluster behind group 0: each interval holds cluster i
  // of group 0 and cluster i - 1 of group 1. Only group 0 prefetches.
  double cycles = 0;
  for (size_t i = 0; i < times.size(); ++i) {
    double group0 = times[i] + (i == 0 ? costs.stagedPrefetchCycles : 0);
    double group1 = times[(i + times.size() - 1) % times.size()];
    cycles += std::max(group0, group1) + costs.barrierLatency;
  }
  plan.cycles = cycles;
  return cycles;
}

PingPongPlan hk::choosePingPong(llvm::ArrayRef<PingPongPair> pairs,
                                const PingPongCosts &costs,
                                std::optional<unsigned> clusters,
                                std::optional<bool> vectorInMemory) {
  size_t n = pairs.size();
  auto cost = [&](PingPongPlan plan) {
    pingPongCycles(pairs, plan, costs);
    plan.fits = plan.vgprs <= costs.vgprBudget;
    return plan;
  };
  // The candidates, each as the pairs that start a cluster pair: with up to
  // kMaxGroupedRuns pairs every grouping (bit i of a mask: a new cluster pair
  // starts at pair i + 1), else all pairs joined and the loop as written.
  PingPongPlan asWritten = PingPongPlan::asWritten(n);
  llvm::SmallVector<PingPongPlan> candidates;
  if (n <= kMaxGroupedRuns) {
    for (uint64_t cuts = 0; cuts < (uint64_t(1) << (n ? n - 1 : 0)); ++cuts) {
      PingPongPlan &plan = candidates.emplace_back();
      plan.first.push_back(0);
      for (size_t i = 0; i + 1 < n; ++i)
        if (cuts & (uint64_t(1) << i))
          plan.first.push_back(unsigned(i + 1));
    }
  } else {
    candidates.emplace_back().first.push_back(0);
    candidates.push_back(asWritten);
  }
  std::optional<PingPongPlan> best, fallback;
  unsigned costed = 0;
  for (const PingPongPlan &grouping : candidates) {
    if (clusters && grouping.first.size() != *clusters)
      continue;
    // The vector work in place first: it wins ties.
    for (bool moved : {false, true}) {
      if (vectorInMemory && moved != *vectorInMemory)
        continue;
      PingPongPlan candidate = grouping;
      candidate.vectorInMemory = moved;
      PingPongPlan plan = cost(candidate);
      // Nothing to move: the same plan as in place.
      if (moved && plan.movedValuCycles == 0 && !vectorInMemory)
        continue;
      ++costed;
      bool fewerBarriers = best && plan.first.size() < best->first.size();
      if (plan.fits && (!best || plan.cycles < best->cycles ||
                        (plan.cycles == best->cycles && fewerBarriers)))
        best = plan;
      // Over the budget: the fewest VGPRs among the given count of
      // clusters, else the loop as written; the vector work where it costs
      // less, as moving it changes no estimate.
      bool fewerVgprs = fallback && plan.vgprs < fallback->vgprs;
      bool sameVgprsFaster = fallback && plan.vgprs == fallback->vgprs &&
                             plan.cycles < fallback->cycles;
      if ((clusters || plan.first.size() == n) &&
          (!fallback || sameVgprsFaster || (clusters && fewerVgprs)))
        fallback = plan;
    }
  }
  if (!best && !fallback) {
    asWritten.vectorInMemory = vectorInMemory.value_or(false);
    fallback = cost(asWritten);
  }
  PingPongPlan chosen = best ? *best : *fallback;
  chosen.candidates = costed;
  return chosen;
}

PriorityChoice hk::choosePriority(llvm::ArrayRef<PingPongCluster> clusters,
                                  unsigned issueCadence) {
  PriorityChoice choice;
  size_t n = clusters.size();
  // The two s_setprio of a compute cluster, in line with its MFMAs.
  double setprio = 2.0 * issueCadence;
  for (size_t i = 1; i < n; i += 2) {
    const PingPongCluster &compute = clusters[i];
    const PingPongCluster &before = clusters[i - 1];
    const PingPongCluster &after = clusters[(i + 1) % n];
    // Group 0 computes beside group 1's memory cluster before: its waves
    // are the older, so only the two instructions count.
    choice.without += std::max(compute.cycles, before.cycles);
    choice.withPriority += std::max(compute.cycles + setprio, before.cycles);
    // Group 1 computes beside group 0's memory cluster after, whose
    // instructions go first without the priority.
    int64_t slots = std::min(after.valu, compute.mfmas + compute.valu) +
                    std::min(after.lds, compute.lds);
    double stolen = double(slots) * double(issueCadence);
    choice.without += std::max(compute.cycles + stolen, after.cycles);
    choice.withPriority += std::max(compute.cycles + setprio, after.cycles);
  }
  choice.raise = choice.withPriority < choice.without;
  return choice;
}
