//===- Interleave.cpp - The 4-wave interleave schedule --------------------===//
//
// hk-interleave schedules the main loop of every `#hk.interleave` kernel, a
// loop of hk.cluster ops (written so, or made so by hk-double-buffer; the
// clusters may sit in the versions of an scf.if): at the end of each
// compute cluster it adds sched_group_barriers that make LLVM interleave
// the cluster's instructions in groups, each of `mfma` MFMAs followed by
// `ds_reads` LDS reads and `vmem` vector-memory reads, as many groups as
// the MFMAs fill.
//
//===----------------------------------------------------------------------===//

#include "MainLoop.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

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

/// Instructions of each class per scheduling group.
struct GroupSizes {
  unsigned mfma, dsReads, vmem;
};

/// sched_group_barriers at the end of `cluster`: MFMAs in groups of
/// `sizes.mfma`, each followed by a group of LDS reads and one of
/// vector-memory reads, as many times as the cluster has MFMAs.
void addInstructionGroups(ClusterOp cluster, GroupSizes sizes) {
  int64_t mfmas = 0;
  cluster->walk([&](MmaOp mma) { mfmas += countMfmas(mma); });
  if (mfmas == 0)
    return;
  OpBuilder b(cluster.getBody().front().getTerminator());
  Location loc = cluster.getLoc();
  auto group = [&](int32_t mask, int32_t size) {
    if (size > 0)
      ROCDL::SchedGroupBarrier::create(b, loc, b.getI32IntegerAttr(mask),
                                       b.getI32IntegerAttr(size),
                                       b.getI32IntegerAttr(0));
  };
  int64_t rounds = (mfmas + sizes.mfma - 1) / sizes.mfma;
  for (int64_t i = 0; i < rounds; ++i) {
    group(kMaskMfma, sizes.mfma);
    group(kMaskDsRead, sizes.dsReads);
    group(kMaskVmemRead, sizes.vmem);
  }
}

class InterleavePass : public hk::impl::HKInterleaveBase<InterleavePass> {
public:
  using HKInterleaveBase::HKInterleaveBase;

  void runOnOperation() override {
    if (mfmaPerGroup == 0) {
      getOperation().emitError()
          << "hk-interleave: mfma-per-group must be at least 1";
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
    // The kernel's schedule may override the pass options.
    GroupSizes sizes{schedule.getMfma().value_or(mfmaPerGroup),
                     schedule.getDsReads().value_or(dsReadsPerGroup),
                     schedule.getVmem().value_or(vmemPerGroup)};
    loop->walk([&](ClusterOp cluster) {
      if (cluster.getKind() == ClusterKind::Compute &&
          !cluster->getParentOfType<ClusterOp>())
        addInstructionGroups(cluster, sizes);
    });
    return success();
  }
};

} // namespace
