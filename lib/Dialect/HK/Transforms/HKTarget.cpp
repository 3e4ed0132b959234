//===- HKTarget.cpp - Name the target chip of a module --------------------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

namespace hk {
#define GEN_PASS_DEF_HKTARGET
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {
struct HKTargetPass : public hk::impl::HKTargetBase<HKTargetPass> {
  using HKTargetBase::HKTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (chip.empty()) {
      module.emitError() << "hk-target: no chip given; set its chip option "
                            "(known chips: "
                         << ChipInfo::knownChipNames() << ")";
      return signalPassFailure();
    }
    if (!ChipInfo::lookup(chip)) {
      module.emitError() << "hk-target: unknown chip '" << chip
                         << "'; known chips: " << ChipInfo::knownChipNames();
      return signalPassFailure();
    }
    StringRef name = HKDialect::getTargetAttrName();
    if (auto existing = module->getAttrOfType<TargetAttr>(name)) {
      if (ChipInfo::lookup(existing.getChip()) == ChipInfo::lookup(chip))
        return;
      module.emitError() << "module targets " << existing.getChip() << ", not "
                         << chip;
      return signalPassFailure();
    }
    module->setAttr(name, TargetAttr::get(&getContext(), chip));
  }
};
} // namespace
