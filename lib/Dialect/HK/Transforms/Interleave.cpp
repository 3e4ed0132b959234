//===- Interleave.cpp - The 4-wave interleave schedule --------------------===//
//
// hk-interleave schedules the main loop of every `#hk.interleave` kernel, a
// loop of hk.cluster ops (written so, or made so by hk-double-buffer; the
// clusters may sit in the versions of an scf.if): at the end of each
// compute cluster it adds sched_group_barriers that make LLVM interleave
// the cluster's instructions in groups, each of `mfma` MFMAs followed by
// `ds_reads` LDS reads and `vmem` vector-memory reads, as many groups as
// the MFMAs fill. Sizes the kernel's #hk.interleave or the pass options
// do not give are chosen by the cost function of ScheduleCost.h. A
// compute cluster that holds a softmax runs its MFMAs at issue priority 1
// and the softmax at 0, unless the kernel sets priorities itself. A loop
// whose buffers trade places every iteration is then unrolled by two, as
// ping-pong's is, and one whose buffers rotate in a ring of three by
// three, so that its LDS addresses are fixed in each copy.
//
//===----------------------------------------------------------------------===//

#include "MainLoop.h"
#include "ScheduleCost.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"
#include "hk/Timing/DeviceModel.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace hk {
#define GEN_PASS_DEF_HKINTERLEAVE
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// sched_group_barrier masks (LLVM's AMDGPU scheduling-group classes).
constexpr int32_t kMaskMfma = 0x008;
constexpr int32_t kMaskVmemRead = 0x020;
constexpr int32_t kMaskDsRead = 0x100;

/// Whether `op` lies in the else region of an scf.if inside `cluster`.
bool inElseBranch(Operation *op, ClusterOp cluster) {
  for (Operation *parent = op->getParentOp(); parent && parent != cluster;
       op = parent, parent = parent->getParentOp())
    if (auto branch = dyn_cast<scf::IfOp>(parent);
        branch && op->getParentRegion() == &branch.getElseRegion())
      return true;
  return false;
}

/// LDS reads a wave of `lanes` issues for `load`: a register tile read
/// from a shared tile; 0 for any other hk.load.
int64_t sharedTileReads(LoadOp load, int64_t lanes) {
  auto tile = dyn_cast<RegisterTileType>(load.getResult().getType());
  if (!tile || !isa<SharedTileType>(load.getSource().getType()))
    return 0;
  return countLdsReads(tile, lanes);
}

/// What a wave's compute cluster issues, as the cost function counts it:
/// its MFMAs, an LDS read per 16 bytes a lane loads from shared tiles, a
/// vector-memory read per load of the chip's widest direct-to-LDS width
/// (the prefetch of a group load, split over the block's waves).
ClusterWork countWork(ClusterOp cluster, const ChipInfo &chip, unsigned waves) {
  ClusterWork work;
  int64_t lanes = chip.waveSize;
  llvm::DenseMap<Value, int64_t> readsOf;
  cluster->walk([&](Operation *op) {
    if (auto mma = dyn_cast<MmaOp>(op)) {
      // The lowering issues the MFMAs row by row of output blocks, K
      // innermost: MFMA (i, j, k) needs A's fragment (i, k) and B's (j, k).
      MfmaShapeAttr shape = *mma.getInstr();
      int64_t rows = mma.getM() / shape.getM(),
              cols = mma.getN() / shape.getN(),
              steps = mma.getK() / shape.getK();
      // One tile read as both operands is read once: its fragments are
      // needed as soon as either operand needs them.
      bool same = mma.getA() == mma.getB();
      int64_t a = readsOf.lookup(mma.getA()), b = readsOf.lookup(mma.getB());
      int64_t others = work.dsReads - a - (same ? 0 : b);
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          for (int64_t k = 0; k < steps; ++k) {
            int64_t aFragments = i * steps + (j == 0 ? k + 1 : steps);
            int64_t bFragments = i == 0 ? j * steps + k + 1 : cols * steps;
            int64_t forA = llvm::divideCeil(a * aFragments, rows * steps);
            int64_t forB = llvm::divideCeil(b * bFragments, cols * steps);
            work.readsNeeded.push_back(
                others + (same ? std::max(forA, forB) : forA + forB));
          }
      work.mfmas += countMfmas(mma);
      if (!work.mfmaCycles)
        if (const MfmaInstr *instr = getMfmaInstr(chip, mma))
          work.mfmaCycles =
              timing::DeviceModel::defaultFor(chip).mfmaCycles(*instr);
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      int64_t reads = sharedTileReads(load, lanes);
      readsOf[load.getResult()] = reads;
      work.dsReads += reads;
    } else if (auto load = dyn_cast<GroupLoadOp>(op)) {
      // A prefetch in two versions (hk-double-buffer's, branch-free and
      // guarded) issues one of them: count the first.
      if (inElseBranch(load, cluster))
        return;
      SharedTileType tile = load.getDest().getType();
      int64_t bytes = tile.getRows() * tile.getCols() *
                      tile.getElementType().getIntOrFloatBitWidth() / 8;
      unsigned loaders = load.getWaves().value_or(waves);
      work.vmemReads += llvm::divideCeil(
          bytes, loaders * lanes * int64_t(chip.maxDirectToLdsBytes()));
    }
  });
  return work;
}

