//===- CheckChip.cpp - Check ops against the module's target chip ---------===//

#include "hk/Dialect/HK/IR/ChipLegality.h"
#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

namespace hk {
#define GEN_PASS_DEF_HKCHECKCHIP
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {
struct HKCheckChipPass : public hk::impl::HKCheckChipBase<HKCheckChipPass> {
  using HKCheckChipBase::HKCheckChipBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target =
        module->getAttrOfType<TargetAttr>(HKDialect::getTargetAttrName());
    if (!target) {
      module.emitError() << "hk-check-chip: the module names no target chip; "
                            "run hk-target=chip=<chip> first (known chips: "
                         << ChipInfo::knownChipNames() << ")";
      return signalPassFailure();
    }
    if (failed(verifyChipLegality(module, target.getChipInfo())))
      signalPassFailure();
  }
};
} // namespace
