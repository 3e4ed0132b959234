//===- LdsLayout.cpp - Bank-conflict-free swizzles for shared tiles -------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/LdsCost.h"
#include "hk/Dialect/HK/IR/TileAccess.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

#include "ValueClasses.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

namespace hk {
#define GEN_PASS_DEF_HKLDSLAYOUT
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

class LdsLayoutPass : public hk::impl::HKLdsLayoutBase<LdsLayoutPass> {
public:
  using HKLdsLayoutBase::HKLdsLayoutBase;

  void runOnOperation() override {
    // Shared tiles joined by selects, branches or loops (double buffers)
    // must share one swizzle: choose it for the uses of all of them.
    // Row slices view their tile's LDS with its swizzle.
    ValueClasses<SharedTileType> classes;
    getOperation().walk([&](Operation *op) {
      if (auto slice = dyn_cast<SliceOp>(op))
        classes.merge(slice.getSource(), slice.getResult());
      classes.visitControlFlow(op);
    });
    for (auto &[root, members] : classes.classes()) {
      auto type = cast<SharedTileType>(root.getType());
      // A swizzle written on one member (an allocation) holds for all.
      SwizzleAttr chosen;
      for (Value member : members)
        if (auto written = dyn_cast_if_present<SwizzleAttr>(
                cast<SharedTileType>(member.getType()).getSwizzle()))
          chosen = written;
      if (!chosen && !swizzle) {
        chosen = SwizzleAttr::get(&getContext(), 1, 1, 1);
      } else if (!chosen) {
        Operation *anchor = root.getDefiningOp()
                                ? root.getDefiningOp()
                                : root.getParentRegion()->getParentOp();
        const ChipInfo *chip = lookupTargetChip(anchor);
        if (!chip) {
          anchor->emitOpError()
              << "needs a target chip to choose a swizzle; run hk-target first";
          return signalPassFailure();
        }
        chosen = choose(*chip, members, type);
      }
      for (Value member : members)
        member.setType(
            cast<SharedTileType>(member.getType()).withSwizzle(chosen));
    }
  }

private:
  SwizzleAttr choose(const ChipInfo &chip, ArrayRef<Value> members,
                     SharedTileType type) {
    SmallVector<Operation *> uses;
    for (Value member : members)
      for (Operation *user : member.getUsers())
        uses.push_back(user);
    // A slice starting at row r keeps the swizzle only when the swizzle's
    // rows repeat with a period that divides r.
    SmallVector<int64_t> sliceRows;
    for (Value member : members)
      if (auto slice = member.getDefiningOp<SliceOp>())
        sliceRows.push_back(slice.getOffsets()[0]);
    LdsAccessModel model(chip, type);
    return pickSwizzle(&getContext(), type.getCols(),
                       getElementBits(type.getElementType()) / 8,
                       [&](SwizzleAttr candidate) -> std::optional<LdsCost> {
                         int64_t period = candidate.getRowPeriod();
                         for (int64_t row : sliceRows)
                           if (row % period)
                             return std::nullopt;
                         return model.evaluate(candidate, uses);
                       });
  }
};

} // namespace