/// The timing model's figures for the cost function: one wave per SIMD,
/// `waves` per CU.
InterleaveCosts costsFor(const ChipInfo &chip, unsigned waves) {
  const timing::DeviceModel &device = timing::DeviceModel::defaultFor(chip);
  return {device.issueCadence,      ldsReadCycles(chip), device.ldsLatency,
          device.vmemAddressCycles, device.hbmLatency,   waves};
}

/// sched_group_barriers at the end of `cluster`: first the `leading`
/// groups (mask, size), then MFMAs in groups of `sizes.mfma`, each followed
/// by a group of LDS reads and one of vector-memory reads, as many times as
/// the cluster has MFMAs.
void addInstructionGroups(ClusterOp cluster, GroupSizes sizes,
                          ArrayRef<std::pair<int32_t, int64_t>> leading = {}) {
  int64_t mfmas = 0;
  cluster->walk([&](MmaOp mma) { mfmas += countMfmas(mma); });
  if (mfmas == 0)
    return;
  OpBuilder b(cluster.getBody().front().getTerminator());
  Location loc = cluster.getLoc();
  auto group = [&](int32_t mask, int64_t size) {
    if (size > 0)
      ROCDL::SchedGroupBarrier::create(b, loc, b.getI32IntegerAttr(mask),
                                       b.getI32IntegerAttr(int32_t(size)),
                                       b.getI32IntegerAttr(0));
  };
  for (auto [mask, size] : leading)
    group(mask, size);
  int64_t rounds = (mfmas + sizes.mfma - 1) / sizes.mfma;
  for (int64_t i = 0; i < rounds; ++i) {
    group(kMaskMfma, sizes.mfma);
    group(kMaskDsRead, sizes.dsReads);
    group(kMaskVmemRead, sizes.vmem);
  }
}

/// LDS reads of the shared-tile reads in `cluster`'s body before `op`.
int64_t ldsReadsBefore(ClusterOp cluster, Operation *op, int64_t lanes) {
  int64_t reads = 0;
  for (Operation &before : cluster.getBody().front()) {
    if (&before == op)
      break;
    if (auto load = dyn_cast<LoadOp>(before))
      reads += sharedTileReads(load, lanes);
  }
  return reads;
}

