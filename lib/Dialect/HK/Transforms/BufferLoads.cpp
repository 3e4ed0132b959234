//===- BufferLoads.cpp - Buffer and direct-to-LDS paths for global memory -===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

namespace hk {
#define GEN_PASS_DEF_HKBUFFERLOADS
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// Direct-to-LDS group loads pay off when a lane moves a whole 16-byte chunk.
constexpr unsigned kDirectChunkBytes = 16;

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
        bool useDirect = !groupLoad.getTranspose() &&
                         (direct == DirectMode::Always ||
                          (direct == DirectMode::Auto &&
                           chip->maxDirectToLdsBytes() >= kDirectChunkBytes));
        groupLoad.setPathAttr(
            pathAttr(useDirect ? TransferPath::Direct : TransferPath::Buffer));
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
