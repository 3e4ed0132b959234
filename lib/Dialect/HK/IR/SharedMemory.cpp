//===- SharedMemory.cpp - Where each hk.alloc lives in LDS ----------------===//
//
// Live ranges are counted in ops of the kernel body: an allocation is live
// from its hk.alloc to the last body op that holds a use of it, or of a
// value it flows into through scf.for iter_args, scf.yield, hk.yield and the
// results of scf.for, scf.if and hk.cluster. Any other op with regions that
// takes a shared tile keeps it live for the whole kernel. Allocations are
// placed in program order, each at the lowest 16-byte-aligned offset where
// it overlaps no earlier allocation it cannot share bytes with (one live
// only before a fence, a token-less hk.wait with a block-wide barrier or
// an `hk.wait fence`, and one live only after it can); without fences that
// is the plain sum.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/IR/SharedMemory.h"

#include "hk/Dialect/HK/IR/HKOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace hk;

namespace {

constexpr int64_t kAlignment = 16;

/// A placed or planned allocation and the body ops it is live over.
struct Interval {
  int64_t bytes;
  int64_t first, last;
  Operation *alloc; ///< Null for a planned allocation.
};

class LiveRanges {
public:
  explicit LiveRanges(Block &body) : body(body) {
    for (auto [i, op] : llvm::enumerate(body))
      position[&op] = int64_t(i);
    // A fence: a token-less wait directly followed by a block-wide barrier,
    // or a ping-pong loop's `hk.wait fence`.
    for (Operation &op : body) {
      auto wait = dyn_cast<WaitOp>(&op);
      if (!wait || !wait.getTokens().empty())
        continue;
      if (wait.getFence()) {
        fences.push_back(position[wait]);
        continue;
      }
      auto barrier = dyn_cast_if_present<BarrierOp>(op.getNextNode());
      if (barrier && !barrier.getGroup() && !barrier.getReadsInFlight())
        fences.push_back(position[barrier]);
    }
  }

  /// The index of the body op holding `op`.
  int64_t at(Operation *op) const {
    return position.lookup(body.findAncestorOpInBlock(*op));
  }

  Interval of(AllocOp alloc) const {
    int64_t first = at(alloc), last = first;
    SmallVector<Value> worklist{alloc.getResult()};
    DenseSet<Value> seen;
    auto flow = [&](Value v) { worklist.push_back(v); };
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        int64_t where = at(user);
        first = std::min(first, where);
        last = std::max(last, where);
        unsigned i = use.getOperandNumber();
        if (auto loop = dyn_cast<scf::ForOp>(user)) {
          if (i >= loop.getNumControlOperands()) {
            i -= loop.getNumControlOperands();
            flow(loop.getRegionIterArgs()[i]);
            flow(loop.getResult(i));
          }
        } else if (isa<scf::YieldOp, YieldOp>(user)) {
          Operation *parent = user->getParentOp();
          if (auto loop = dyn_cast<scf::ForOp>(parent)) {
            flow(loop.getRegionIterArgs()[i]);
            flow(loop.getResult(i));
          } else if (isa<scf::IfOp, ClusterOp>(parent)) {
            flow(parent->getResult(i));
          } else {
            return wholeKernel(alloc);
          }
        } else if (user->getNumRegions() != 0) {
          return wholeKernel(alloc);
        }
      }
    }
    return {getAllocationBytes(alloc), first, last, alloc};
  }

  /// Whether a fence lies between `a` and `b`, either way round.
  bool separated(const Interval &a, const Interval &b) const {
    return llvm::any_of(fences, [&](int64_t fence) {
      return (a.last < fence && fence < b.first) ||
             (b.last < fence && fence < a.first);
    });
  }

private:
  Interval wholeKernel(AllocOp alloc) const {
    return {getAllocationBytes(alloc), 0, std::numeric_limits<int64_t>::max(),
            alloc};
  }

  Block &body;
  DenseMap<Operation *, int64_t> position;
  SmallVector<int64_t> fences;
};

} // namespace

int64_t hk::getAllocationBytes(AllocOp alloc) {
  Type type = alloc.getType();
  if (auto tile = dyn_cast<SharedTileType>(type))
    return tile.getSizeInBytes();
  return cast<SharedVectorType>(type).getSizeInBytes();
}

SharedMemoryLayout hk::layoutSharedMemory(KernelOp kernel,
                                          ArrayRef<PlannedAllocation> planned) {
  Block &body = kernel.getBody().front();
  LiveRanges ranges(body);
  SmallVector<Interval> intervals;
  kernel.walk([&](AllocOp alloc) { intervals.push_back(ranges.of(alloc)); });
  for (const PlannedAllocation &p : planned) {
    int64_t where = ranges.at(p.user);
    intervals.push_back({p.bytes, where, where, nullptr});
  }

  SharedMemoryLayout layout;
  SmallVector<std::pair<int64_t, int64_t>> placed; // [begin, end) per interval
  for (auto [i, interval] : llvm::enumerate(intervals)) {
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (size_t j = 0; j < i; ++j)
      if (!ranges.separated(interval, intervals[j]))
        taken.push_back(placed[j]);
    llvm::sort(taken);
    int64_t offset = 0;
    for (auto [begin, end] : taken) {
      if (offset + interval.bytes <= begin)
        break;
      offset = std::max<int64_t>(offset, llvm::alignTo(end, kAlignment));
    }
    placed.push_back({offset, offset + interval.bytes});
    layout.bytes = std::max(layout.bytes, offset + interval.bytes);
    if (interval.alloc)
      layout.offsets[interval.alloc] = offset;
  }
  return layout;
}