/// Vector-memory groups interleave only loads in the MFMAs' basic block: a
/// cluster given some whose prefetch is versioned alone is versioned whole
/// instead, and the groups go into each version. Without them the
/// prefetch's versions sit in blocks of their own, after the reads ahead
/// of them, until hk-unswitch-loops folds the steady state's branch and
/// all share the MFMAs' block. There LLVM's scheduler, left alone, moved
/// the reads down to their MFMAs (the gfx942 fp8 GEMM's loop waited on
/// every second one: 1146.8 TFLOP/s predicted on MI325X at 8192^3, against
/// 1275.3 before unswitching), so leading groups place them first: each
/// read ahead of the prefetch (when the groups do not claim them), then
/// its share of the prefetch's loads, which go out among the reads as
/// LLVM placed them on gfx950 (MI325X 1291.1, MI355X 3008.2; with all
/// reads before all loads 1288.3 and 2885.1; left alone 1146.8 and
/// 3011.9). `work` is the cluster's, given where the cost function chose
/// the sizes.
void addInstructionGroupsAround(ClusterOp cluster, GroupSizes sizes,
                                const ClusterWork *work, int64_t lanes) {
  scf::IfOp prefetch = findVersionedPrefetch(cluster);
  if (!prefetch) {
    addInstructionGroups(cluster, sizes);
    return;
  }
  if (sizes.vmem) {
    for (ClusterOp version : versionWholeCluster(cluster, prefetch))
      addInstructionGroups(version, sizes);
    return;
  }
  SmallVector<std::pair<int32_t, int64_t>> leading;
  if (work) {
    int64_t reads =
        sizes.dsReads == 0 ? ldsReadsBefore(cluster, prefetch, lanes) : 0;
    int64_t loads = work->vmemReads;
    if (reads == 0)
      leading.emplace_back(kMaskVmemRead, loads);
    int64_t share = reads ? llvm::divideCeil(loads, reads) : 0;
    for (int64_t i = 0; i < reads; ++i) {
      int64_t taken = std::min(share, loads);
      leading.emplace_back(kMaskDsRead, 1);
      leading.emplace_back(kMaskVmemRead, taken);
      loads -= taken;
    }
  }
  addInstructionGroups(cluster, sizes, leading);
}

/// Issue priorities for a compute cluster whose MFMAs alternate with a
/// softmax: each softmax, from the first operation after the MFMAs before
/// it, runs at priority 0, the MFMAs after it at 1 (the loop is entered at
/// 1; a cluster that ends in a softmax raises it again at its start). A SIMD
/// issues one vector instruction (VALU or MFMA) per cycle of its sequencer to
/// its highest-priority ready wave, so a wave with an MFMA to issue takes the
/// slot whenever the matrix pipe frees and the other waves' softmax fills the
/// slots in between (the timing model's arbitration, docs/timing.md). LDS reads
/// written before the MFMAs stay before the raise, so that they may start
/// during the softmax. Returns whether the cluster holds such a softmax.
bool placePriorities(ClusterOp cluster) {
  Block &body = cluster.getBody().front();
  SmallVector<SoftmaxOp> softmaxes(body.getOps<SoftmaxOp>());
  if (softmaxes.empty() || body.getOps<MmaOp>().empty())
    return false;
  OpBuilder b(cluster.getContext());
  Location loc = cluster.getLoc();
  auto priority = [&](Operation *before, int32_t level) {
    b.setInsertionPoint(before);
    PriorityOp::create(b, loc, b.getI32IntegerAttr(level));
  };
  bool endsLow = false;
  for (SoftmaxOp softmax : softmaxes) {
    Operation *start = softmax;
    for (Operation *prev = start->getPrevNode();
         prev && !isa<MmaOp, PriorityOp>(prev); prev = prev->getPrevNode())
      start = prev;
    priority(start, 0);
    Operation *next = softmax->getNextNode();
    while (next && !isa<MmaOp>(next))
      next = next->getNextNode();
    if (next)
      priority(next, 1);
    endsLow = !next;
  }
  if (endsLow)
    priority(&body.front(), 1);
  return true;
}

class InterleavePass : public hk::impl::HKInterleaveBase<InterleavePass> {
public:
  using HKInterleaveBase::HKInterleaveBase;

