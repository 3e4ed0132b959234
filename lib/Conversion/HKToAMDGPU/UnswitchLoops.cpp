//===- UnswitchLoops.cpp - One loop per outcome of an invariant branch ----===//
//
// hk-unswitch-loops versions a function's last top-level loop on the
// branches of its body that the loop does not change, copying the rest of
// the function along with each copy of the loop. See the pass description
// in hk/Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "hk/Conversion/Passes.h"

#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/SetVector.h"

namespace hk {
#define GEN_PASS_DEF_HKUNSWITCHLOOPS
#include "hk/Conversion/Passes.h.inc"
} // namespace hk

using namespace mlir;

namespace {

/// Whether `op` reads what every lane of a wave sees alike and the block
/// does not change: the workgroup's ids and sizes, or the first active
/// lane's value.
bool readsUniformState(Operation *op) {
  return isa<ROCDL::ReadfirstlaneOp, ROCDL::BlockIdXOp, ROCDL::BlockIdYOp,
             ROCDL::BlockIdZOp, ROCDL::BlockDimXOp, ROCDL::BlockDimYOp,
             ROCDL::BlockDimZOp, ROCDL::GridDimXOp, ROCDL::GridDimYOp,
             ROCDL::GridDimZOp>(op);
}

/// Which values every lane of a wave holds alike: a kernel's arguments,
/// constants, workgroup ids and sizes, `rocdl.readfirstlane` results, induction
/// variables of loops with such bounds, and what side-effect-free `arith` and
/// `index` ops compute from those. Anything else (lane ids, loads, unknown ops)
/// counts as varying.
class WaveUniformity {
public:
  bool isUniform(Value value) {
    if (auto it = known.find(value); it != known.end())
      return it->second;
    // A value reached again while being decided counts as varying.
    known[value] = false;
    bool uniform = decide(value);
    known[value] = uniform;
    return uniform;
  }

private:
  bool decide(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      // A kernel's arguments arrive in scalar registers; a device
      // function's may differ between lanes.
      if (isa<FunctionOpInterface>(owner))
        return arg.getOwner()->isEntryBlock() &&
               owner->hasAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName());
      auto loop = dyn_cast<scf::ForOp>(owner);
      return loop && arg == loop.getInductionVar() &&
             isUniform(loop.getLowerBound()) &&
             isUniform(loop.getUpperBound()) && isUniform(loop.getStep());
    }
    Operation *op = value.getDefiningOp();
    if (op->hasTrait<OpTrait::ConstantLike>() || readsUniformState(op))
      return true;
    Dialect *dialect = op->getDialect();
    if (!dialect || !isa<arith::ArithDialect, index::IndexDialect>(dialect) ||
        op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      return false;
    return llvm::all_of(op->getOperands(),
                        [&](Value operand) { return isUniform(operand); });
  }

  llvm::DenseMap<Value, bool> known;
};

/// Whether `fn` holds for some branch at the top level of `loop`'s body
/// (one every iteration takes); stops at the first, in program order.
bool anyBranch(scf::ForOp loop, llvm::function_ref<bool(scf::IfOp)> fn) {
  return llvm::any_of(loop.getBody()->getOps<scf::IfOp>(), fn);
}

/// The condition of the first branch at the top level of `loop`'s body
/// that the loop does not change and every lane of a wave shares;
/// null when there is none.
Value findInvariantCondition(scf::ForOp loop, WaveUniformity &uniformity) {
  Value found;
  anyBranch(loop, [&](scf::IfOp branch) {
    Value condition = branch.getCondition();
    if (matchPattern(condition, m_Constant()) ||
        !loop.isDefinedOutsideOfLoop(condition) ||
        !uniformity.isUniform(condition))
      return false;
    found = condition;
    return true;
  });
  return found;
}

/// Whether `op` may run earlier in the same block: it has no regions and
/// reads nothing that may change, or it reads the first active lane or the
/// workgroup's ids (the same lanes run everywhere in the block).
bool mayRunEarlier(Operation *op) {
  return readsUniformState(op) ||
         (op->getNumRegions() == 0 && isMemoryEffectFree(op));
}

/// Appends to `slice`, operands first, the ops of `start`'s block from
/// `start` on that compute `value`; false when one may not run earlier.
bool collectSliceFrom(Value value, Operation *start,
                      llvm::SetVector<Operation *> &slice) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != start->getBlock() ||
      def->isBeforeInBlock(start) || slice.contains(def))
    return true;
  if (!mayRunEarlier(def))
    return false;
  for (Value operand : def->getOperands())
    if (!collectSliceFrom(operand, start, slice))
      return false;
  slice.insert(def);
  return true;
}

/// Where the copies of `loop` begin in its block: at the loop, or at an
/// earlier op that computes a register vector the loop starts from (an
/// accumulator an earlier loop computed: fed into both copies, LLVM's
/// register allocator spilled it). `condition` must be known there: what
/// computes it moves up when it may, or else the copies begin after it.
Operation *versionStart(scf::ForOp loop, Value condition) {
  Block *block = loop->getBlock();
  Operation *start = loop;
  for (Value init : loop.getInitArgs()) {
    Operation *def = init.getDefiningOp();
    if (!isa<VectorType>(init.getType()) || !def ||
        def->hasTrait<OpTrait::ConstantLike>())
      continue;
    if (Operation *top = block->findAncestorOpInBlock(*def);
        top && top->isBeforeInBlock(start))
      start = top;
  }
  llvm::SetVector<Operation *> slice;
  if (collectSliceFrom(condition, start, slice)) {
    for (Operation *op : slice)
      op->moveBefore(start);
    return start;
  }
  Operation *top = block->findAncestorOpInBlock(*condition.getDefiningOp());
  return top->getNextNode();
}

