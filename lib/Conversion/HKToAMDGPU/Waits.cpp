//===- Waits.cpp - The vmcnt each token wait needs ------------------------===//
//
// Direct-to-LDS loads leave their data in flight until vmcnt retires them;
// vector memory instructions complete in the order they were issued. To
// know that load X has landed it is enough that at most N vector memory
// instructions are outstanding, where N counts those issued after X. A wait
// takes N as the fewest *direct-to-LDS* instructions any path issues
// between X and the wait: every other memory instruction counts as none,
// so wherever a later pass moves it, the count can only be too small
// (waiting longer), never too large. A group load whose tile crosses the
// view's edge stages it through registers instead and issues no direct
// instructions; its own loads are waited for before it writes LDS, and
// because they retire in order that wait retires every earlier load too,
// so counting it as a direct load stays safe. A group load may be shared by
// the first few waves only (ping-pong's prefetch, by wave group 0): a wave
// waiting for X counts a later load only if it issued that load too, so a
// load shared by fewer waves than X counts as none.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

DirectCopyPlan lowering::planDirectCopy(GroupLoadOp op, const ChipInfo &chip) {
  SharedTileType shared = op.getDest().getType();
  int64_t bytes = getElementBits(shared.getElementType()) / 8;
  int64_t tileBytes = shared.getRows() * shared.getCols() * bytes;
  DirectCopyPlan plan;
  plan.laneBytes =
      std::min<int64_t>(chip.maxDirectToLdsBytes(), shared.getCols() * bytes);
  int64_t instructionBytes = plan.laneBytes * 64;
  plan.instructions = (tileBytes + instructionBytes - 1) / instructionBytes;
  assert(op.getWaves() && "group load without a wave count");
  plan.waves = *op.getWaves();
  return plan;
}

namespace {

constexpr int64_t kUnknown = 0;

/// The waves a group load is shared by: the first `waves` of the kernel.
int64_t loadingWaves(GroupLoadOp load) { return load.getWaves().value_or(0); }

/// Direct-to-LDS instructions `op` surely issues (per wave) when it runs,
/// in every one of the first `waves` waves (those that issued the load
/// being waited for): a load shared by fewer waves counts as none, since
/// the others issue nothing for it.
int64_t directInstructions(Operation *op, int64_t waves) {
  if (auto load = dyn_cast<GroupLoadOp>(op)) {
    const ChipInfo *chip = lookupTargetChip(op);
    if (load.getPath() == TransferPath::Direct && chip &&
        loadingWaves(load) >= waves)
      return planDirectCopy(load, *chip).perWaveMinimum();
    return 0;
  }
  // A cluster's body runs exactly once, and one of an if-else's two
  // versions; loops, and an if without else, may not run.
  auto sumOf = [&](Block &block) {
    int64_t sum = 0;
    for (Operation &inner : block)
      sum += directInstructions(&inner, waves);
    return sum;
  };
  if (auto cluster = dyn_cast<ClusterOp>(op))
    return sumOf(cluster.getBody().front());
  if (auto branch = dyn_cast<scf::IfOp>(op);
      branch && !branch.getElseRegion().empty())
    return std::min(sumOf(*branch.thenBlock()), sumOf(*branch.elseBlock()));
  return 0;
}

/// Instructions each of the first `waves` waves issues by the ops strictly
/// between `from` and `to` (or the end of the block when `to` is null).
int64_t countBetween(Operation *from, Operation *to, int64_t waves) {
  int64_t sum = 0;
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    sum += directInstructions(op, waves);
  return sum;
}

/// Instructions each of the first `waves` waves issues from the start of
/// `target`'s block up to `target`, and so on up through its ancestors
/// until `stop`'s block.
int64_t countDownTo(Operation *target, Block *stop, int64_t waves) {
  int64_t sum = 0;
  for (Operation *op = target; op && op->getBlock() != stop;
       op = op->getParentOp()) {
    Block *block = op->getBlock();
    for (Operation &before : *block) {
      if (&before == op)
        break;
      sum += directInstructions(&before, waves);
    }
  }
  return sum;
}

/// The group loads that may have produced `token`: the one that defines
/// it, or through the results of `scf.if`s and clusters, one per version.
/// False when the token comes from anything else.
bool collectProducers(Value token, SmallVectorImpl<GroupLoadOp> &producers) {
  if (auto load = token.getDefiningOp<GroupLoadOp>()) {
    producers.push_back(load);
    return true;
  }
  auto result = dyn_cast<OpResult>(token);
  if (!result)
    return false;
  Operation *owner = result.getOwner();
  unsigned index = result.getResultNumber();
  if (auto cluster = dyn_cast<ClusterOp>(owner))
    return collectProducers(
        cluster.getBody().front().getTerminator()->getOperand(index),
        producers);
  if (auto branch = dyn_cast<scf::IfOp>(owner)) {
    if (branch.getElseRegion().empty())
      return false;
    return collectProducers(branch.thenYield().getOperand(index), producers) &&
           collectProducers(branch.elseYield().getOperand(index), producers);
  }
  return false;
}

/// Instructions each of the first `waves` waves issues after `op` to the
/// end of `body`, which holds it: the rest of each block from `op` up
/// through its ancestors.
int64_t countToEnd(Operation *op, Block *body, int64_t waves) {
  int64_t sum = 0;
  for (; op; op = op->getParentOp()) {
    sum += countBetween(op, nullptr, waves);
    if (op->getBlock() == body)
      return sum;
  }
  return sum;
}

/// The fewest instructions between `producer` and `wait`, or kUnknown when
/// the path is not one this analysis follows: the rest of each block from
/// the producer up to the block that also holds the wait, the ops between
/// there, and the wait's blocks down to it.
int64_t countFromProducer(GroupLoadOp producer, Operation *wait) {
  int64_t waves = loadingWaves(producer);
  int64_t sum = 0;
  Operation *op = producer;
  while (!op->getBlock()->findAncestorOpInBlock(*wait)) {
    sum += countBetween(op, nullptr, waves);
    op = op->getParentOp();
    if (!op || isa<scf::ForOp, KernelOp>(op))
      return kUnknown;
  }
  Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*wait);
  if (ancestor == op || !op->isBeforeInBlock(ancestor))
    return kUnknown;
  return sum + countBetween(op, ancestor, waves) +
         countDownTo(wait, op->getBlock(), waves);
}

