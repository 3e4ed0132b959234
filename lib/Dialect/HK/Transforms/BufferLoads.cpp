//===- BufferLoads.cpp - Buffer and direct-to-LDS paths for global memory -===//

#include "MainLoop.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

namespace hk {
#define GEN_PASS_DEF_HKBUFFERLOADS
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// Synchronous group loads go direct-to-LDS when a lane moves a whole
/// 16-byte chunk that way; narrower direct loads take more instructions
/// than loading 16 bytes into registers and writing them to LDS, and a
/// synchronous load waits for its data either way.
constexpr unsigned kDirectChunkBytes = 16;

/// The transfer path `direct=auto` gives a group load. An asynchronous
/// load (a prefetch) goes direct-to-LDS on every chip that has such loads,
/// however narrow: staged through registers, its LDS writes must wait for
/// its global loads (at once, or at the end of the block the lowering
/// defers them to: see hk.group_load) and take the wave's registers and
/// instructions, where a direct load's data lands by itself. Under the timing
/// model, the 256x256x32 ping-pong GEMM (4096^3, MI325X) goes from 38% to 70%
/// of the bf16 peak with 4-byte direct loads on gfx942.
bool autoDirect(GroupLoadOp load, const ChipInfo &chip) {
  unsigned widest = chip.maxDirectToLdsBytes();
  return load.getAsync() ? widest > 0 : widest >= kDirectChunkBytes;
}

class BufferLoadsPass : public hk::impl::HKBufferLoadsBase<BufferLoadsPass> {
public:
  using HKBufferLoadsBase::HKBufferLoadsBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto pathAttr = [&](TransferPath path) {
      return TransferPathAttr::get(ctx, path);
    };
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op)) {
        if (!load.getPath() && isa<GlobalViewType>(load.getSource().getType()))
          load.setPathAttr(pathAttr(TransferPath::Buffer));
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        if (!store.getPath() && isa<GlobalViewType>(store.getDest().getType()))
          store.setPathAttr(pathAttr(TransferPath::Buffer));
      } else if (auto groupStore = dyn_cast<GroupStoreOp>(op)) {
        if (!groupStore.getPath())
          groupStore.setPathAttr(pathAttr(TransferPath::Buffer));
      } else if (auto groupLoad = dyn_cast<GroupLoadOp>(op)) {
        if (groupLoad.getPath())
          return WalkResult::advance();
        const ChipInfo *chip = lookupTargetChip(op);
        if (!chip) {
          op->emitOpError()
              << "needs a target chip to choose a transfer path; run "
                 "hk-target first";
          return WalkResult::interrupt();
        }
        // A transposing load rearranges its data in registers.
        bool useDirect =
            !groupLoad.getTranspose() &&
            (direct == DirectMode::Always ||
             (direct == DirectMode::Auto && autoDirect(groupLoad, *chip)));
        groupLoad.setPathAttr(
            pathAttr(useDirect ? TransferPath::Direct : TransferPath::Buffer));
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // A prefetch staged through registers needs the ops after it in its
    // basic block: the lowering defers its LDS writes to that block's end,
    // behind the MFMAs. Where hk-double-buffer versioned it alone in a
    // compute cluster (an interleave GEMM's), the cluster is versioned
    // whole.
    SmallVector<std::pair<ClusterOp, scf::IfOp>> staged;
    getOperation().walk([&](ClusterOp cluster) {
      if (cluster.getKind() != ClusterKind::Compute)
        return;
      scf::IfOp prefetch = findVersionedPrefetch(cluster);
      if (prefetch && prefetch
                          ->walk([](GroupLoadOp load) {
                            return load.getPath() == TransferPath::Buffer
                                       ? WalkResult::interrupt()
                                       : WalkResult::advance();
                          })
                          .wasInterrupted())
        staged.emplace_back(cluster, prefetch);
    });
    for (auto [cluster, prefetch] : staged)
      versionWholeCluster(cluster, prefetch);
  }
};

} // namespace
