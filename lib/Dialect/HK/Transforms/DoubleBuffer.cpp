//===- DoubleBuffer.cpp - Software pipelining of a plain main loop --------===//
//
// hk-double-buffer turns the plain main loop of a scheduled kernel (load
// shared tiles with synchronous group loads, read them, compute, with
// barriers around) into a software-pipelined loop made of hk.cluster ops:
// each loaded shared tile gets a spare buffer, the first tile is loaded
// before the loop, and iteration k prefetches tile k+1 into the spare
// buffer with asynchronous group loads while it computes on tile k; the
// buffers swap through the loop's iter_args. The iteration ends by waiting
// for the prefetch and a barrier, so the result is correct on its own;
// hk-ping-pong and hk-interleave then schedule the clusters.
//
// Where the prefetch goes is the schedule's: for ping-pong, the body is
// split into alternating memory clusters (runs of shared-tile reads) and
// compute clusters (runs of register computation), and the first memory
// cluster issues the prefetch from wave group 0 alone, after its reads; the
// wait follows the last compute cluster, outside it, so that it cannot be
// scheduled among its MFMAs. Where the cost function says so, a memory
// cluster also runs the vector work of its compute cluster that needs
// nothing of its pair (attention's softmax), beside the other group's
// MFMAs. For interleave, the reads and the computation
// form one compute cluster in versions: when the next tiles exist and lie
// wholly inside their views, the prefetch is a branch-free `inbounds` group
// load in the cluster, where LLVM can interleave it with the MFMAs;
// otherwise the guarded prefetch with its edge path comes first.
//
// A schedule's `stages` = N > 2 makes the buffers a ring of N copies:
// tiles 0 to N-2 are loaded before the loop, iteration k prefetches tile
// k+N-1 into the copy tile k-1 used, and it ends waiting for tile k+1's
// loads only (tokens the loop carries), leaving the later tiles in flight.
//
// For both schedules, whether the loop's tiles all lie inside their views
// is decided once, before the loop, when each load's indices grow with the
// induction variable (so the first and the last iteration's tiles bound
// all others): if those are inside, the prefetch is an `inbounds` group
// load of tile min(k+1, last), with no bounds arithmetic and no edge path,
// chosen by one uniform branch on that loop-invariant flag. The last
// iteration loads the last tile once more into the spare buffer, which
// nothing reads again. Otherwise ping-pong's prefetch is guarded, and
// interleave's chooses per iteration, as above (a ragged last tile keeps
// the branch-free prefetch up to the tile before it); so does an
// interleave body whose reads follow its prefetch (attention's), whose
// whole cluster is versioned. The body stays one here, for hk-ping-pong
// and hk-interleave to schedule; after lowering, hk-unswitch-loops gives
// each value of the flag its own copy of the loop.
//
//===----------------------------------------------------------------------===//

#include "MainLoop.h"
#include "ScheduleCost.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/SharedMemory.h"
#include "hk/Dialect/HK/Transforms/Passes.h"
#include "hk/Timing/DeviceModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace hk {
#define GEN_PASS_DEF_HKDOUBLEBUFFER
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

bool holdsRegisters(Operation *op) {
  return llvm::any_of(op->getResultTypes(), [](Type type) {
    return isa<RegisterTileType, RegisterVectorType>(type);
  });
}

/// How one run of body ops is scheduled.
enum class Role { Read, Compute };

struct Run {
  Role role;
  SmallVector<Operation *> ops;
};

/// The shared tiles a plain loop loads, its loads, and the rest of its body
/// in runs of reads and computation.
struct PlainLoop {
  SmallVector<GroupLoadOp> loads;
  SmallVector<Value> tiles;
  SmallVector<Run> runs;
  SmallVector<Operation *> scalars;
};

void appendToRun(SmallVector<Run> &runs, Role role, Operation *op) {
  if (runs.empty() || runs.back().role != role)
    runs.push_back({role, {}});
  runs.back().ops.push_back(op);
}

/// Ops of the loop body that `root`'s operands depend on, in body order.
void backwardSlice(Operation *root, scf::ForOp loop,
                   SmallVector<Operation *> &slice) {
  llvm::SetVector<Operation *> seen;
  SmallVector<Operation *> worklist = {root};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == loop.getBody() && seen.insert(def))
        worklist.push_back(def);
    }
  }
  slice.assign(seen.begin(), seen.end());
  llvm::sort(slice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
}

/// The indices of a pipelined load must be computable for another
/// iteration: from the induction variable and values from before the loop
/// only.
template <typename Fail>
LogicalResult checkIndices(GroupLoadOp load, scf::ForOp loop, Fail fail) {
  SmallVector<Operation *> slice;
  backwardSlice(load, loop, slice);
  auto badOperand = [&](Operation *op) {
    return llvm::any_of(op->getOperands(), [&](Value v) {
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner() == loop.getBody() &&
             arg != loop.getInductionVar();
    });
  };
  if (badOperand(load))
    return fail(load, "its indices depend on a loop-carried value");
  for (Operation *op : slice)
    if (badOperand(op) || !isMemoryEffectFree(op))
      return fail(load, "its indices depend on a loop-carried value or "
                        "on memory");
  return success();
}

/// Checks that `loop` is one this pass knows how to pipeline and sorts its
/// body into `plain`.
LogicalResult analyze(scf::ForOp loop, PlainLoop &plain) {
  Block *body = loop.getBody();
  auto unsupported = [&](Operation *op, const Twine &why) {
    return op->emitOpError()
           << "cannot be software-pipelined by hk-double-buffer: " << why
           << ". A plain main loop loads its shared tiles with synchronous "
              "hk.group_load, reads them with hk.load and computes on "
              "registers; write hk.cluster ops to schedule anything else "
              "by hand";
  };
  bool readSeen = false;
  for (Operation &op : body->without_terminator()) {
    if (auto load = dyn_cast<GroupLoadOp>(op)) {
      if (load.getAsync() || load.getWaves() || load.getPath())
        return unsupported(load, "the load is async or pins its waves or "
                                 "path");
      if (readSeen)
        return unsupported(load, "a tile is loaded after the loop started "
                                 "reading its shared tiles");
      Value tile = load.getDest();
      if (!tile.getDefiningOp<AllocOp>() || !loop.isDefinedOutsideOfLoop(tile))
        return unsupported(load, "its shared tile is not an hk.alloc made "
                                 "before the loop");
      if (llvm::is_contained(plain.tiles, tile))
        return unsupported(load, "the loop loads this shared tile twice");
      for (Operation *user : tile.getUsers())
        if (!loop->isAncestor(user))
          return unsupported(user, "the shared tile is used outside the "
                                   "main loop");
      if (failed(checkIndices(load, loop, unsupported)))
        return failure();
      plain.loads.push_back(load);
      plain.tiles.push_back(tile);
      continue;
    }
    if (auto barrier = dyn_cast<BarrierOp>(op)) {
      if (barrier.getGroup())
        return unsupported(barrier, "it is a wave-group barrier");
      continue;
    }
    if (isa<PriorityOp>(op)) {
      // Goes with the computation around it, in place.
      appendToRun(plain.runs, Role::Compute, &op);
      continue;
    }
    if (auto read = dyn_cast<LoadOp>(op)) {
      if (!llvm::is_contained(plain.tiles, read.getSource()))
        return unsupported(read, "it reads memory other than a shared tile "
                                 "the loop loads");
      readSeen = true;
      appendToRun(plain.runs, Role::Read, read);
      continue;
    }
    if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
      return unsupported(&op, "it accesses memory or has regions");
    if (holdsRegisters(&op))
      appendToRun(plain.runs, Role::Compute, &op);
    else
      plain.scalars.push_back(&op);
  }
  if (plain.loads.empty())
    return loop.emitOpError() << "is the main loop of a scheduled kernel "
                                 "but loads no shared tile with "
                                 "hk.group_load; nothing to pipeline";
  if (plain.runs.empty() || plain.runs.front().role != Role::Read ||
      plain.runs.back().role != Role::Compute)
    return loop.emitOpError()
           << "cannot be scheduled: its body must read shared tiles "
              "first and end with the computation on them";
  return success();
}

