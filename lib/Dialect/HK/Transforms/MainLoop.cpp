//===- MainLoop.cpp - The loop a kernel's schedule applies to -------------===//

#include "MainLoop.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace hk;

FailureOr<scf::ForOp> hk::findMainLoop(KernelOp kernel) {
  if (auto loop = cast_if_present<scf::ForOp>(kernel.getScheduledLoop()))
    return loop;
  SmallVector<scf::ForOp> loops;
  for (Operation &op : kernel.getBody().front())
    if (auto candidate = dyn_cast<scf::ForOp>(op))
      if (candidate->walk([](MmaOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        loops.push_back(candidate);
  if (loops.size() != 1)
    return kernel.emitOpError()
           << "has a schedule, so it needs one main loop: a top-level "
              "scf.for holding its hk.mma ops; found "
           << loops.size() << " (with several, move the schedule to one "
           << "of them as '" << HKDialect::getScheduleAttrName() << "')";
  return loops.front();
}

LogicalResult hk::checkMfmaInstrs(scf::ForOp loop, StringRef pass) {
  WalkResult noInstr = loop->walk([&](MmaOp mma) {
    if (mma.getInstr())
      return WalkResult::advance();
    mma.emitOpError() << "has no MFMA instruction yet; run hk-mfma-layout "
                         "before "
                      << pass;
    return WalkResult::interrupt();
  });
  return failure(noInstr.wasInterrupted());
}

bool hk::hasWaveGroupBarriers(KernelOp kernel) {
  return kernel
      ->walk([](BarrierOp barrier) {
        return barrier.getGroup() ? WalkResult::interrupt()
                                  : WalkResult::advance();
      })
      .wasInterrupted();
}

bool hk::hasInstructionGroups(KernelOp kernel) {
  return kernel
      ->walk([](ROCDL::SchedGroupBarrier) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

bool hk::hasClusters(scf::ForOp loop) {
  return loop->walk([](ClusterOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

int64_t hk::countMfmas(MmaOp mma) {
  MfmaShapeAttr instr = *mma.getInstr();
  return (mma.getM() / instr.getM()) * (mma.getN() / instr.getN()) *
         (mma.getK() / instr.getK());
}

int64_t hk::countLdsReads(RegisterTileType tile, int64_t lanes) {
  int64_t bytes =
      tile.getNumElements() * tile.getElementType().getIntOrFloatBitWidth() / 8;
  return llvm::divideCeil(bytes, lanes * kDsReadBytesPerLane);
}

unsigned hk::ldsReadCycles(const ChipInfo &chip) {
  return chip.waveSize /
         std::max(1u, chip.lds.readLanesPerPhase(kDsReadBytesPerLane));
}

/// The positions of `loop`'s iter_args that trade places with another
/// every iteration (argument i yields argument j and j yields i), for
/// pairs of shared tiles whose final values nothing reads after the loop.
static SmallVector<unsigned> swappedBuffers(scf::ForOp loop) {
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

void hk::unrollSwappedBuffers(scf::ForOp loop) {
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
