//===- PeelZeroStart.cpp - Zero-started accumulators' first iteration -----===//
//
// hk-peel-zero-start runs the first iteration of a loop whose MFMA
// accumulators start at zero on its own, so that its MFMAs read an inline
// zero instead of registers zeroed before the loop. See the pass
// description in hk/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "hk/Conversion/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace hk {
#define GEN_PASS_DEF_HKPEELZEROSTART
#include "hk/Conversion/Passes.h.inc"
} // namespace hk

using namespace mlir;

namespace {

/// Whether `value` is a splat of +0.0 or integer 0.
bool isZeroSplat(Value value) {
  return isa<VectorType>(value.getType()) &&
         (matchPattern(value, m_PosZeroFloat()) ||
          matchPattern(value, m_Zero()));
}

/// Whether `op` only moves the elements of its vector operands into its
/// results, computing nothing on them.
bool movesElements(Operation *op) {
  return isa<vector::ExtractStridedSliceOp, vector::InsertStridedSliceOp,
             vector::ExtractOp, vector::InsertOp, vector::ShuffleOp,
             vector::BitCastOp, vector::ShapeCastOp>(op);
}

/// Whether `value` reaches the accumulator operand of an MFMA through
/// element moves alone.
bool reachesAccumulator(Value value) {
  SmallVector<Value> work = {value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value next = work.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    for (OpOperand &use : next.getUses()) {
      Operation *user = use.getOwner();
      if (auto mfma = dyn_cast<amdgpu::MFMAOp>(user);
          mfma && &use == &mfma.getDestCMutable())
        return true;
      if (auto mfma = dyn_cast<amdgpu::ScaledMFMAOp>(user);
          mfma && &use == &mfma.getDestCMutable())
        return true;
      if (movesElements(user))
        llvm::append_range(work, user->getResults());
    }
  }
  return false;
}

/// Whether to peel `loop`: it starts an MFMA accumulator at zero, and its
/// body holds no loop of its own (an edge tile's element-by-element path,
/// which a copy would duplicate for a loop copy run on few tiles).
bool shouldPeel(scf::ForOp loop) {
  bool nested = false;
  loop.getBody()->walk([&](LoopLikeOpInterface) {
    nested = true;
    return WalkResult::interrupt();
  });
  if (nested)
    return false;
  for (auto [init, arg] :
       llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs()))
    if (isZeroSplat(init) && reachesAccumulator(arg))
      return true;
  return false;
}

/// Moves the first iteration of `loop` into an `scf.if` on the loop running
/// at all, in front of it, and starts the loop one step later from that
/// iteration's results (or from its initial values when it does not run).
void peelFirstIteration(scf::ForOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lower = loop.getLowerBound();
  auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt;
  Value runs =
      arith::CmpIOp::create(b, loc, predicate, lower, loop.getUpperBound());
  auto first = scf::IfOp::create(b, loc, loop.getResultTypes(), runs,
                                 /*withElseRegion=*/true);

  b.setInsertionPointToStart(first.thenBlock());
  IRMapping map;
  map.map(loop.getInductionVar(), lower);
  map.map(loop.getRegionIterArgs(), loop.getInitArgs());
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
  SmallVector<Value> results;
  for (Value value : loop.getBody()->getTerminator()->getOperands())
    results.push_back(map.lookupOrDefault(value));
  scf::YieldOp::create(b, loc, results);
  b.setInsertionPointToStart(first.elseBlock());
  scf::YieldOp::create(b, loc, loop.getInitArgs());

  b.setInsertionPoint(loop);
  loop.setLowerBound(arith::AddIOp::create(b, loc, lower, loop.getStep()));
  loop.getInitArgsMutable().assign(first.getResults());
}

struct HKPeelZeroStartPass
    : public hk::impl::HKPeelZeroStartBase<HKPeelZeroStartPass> {
  void runOnOperation() override {
    // Collected first: peeling inserts ops beside the loops walked.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (shouldPeel(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      peelFirstIteration(loop);
  }
};

} // namespace