//===----------------------------------------------------------------------===//
// Ping-pong: memory/compute cluster pairs per iteration
//===----------------------------------------------------------------------===//

/// VGPRs the estimate leaves for what it does not see: addresses, masks,
/// the prefetch's offsets, the softmax's temporaries. The example ping-pong
/// kernels compile to 14 to 64 VGPRs more than the estimate:
/// gemm_pingpong_k32 190 (gfx942) and 240 (gfx950) against 176,
/// gemm_pingpong_k64 216 against 176 and, with its two halves joined, 264
/// against 224 (it spills), attention_fwd_pingpong with K's and V's
/// fragments joined 144 (gfx950) and 170 (gfx942) against 118,
/// gemm_abt_fp8_pingpong 256 (gfx950, all there is) and, joined, 244
/// (gfx942) against 192. 64 covers them all.
constexpr int64_t kVgprReserve = 64;

/// Whether `op` of a compute run stays in its compute cluster: an MFMA, a
/// layout conversion (a round trip through the wave's LDS scratch, which
/// memory clusters keep to shared-tile reads) or a priority change.
bool pinnedToCompute(Operation *op) {
  return isa<MmaOp, ConvertLayoutOp, PriorityOp>(op);
}

/// For each op of `plain`'s runs that a memory cluster could run instead
/// of its compute cluster, the last pair (read run 2i and compute run
/// 2i + 1 form pair i) whose reads, or ops pinned to its compute cluster,
/// it depends on within the iteration; -1 when it depends on none. Ops
/// that read no register value (a zeroed accumulator, which LLVM folds
/// into its MFMA's inline constant; a filled tile) stay where they are, as
/// do the pinned ones: they are left out.
DenseMap<Operation *, int> movableVectorWork(const PlainLoop &plain) {
  DenseMap<Operation *, int> needed, movable;
  for (auto [index, run] : llvm::enumerate(plain.runs)) {
    int pair = int(index / 2);
    for (Operation *op : run.ops) {
      bool pinned = run.role == Role::Read || pinnedToCompute(op);
      int last = pinned ? pair : -1;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (auto it = needed.find(def); it != needed.end())
            last = std::max(last, it->second);
      needed[op] = last;
      bool readsRegisters = llvm::any_of(op->getOperandTypes(), [](Type type) {
        return isa<RegisterTileType, RegisterVectorType>(type);
      });
      if (!pinned && readsRegisters)
        movable[op] = last;
    }
  }
  return movable;
}

/// Whether `op` of a compute run moves into the memory cluster of a
/// cluster pair starting at pair `first`: it is movable and needs nothing
/// of that pair or later ones.
bool movesInto(const DenseMap<Operation *, int> &movable, Operation *op,
               size_t first) {
  auto last = movable.find(op);
  return last != movable.end() && last->second < int(first);
}

/// What read run 2i and compute run 2i + 1 of `plain` cost, per wave.
SmallVector<PingPongPair> countPairs(const PlainLoop &plain,
                                     const DenseMap<Operation *, int> &movable,
                                     const ChipInfo &chip,
                                     const timing::DeviceModel &device) {
  int64_t lanes = chip.waveSize;
  SmallVector<PingPongPair> pairs;
  for (size_t i = 0; i + 1 < plain.runs.size(); i += 2) {
    PingPongPair &pair = pairs.emplace_back();
    pair.movableValuCycles.assign(i / 2 + 1, 0);
    for (Operation *op : plain.runs[i].ops) {
      auto tile = cast<RegisterTileType>(cast<LoadOp>(op).getType());
      pair.fragmentVgprs += vgprsOf(tile, lanes);
      pair.dsReads += countLdsReads(tile, lanes);
    }
    VectorWork vector;
    for (Operation *op : plain.runs[i + 1].ops) {
      // The MFMAs accumulate in place: their result is not a new value.
      if (auto mma = dyn_cast<MmaOp>(op); mma && mma.getInstr()) {
        pair.mfmas += countMfmas(mma);
        if (const MfmaInstr *instr = getMfmaInstr(chip, mma))
          pair.mfmaCycles = device.mfmaCycles(*instr);
      }
      vector.add(op, lanes);
      VectorWork own;
      own.add(op, lanes);
      for (size_t first = 0; first <= i / 2; ++first)
        if (movesInto(movable, op, first))
          pair.movableValuCycles[first] +=
              own.cycles(device.valuCycles, device.transCycles);
    }
    pair.tempVgprs = vector.largestVgprs;
    pair.valuCycles = vector.cycles(device.valuCycles, device.transCycles);
  }
  return pairs;
}

/// Register tiles the loop carries or reads from before it, per lane.
int64_t carriedVgprs(scf::ForOp loop, int64_t lanes) {
  int64_t vgprs = 0;
  for (Value arg : loop.getRegionIterArgs())
    vgprs += vgprsOf(arg.getType(), lanes);
  llvm::SetVector<Value> outside;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (loop.isDefinedOutsideOfLoop(operand))
        outside.insert(operand);
  });
  for (Value value : outside)
    vgprs += vgprsOf(value.getType(), lanes);
  return vgprs;
}