  void runOnOperation() override {
    if (mfmaPerGroup == 0 || mfmaPerGroup < -1 || dsReadsPerGroup < -1 ||
        vmemPerGroup < -1) {
      getOperation().emitError()
          << "hk-interleave: mfma-per-group must be at least 1, and every "
             "group size a count or -1 (chosen by the cost function)";
      return signalPassFailure();
    }
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      auto schedule =
          dyn_cast_if_present<InterleaveAttr>(kernel.getEffectiveSchedule());
      if (!schedule || hasWaveGroupBarriers(kernel) ||
          hasInstructionGroups(kernel))
        return WalkResult::advance();
      return failed(scheduleKernel(kernel, schedule)) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

private:
  LogicalResult scheduleKernel(KernelOp kernel, InterleaveAttr schedule) {
    FailureOr<scf::ForOp> loop = findMainLoop(kernel);
    if (failed(loop) || failed(checkMfmaInstrs(*loop, "hk-interleave")))
      return failure();
    if (!hasClusters(*loop))
      return loop->emitOpError()
             << "is the main loop of an interleave kernel but holds no "
                "hk.cluster ops; run hk-double-buffer first, or write its "
                "clusters";
    // The kernel's schedule overrides the pass options; what neither gives
    // the cost function chooses, per compute cluster.
    auto pin = [](std::optional<unsigned> attr,
                  int option) -> std::optional<unsigned> {
      if (attr)
        return attr;
      if (option >= 0)
        return unsigned(option);
      return std::nullopt;
    };
    std::array<std::optional<unsigned>, 3> pinned{
        pin(schedule.getMfma(), mfmaPerGroup),
        pin(schedule.getDsReads(), dsReadsPerGroup),
        pin(schedule.getVmem(), vmemPerGroup)};
    const ChipInfo *chip = lookupTargetChip(kernel);
    bool choose = !pinned[0] || !pinned[1] || !pinned[2];
    if ((choose || remarks) && !chip)
      return kernel.emitOpError()
             << "needs a target chip for hk-interleave's cost function "
                "(run hk-target first), or every group size given";
    // Priorities the kernel sets itself are kept, and none added.
    bool ownPriorities =
        kernel->walk([](PriorityOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    bool prioritise = priorities && !ownPriorities;
    bool prioritised = false;
    unsigned waves = kernel.getWaves();
    std::optional<InterleaveCosts> costs;
    if (chip)
      costs = costsFor(*chip, waves);
    // Collected first: a cluster may be replaced by two (above).
    SmallVector<ClusterOp> clusters;
    loop->walk([&](ClusterOp cluster) {
      if (cluster.getKind() == ClusterKind::Compute &&
          !cluster->getParentOfType<ClusterOp>())
        clusters.push_back(cluster);
    });
    for (ClusterOp cluster : clusters) {
      if (prioritise && placePriorities(cluster)) {
        prioritised = true;
        if (remarks)
          cluster.emitRemark() << "hk-interleave: the MFMAs issue at "
                                  "priority 1, the softmax at 0";
      }
      if (!choose && !remarks) {
        addInstructionGroupsAround(
            cluster, {*pinned[0], *pinned[1], *pinned[2]}, nullptr, 0);
        continue;
      }
      ClusterWork work = countWork(cluster, *chip, waves);
      InterleaveChoice best = chooseInterleave(work, *costs, pinned);
      if (remarks) {
        GroupSizes plain{1, 1, 1};
        cluster.emitRemark()
            << "hk-interleave: groups of " << best.sizes.mfma << " MFMA / "
            << best.sizes.dsReads << " LDS read / " << best.sizes.vmem
            << " vector-memory read, " << int64_t(best.cycles)
            << " cycles per wave ("
            << (choose ? "the cost function's best of " +
                             std::to_string(best.candidates)
                       : std::string("given"))
            << "; 1/1/1: " << int64_t(interleaveCycles(work, plain, *costs))
            << "); the cluster issues " << work.mfmas << " MFMAs of "
            << work.mfmaCycles << " cycles, " << work.dsReads
            << " LDS reads and " << work.vmemReads << " vector-memory reads";
      }
      // Leading groups only where the cost function chose (as remarks must
      // not change the code, sizes all given get none either way).
      addInstructionGroupsAround(cluster, best.sizes, choose ? &work : nullptr,
                                 chip->waveSize);
    }
    // The loop is entered at priority 1, the code after it goes back to 0.
    if (prioritised) {
      OpBuilder b(*loop);
      PriorityOp::create(b, loop->getLoc(), b.getI32IntegerAttr(1));
      b.setInsertionPointAfter(*loop);
      PriorityOp::create(b, loop->getLoc(), b.getI32IntegerAttr(0));
    }
    unrollRotatedBuffers(*loop);
    return success();
  }
};

} // namespace