/// The fewest instructions on any path from the loads behind `token` to
/// `wait`; max() when none of them is direct (nothing to wait for).
int64_t countForToken(Value token, Operation *wait) {
  // Loaded in this iteration: by a group load, or by one in each version
  // of an scf.if (results of clusters and ifs).
  SmallVector<GroupLoadOp> loads;
  if (!isa<BlockArgument>(token) && collectProducers(token, loads)) {
    int64_t best = std::numeric_limits<int64_t>::max();
    for (GroupLoadOp load : loads)
      if (load.getPath() == TransferPath::Direct)
        best = std::min(best, countFromProducer(load, wait));
    return best;
  }
  // A token carried around a loop: from the initial load to the first
  // iteration's wait, and from the previous iteration's load around the
  // back edge.
  auto arg = dyn_cast<BlockArgument>(token);
  auto forOp =
      arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : nullptr;
  if (!forOp || arg.getArgNumber() == 0)
    return kUnknown;
  unsigned index = arg.getArgNumber() - 1;
  Block *body = forOp.getBody();
  Operation *inBody = body->findAncestorOpInBlock(*wait);
  if (!inBody)
    return kUnknown;
  auto intoBody = [&](GroupLoadOp load) {
    return countDownTo(wait, body->getParentOp()->getBlock(),
                       loadingWaves(load));
  };

  int64_t best = std::numeric_limits<int64_t>::max();
  Value init = forOp.getInitArgs()[index];
  if (auto load = init.getDefiningOp<GroupLoadOp>()) {
    if (load.getPath() == TransferPath::Direct) {
      if (load->getBlock() != forOp->getBlock())
        return kUnknown;
      best = std::min(best, countBetween(load, forOp, loadingWaves(load)) +
                                intoBody(load));
    }
  } else {
    return kUnknown;
  }
  // Around the back edge: from the previous iteration's load, in the body
  // or in a version of it (an scf.if or cluster result).
  Value yielded = body->getTerminator()->getOperand(index);
  SmallVector<GroupLoadOp> producers;
  if (!collectProducers(yielded, producers))
    return kUnknown;
  for (GroupLoadOp load : producers) {
    if (!body->findAncestorOpInBlock(*load))
      return kUnknown;
    if (load.getPath() == TransferPath::Direct)
      best = std::min(best, countToEnd(load, body, loadingWaves(load)) +
                                intoBody(load));
  }
  return best;
}

} // namespace

void lowering::planWaits(ModuleOp module, WaitPlan &plan) {
  module.walk([&](WaitOp wait) {
    auto barrier = dyn_cast_if_present<BarrierOp>(wait->getNextNode());
    // A barrier whose wave's LDS reads may stay in flight needs no drain.
    if (barrier && barrier.getReadsInFlight())
      barrier = nullptr;
    if (wait.getTokens().empty()) {
      if (barrier)
        plan.ldsDrained.insert(barrier);
      return;
    }
    if (barrier) {
      plan.drainLds.insert(wait);
      plan.ldsDrained.insert(barrier);
    }
    int64_t count = std::numeric_limits<int64_t>::max();
    for (Value token : wait.getTokens())
      count = std::min(count, countForToken(token, wait));
    if (count != std::numeric_limits<int64_t>::max())
      plan.vmcnt[wait] = count;
  });
}
