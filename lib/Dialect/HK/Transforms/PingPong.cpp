//===- PingPong.cpp - The 8-wave ping-pong schedule -----------------------===//
//
// hk-ping-pong schedules the main loop of every `#hk.pingpong` kernel, a
// loop of alternating memory and compute hk.cluster ops (written so, or
// made so by hk-double-buffer). Waves [0, 4) and [4, 8) form two groups,
// one wave of each per SIMD. Every cluster is closed by a block barrier
// (after the waits that follow it, if any), compute clusters may run at
// raised priority (s_setprio), and group 1 runs one extra barrier before
// the loop, so it is always one cluster behind group 0: while one group
// computes, the other reads LDS. Group 0 runs one extra barrier after the
// loop to balance the count. Where no other wave can overwrite what a
// memory cluster reads before the reading wave has used it, the barrier
// that closes the cluster leaves the reads in flight (`reads_in_flight`,
// letReadsFly): the compute cluster's first MFMAs wait for their own
// fragments only.
//
// Whether compute clusters run at raised priority is the kernel's
// `#hk.pingpong<setprio = ...>`, else the pass's setprio option, whose
// default (auto) asks choosePriority (ScheduleCost.h): the priority costs
// two instructions per compute cluster and pays where the other group's
// memory cluster issues on a port the compute cluster uses (vector ALU,
// LDS).
//
// A loop whose shared buffers trade places every iteration is unrolled by
// two (unrollRotatedBuffers in MainLoop.h).
//
// Group 0 runs the epilogue's first part under group 1's last compute
// cluster where the loop's barriers already free the loop's LDS
// (overlapEpilogue).
//
// Why a loop from hk-double-buffer stays race-free: with the clusters
// numbered by the barriers that close them, group 0 runs the memory
// cluster of iteration k between the barriers that group 1 spends on
// iteration k-1's last compute cluster, so the prefetch into the spare
// buffer starts after both groups' last reads of its old contents; and
// both groups first read the new tile after the barrier that follows group
// 0's wait.
//
//===----------------------------------------------------------------------===//

#include "MainLoop.h"
#include "ScheduleCost.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"
#include "hk/Timing/DeviceModel.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace hk {
#define GEN_PASS_DEF_HKPINGPONG
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// The op before `op`, skipping the hk.wait ops that may sit between a
/// cluster and the barrier that closes it.
Operation *previousSkippingWaits(Operation *op) {
  Operation *prev = op->getPrevNode();
  while (prev && isa<WaitOp>(prev))
    prev = prev->getPrevNode();
  return prev;
}

/// The op after `cluster` and the hk.wait ops that may follow it: the
/// barrier that closes it, if it has one.
Operation *nextSkippingWaits(ClusterOp cluster) {
  Operation *next = cluster->getNextNode();
  while (isa_and_present<WaitOp>(next))
    next = next->getNextNode();
  return next;
}

/// Whether a walk over a cluster or loop can pass `op` by: it holds ops
/// (visited on their own), ends a region, or has no memory effect.
bool hasNoEffectOfItsOwn(Operation *op) {
  return op->getNumRegions() > 0 || op->hasTrait<OpTrait::IsTerminator>() ||
         isMemoryEffectFree(op);
}

/// The clusters of a ping-pong loop, after checking that they alternate
/// memory and compute, starting with memory, and that only waits, barriers
/// closing a cluster and pure scalar ops sit between them.
LogicalResult collectClusters(scf::ForOp loop,
                              SmallVectorImpl<ClusterOp> &clusters) {
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto cluster = dyn_cast<ClusterOp>(op)) {
      clusters.push_back(cluster);
      continue;
    }
    if (isa<WaitOp, BarrierOp>(op)) {
      Operation *prev = previousSkippingWaits(&op);
      if (!prev || !isa<ClusterOp>(prev))
        return op.emitOpError()
               << "in a ping-pong loop may only follow a cluster (a barrier "
                  "after the cluster's waits): the groups are one cluster "
                  "apart, so every cluster ends with exactly one barrier";
      continue;
    }
    if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
      return op.emitOpError()
             << "sits between the clusters of a ping-pong loop; put "
                "memory and compute work inside hk.cluster ops";
  }
  for (auto [i, cluster] : llvm::enumerate(clusters)) {
    ClusterKind expected = i % 2 ? ClusterKind::Compute : ClusterKind::Memory;
    if (cluster.getKind() != expected)
      return cluster.emitOpError()
             << "is cluster " << i << " of a ping-pong loop, which must "
             << "be a " << stringifyClusterKind(expected)
             << " cluster: the loop alternates memory and compute "
                "clusters, starting with memory";
  }
  if (clusters.size() % 2 != 0)
    return clusters.back().emitOpError()
           << "ends a ping-pong loop; the loop must end with a compute "
              "cluster";
  return success();
}

