//===- MainLoop.cpp - The loop a kernel's schedule applies to -------------===//

#include "MainLoop.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

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