/// Cuts a ping-pong loop's runs into the memory/compute cluster pairs the
/// cost function (or the kernel's `clusters`) chooses: consecutive runs of
/// reads become one memory cluster, their computation one compute cluster.
/// The reads may move up past the computation between them: they read
/// shared tiles the iteration's computation does not write, at indices
/// computed before the clusters.
LogicalResult groupPingPongRuns(KernelOp kernel, scf::ForOp loop,
                                PlainLoop &plain, bool remarks) {
  auto schedule = cast<PingPongAttr>(kernel.getEffectiveSchedule());
  size_t written = plain.runs.size() / 2;
  std::optional<unsigned> clusters = schedule.getClusters();
  if (clusters && *clusters > written)
    return loop.emitOpError()
           << "cannot be cut into " << *clusters
           << " memory/compute cluster pairs (the kernel's #hk.pingpong "
              "clusters): its body has "
           << written << " run" << (written == 1 ? "" : "s")
           << " of shared-tile reads";
  if (clusters && written > kMaxGroupedRuns && *clusters != 1 &&
      *clusters != written)
    return loop.emitOpError()
           << "has " << written << " runs of shared-tile reads: past "
           << kMaxGroupedRuns
           << " its ping-pong clusters are either all joined (clusters = 1) "
              "or as written (clusters = "
           << written << "), not " << *clusters;
  // checkLdsFits has required the chip.
  const ChipInfo *chip = lookupTargetChip(kernel);
  if (!chip)
    return success();
  const timing::DeviceModel &device = timing::DeviceModel::defaultFor(*chip);
  DenseMap<Operation *, int> movable = movableVectorWork(plain);
  SmallVector<PingPongPair> pairs = countPairs(plain, movable, *chip, device);
  unsigned wavesPerSimd = std::max(1u, kernel.getWaves() / 4);
  PingPongCosts costs{ldsReadCycles(*chip),
                      device.ldsLatency,
                      device.barrierLatency,
                      kPingPongGroupWaves,
                      int64_t(device.vgprsPerSimdLane / wavesPerSimd),
                      kVgprReserve,
                      carriedVgprs(loop, chip->waveSize)};
  // A prefetch that cannot go direct to LDS (a transposing one, or a chip
  // without such loads; hk-buffer-loads' choice) is staged through
  // registers: group 0 waits for its loads before writing LDS. The tiles
  // are read by many blocks, so the wait is an L2 hit's latency.
  if (chip->maxDirectToLdsBytes() == 0 ||
      llvm::any_of(plain.loads,
                   [](GroupLoadOp load) { return load.getTranspose(); }))
    costs.stagedPrefetchCycles = device.l2.latency;
  std::optional<bool> vectorInMemory;
  if (BoolAttr given = schedule.getVectorInMemory())
    vectorInMemory = given.getValue();
  PingPongPlan plan = choosePingPong(pairs, costs, clusters, vectorInMemory);
  if (remarks) {
    PingPongPlan asWritten = PingPongPlan::asWritten(written);
    pingPongCycles(pairs, asWritten, costs);
    // The read runs of each pair, e.g. "{0, 1} {2}".
    std::string groups;
    for (auto [group, first] : llvm::enumerate(plan.first)) {
      size_t end = plan.end(group, written);
      groups += group ? " {" : "{";
      for (size_t i = first; i < end; ++i)
        groups += (i == first ? "" : ", ") + std::to_string(i);
      groups += "}";
    }
    loop.emitRemark() << "hk-double-buffer: " << plan.first.size()
                      << " memory/compute cluster pair"
                      << (plan.first.size() == 1 ? "" : "s")
                      << " per iteration, read runs " << groups << ", "
                      << int64_t(plan.cycles) << " cycles per iteration, "
                      << plan.vgprs << " of " << costs.vgprBudget
                      << " VGPRs estimated"
                      << (plan.fits ? "" : ", over the budget")
                      << (plan.vectorInMemory
                              ? ", " + std::to_string(plan.movedValuCycles) +
                                    " cycles of vector work in the memory "
                                    "clusters"
                              : std::string())
                      << " ("
                      << (clusters ? std::string("given")
                                   : "the cost function's best of " +
                                         std::to_string(plan.candidates))
                      << "; as written: " << int64_t(asWritten.cycles)
                      << " cycles, " << asWritten.vgprs << " VGPRs)";
  }
  SmallVector<Run> runs;
  for (auto [group, first] : llvm::enumerate(plan.first)) {
    size_t end = plan.end(group, written);
    Run reads{Role::Read, {}}, compute{Role::Compute, {}};
    for (size_t i = first; i < end; ++i)
      reads.ops.append(plain.runs[2 * i].ops);
    // The moved vector work follows the reads (and the prefetch), in body
    // order: it needs nothing of this pair.
    for (size_t i = first; i < end; ++i)
      for (Operation *op : plain.runs[2 * i + 1].ops) {
        bool moved = plan.vectorInMemory && movesInto(movable, op, first);
        (moved ? reads : compute).ops.push_back(op);
      }
    runs.push_back(std::move(reads));
    runs.push_back(std::move(compute));
  }
  plain.runs = std::move(runs);
  return success();
}

/// The spare buffers (`stages` - 1 per tile) must fit next to everything
/// else.
LogicalResult checkLdsFits(KernelOp kernel, scf::ForOp loop,
                           const PlainLoop &plain, unsigned stages) {
  const ChipInfo *chip = lookupTargetChip(kernel);
  if (!chip)
    return kernel.emitOpError() << "needs a target chip to check that "
                                   "double-buffered LDS fits; run "
                                   "hk-target first";
  // The spare buffers live over the loop.
  SmallVector<PlannedAllocation> spares;
  for (unsigned copy = 1; copy < stages; ++copy)
    for (Value tile : plain.tiles)
      spares.push_back(
          {cast<SharedTileType>(tile.getType()).getSizeInBytes(), loop});
  int64_t total = layoutSharedMemory(kernel, spares).bytes;
  if (total > chip->ldsBytesPerWorkgroup)
    return loop.emitOpError()
           << "needs " << total << " bytes of LDS once its "
           << plain.tiles.size() << " shared tile(s) have " << stages
           << " copies each, but " << chip->name << " has "
           << chip->ldsBytesPerWorkgroup
           << " per workgroup; use smaller tiles or fewer stages";
  return success();
}

/// The results of `ops` that other ops or `terminator` use.
SmallVector<Value> getEscapingValues(ArrayRef<Operation *> ops,
                                     Operation *terminator) {
  llvm::SmallPtrSet<Operation *, 16> inRun(ops.begin(), ops.end());
  SmallVector<Value> escaping;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inRun.contains(user) || user == terminator;
          }))
        escaping.push_back(result);
  return escaping;
}