/// Whether `cluster` writes LDS only through group loads into tiles outside
/// `readTiles` (a spare buffer, read in a later iteration behind a token
/// wait), if `spareLoads`, and otherwise not at all. Layout conversions use
/// per-wave scratch, which no other wave touches.
bool writesNoLdsOthersRead(ClusterOp cluster,
                           const llvm::DenseSet<Value> &readTiles,
                           bool spareLoads) {
  return !cluster.getBody()
              .walk([&](Operation *op) {
                if (hasNoEffectOfItsOwn(op) || isa<LoadOp>(op))
                  return WalkResult::advance();
                auto load = dyn_cast<GroupLoadOp>(op);
                if (load && spareLoads && !readTiles.contains(load.getDest()))
                  return WalkResult::advance();
                return WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// Marks `reads_in_flight` the barrier that closes each memory cluster
/// whose LDS accesses need not have completed by then. Every compute
/// cluster's barrier still waits for them, so what is at stake is the
/// cluster the other group runs right after: group 1 runs one cluster
/// behind group 0, so after the barrier that closes memory cluster i,
/// group 0 runs cluster i + 2 while group 1 runs i + 1, and group 1 runs
/// cluster i while group 0 runs i + 1. That is safe when cluster i writes
/// no LDS that a load of the loop reads, and cluster i + 2 (past the loop's
/// end, the next iteration's first one, whose spare buffers are this
/// iteration's current ones) writes no LDS at all. A barrier after waits
/// keeps its drain.
void letReadsFly(scf::ForOp loop, ArrayRef<ClusterOp> clusters) {
  // The tiles an hk.load of the loop reads.
  llvm::DenseSet<Value> readTiles;
  loop.getBody()->walk(
      [&](LoadOp load) { readTiles.insert(load.getSource()); });
  size_t count = clusters.size();
  for (size_t i = 0; i < count; i += 2) {
    auto barrier = dyn_cast_if_present<BarrierOp>(clusters[i]->getNextNode());
    if (barrier && writesNoLdsOthersRead(clusters[i], readTiles, true) &&
        writesNoLdsOthersRead(clusters[(i + 2) % count], readTiles, false))
      barrier.setReadsInFlight(true);
  }
}

/// The loop, or the `hk.wait fence` directly after it (the kernel's own):
/// what the epilogue's ops go after, so that a fence stays next to its
/// loop.
Operation *loopOrFence(scf::ForOp loop) {
  auto fence = dyn_cast_if_present<WaitOp>(loop->getNextNode());
  if (fence && fence.getFence())
    return fence;
  return loop;
}

/// Group 1 one barrier behind before the loop, level again after it (the
/// barrier returned).
BarrierOp shiftPhases(scf::ForOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  BarrierOp::create(b, loc, b.getI32IntegerAttr(1));
  b.setInsertionPointAfter(loopOrFence(loop));
  return BarrierOp::create(b, loc, b.getI32IntegerAttr(0));
}

/// The barrier that closes `cluster`, after the waits that follow it.
BarrierOp closingBarrier(ClusterOp cluster) {
  return dyn_cast_if_present<BarrierOp>(nextSkippingWaits(cluster));
}

/// Whether `cluster` works on registers only: none of its ops reads or
/// writes memory (layout conversions use the wave's own scratch, which no
/// allocation shares).
bool touchesNoMemory(ClusterOp cluster) {
  return !cluster.getBody()
              .walk([](Operation *op) {
                if (hasNoEffectOfItsOwn(op) || isa<PriorityOp>(op))
                  return WalkResult::advance();
                return WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// Whether every write of `loop` to memory is one that ends with the
/// barrier closing its cluster (an LDS write, a synchronous group load) or
/// an asynchronous group load that group 0 issues alone (and its wait
/// after the loop drains): none of group 1's may still land after group 0
/// has left the loop.
bool onlyGroupZeroLoadsInFlight(scf::ForOp loop) {
  return !loop.getBody()
              ->walk([](Operation *op) {
                if (auto load = dyn_cast<GroupLoadOp>(op)) {
                  if (!load.getAsync())
                    return WalkResult::advance();
                  std::optional<uint32_t> waves = load.getWaves();
                  return waves && *waves <= kPingPongGroupWaves
                             ? WalkResult::advance()
                             : WalkResult::interrupt();
                }
                if (auto store = dyn_cast<StoreOp>(op))
                  return isa<SharedTileType>(store.getDest().getType())
                             ? WalkResult::advance()
                             : WalkResult::interrupt();
                if (hasNoEffectOfItsOwn(op) ||
                    isa<LoadOp, WaitOp, BarrierOp, PriorityOp>(op))
                  return WalkResult::advance();
                return WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// The op at which the epilogue's first part, from `from` on, ends: its
/// next top-level barrier, its first `staged` store (the copies of tiles
/// the part wrote to LDS, which go out after it), or the kernel's
/// terminator; null when a barrier sits nested in that part or that
/// barrier may leave accesses in flight.
Operation *endOfFirstPart(Operation *from) {
  Operation *end = from;
  for (; !isa<BarrierOp>(end) && !end->hasTrait<OpTrait::IsTerminator>();
       end = end->getNextNode()) {
    auto store = dyn_cast<StoreOp>(end);
    if (store && store.getStaged())
      break;
    if (end->walk([](BarrierOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return nullptr;
  }
  auto next = dyn_cast<BarrierOp>(end);
  if (next && (next.getGroup() || next.getReadsInFlight()))
    return nullptr;
  return end;
}

/// Lets group 0 run the first part of the kernel's epilogue, up to its
/// first barrier (or its end), while group 1 runs the loop's last compute
/// cluster, instead of after group 1's last barrier. By the time group 0
/// leaves the loop, the loop is done with LDS but for group 1's last
/// compute cluster: group 0 leaves through the barrier that pairs with the
/// one closing group 1's last memory cluster, which drains group 1's LDS
/// accesses; the last compute cluster touches no memory; and group 0's
/// own wait drains the loop's loads into LDS when group 0 issued them
/// all. So the balancing barrier `balance` moves down to the first part's
/// end: group 0 runs the part (converting and storing its accumulators)
/// under group 1's last MFMAs, group 1 after them. The barrier leaves
/// group 0's LDS writes in flight: group 1 reads none of them before a
/// barrier that waits for them. An epilogue whose waves copy the tiles
/// they wrote to LDS out themselves (`hk.store ... via ... staged`) needs
/// no barrier after the part: group 0's copies then go out while group 1
/// converts and writes its own tiles.
///
/// An epilogue that reuses the loop's LDS starts with a token-less
/// `hk.wait` and a block-wide barrier, which would hold group 0 until
/// group 1 is done. Both go but the wait, which becomes `hk.wait fence`
/// directly after the loop (where allocations may still trade bytes), and
/// the first part is what follows up to the next barrier.
void overlapEpilogue(scf::ForOp loop, ArrayRef<ClusterOp> clusters,
                     BarrierOp balance) {
  size_t count = clusters.size();
  BarrierOp lastMemoryBarrier = closingBarrier(clusters[count - 2]);
  if (!lastMemoryBarrier || lastMemoryBarrier.getReadsInFlight() ||
      !touchesNoMemory(clusters.back()) || !onlyGroupZeroLoadsInFlight(loop))
    return;
  // balance; register work; hk.wait; hk.barrier: the LDS-reusing form.
  Operation *op = balance->getNextNode();
  while (!isa<WaitOp>(op) && !op->hasTrait<OpTrait::IsTerminator>() &&
         isMemoryEffectFree(op) && op->getNumRegions() == 0)
    op = op->getNextNode();
  auto wait = dyn_cast<WaitOp>(op);
  BarrierOp barrier;
  // (A kernel with a fence of its own after the loop keeps its epilogue's
  // wait and barrier as they are.)
  if (wait && wait.getTokens().empty() && !wait.getFence() &&
      loopOrFence(loop) == loop)
    barrier = dyn_cast_if_present<BarrierOp>(wait->getNextNode());
  if (barrier && (barrier.getGroup() || barrier.getReadsInFlight()))
    return;
  Operation *from = barrier ? barrier->getNextNode() : balance->getNextNode();
  Operation *end = endOfFirstPart(from);
  if (!end || end == from)
    return;
  if (barrier) {
    wait->moveAfter(loop);
    wait.setFence(true);
    barrier.erase();
  }
  balance->moveBefore(end);
  balance.setReadsInFlight(true);

  // Group 1's last MFMAs now share each SIMD with group 0's epilogue, whose
  // wave is the older one: at equal priority its vector instructions go
  // first. Where the kernel sets no priorities, both groups run at priority
  // 1 from the kernel's start (no change between them) and drop to 0 as
  // they leave the loop, so that group 1's last compute cluster outranks
  // group 0's epilogue. A compute cluster with a priority of its own
  // already does (and resets it to 0).
  KernelOp kernel = loop->getParentOfType<KernelOp>();
  bool prioritized =
      kernel
          .walk([](Operation *op) {
            auto cluster = dyn_cast<ClusterOp>(op);
            return isa<PriorityOp>(op) || (cluster && cluster.getPriority())
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  if (prioritized)
    return;
  auto b = OpBuilder::atBlockBegin(&kernel.getBody().front());
  PriorityOp::create(b, loop.getLoc(), kComputePriority);
  if (barrier)
    b.setInsertionPointAfter(wait);
  else
    b.setInsertionPointAfter(loopOrFence(loop));
  PriorityOp::create(b, loop.getLoc(), 0);
}

/// A ping-pong cluster as choosePriority counts it, per wave.
PingPongCluster measureCluster(ClusterOp cluster, const ChipInfo &chip,
                               const timing::DeviceModel &device) {
  PingPongCluster measured;
  int64_t dsReads = 0, mfmaCycles = 0;
  VectorWork vector;
  cluster.getBody().walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      dsReads +=
          countLdsReads(cast<RegisterTileType>(load.getType()), chip.waveSize);
      return;
    }
    // A layout conversion writes the tile to the wave's scratch and reads
    // it back.
    if (auto convert = dyn_cast<ConvertLayoutOp>(op))
      if (auto tile = dyn_cast<RegisterTileType>(convert.getType()))
        measured.lds += 2 * countLdsReads(tile, chip.waveSize);
    if (auto mma = dyn_cast<MmaOp>(op); mma && mma.getInstr()) {
      measured.mfmas += countMfmas(mma);
      if (const MfmaInstr *instr = getMfmaInstr(chip, mma))
        mfmaCycles = device.mfmaCycles(*instr);
    }
    vector.add(op, chip.waveSize);
  });
  measured.valu = vector.valu + vector.transcendental;
  measured.lds += dsReads;
  // As hk-double-buffer's cost counts them.
  measured.cycles =
      groupReadCycles(dsReads, ldsReadCycles(chip), device.ldsLatency,
                      kPingPongGroupWaves) +
      double(measured.mfmas) * double(mfmaCycles) +
      double(vector.cycles(device.valuCycles, device.transCycles));
  return measured;
}

/// Whether the compute clusters of `loop` run at raised priority: the
/// kernel's choice, else the option's, else the cost function's.
FailureOr<bool> decidePriority(KernelOp kernel, scf::ForOp loop,
                               ArrayRef<ClusterOp> clusters, PriorityMode mode,
                               bool remarks) {
  auto schedule = cast<PingPongAttr>(kernel.getEffectiveSchedule());
  std::optional<bool> given;
  StringRef source;
  if (BoolAttr setprio = schedule.getSetprio()) {
    given = setprio.getValue();
    source = "the kernel's #hk.pingpong setprio";
  } else if (mode != PriorityMode::Auto) {
    given = mode == PriorityMode::Always;
    source = "the setprio option";
  }
  if (given && !remarks)
    return *given;
  const ChipInfo *chip = lookupTargetChip(kernel);
  if (!chip) {
    if (given)
      return *given;
    return kernel.emitOpError()
           << "needs a target chip for hk-ping-pong's priority cost "
              "function (run hk-target first), or setprio given (the "
              "pass option or #hk.pingpong's)";
  }
  const timing::DeviceModel &device = timing::DeviceModel::defaultFor(*chip);
  SmallVector<PingPongCluster> measured;
  for (ClusterOp cluster : clusters)
    measured.push_back(measureCluster(cluster, *chip, device));
  PriorityChoice choice = hk::choosePriority(measured, device.issueCadence);
  bool raise = given.value_or(choice.raise);
  if (remarks) {
    // What the memory clusters issue on the ports compute clusters use.
    int64_t valu = 0, lds = 0;
    for (size_t i = 0; i < measured.size(); i += 2) {
      valu += measured[i].valu;
      lds += measured[i].lds;
    }
    loop.emitRemark() << "hk-ping-pong: compute clusters "
                      << (raise ? "at priority 1" : "at the wave's priority")
                      << " ("
                      << (given ? source.str() : std::string("cost function"))
                      << "; predicted cycles of an iteration: "
                      << int64_t(choice.withPriority) << " with s_setprio, "
                      << int64_t(choice.without) << " without; memory "
                      << "clusters: " << valu << " VALU, " << lds
                      << " LDS instructions)";
  }
  return raise;
}

LogicalResult schedulePingPong(KernelOp kernel, PriorityMode mode,
                               bool remarks) {
  FailureOr<scf::ForOp> loop = findMainLoop(kernel);
  if (failed(loop) || failed(checkMfmaInstrs(*loop, "hk-ping-pong")))
    return failure();
  if (!llvm::any_of(loop->getBody()->getOperations(), llvm::IsaPred<ClusterOp>))
    return loop->emitOpError()
           << "is the main loop of a ping-pong kernel but holds no "
              "hk.cluster ops; run hk-double-buffer first, or write its "
              "memory and compute clusters";
  SmallVector<ClusterOp> clusters;
  if (failed(collectClusters(*loop, clusters)))
    return failure();
  FailureOr<bool> raisePriority =
      decidePriority(kernel, *loop, clusters, mode, remarks);
  if (failed(raisePriority))
    return failure();
  for (ClusterOp cluster : clusters) {
    if (*raisePriority && cluster.getKind() == ClusterKind::Compute &&
        !cluster.getPriority())
      cluster.setPriorityAttr(
          OpBuilder(cluster).getI32IntegerAttr(kComputePriority));
    Operation *next = nextSkippingWaits(cluster);
    if (!isa<BarrierOp>(next)) {
      OpBuilder b(next);
      BarrierOp::create(b, cluster.getLoc(), IntegerAttr());
    }
  }
  letReadsFly(*loop, clusters);
  BarrierOp balance = shiftPhases(*loop);
  overlapEpilogue(*loop, clusters, balance);
  unrollRotatedBuffers(*loop);
  return success();
}

class PingPongPass : public hk::impl::HKPingPongBase<PingPongPass> {
public:
  using HKPingPongBase::HKPingPongBase;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      if (!isa_and_present<PingPongAttr>(kernel.getEffectiveSchedule()) ||
          hasWaveGroupBarriers(kernel) || hasInstructionGroups(kernel))
        return WalkResult::advance();
      return failed(schedulePingPong(kernel, setprio, remarks))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
