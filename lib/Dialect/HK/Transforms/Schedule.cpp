//===- Schedule.cpp - Ping-pong and interleave schedules ------------------===//
//
// hk-schedule applies a kernel's schedule to its main loop, the one
// top-level scf.for that holds hk.mma ops, or to the one top-level loop
// that names a schedule of its own (`hk.schedule`).
//
// A loop written plainly (load shared tiles with synchronous group loads,
// read them, compute, with barriers around) is software-pipelined: each
// loaded shared tile gets a spare buffer, the first tile is loaded before
// the loop, and iteration k prefetches tile k+1 into the spare buffer with
// asynchronous group loads while it computes on tile k.
//
// Ping-pong (8 waves, two groups of four, one wave of each per SIMD): the
// body is split into alternating memory clusters (the shared-tile reads,
// and the prefetch, which group 0 issues alone) and compute clusters (run
// at raised priority), each followed by a block barrier. Group 1 runs one
// extra barrier before the loop, so it is always one cluster behind group
// 0: while one group computes, the other reads LDS. Group 0 runs one extra
// barrier after the loop to balance the count. Group 0 waits for its
// prefetch after the iteration's last compute cluster, before the barrier
// after which both groups read that tile.
//
// Why this is race-free: with the clusters numbered by the barriers that
// close them, group 0 runs the memory cluster of iteration k between the
// barriers that group 1 spends on iteration k-1's last compute cluster, so
// the prefetch into the spare buffer starts after both groups' last reads
// of its old contents; and both groups first read the new tile after the
// barrier that follows group 0's wait.
//
// Interleave (4 waves, one per SIMD): the prefetch is issued at the top of
// the iteration, the reads and MFMAs form one compute cluster whose
// instructions LLVM interleaves in groups (sched_group_barrier: MFMAs, LDS
// reads, vector-memory reads), and the iteration ends with the wait for the
// prefetch and a barrier.
//
// A loop already made of hk.cluster ops is scheduled as written: ping-pong
// gets the barriers after each cluster, the priorities and the phase
// shift; interleave gets the instruction groups in its compute clusters.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace hk {
#define GEN_PASS_DEF_HKSCHEDULE
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// sched_group_barrier masks (LLVM's AMDGPU scheduling-group classes).
constexpr int32_t kMaskMfma = 0x008;
constexpr int32_t kMaskVmemRead = 0x020;
constexpr int32_t kMaskDsRead = 0x100;

/// Priority of compute clusters in ping-pong.
constexpr int32_t kComputePriority = 1;

bool holdsRegisters(Operation *op) {
  return llvm::any_of(op->getResultTypes(), [](Type type) {
    return isa<RegisterTileType, RegisterVectorType>(type);
  });
}

/// MFMA instructions an hk.mma issues.
int64_t countMfmas(MmaOp mma) {
  MfmaShapeAttr instr = *mma.getInstr();
  return (mma.getM() / instr.getM()) * (mma.getN() / instr.getN()) *
         (mma.getK() / instr.getK());
}

/// How one run of body ops is scheduled.
enum class Role { Read, Compute };

struct Run {
  Role role;
  SmallVector<Operation *> ops;
};

class SchedulePass : public hk::impl::HKScheduleBase<SchedulePass> {
public:
  using HKScheduleBase::HKScheduleBase;

