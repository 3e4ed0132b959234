//===- PingPong.cpp - The 8-wave ping-pong schedule -----------------------===//
//
// hk-ping-pong schedules the main loop of every `#hk.pingpong` kernel, a
// loop of alternating memory and compute hk.cluster ops (written so, or
// made so by hk-double-buffer). Waves [0, 4) and [4, 8) form two groups,
// one wave of each per SIMD. Every cluster is closed by a block barrier
// (after the waits that follow it, if any), compute clusters run at raised
// priority (s_setprio, unless the option setprio=false leaves it out), and
// group 1 runs one extra barrier before the loop, so it is always one
// cluster behind group 0: while one group computes, the other reads LDS.
// Group 0 runs one extra barrier after the loop to balance the count.
//
// A loop whose shared buffers trade places every iteration (as
// hk-double-buffer's current and spare tiles do, through the loop's
// iter_args) is unrolled by two: in each half the buffers are then fixed,
// so their LDS addresses become constants and the immediate offsets of the
// reads instead of values carried and re-added every iteration. The second
// half is skipped, by a uniform branch, when its iteration does not exist.
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

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

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

/// Group 1 one barrier behind before the loop, level again after it.
void shiftPhases(scf::ForOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  BarrierOp::create(b, loc, b.getI32IntegerAttr(1));
  b.setInsertionPointAfter(loop);
  BarrierOp::create(b, loc, b.getI32IntegerAttr(0));
}

/// The positions of `loop`'s iter_args that trade places with another
/// every iteration (argument i yields argument j and j yields i), for
/// pairs of shared tiles whose final values nothing reads after the loop.
SmallVector<unsigned> swappedBuffers(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<unsigned> swapped;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    auto other = dyn_cast<BlockArgument>(yield.getOperand(i));
    if (!isa<SharedTileType>(arg.getType()) || !other || other == arg ||
        other.getOwner() != loop.getBody() || other.getArgNumber() == 0)
      continue;
    unsigned j = other.getArgNumber() - 1; // after the induction variable
    if (yield.getOperand(j) == arg && loop.getResult(i).use_empty() &&
        loop.getResult(j).use_empty())
      swapped.push_back(i);
  }
  return swapped;
}

/// Unrolls `loop` by two when some of its buffers trade places every
/// iteration. The second half runs when its iteration exists (a uniform
/// branch), so no copy of the loop is needed for an odd count. After two
/// swaps the buffers are back in place, and a skipped half ends the loop,
/// so they stop being loop-carried: each half reads and fills fixed
/// buffers.
void unrollSwappedBuffers(scf::ForOp loop) {
  // The second half's guard compares as a signed loop does.
  if (loop.getUnsignedCmp())
    return;
  SmallVector<unsigned> swapped = swappedBuffers(loop);
  if (swapped.empty())
    return;
  llvm::SmallBitVector fixed(loop.getNumRegionIterArgs());
  for (unsigned i : swapped)
    fixed.set(i);
  auto carried = [&](ValueRange values) {
    SmallVector<Value> kept;
    for (auto [i, value] : llvm::enumerate(values))
      if (!fixed.test(i))
        kept.push_back(value);
    return kept;
  };

  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value step = loop.getStep();
  Value doubleStep = arith::AddIOp::create(b, loc, step, step);
  auto unrolled =
      scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                         doubleStep, carried(loop.getInitArgs()));
  unrolled->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *body = unrolled.getBody();
  if (!body->empty())
    body->getTerminator()->erase();

  // The values the first half starts from: the carried ones, and the
  // buffers as they were before the loop.
  SmallVector<Value> args(loop.getInitArgs());
  for (auto [i, arg] : llvm::enumerate(
           llvm::make_filter_range(llvm::seq<unsigned>(0, args.size()),
                                   [&](unsigned i) { return !fixed.test(i); })))
    args[arg] = unrolled.getRegionIterArgs()[i];

  // One iteration of the original body at `iv` on `inputs`; returns what it
  // yields.
  auto cloneBody = [&](OpBuilder &cb, Value iv, ValueRange inputs) {
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
    map.map(loop.getRegionIterArgs(), inputs);
    for (Operation &op : loop.getBody()->without_terminator())
      cb.clone(op, map);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    return llvm::map_to_vector(yield.getOperands(),
                               [&](Value v) { return map.lookupOrDefault(v); });
  };

  OpBuilder bb = OpBuilder::atBlockEnd(body);
  SmallVector<Value> first = cloneBody(bb, unrolled.getInductionVar(), args);
  Value next = arith::AddIOp::create(bb, loc, unrolled.getInductionVar(), step);
  Value more = arith::CmpIOp::create(bb, loc, arith::CmpIPredicate::slt, next,
                                     loop.getUpperBound());
  auto second = scf::IfOp::create(bb, loc, unrolled.getResultTypes(), more,
                                  /*withElseRegion=*/true);
  OpBuilder tb = OpBuilder::atBlockBegin(second.thenBlock());
  scf::YieldOp::create(tb, loc, carried(cloneBody(tb, next, first)));
  OpBuilder eb = OpBuilder::atBlockBegin(second.elseBlock());
  scf::YieldOp::create(eb, loc, carried(first));
  scf::YieldOp::create(bb, loc, second.getResults());

  // The fixed buffers' results have no uses (swappedBuffers checks).
  for (auto [result, replacement] :
       llvm::zip(carried(SmallVector<Value>(loop.getResults())),
                 unrolled.getResults()))
    result.replaceAllUsesWith(replacement);
  loop.erase();
}

LogicalResult schedulePingPong(KernelOp kernel, bool raisePriority) {
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
  for (ClusterOp cluster : clusters) {
    if (raisePriority && cluster.getKind() == ClusterKind::Compute &&
        !cluster.getPriority())
      cluster.setPriorityAttr(
          OpBuilder(cluster).getI32IntegerAttr(kComputePriority));
    Operation *next = cluster->getNextNode();
    while (isa<WaitOp>(next))
      next = next->getNextNode();
    if (!isa<BarrierOp>(next)) {
      OpBuilder b(next);
      BarrierOp::create(b, cluster.getLoc(), IntegerAttr());
    }
  }
  shiftPhases(*loop);
  unrollSwappedBuffers(*loop);
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
      return failed(schedulePingPong(kernel, setprio)) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