/// A cluster holding clones of `ops` after what `prologue` builds (but for
/// the first `ahead` of them, cloned before it), yielding those of their
/// results that later ops or `terminator` use, then the values `prologue`
/// returns (of `extraTypes`); `map` then sends the former to the cluster's
/// results.
ClusterOp buildCluster(OpBuilder &b, Location loc, ClusterKind kind,
                       ArrayRef<Operation *> ops, Operation *terminator,
                       IRMapping &map, TypeRange extraTypes,
                       function_ref<SmallVector<Value>(OpBuilder &)> prologue,
                       size_t ahead = 0) {
  SmallVector<Value> escaping = getEscapingValues(ops, terminator);
  SmallVector<Type> types = llvm::to_vector(ValueRange(escaping).getTypes());
  types.append(extraTypes.begin(), extraTypes.end());
  auto cluster = ClusterOp::create(b, loc, types, kind, IntegerAttr());
  Block *block = new Block();
  cluster.getBody().push_back(block);
  OpBuilder cb = OpBuilder::atBlockBegin(block);
  for (Operation *op : ops.take_front(ahead))
    cb.clone(*op, map);
  SmallVector<Value> extras = prologue(cb);
  assert(extras.size() == extraTypes.size() && "extra values mismatch");
  for (Operation *op : ops.drop_front(ahead))
    cb.clone(*op, map);
  SmallVector<Value> yielded =
      llvm::map_to_vector(escaping, [&](Value v) { return map.lookup(v); });
  yielded.append(extras);
  YieldOp::create(cb, loc, yielded);
  for (auto [value, result] : llvm::zip(escaping, cluster.getResults()))
    map.map(value, result);
  return cluster;
}

/// Whether `value`, computed in `loop`'s body from its induction variable
/// and values from before the loop, never decreases as the induction
/// variable grows (the step is positive): sums, differences with a
/// loop-invariant subtrahend, products with a non-negative constant, and
/// signed minima and maxima of such values (a tile index clamped to the
/// first or the last tile).
bool growsWithInductionVar(Value value, scf::ForOp loop) {
  if (value == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != loop.getBody())
    return false;
  auto grows = [&](Value v) { return growsWithInductionVar(v, loop); };
  auto nonNegativeConstant = [](Value v) {
    APInt constant;
    return matchPattern(v, m_ConstantInt(&constant)) && !constant.isNegative();
  };
  if (isa<arith::ConstantOp>(def))
    return true;
  if (isa<arith::AddIOp, arith::MinSIOp, arith::MaxSIOp>(def))
    return llvm::all_of(def->getOperands(), grows);
  if (isa<arith::SubIOp>(def))
    return grows(def->getOperand(0)) &&
           loop.isDefinedOutsideOfLoop(def->getOperand(1));
  if (isa<arith::MulIOp>(def))
    return (nonNegativeConstant(def->getOperand(0)) &&
            grows(def->getOperand(1))) ||
           (nonNegativeConstant(def->getOperand(1)) &&
            grows(def->getOperand(0)));
  return false;
}

/// Rewrites one plain loop into its pipelined form.
class Pipeliner {
public:
  Pipeliner(KernelOp kernel, scf::ForOp loop, PlainLoop &plain, unsigned stages)
      : kernel(kernel), loop(loop), plain(plain), loc(loop.getLoc()),
        terminator(loop.getBody()->getTerminator()), stages(stages) {}

  void run() {
    // The copies after the current one: ring[1] holds tile k+1, ..., the
    // last one is free for the prefetch.
    SmallVector<SmallVector<Value>> copies;
    for (unsigned copy = 1; copy < stages; ++copy)
      copies.push_back(createSpareBuffers());
    OpBuilder b(loop);
    if (usesGlobalRegisterLoads())
      WaitOp::create(b, loc, ValueRange());
    // Prologue: the first tile, its loads all issued before one wait so
    // that their latencies overlap. With more than two stages the tiles up
    // to stages-2 follow at once and stay in flight over the wait for the
    // first. They are loaded even past the loop's end: the elements outside
    // the view arrive as zero, and nothing reads them. Every wave shares
    // the loads, except in ping-pong, where wave group 0 alone issues them,
    // as it does the prefetch. Each group-1 wave shares a SIMD with a
    // group-0 wave running the same setup, whose scalar instructions go
    // first; group 0 issuing all the loads puts the last of them out
    // sooner (the gfx950 fp8 ping-pong GEMM, 8192^3 on MI355X: 3300.5 to
    // 3304.2 TFLOP/s predicted; the other ping-pong GEMMs up to 0.05%
    // faster). In a ring, its wait in the loop is the one the barrier before
    // their first reads follows (group 1 waits a barrier later), and the
    // wait for the first tile, which every wave runs, can leave the later
    // tiles in flight (a group 1 wave, which issued none of them, would
    // need a drain).
    bool pingPong = isa<PingPongAttr>(kernel.getEffectiveSchedule());
    std::optional<uint32_t> loadingWaves;
    if (pingPong)
      loadingWaves = kernel.getWaves() / 2;
    SmallVector<Value> tokens;
    for (auto [load, tile] : llvm::zip(plain.loads, plain.tiles))
      tokens.push_back(cloneLoad(b, load, loop.getLowerBound(), tile,
                                 /*async=*/true, loadingWaves)
                           .getToken());
    SmallVector<SmallVector<Value>> aheadTokens;
    Value ahead = loop.getLowerBound();
    for (unsigned copy = 1; copy + 1 < stages; ++copy) {
      ahead = arith::AddIOp::create(b, loc, ahead, loop.getStep());
      SmallVector<Value> &copyTokens = aheadTokens.emplace_back();
      for (auto [load, dest] : llvm::zip(plain.loads, copies[copy - 1]))
        copyTokens.push_back(
            cloneLoad(b, load, ahead, dest, /*async=*/true, loadingWaves)
                .getToken());
    }
    WaitOp::create(b, loc, tokens);
    BarrierOp::create(b, loc, IntegerAttr());
    if (pingPong)
      buildSteadyStateCondition(b);
    else
      buildPrefetchBound(b);
    createLoop(b, copies, aheadTokens);

    if (pingPong)
      buildPingPongBody(b);
    else
      buildInterleaveBody(b);

    SmallVector<Value> yielded =
        llvm::map_to_vector(terminator->getOperands(),
                            [&](Value v) { return map.lookupOrDefault(v); });
    // The ring turns by one: tile k+1's buffers become the current ones,
    // each later tile's (the free ones, which tile k+stages-1 is loading
    // into, last) the one before, and tile k's the free ones; the tokens
    // move along with their tiles.
    for (unsigned copy = 1; copy < stages; ++copy)
      yielded.append(ring[copy]);
    yielded.append(ring[0]);
    for (unsigned copy = 1; copy < inFlight.size(); ++copy)
      yielded.append(inFlight[copy]);
    yielded.append(nextTokens);
    scf::YieldOp::create(b, loc, yielded);

    loop.replaceAllUsesWith(
        newLoop.getResults().take_front(loop.getInitArgs().size()));
    if (stages > 2) {
      // The last iterations' loads of tiles past the end may still be in
      // flight into the ring; nothing may reuse its bytes before they land.
      b.setInsertionPointAfter(newLoop);
      WaitOp::create(b, loc, ValueRange());
      BarrierOp::create(b, loc, IntegerAttr());
    }
    loop.erase();
  }

private:
  /// Whether the loop reads a register tile or vector loaded from global
  /// memory before it (attention's Q). Such a load is waited for before the
  /// prologue's group loads: LLVM's wait insertion cannot tell that the
  /// prologue's waits (past its edge versions) retired it, and would put a
  /// vmcnt wait before its first use in the loop, which every iteration
  /// then pays behind the prefetch in flight.
  bool usesGlobalRegisterLoads() {
    return loop
        .walk([&](Operation *op) {
          for (Value operand : op->getOperands()) {
            auto load = operand.getDefiningOp<LoadOp>();
            if (load && isa<GlobalViewType>(load.getSource().getType()) &&
                !loop->isAncestor(load))
              return WalkResult::interrupt();
          }
          return WalkResult::advance();
        })
        .wasInterrupted();
  }