  void runOnOperation() override {
    if (mfmaPerGroup == 0) {
      getOperation().emitError()
          << "hk-schedule: mfma-per-group must be at least 1";
      return signalPassFailure();
    }
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getEffectiveSchedule() || isScheduled(kernel))
        return WalkResult::advance();
      return failed(scheduleKernel(kernel)) ? WalkResult::interrupt()
                                            : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

private:
  /// A kernel that already has its wave-group barriers or instruction groups
  /// was scheduled before.
  static bool isScheduled(KernelOp kernel) {
    return kernel
        ->walk([](Operation *op) {
          auto barrier = dyn_cast<BarrierOp>(op);
          return (barrier && barrier.getGroup()) ||
                         isa<ROCDL::SchedGroupBarrier>(op)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  }

  LogicalResult scheduleKernel(KernelOp kernel) {
    bool pingpong = isa<PingPongAttr>(kernel.getEffectiveSchedule());
    auto loop = cast_if_present<scf::ForOp>(kernel.getScheduledLoop());
    if (!loop) {
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
      loop = loops.front();
    }
    WalkResult noInstr = loop->walk([&](MmaOp mma) {
      if (mma.getInstr())
        return WalkResult::advance();
      mma.emitOpError() << "has no MFMA instruction yet; run hk-mfma-layout "
                           "before hk-schedule";
      return WalkResult::interrupt();
    });
    if (noInstr.wasInterrupted())
      return failure();

    bool userClusters =
        llvm::any_of(loop.getBody()->getOperations(), llvm::IsaPred<ClusterOp>);
    if (userClusters)
      return pingpong ? scheduleClustersPingPong(loop)
                      : scheduleClustersInterleave(loop);
    return pipeline(kernel, loop, pingpong);
  }

  //===--------------------------------------------------------------------===//
  // Loops written with clusters
  //===--------------------------------------------------------------------===//

  LogicalResult scheduleClustersPingPong(scf::ForOp loop) {
    Block *body = loop.getBody();
    SmallVector<ClusterOp> clusters;
    for (Operation &op : body->without_terminator()) {
      if (auto cluster = dyn_cast<ClusterOp>(op)) {
        clusters.push_back(cluster);
        continue;
      }
      if (auto barrier = dyn_cast<BarrierOp>(op)) {
        Operation *prev = barrier->getPrevNode();
        if (!prev || !isa<ClusterOp>(prev))
          return barrier.emitOpError()
                 << "in a ping-pong loop may only follow a cluster: the "
                    "groups are one cluster apart, so every cluster ends "
                    "with exactly one barrier";
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
    for (ClusterOp cluster : clusters) {
      if (cluster.getKind() == ClusterKind::Compute && !cluster.getPriority())
        cluster.setPriorityAttr(
            OpBuilder(cluster).getI32IntegerAttr(kComputePriority));
      Operation *next = cluster->getNextNode();
      if (!isa<BarrierOp>(next)) {
        OpBuilder b(next);
        BarrierOp::create(b, cluster.getLoc(), IntegerAttr());
      }
    }
    shiftPhases(loop);
    return success();
  }

  LogicalResult scheduleClustersInterleave(scf::ForOp loop) {
    for (auto cluster : loop.getBody()->getOps<ClusterOp>())
      if (cluster.getKind() == ClusterKind::Compute)
        addInstructionGroups(cluster);
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

  /// sched_group_barriers at the end of `cluster`: MFMAs in groups of
  /// mfma-per-group, each followed by a group of LDS reads and one of
  /// vector-memory reads, as many times as the cluster has MFMAs. The
  /// kernel's #hk.interleave may set the group sizes itself.
  void addInstructionGroups(ClusterOp cluster) {
    int64_t mfmas = 0;
    cluster->walk([&](MmaOp mma) { mfmas += countMfmas(mma); });
    if (mfmas == 0)
      return;
    // The kernel's schedule may override the pass options.
    unsigned perGroup = mfmaPerGroup, dsReads = dsReadsPerGroup,
             vmem = vmemPerGroup;
    if (auto schedule = dyn_cast_if_present<InterleaveAttr>(
            cluster->getParentOfType<KernelOp>().getEffectiveSchedule())) {
      perGroup = schedule.getMfma().value_or(perGroup);
      dsReads = schedule.getDsReads().value_or(dsReads);
      vmem = schedule.getVmem().value_or(vmem);
    }
    OpBuilder b(cluster.getBody().front().getTerminator());
    Location loc = cluster.getLoc();
    auto group = [&](int32_t mask, int32_t size) {
      if (size > 0)
        ROCDL::SchedGroupBarrier::create(b, loc, b.getI32IntegerAttr(mask),
                                         b.getI32IntegerAttr(size),
                                         b.getI32IntegerAttr(0));
    };
    int64_t rounds = (mfmas + perGroup - 1) / perGroup;
    for (int64_t i = 0; i < rounds; ++i) {
      group(kMaskMfma, perGroup);
      group(kMaskDsRead, dsReads);
      group(kMaskVmemRead, vmem);
    }
  }

  //===--------------------------------------------------------------------===//
  // Software pipelining of a plain loop
  //===--------------------------------------------------------------------===//

  /// The shared tiles a plain loop loads, and its loads, after checking
  /// that the loop is one this pass knows how to pipeline.
  struct PlainLoop {
    SmallVector<GroupLoadOp> loads;
    SmallVector<Value> tiles;
    SmallVector<Run> runs;
    SmallVector<Operation *> scalars;
  };

  LogicalResult analyze(scf::ForOp loop, PlainLoop &plain) {
    Block *body = loop.getBody();
    auto unsupported = [&](Operation *op, const Twine &why) {
      return op->emitOpError()
             << "cannot be software-pipelined by hk-schedule: " << why
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
        if (!tile.getDefiningOp<AllocOp>() ||
            !loop.isDefinedOutsideOfLoop(tile))
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
    return success();
  }

  static void appendToRun(SmallVector<Run> &runs, Role role, Operation *op) {
    if (runs.empty() || runs.back().role != role)
      runs.push_back({role, {}});
    runs.back().ops.push_back(op);
  }

  /// The indices of a pipelined load must be computable for another
  /// iteration: from the induction variable and values from before the
  /// loop only.
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

  /// Ops of the loop body that `root`'s operands depend on, in body order.
  static void backwardSlice(Operation *root, scf::ForOp loop,
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
    llvm::sort(slice, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
  }

  /// The indices of `load` for the iteration whose induction variable is
  /// `iv`, cloning what they are computed from.
  SmallVector<Value> cloneIndices(OpBuilder &b, GroupLoadOp load,
                                  scf::ForOp loop, Value iv) {
    SmallVector<Operation *> slice;
    backwardSlice(load, loop, slice);
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
    for (Operation *op : slice)
      b.clone(*op, map);
    return llvm::map_to_vector(load.getIndices(),
                               [&](Value v) { return map.lookupOrDefault(v); });
  }

  /// Clones `load` for the iteration whose induction variable is `iv`,
  /// writing `dest`.
  GroupLoadOp cloneLoad(OpBuilder &b, GroupLoadOp load, scf::ForOp loop,
                        Value iv, Value dest, bool async,
                        std::optional<uint32_t> waves) {
    return createLoad(b, load, cloneIndices(b, load, loop, iv), dest, async,
                      waves, /*inbounds=*/false);
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

  LogicalResult pipeline(KernelOp kernel, scf::ForOp loop, bool pingpong) {
    PlainLoop plain;
    if (failed(analyze(loop, plain)))
      return failure();
    if (plain.runs.empty() || plain.runs.front().role != Role::Read ||
        plain.runs.back().role != Role::Compute)
      return loop.emitOpError()
             << "cannot be scheduled: its body must read shared tiles "
                "first and end with the computation on them";

    // The spare buffers must fit next to everything else.
    const ChipInfo *chip = lookupTargetChip(kernel);
    if (!chip)
      return kernel.emitOpError() << "needs a target chip to check that "
                                     "double-buffered LDS fits; run "
                                     "hk-target first";
    int64_t extra = 0;
    for (Value tile : plain.tiles)
      extra += cast<SharedTileType>(tile.getType()).getSizeInBytes();
    int64_t total = kernel.getSharedMemoryBytes() + extra;
    if (total > chip->ldsBytesPerWorkgroup)
      return loop.emitOpError()
             << "needs " << total << " bytes of LDS once its "
             << plain.tiles.size() << " shared tile(s) are double-buffered, "
             << "but " << chip->name << " has " << chip->ldsBytesPerWorkgroup
             << " per workgroup; use smaller tiles";

    Location loc = loop.getLoc();
    SmallVector<Value> spares;
    for (Value tile : plain.tiles) {
      auto alloc = tile.getDefiningOp<AllocOp>();
      OpBuilder ab(alloc);
      ab.setInsertionPointAfter(alloc);
      spares.push_back(AllocOp::create(ab, alloc.getLoc(), tile.getType()));
    }

    // Prologue: the first tile, loaded by every wave.
    OpBuilder b(loop);
    for (auto [load, tile] : llvm::zip(plain.loads, plain.tiles))
      cloneLoad(b, load, loop, loop.getLowerBound(), tile, /*async=*/false,
                std::nullopt);
    BarrierOp::create(b, loc, IntegerAttr());

    unsigned numCarried = loop.getInitArgs().size();
    unsigned numTiles = plain.tiles.size();
    SmallVector<Value> inits(loop.getInitArgs());
    inits.append(plain.tiles);
    inits.append(spares);
    auto newLoop =
        scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                           loop.getStep(), inits);
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    Block *newBody = newLoop.getBody();
    b.setInsertionPointToStart(newBody);

    IRMapping map;
    map.map(loop.getInductionVar(), newLoop.getInductionVar());
    for (unsigned i = 0; i < numCarried; ++i)
      map.map(loop.getRegionIterArgs()[i], newLoop.getRegionIterArgs()[i]);
    SmallVector<Value> current, spare;
    for (unsigned j = 0; j < numTiles; ++j) {
      current.push_back(newLoop.getRegionIterArgs()[numCarried + j]);
      spare.push_back(newLoop.getRegionIterArgs()[numCarried + numTiles + j]);
      map.map(plain.tiles[j], current[j]);
    }
    for (Operation *op : plain.scalars)
      b.clone(*op, map);

    // Tile k+1 into the spare buffers, unless k is the last iteration.
    auto emitPrefetch = [&](OpBuilder &pb) {
      Value next = arith::AddIOp::create(pb, loc, newLoop.getInductionVar(),
                                         newLoop.getStep());
      Value inRange = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::slt,
                                            next, newLoop.getUpperBound());
      auto guard = scf::IfOp::create(pb, loc, inRange, /*withElse=*/false);
      OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
      std::optional<uint32_t> waves;
      if (pingpong)
        waves = kernel.getWaves() / 2;
      for (auto [load, dest] : llvm::zip(plain.loads, spare))
        cloneLoad(gb, load, loop, next, dest, /*async=*/true, waves);
    };

    Operation *terminator = loop.getBody()->getTerminator();
    if (pingpong) {
      for (auto [i, run] : llvm::enumerate(plain.runs)) {
        bool first = i == 0, last = i + 1 == plain.runs.size();
        ClusterKind kind =
            run.role == Role::Read ? ClusterKind::Memory : ClusterKind::Compute;
        IntegerAttr priority = kind == ClusterKind::Compute
                                   ? b.getI32IntegerAttr(kComputePriority)
                                   : IntegerAttr();
        buildCluster(
            b, loc, kind, priority, run.ops, terminator, map,
            [&](OpBuilder &cb) {
              if (first)
                emitPrefetch(cb);
            },
            [](OpBuilder &) {});
        // After the last compute cluster (outside it, so that the wait
        // cannot be scheduled among its MFMAs), group 0's prefetch has
        // landed before the barrier after which everyone reads it. Nothing
        // else is in flight, so draining is the exact wait.
        if (last)
          WaitOp::create(b, loc, ValueRange());
        BarrierOp::create(b, loc, IntegerAttr());
      }
    } else {
      // Two versions of the body. When the next tiles exist and lie wholly
      // inside their views (the common case), the prefetch is branch-free
      // and sits in the compute cluster, where LLVM can interleave its
      // loads with the MFMAs and LDS reads; otherwise the guarded prefetch
      // with its edge path comes first.
      SmallVector<Operation *> ops;
      for (Run &run : plain.runs)
        ops.append(run.ops);
      Value next = arith::AddIOp::create(b, loc, newLoop.getInductionVar(),
                                         newLoop.getStep());
      Value interior = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             next, newLoop.getUpperBound());
      SmallVector<SmallVector<Value>> nextIndices;
      for (auto [load, dest] : llvm::zip(plain.loads, spare)) {
        SmallVector<Value> &indices =
            nextIndices.emplace_back(cloneIndices(b, load, loop, next));
        Value inside = InBoundsOp::create(b, loc, load.getSource(), indices,
                                          dest, load.getTransposeAttr());
        interior = arith::AndIOp::create(b, loc, interior, inside);
      }
      SmallVector<Value> escaping = getEscapingValues(ops, terminator);
      auto version =
          scf::IfOp::create(b, loc, TypeRange(ValueRange(escaping)), interior,
                            /*withElseRegion=*/true);
      auto buildVersion = [&](Block *block, bool inbounds) {
        OpBuilder vb = OpBuilder::atBlockBegin(block);
        ClusterOp cluster = buildCluster(
            vb, loc, ClusterKind::Compute, IntegerAttr(), ops, terminator, map,
            [&](OpBuilder &cb) {
              if (!inbounds) {
                emitPrefetch(cb);
                return;
              }
              // The indices hk.in_bounds checked, computed above.
              for (auto [load, indices, dest] :
                   llvm::zip(plain.loads, nextIndices, spare))
                createLoad(cb, load, indices, dest, /*async=*/true,
                           std::nullopt, /*inbounds=*/true);
            },
            [](OpBuilder &) {});
        addInstructionGroups(cluster);
        scf::YieldOp::create(vb, loc, cluster.getResults());
      };
      buildVersion(version.thenBlock(), /*inbounds=*/true);
      buildVersion(version.elseBlock(), /*inbounds=*/false);
      for (auto [value, result] : llvm::zip(escaping, version.getResults()))
        map.map(value, result);
      WaitOp::create(b, loc, ValueRange());
      BarrierOp::create(b, loc, IntegerAttr());
    }

    SmallVector<Value> yielded =
        llvm::map_to_vector(terminator->getOperands(),
                            [&](Value v) { return map.lookupOrDefault(v); });
    yielded.append(spare);
    yielded.append(current);
    scf::YieldOp::create(b, loc, yielded);

    loop.replaceAllUsesWith(newLoop.getResults().take_front(numCarried));
    if (pingpong)
      shiftPhases(newLoop);
    loop.erase();
    return success();
  }

  /// The results of `ops` that other ops or `terminator` use.
  static SmallVector<Value> getEscapingValues(ArrayRef<Operation *> ops,
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

  /// A cluster holding clones of `ops`, yielding those of their results that
  /// later ops or `terminator` use; `map` then sends them to the cluster's
  /// results.
  ClusterOp buildCluster(OpBuilder &b, Location loc, ClusterKind kind,
                         IntegerAttr priority, ArrayRef<Operation *> ops,
                         Operation *terminator, IRMapping &map,
                         function_ref<void(OpBuilder &)> prologue,
                         function_ref<void(OpBuilder &)> epilogue) {
    SmallVector<Value> escaping = getEscapingValues(ops, terminator);
    auto cluster = ClusterOp::create(b, loc, TypeRange(ValueRange(escaping)),
                                     kind, priority);
    Block *block = new Block();
    cluster.getBody().push_back(block);
    OpBuilder cb = OpBuilder::atBlockBegin(block);
    prologue(cb);
    for (Operation *op : ops)
      cb.clone(*op, map);
    epilogue(cb);
    SmallVector<Value> yielded =
        llvm::map_to_vector(escaping, [&](Value v) { return map.lookup(v); });
    YieldOp::create(cb, loc, yielded);
    for (auto [value, result] : llvm::zip(escaping, cluster.getResults()))
      map.map(value, result);
    return cluster;
  }
};

} // namespace