/// Places the ops of `loop`'s block from versionStart on (all but the
/// terminator) in both regions of an `scf.if` on `condition`, with
/// `condition` replaced by its known value in each; returns the two
/// copies of the loop, the one where it holds first. The terminator's
/// operands that the moved ops define become the branch's results.
/// Changes nothing and returns nothing when a value the moved ops define
/// is used elsewhere.
std::optional<std::array<scf::ForOp, 2>> versionTail(scf::ForOp loop,
                                                     Value condition) {
  Block *block = loop->getBlock();
  Operation *terminator = block->getTerminator();
  Operation *start = versionStart(loop, condition);
  SmallVector<Operation *> tail;
  for (Operation *op = start; op != terminator; op = op->getNextNode())
    tail.push_back(op);
  llvm::SmallPtrSet<Operation *, 32> moved(tail.begin(), tail.end());
  SmallVector<Value> results;
  for (Operation *op : tail)
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *inBlock = block->findAncestorOpInBlock(*user);
        if (inBlock == terminator) {
          if (!llvm::is_contained(results, result))
            results.push_back(result);
        } else if (!inBlock || !moved.contains(inBlock)) {
          return std::nullopt;
        }
      }

  Location loc = loop.getLoc();
  OpBuilder b(start);
  auto branch =
      scf::IfOp::create(b, loc, ValueRange(results).getTypes(), condition,
                        /*withElseRegion=*/true);
  std::array<scf::ForOp, 2> copies;
  for (bool known : {true, false}) {
    Block *region = known ? branch.thenBlock() : branch.elseBlock();
    // Without results the regions already end in their yields.
    if (!region->empty())
      region->getTerminator()->erase();
    OpBuilder cb = OpBuilder::atBlockBegin(region);
    IRMapping map;
    map.map(condition,
            arith::ConstantOp::create(cb, loc, cb.getBoolAttr(known)));
    for (Operation *op : tail)
      cb.clone(*op, map);
    copies[known ? 0 : 1] = cast<scf::ForOp>(map.lookup(loop.getOperation()));
    scf::YieldOp::create(cb, loc, llvm::map_to_vector(results, [&](Value v) {
                           return map.lookup(v);
                         }));
  }
  for (auto [result, replacement] : llvm::zip(results, branch.getResults()))
    result.replaceUsesWithIf(replacement, [&](OpOperand &use) {
      return use.getOwner() == terminator;
    });
  for (Operation *op : llvm::reverse(tail))
    op->erase();
  return copies;
}

struct HKUnswitchLoopsPass
    : public hk::impl::HKUnswitchLoopsBase<HKUnswitchLoopsPass> {
  using HKUnswitchLoopsBase::HKUnswitchLoopsBase;

  void runOnOperation() override {
    getOperation()->walk([&](FunctionOpInterface function) {
      if (function.isExternal())
        return;
      // The last loop with an invariant branch: versioning an earlier one
      // would copy the later ones too, and the copies would multiply.
      WaveUniformity uniformity;
      SmallVector<scf::ForOp> loops(
          function.getFunctionBody().front().getOps<scf::ForOp>());
      for (scf::ForOp loop : llvm::reverse(loops))
        if (findInvariantCondition(loop, uniformity))
          return unswitch(function, loop, uniformity);
    });
  }

  /// Versions `loop` on its invariant conditions, one after the other,
  /// while its copies number at most maxCopies.
  void unswitch(FunctionOpInterface function, scf::ForOp loop,
                WaveUniformity &uniformity) {
    SmallVector<scf::ForOp> copies = {loop};
    llvm::SmallPtrSet<Value, 4> taken;
    while (copies.size() * 2 <= maxCopies) {
      // The next condition: the first one some copy still branches on.
      Value condition;
      for (scf::ForOp copy : copies)
        if ((condition = findInvariantCondition(copy, uniformity)))
          break;
      if (!condition || !taken.insert(condition).second)
        break;
      SmallVector<scf::ForOp> next;
      for (scf::ForOp copy : copies) {
        if (!anyBranch(copy, [&](scf::IfOp branch) {
              return branch.getCondition() == condition;
            })) {
          next.push_back(copy);
          continue;
        }
        std::optional<std::array<scf::ForOp, 2>> versions =
            versionTail(copy, condition);
        if (!versions)
          return;
        next.append(versions->begin(), versions->end());
      }
      copies = std::move(next);
      foldKnownBranches(function);
    }
    if (copies.size() > 1)
      for (scf::ForOp copy : copies)
        hoistInvariantReads(copy);
  }

  /// Moves the `rocdl.readfirstlane` ops at the top level of `loop`'s body
  /// whose operand the loop does not change (the buffer resources' bases,
  /// once under the branches now folded) before it. The same lanes run
  /// there as in the body, since the loop lies at the top level of the
  /// function or of uniform branches; LLVM keeps the op in the loop, not
  /// knowing that.
  static void hoistInvariantReads(scf::ForOp loop) {
    for (Operation &op :
         llvm::make_early_inc_range(loop.getBody()->without_terminator()))
      if (auto read = dyn_cast<ROCDL::ReadfirstlaneOp>(op);
          read && loop.isDefinedOutsideOfLoop(read.getSrc()))
        read->moveBefore(loop);
  }

  /// Inlines the branches on the conditions the copies know. A branch
  /// left (the rewriting stopping short of a fixed point) is still right,
  /// only slower.
  static void foldKnownBranches(Operation *op) {
    MLIRContext *context = op->getContext();
    RewritePatternSet patterns(context);
    scf::IfOp::getCanonicalizationPatterns(patterns, context);
    (void)applyPatternsGreedily(op, std::move(patterns));
  }
};

} // namespace