  /// At `b`, before the loop: the last iteration's induction variable,
  /// lb + (ub - 1 - lb) / step * step (meaningful when lb < ub); null when
  /// some load's indices do not grow with the induction variable, so that
  /// where the tiles lie cannot be decided once from a few iterations.
  Value buildLastInductionVar(OpBuilder &b) {
    for (GroupLoadOp load : plain.loads)
      if (!llvm::all_of(load.getIndices(), [&](Value index) {
            return growsWithInductionVar(index, loop);
          }))
        return Value();
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
    Value step = loop.getStep();
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value span = arith::SubIOp::create(
        b, loc, arith::SubIOp::create(b, loc, ub, one), lb);
    Value steps = arith::DivUIOp::create(b, loc, span, step);
    return arith::AddIOp::create(b, loc, lb,
                                 arith::MulIOp::create(b, loc, steps, step));
  }

  /// `all` and, for every load and every induction variable in `ivs`,
  /// whether the load's tile there lies inside its view.
  Value andTilesInside(OpBuilder &b, ArrayRef<Value> ivs, Value all) {
    for (auto [load, tile] : llvm::zip(plain.loads, plain.tiles))
      for (Value iv : ivs)
        all = arith::AndIOp::create(
            b, loc, all,
            InBoundsOp::create(b, loc, load.getSource(),
                               cloneIndices(b, load, iv), tile,
                               load.getTransposeAttr()));
    return all;
  }

