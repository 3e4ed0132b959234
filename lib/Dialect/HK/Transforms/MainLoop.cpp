//===- MainLoop.cpp - The loop a kernel's schedule applies to -------------===//

#include "MainLoop.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallBitVector.h"

#include <functional>

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

scf::IfOp hk::findVersionedPrefetch(ClusterOp cluster) {
  for (Operation &op : cluster.getBody().front())
    if (auto branch = dyn_cast<scf::IfOp>(op);
        branch && branch.elseBlock() &&
        !cluster.getBody().isAncestor(
            branch.getCondition().getParentRegion()) &&
        branch->walk([](GroupLoadOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return branch;
  return {};
}

SmallVector<ClusterOp> hk::versionWholeCluster(ClusterOp cluster,
                                               scf::IfOp prefetch) {
  OpBuilder b(cluster);
  Location loc = cluster.getLoc();
  auto version =
      scf::IfOp::create(b, loc, cluster.getResultTypes(),
                        prefetch.getCondition(), /*withElseRegion=*/true);
  SmallVector<ClusterOp> leaves;
  for (unsigned i = 0; i < 2; ++i) {
    OpBuilder vb = OpBuilder::atBlockEnd(i == 0 ? version.thenBlock()
                                                : version.elseBlock());
    IRMapping map;
    auto clone = cast<ClusterOp>(vb.clone(*cluster, map));
    auto branch = cast<scf::IfOp>(map.lookup(prefetch.getOperation()));
    Block *taken = i == 0 ? branch.thenBlock() : branch.elseBlock();
    Operation *yield = taken->getTerminator();
    branch.replaceAllUsesWith(yield->getOperands());
    yield->erase();
    branch->getBlock()->getOperations().splice(branch->getIterator(),
                                               taken->getOperations());
    branch.erase();
    scf::YieldOp::create(vb, loc, clone.getResults());
    if (scf::IfOp inner = findVersionedPrefetch(clone))
      leaves.append(versionWholeCluster(clone, inner));
    else
      leaves.push_back(clone);
  }
  cluster.replaceAllUsesWith(version.getResults());
  cluster.erase();
  return leaves;
}

int64_t hk::countMfmas(MmaOp mma) {
  MfmaShapeAttr instr = *mma.getInstr();
  return (mma.getM() / instr.getM()) * (mma.getN() / instr.getN()) *
         (mma.getK() / instr.getK());
}

int64_t hk::vgprsOf(Type type, int64_t lanes) {
  int64_t bits = 0;
  if (auto tile = dyn_cast<RegisterTileType>(type))
    bits = tile.getRows() * tile.getCols() *
           tile.getElementType().getIntOrFloatBitWidth();
  else if (auto vec = dyn_cast<RegisterVectorType>(type))
    bits = vec.getLength() * vec.getElementType().getIntOrFloatBitWidth();
  return llvm::divideCeil(bits, lanes * 32);
}

void VectorWork::add(Operation *op, int64_t lanes) {
  if (isa<MmaOp>(op))
    return;
  for (Type type : op->getResultTypes()) {
    int64_t vgprs = vgprsOf(type, lanes);
    largestVgprs = std::max(largestVgprs, vgprs);
    valu += vgprs;
    if (isa<SoftmaxOp>(op) && isa<RegisterTileType>(type))
      transcendental += vgprs;
  }
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

/// The positions of `loop`'s iter_args that rotate among themselves every
/// iteration (argument i yields argument p(i), ..., and after `period`
/// steps i again), for shared tiles whose final values nothing reads after
/// the loop; and that period, the same for every such cycle (2 for a
/// current and a spare buffer, 3 for a ring of three). Empty when there
/// are none or their periods differ.
static SmallVector<unsigned> rotatedBuffers(scf::ForOp loop, unsigned &period) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  unsigned numArgs = loop.getNumRegionIterArgs();
  // p(i): the argument position argument i's yielded value comes from.
  auto successor = [&](unsigned i) -> std::optional<unsigned> {
    auto other = dyn_cast<BlockArgument>(yield.getOperand(i));
    if (!isa<SharedTileType>(loop.getRegionIterArgs()[i].getType()) || !other ||
        other.getOwner() != loop.getBody() || other.getArgNumber() == 0 ||
        !loop.getResult(i).use_empty())
      return std::nullopt;
    return other.getArgNumber() - 1; // after the induction variable
  };
  SmallVector<unsigned> rotated;
  period = 0;
  for (unsigned i = 0; i < numArgs; ++i) {
    unsigned length = 0;
    std::optional<unsigned> at = i;
    do {
      at = successor(*at);
      ++length;
    } while (at && *at != i && length <= numArgs);
    if (!at || *at != i || length < 2)
      continue;
    if (period && period != length)
      return {};
    period = length;
    rotated.push_back(i);
  }
  return rotated;
}

void hk::unrollRotatedBuffers(scf::ForOp loop) {
  // The later copies' guards compare as a signed loop does.
  if (loop.getUnsignedCmp())
    return;
  unsigned period = 0;
  SmallVector<unsigned> rotated = rotatedBuffers(loop, period);
  if (rotated.empty())
    return;
  llvm::SmallBitVector fixed(loop.getNumRegionIterArgs());
  for (unsigned i : rotated)
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
  Value unrolledStep = step;
  for (unsigned copy = 1; copy < period; ++copy)
    unrolledStep = arith::AddIOp::create(b, loc, unrolledStep, step);
  auto unrolled =
      scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                         unrolledStep, carried(loop.getInitArgs()));
  unrolled->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *body = unrolled.getBody();
  if (!body->empty())
    body->getTerminator()->erase();

  // The values the first copy starts from: the carried ones, and the
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

  // Copy `copy` of the body at `iv`, then, when the next iteration exists
  // (a uniform branch), the copies after it; returns the carried values.
  std::function<SmallVector<Value>(OpBuilder &, unsigned, Value, ValueRange)>
      emitCopies = [&](OpBuilder &cb, unsigned copy, Value iv,
                       ValueRange inputs) -> SmallVector<Value> {
    SmallVector<Value> outputs = cloneBody(cb, iv, inputs);
    if (copy + 1 == period)
      return carried(outputs);
    Value next = arith::AddIOp::create(cb, loc, iv, step);
    Value more = arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::slt, next,
                                       loop.getUpperBound());
    auto later = scf::IfOp::create(cb, loc, unrolled.getResultTypes(), more,
                                   /*withElseRegion=*/true);
    OpBuilder tb = OpBuilder::atBlockBegin(later.thenBlock());
    scf::YieldOp::create(tb, loc, emitCopies(tb, copy + 1, next, outputs));
    OpBuilder eb = OpBuilder::atBlockBegin(later.elseBlock());
    scf::YieldOp::create(eb, loc, carried(outputs));
    return SmallVector<Value>(later.getResults());
  };
  OpBuilder bb = OpBuilder::atBlockEnd(body);
  scf::YieldOp::create(bb, loc,
                       emitCopies(bb, 0, unrolled.getInductionVar(), args));

  // The fixed buffers' results have no uses (rotatedBuffers checks).
  for (auto [result, replacement] :
       llvm::zip(carried(SmallVector<Value>(loop.getResults())),
                 unrolled.getResults()))
    result.replaceAllUsesWith(replacement);
  loop.erase();
}
