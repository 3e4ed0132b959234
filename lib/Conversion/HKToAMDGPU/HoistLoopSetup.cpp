//===- HoistLoopSetup.cpp - Loop setup under the prologue's loads ---------===//
//
// hk-hoist-loop-setup moves a loop's invariant arithmetic above the wait
// that ends its prologue, so that the arithmetic runs while the prologue's
// loads are in flight instead of after them. See the pass description in
// hk/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "hk/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include "llvm/ADT/SetVector.h"

namespace hk {
#define GEN_PASS_DEF_HKHOISTLOOPSETUP
#include "hk/Conversion/Passes.h.inc"
} // namespace hk

using namespace mlir;

namespace {

/// Whether `op` only orders the wave against memory or other waves: a
/// counter wait, a barrier, a scheduling barrier, a compiler fence (an
/// empty inline asm), or an scf.if holding nothing else.
bool isSynchronization(Operation *op) {
  if (isa<amdgpu::MemoryCounterWaitOp, ROCDL::SWaitcntOp, ROCDL::SBarrierOp,
          ROCDL::SchedBarrier>(op))
    return true;
  if (auto fence = dyn_cast<LLVM::InlineAsmOp>(op))
    return fence.getAsmString().empty() && fence->getNumResults() == 0;
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (branch->getNumResults() != 0)
      return false;
    WalkResult result = branch->walk([&](Operation *nested) {
      if (nested == op || isa<scf::YieldOp>(nested) ||
          isSynchronization(nested))
        return WalkResult::advance();
      return WalkResult::interrupt();
    });
    return !result.wasInterrupted();
  }
  return false;
}

/// Whether `op` may run earlier, and on every path: plain lane arithmetic
/// that neither touches memory nor faults nor depends on which lanes run,
/// the lane's and the workgroup's ids, and buffer resources.
bool isMovable(Operation *op) {
  if (isa<ROCDL::ThreadIdXOp, ROCDL::ThreadIdYOp, ROCDL::ThreadIdZOp,
          ROCDL::BlockIdXOp, ROCDL::BlockIdYOp, ROCDL::BlockIdZOp,
          ROCDL::MakeBufferRsrcOp>(op))
    return true;
  Dialect *dialect = op->getDialect();
  if (!dialect || !isa<arith::ArithDialect, vector::VectorDialect>(dialect))
    return false;
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         isSpeculatable(op);
}

/// The first op of the run of synchronization ops (with pure arithmetic
/// among them) right before `loop`, when the run holds a counter wait.
Operation *findPrologueWait(scf::ForOp loop) {
  Operation *first = nullptr;
  bool waits = false;
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode()) {
    if (isSynchronization(op)) {
      first = op;
      waits |= isa<amdgpu::MemoryCounterWaitOp, ROCDL::SWaitcntOp>(op);
      continue;
    }
    if (!isMovable(op))
      break;
  }
  return waits ? first : nullptr;
}

/// Keeps `value` computed before `wait`. LLVM's code sinking would
/// otherwise move what only the loop uses back below the wait, into the
/// loop's preheader; a use in place (llvm.fake.use, which emits no code)
/// holds it here. A value of no LLVM type (a vector of index) stays
/// unpinned: LLVM may sink it, which costs time, not correctness.
void pinBefore(Operation *wait, Value value) {
  OpBuilder b(wait);
  Location loc = wait->getLoc();
  if (value.getType().isIndex())
    value = arith::IndexCastOp::create(b, loc, b.getI32Type(), value);
  if (!LLVM::isCompatibleType(value.getType()))
    return;
  LLVM::CallIntrinsicOp::create(b, loc, b.getStringAttr("llvm.fake.use"),
                                ValueRange{value});
}

/// Moves what can run before `wait`: the arithmetic between it and `loop`,
/// then the loop's invariants (to a fixed point, since hoisting an op out
/// of a nested region can make an op of the body invariant); pins the
/// moved values that are used below the wait.
void hoistAbove(Operation *wait, scf::ForOp loop, DominanceInfo &dominance) {
  llvm::SetVector<Operation *> moved;
  auto available = [&](Value value) {
    return dominance.properlyDominates(value, wait);
  };
  auto move = [&](Operation *op) {
    op->moveBefore(wait);
    moved.insert(op);
  };
  for (Operation *op = wait->getNextNode(); op != loop;) {
    Operation *next = op->getNextNode();
    if (isMovable(op) && llvm::all_of(op->getOperands(), available))
      move(op);
    op = next;
  }
  SmallVector<Region *> regions;
  loop->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == loop.getOperation() || isa<scf::IfOp>(op))
      for (Region &region : op->getRegions())
        regions.push_back(&region);
  });
  while (moveLoopInvariantCode(
             regions, [&](Value value, Region *) { return available(value); },
             [](Operation *op, Region *) { return isMovable(op); },
             [&](Operation *op, Region *) { move(op); }) != 0) {
  }
  for (Operation *op : moved) {
    // Constants cost nothing to rematerialize where they are used.
    if (op->hasTrait<OpTrait::ConstantLike>())
      continue;
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !moved.contains(user); }))
        pinBefore(wait, result);
  }
}

struct HKHoistLoopSetupPass
    : public hk::impl::HKHoistLoopSetupBase<HKHoistLoopSetupPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, scf::ForOp>> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (Operation *wait = findPrologueWait(loop))
        loops.emplace_back(wait, loop);
    });
    DominanceInfo dominance(getOperation());
    for (auto [wait, loop] : loops)
      hoistAbove(wait, loop, dominance);
  }
};

} // namespace