  /// At `b`, before the loop: `steady`, true at run time when every
  /// iteration's tiles lie inside their views, and `lastIv`, the last
  /// iteration's induction variable. Leaves both null when that cannot be
  /// decided once. Each index is monotonic in the induction variable, so a
  /// tile lies inside its view at every iteration when it does at the
  /// first (the lower bounds) and at the last (the upper bounds). Returns
  /// the first iteration's part of `steady`: the loop runs and its first
  /// tiles lie inside (null with `steady`).
  Value buildSteadyStateCondition(OpBuilder &b) {
    lastIv = buildLastInductionVar(b);
    if (!lastIv)
      return {};
    Value lb = loop.getLowerBound();
    Value nonEmpty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           lb, loop.getUpperBound());
    Value first = andTilesInside(b, lb, nonEmpty);
    steady = andTilesInside(b, lastIv, first);
    return first;
  }

  /// At `b`, before the loop: `prefetchBound`, the last induction
  /// variable whose tiles exist and lie inside their views, so that an
  /// iteration prefetching tile k + step takes the branch-free version
  /// when k + step <= prefetchBound, one comparison instead of a bounds
  /// check per load. Each index grows with the induction variable, so the
  /// tiles lie inside at every iteration up to one where they do, from the
  /// first on; the bound is the last iteration (when `steady`), or the one
  /// before (a ragged last tile), or below the first. Sets `steady` and
  /// `lastIv` (buildSteadyStateCondition); all three stay null when some
  /// load's indices do not grow with the induction variable.
  void buildPrefetchBound(OpBuilder &b) {
    Value first = buildSteadyStateCondition(b);
    if (!first)
      return;
    Value lb = loop.getLowerBound(), step = loop.getStep();
    Value beforeLast = arith::SubIOp::create(b, loc, lastIv, step);
    Value hasBeforeLast = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sle, lb, beforeLast);
    Value allButLastInside = andTilesInside(
        b, beforeLast, arith::AndIOp::create(b, loc, first, hasBeforeLast));
    Value none = arith::SubIOp::create(b, loc, lb, step);
    prefetchBound = arith::SelectOp::create(
        b, loc, steady, lastIv,
        arith::SelectOp::create(b, loc, allButLastInside, beforeLast, none));
  }

  SmallVector<Value> createSpareBuffers() {
    SmallVector<Value> spares;
    for (Value tile : plain.tiles) {
      auto alloc = tile.getDefiningOp<AllocOp>();
      OpBuilder ab(alloc);
      ab.setInsertionPointAfter(alloc);
      spares.push_back(AllocOp::create(ab, alloc.getLoc(), tile.getType()));
    }
    return spares;
  }

  /// The new loop carries the old loop's values, then the ring of buffers
  /// (the current tiles, the next ones, ..., the free ones: `copies` after
  /// the current ones), then the tokens of the tiles in flight (`ahead`,
  /// tile k+1's first); `b` ends at the start of its body, after the clones
  /// of the scalar ops.
  void createLoop(OpBuilder &b, ArrayRef<SmallVector<Value>> copies,
                  ArrayRef<SmallVector<Value>> ahead) {
    unsigned numCarried = loop.getInitArgs().size();
    unsigned numTiles = plain.tiles.size();
    SmallVector<Value> inits(loop.getInitArgs());
    inits.append(plain.tiles);
    for (ArrayRef<Value> copy : copies)
      inits.append(copy.begin(), copy.end());
    for (ArrayRef<Value> tokens : ahead)
      inits.append(tokens.begin(), tokens.end());
    newLoop = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                 loop.getUpperBound(), loop.getStep(), inits);
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    b.setInsertionPointToStart(newLoop.getBody());

    map.map(loop.getInductionVar(), newLoop.getInductionVar());
    for (unsigned i = 0; i < numCarried; ++i)
      map.map(loop.getRegionIterArgs()[i], newLoop.getRegionIterArgs()[i]);
    ValueRange args = newLoop.getRegionIterArgs().drop_front(numCarried);
    auto takeTiles = [&] {
      SmallVector<Value> values(args.take_front(numTiles));
      args = args.drop_front(numTiles);
      return values;
    };
    for (unsigned copy = 0; copy < stages; ++copy)
      ring.push_back(takeTiles());
    for (unsigned copy = 0; copy < ahead.size(); ++copy)
      inFlight.push_back(takeTiles());
    for (auto [tile, arg] : llvm::zip(plain.tiles, ring[0]))
      map.map(tile, arg);
    for (Operation *op : plain.scalars)
      b.clone(*op, map);
  }

  /// Alternating memory and compute clusters, one per run; the first
  /// memory cluster prefetches tile k+stages-1 from wave group 0, after its
  /// own reads (emitFencedPingPongPrefetch).
  void buildPingPongBody(OpBuilder &b) {
    std::optional<uint32_t> waves = kernel.getWaves() / 2;
    SmallVector<Type> tokenTypes;
    if (stages > 2)
      tokenTypes.assign(plain.loads.size(), TokenType::get(b.getContext()));
    for (const Run &run : plain.runs) {
      bool first = &run == &plain.runs.front();
      ClusterKind kind =
          run.role == Role::Read ? ClusterKind::Memory : ClusterKind::Compute;
      ClusterOp cluster = buildCluster(
          b, loc, kind, run.ops, terminator, map,
          first ? TypeRange(tokenTypes) : TypeRange(),
          [&](OpBuilder &cb) {
            if (first)
              return emitFencedPingPongPrefetch(cb, waves, tokenTypes);
            return SmallVector<Value>();
          },
          first ? size_t(llvm::count_if(run.ops, llvm::IsaPred<LoadOp>)) : 0);
      if (first)
        nextTokens = llvm::to_vector(
            ValueRange(cluster.getResults()).take_back(tokenTypes.size()));
    }
    // Group 0's prefetch of tile k+1 has landed before the barrier after
    // which everyone reads it. With two stages nothing else is in flight,
    // so draining is the exact wait; with more, the later tiles' loads
    // stay in flight.
    WaitOp::create(b, loc,
                   stages > 2 ? ValueRange(inFlight.front()) : ValueRange());
    BarrierOp::create(b, loc, IntegerAttr());
  }

  /// One compute cluster whose prefetch comes in two versions: branch-free
  /// when the next tiles exist and lie inside their views, guarded
  /// otherwise. When every shared-tile read of the body goes ahead of the
  /// prefetch (GEMMs), only the prefetch is versioned: with the whole
  /// cluster in two versions, the accumulators merged at the end of the
  /// branch and LLVM's register allocation gave the MFMAs' results other
  /// registers than their inputs, copying every accumulator back each
  /// iteration (128 `v_mov_b32` per iteration of the gfx950 fp8 interleave
  /// GEMM). Otherwise the cluster is (versionWholeCluster, which
  /// hk-interleave and hk-buffer-loads use too). With three stages the
  /// prefetched tile is k+2, into the free buffers, and the iteration ends
  /// waiting for tile k+1 only; the guarded version loads tile k+2 even past
  /// the end (into a buffer nothing reads: emitRingEdgePrefetch), so that both
  /// versions have its tokens.
  void buildInterleaveBody(OpBuilder &b) {
    SmallVector<Operation *> ops;
    for (const Run &run : plain.runs)
      ops.append(run.ops);
    Value next = prefetchedIv(b);
    ArrayRef<Value> dests = ring.back();
    SmallVector<SmallVector<Value>> nextIndices;
    Value interior;
    if (prefetchBound)
      interior = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, next,
                                       prefetchBound);
    else
      interior = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next,
                                       newLoop.getUpperBound());
    for (auto [load, dest] : llvm::zip(plain.loads, dests)) {
      SmallVector<Value> &indices =
          nextIndices.emplace_back(cloneIndices(b, load, next));
      if (prefetchBound)
        continue;
      Value inside = InBoundsOp::create(b, loc, load.getSource(), indices, dest,
                                        load.getTransposeAttr());
      interior = arith::AndIOp::create(b, loc, interior, inside);
    }
    SmallVector<Value> escaping = getEscapingValues(ops, terminator);
    // The body's first run of shared-tile reads (the analysis makes every
    // body start with one) goes out before the prefetch: they read tile k's
    // buffers, and the prefetch writes others (tile k+1's with two stages,
    // which the previous iteration's closing barrier freed; tile k+2's with
    // three), so the first MFMAs wait for their fragments, not for the
    // prefetch's address arithmetic and issue (the d128 attention's K
    // fragments).
    size_t ahead = plain.runs.front().ops.size();
    SmallVector<Type> tokenTypes;
    if (stages > 2)
      tokenTypes.assign(plain.loads.size(), TokenType::get(b.getContext()));
    bool wholeCluster = llvm::count_if(plain.runs, [](const Run &run) {
                          return run.role == Role::Read;
                        }) > 1;
    ClusterOp cluster = buildCluster(
        b, loc, ClusterKind::Compute, ops, terminator, map, tokenTypes,
        [&](OpBuilder &cb) {
          // A whole cluster in a steady-state version of its own was
          // predicted slower once unswitched (the gfx950 d128 attention at
          // N = 2048, MHA, MI355X: 1255.2 to 1227.6 TFLOP/s; the d64 one
          // and the gfx942 ones within 0.3%): it keeps the per-iteration
          // choice alone.
          if (wholeCluster)
            return emitChosenPrefetch(cb, interior, next, nextIndices, dests,
                                      tokenTypes);
          return emitVersionedPrefetch(cb, interior, next, nextIndices, dests,
                                       tokenTypes);
        },
        ahead);
    ValueRange results = cluster.getResults();
    if (wholeCluster) {
      // Reads follow the prefetch (attention's V): the whole cluster comes
      // in two versions. With only the prefetch versioned, the gfx942
      // attention kernels, which stage V through registers, were predicted
      // 22-32% slower (their staged writes no longer deferred), the gfx950
      // ones within 2.5% either way: not worth a different schedule.
      SmallVector<ClusterOp> versions =
          versionWholeCluster(cluster, findVersionedPrefetch(cluster));
      results = versions.front()->getParentOp()->getResults();
      for (auto [value, result] : llvm::zip(escaping, results))
        map.map(value, result);
    }
    if (stages > 2) {
      nextTokens.assign(results.begin() + escaping.size(), results.end());
      // Tile k+1 has landed everywhere after the barrier, and every wave is
      // done reading tile k, whose buffers the next iteration fills.
      WaitOp::create(b, loc, inFlight.front());
    } else {
      WaitOp::create(b, loc, ValueRange());
    }
    BarrierOp::create(b, loc, IntegerAttr());
  }

  /// The interleave body's prefetch: where every iteration's tiles lie
  /// inside their views (`steady`, decided before the loop), tile
  /// min(next, last), branch-free, as ping-pong's; otherwise, or where that
  /// is not decided once, both versions chosen per iteration by
  /// `interior`. The steady flag's branch is the outer one, so that
  /// hk-unswitch-loops gives the steady state a loop of its own, without
  /// the per-iteration comparison; a ragged last tile or a block across
  /// its view's edge keeps the per-iteration choice, which prefetches
  /// branch-free up to the last tile inside. Returns the tokens (of
  /// `tokenTypes`: with three stages) of the version that ran.
  SmallVector<Value> emitVersionedPrefetch(OpBuilder &b, Value interior,
                                           Value next,
                                           ArrayRef<SmallVector<Value>> indices,
                                           ArrayRef<Value> dests,
                                           TypeRange tokenTypes) {
    if (!steady)
      return emitChosenPrefetch(b, interior, next, indices, dests, tokenTypes);
    return emitSteadyChoice(
        b, tokenTypes, std::nullopt, [&](OpBuilder &) { return next; },
        [&](OpBuilder &eb) {
          return emitChosenPrefetch(eb, interior, next, indices, dests,
                                    tokenTypes);
        });
  }

  /// One uniform branch on the loop-invariant `steady` flag: where it
  /// holds, tile min(next, last) into the free buffers, `inbounds`, issued
  /// by `waves` (every wave when none), with `next` built at the start of
  /// that branch; otherwise what `otherwise` builds in the else branch.
  /// Returns the tokens (of `tokenTypes`: with more than two stages) of the
  /// branch that ran.
  SmallVector<Value>
  emitSteadyChoice(OpBuilder &b, TypeRange tokenTypes,
                   std::optional<uint32_t> waves,
                   function_ref<Value(OpBuilder &)> next,
                   function_ref<SmallVector<Value>(OpBuilder &)> otherwise) {
    auto choice =
        scf::IfOp::create(b, loc, tokenTypes, steady, /*withElseRegion=*/true);
    // Without results the branches already end in their yields.
    OpBuilder tb = OpBuilder::atBlockBegin(choice.thenBlock());
    Value clamped = arith::MinSIOp::create(tb, loc, next(tb), lastIv);
    SmallVector<Value> tokens;
    for (auto [load, dest] : llvm::zip(plain.loads, ring.back()))
      tokens.push_back(createLoad(tb, load, cloneIndices(tb, load, clamped),
                                  dest, /*async=*/true, waves,
                                  /*inbounds=*/true)
                           .getToken());
    OpBuilder eb = OpBuilder::atBlockBegin(choice.elseBlock());
    SmallVector<Value> other = otherwise(eb);
    if (!tokenTypes.empty()) {
      scf::YieldOp::create(tb, loc, tokens);
      scf::YieldOp::create(eb, loc, other);
    }
    return SmallVector<Value>(choice.getResults());
  }

  /// The interleave prefetch in both versions, chosen by `interior`.
  SmallVector<Value> emitChosenPrefetch(OpBuilder &b, Value interior,
                                        Value next,
                                        ArrayRef<SmallVector<Value>> indices,
                                        ArrayRef<Value> dests,
                                        TypeRange tokenTypes) {
    auto version = scf::IfOp::create(b, loc, tokenTypes, interior,
                                     /*withElseRegion=*/true);
    for (bool inbounds : {true, false}) {
      Block *block = inbounds ? version.thenBlock() : version.elseBlock();
      // Without results the branches already end in their yields.
      if (tokenTypes.empty()) {
        OpBuilder vb = OpBuilder::atBlockTerminator(block);
        emitInterleavePrefetch(vb, inbounds, next, indices, dests);
        continue;
      }
      OpBuilder vb = OpBuilder::atBlockBegin(block);
      scf::YieldOp::create(
          vb, loc, emitInterleavePrefetch(vb, inbounds, next, indices, dests));
    }
    return version.getResults();
  }

  /// The interleave body's prefetch of tile `next` (at `indices`, into
  /// `dests`): `inbounds` (the tiles lie inside their views) or guarded.
  /// Returns the loads' tokens with three stages.
  SmallVector<Value>
  emitInterleavePrefetch(OpBuilder &b, bool inbounds, Value next,
                         ArrayRef<SmallVector<Value>> indices,
                         ArrayRef<Value> dests) {
    SmallVector<Value> tokens;
    if (!inbounds && stages == 2) {
      emitGuardedPrefetch(b, std::nullopt);
      return tokens;
    }
    if (!inbounds && prefetchBound)
      return emitRingEdgePrefetch(b, next, indices);
    for (auto [load, loadIndices, dest] :
         llvm::zip(plain.loads, indices, dests)) {
      GroupLoadOp copy = createLoad(b, load, loadIndices, dest, /*async=*/true,
                                    std::nullopt, /*inbounds=*/inbounds);
      if (stages > 2)
        tokens.push_back(copy.getToken());
    }
    return tokens;
  }

  /// The ring's prefetch of tile `next` (at `indices`) where it does not lie
  /// inside its view: with the edge path where it exists; past the end,
  /// where it would only fill a buffer nothing reads, the last tile inside
  /// (at loop-invariant indices) again, branch-free, when there is one.
  /// Returns the loads' tokens.
  SmallVector<Value>
  emitRingEdgePrefetch(OpBuilder &b, Value next,
                       ArrayRef<SmallVector<Value>> indices) {
    Value lb = newLoop.getLowerBound();
    Value past = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, next,
                              newLoop.getUpperBound()),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, prefetchBound,
                              lb));
    SmallVector<Type> tokenTypes(plain.loads.size(),
                                 TokenType::get(b.getContext()));
    auto choice = scf::IfOp::create(b, loc, tokenTypes, past,
                                    /*withElseRegion=*/true);
    auto emit = [&](Block *block, bool again) {
      OpBuilder vb = OpBuilder::atBlockBegin(block);
      SmallVector<Value> tokens;
      for (auto [load, at, dest] :
           llvm::zip(plain.loads, indices, ring.back())) {
        SmallVector<Value> where =
            again ? cloneIndices(vb, load, prefetchBound) : at;
        tokens.push_back(createLoad(vb, load, where, dest, /*async=*/true,
                                    std::nullopt, /*inbounds=*/again)
                             .getToken());
      }
      scf::YieldOp::create(vb, loc, tokens);
    };
    emit(choice.thenBlock(), /*again=*/true);
    emit(choice.elseBlock(), /*again=*/false);
    return SmallVector<Value>(choice.getResults());
  }

  /// The ping-pong prefetch in a cluster of its own, nested in the first
  /// memory cluster after that cluster's reads. The reads come first
  /// because the compute cluster after them waits for them, while the
  /// prefetch has a whole iteration to land; the nested cluster's fences
  /// keep LLVM's scheduler, which issues long-latency loads as early as it
  /// can, from hoisting the prefetch back above them. On the gfx950 fp8
  /// ping-pong GEMM (8192^3, MI355X) that moved each workgroup's first MFMA
  /// about 200 cycles earlier, and the prediction from 3284.3 to 3300.5
  /// TFLOP/s.
  SmallVector<Value> emitFencedPingPongPrefetch(OpBuilder &b,
                                                std::optional<uint32_t> waves,
                                                TypeRange tokenTypes) {
    ClusterOp cluster =
        buildCluster(b, loc, ClusterKind::Memory, /*ops=*/{}, terminator, map,
                     tokenTypes, [&](OpBuilder &cb) {
                       return emitPingPongPrefetch(cb, waves, tokenTypes);
                     });
    return llvm::to_vector(ValueRange(cluster.getResults()));
  }

  /// Ping-pong's prefetch of tile k+stages-1 into the free buffers: where
  /// the loop's tiles all lie inside their views, tile min(k+stages-1,
  /// last), `inbounds`; otherwise guarded, with edge paths. Returns the
  /// loads' tokens (of `tokenTypes`: with more than two stages).
  SmallVector<Value> emitPingPongPrefetch(OpBuilder &b,
                                          std::optional<uint32_t> waves,
                                          TypeRange tokenTypes) {
    if (!steady)
      return emitGuardedPrefetch(b, waves);
    return emitSteadyChoice(
        b, tokenTypes, waves, [&](OpBuilder &tb) { return prefetchedIv(tb); },
        [&](OpBuilder &eb) { return emitGuardedPrefetch(eb, waves); });
  }

  /// The induction variable of the tile iteration k prefetches, k +
  /// (stages - 1) * step.
  Value prefetchedIv(OpBuilder &b) {
    Value distance = newLoop.getStep();
    for (unsigned copy = 2; copy < stages; ++copy)
      distance = arith::AddIOp::create(b, loc, distance, newLoop.getStep());
    return arith::AddIOp::create(b, loc, newLoop.getInductionVar(), distance);
  }

  /// Tile k+stages-1 into the free buffers, with edge paths. With two
  /// stages only while it exists; with more it is loaded past the end too
  /// (its elements arrive as zero, into buffers nothing reads), so that
  /// every iteration has its tokens, which it returns.
  SmallVector<Value> emitGuardedPrefetch(OpBuilder &b,
                                         std::optional<uint32_t> waves) {
    Value next = prefetchedIv(b);
    SmallVector<Value> tokens;
    if (stages > 2) {
      for (auto [load, dest] : llvm::zip(plain.loads, ring.back()))
        tokens.push_back(
            cloneLoad(b, load, next, dest, /*async=*/true, waves).getToken());
      return tokens;
    }
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          next, newLoop.getUpperBound());
    auto guard = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
    OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
    for (auto [load, dest] : llvm::zip(plain.loads, ring.back()))
      cloneLoad(gb, load, next, dest, /*async=*/true, waves);
    return tokens;
  }

  /// The indices of `load` for the iteration whose induction variable is
  /// `iv`, cloning what they are computed from.
  SmallVector<Value> cloneIndices(OpBuilder &b, GroupLoadOp load, Value iv) {
    SmallVector<Operation *> slice;
    backwardSlice(load, loop, slice);
    IRMapping indexMap;
    indexMap.map(loop.getInductionVar(), iv);
    for (Operation *op : slice)
      b.clone(*op, indexMap);
    return llvm::map_to_vector(load.getIndices(), [&](Value v) {
      return indexMap.lookupOrDefault(v);
    });
  }

  /// Clones `load` for the iteration whose induction variable is `iv`,
  /// writing `dest`.
  GroupLoadOp cloneLoad(OpBuilder &b, GroupLoadOp load, Value iv, Value dest,
                        bool async, std::optional<uint32_t> waves) {
    return createLoad(b, load, cloneIndices(b, load, iv), dest, async, waves,
                      /*inbounds=*/false);
  }

  /// A copy of `load` at `indices` into `dest`.
  static GroupLoadOp createLoad(OpBuilder &b, GroupLoadOp load,
                                ValueRange indices, Value dest, bool async,
                                std::optional<uint32_t> waves, bool inbounds) {
    Type token = async ? TokenType::get(b.getContext()) : Type();
    return GroupLoadOp::create(
        b, load.getLoc(), token, async ? b.getUnitAttr() : UnitAttr(),
        load.getSource(), indices, dest, load.getTransposeAttr(),
        inbounds ? b.getUnitAttr() : UnitAttr(),
        waves ? b.getI32IntegerAttr(*waves) : IntegerAttr(),
        TransferPathAttr());
  }

  KernelOp kernel;
  scf::ForOp loop;
  PlainLoop &plain;
  Location loc;
  Operation *terminator;
  unsigned stages;
  scf::ForOp newLoop;
  IRMapping map;
  // The loop's buffers: ring[0] holds tile k, ring[i] tile k+i, and the
  // last copy is free for the prefetch; with more than two stages
  // inFlight[i] are the tokens of tile k+1+i's loads (loop arguments) and
  // nextTokens those of the prefetch (issued in the body).
  SmallVector<SmallVector<Value>> ring, inFlight;
  SmallVector<Value> nextTokens;
  // Every iteration's tiles lie inside their views (a flag computed before
  // the loop), and the last iteration's induction variable; null where that
  // is not decided once.
  Value steady, lastIv;
  // Interleave: the last induction variable whose tiles lie inside their
  // views (below the first when none do); null where that is not decided
  // once.
  Value prefetchBound;
};

class DoubleBufferPass : public hk::impl::HKDoubleBufferBase<DoubleBufferPass> {
public:
  using HKDoubleBufferBase::HKDoubleBufferBase;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getEffectiveSchedule() || hasWaveGroupBarriers(kernel) ||
          hasInstructionGroups(kernel))
        return WalkResult::advance();
      return failed(pipelineKernel(kernel)) ? WalkResult::interrupt()
                                            : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

private:
  LogicalResult pipelineKernel(KernelOp kernel) {
    FailureOr<scf::ForOp> loop = findMainLoop(kernel);
    if (failed(loop))
      return failure();
    std::optional<unsigned> named;
    if (auto interleave =
            dyn_cast<InterleaveAttr>(kernel.getEffectiveSchedule()))
      named = interleave.getStages();
    if (auto pingPong = dyn_cast<PingPongAttr>(kernel.getEffectiveSchedule()))
      named = pingPong.getStages();
    // A loop of clusters keeps its own buffers and waits.
    if (hasClusters(*loop)) {
      if (named && *named != 2)
        return loop->emitOpError()
               << "is written as hk.cluster ops, which keep their own "
                  "buffers and waits, but its schedule asks for "
               << *named
               << " copies of each loaded tile (stages); drop stages or "
                  "write the loop plainly";
      return success();
    }
    unsigned stages = named.value_or(2);
    PlainLoop plain;
    if (failed(analyze(*loop, plain)) ||
        failed(checkLdsFits(kernel, *loop, plain, stages)))
      return failure();
    if (isa<PingPongAttr>(kernel.getEffectiveSchedule()) &&
        failed(groupPingPongRuns(kernel, *loop, plain, remarks)))
      return failure();
    Pipeliner(kernel, *loop, plain, stages).run();
    return success();
  }
};

} // namespace
