//===- HKDialect.cpp - The hk tile dialect --------------------------------===//

#include "hk/Dialect/HK/IR/HKDialect.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/KernelSignature.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace hk;

#include "hk/Dialect/HK/IR/HKDialect.cpp.inc"

void HKDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "hk/Dialect/HK/IR/HKOps.cpp.inc"
      >();
}

/// `hk.schedule` names the one loop of a kernel that hk-schedule realises.
static LogicalResult verifyLoopSchedule(Operation *op, Attribute schedule) {
  StringLiteral name = HKDialect::getScheduleAttrName();
  auto kernel = dyn_cast_if_present<KernelOp>(op->getParentOp());
  if (!isa<scf::ForOp>(op) || !kernel)
    return op->emitError() << "'" << name
                           << "' belongs on an scf.for directly in an "
                              "hk.kernel body";
  if (kernel.getScheduleAttr())
    return op->emitError() << "'" << name << "' on a loop of a kernel that "
                           << "has a schedule of its own; put the schedule "
                              "on the kernel or on one loop, not both";
  if (kernel.getScheduledLoop() != op)
    return op->emitError() << "'" << name << "' on a second loop; a kernel "
                           << "schedules at most one loop";
  return verifyScheduleFits(schedule, kernel.getWaves(),
                            [&] { return op->emitError(); });
}

/// A kernel attribute whose value is an `AttrT` (#hk.<mnemonic><...>).
template <typename AttrT>
static LogicalResult verifyKernelAttribute(Operation *op, NamedAttribute attr) {
  if (!isa<KernelOp>(op))
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' belongs on an hk.kernel";
  if (!isa<AttrT>(attr.getValue()))
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be a #hk." << AttrT::getMnemonic()
                           << "<...>, got " << attr.getValue();
  return success();
}

LogicalResult HKDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() == getGridSwizzleAttrName())
    return verifyKernelAttribute<GridSwizzleAttr>(op, attr);
  if (attr.getName() == getGridOrderAttrName())
    return verifyKernelAttribute<GridOrderAttr>(op, attr);
  if (attr.getName() == getScheduleAttrName())
    return verifyLoopSchedule(op, attr.getValue());
  // Launch facts the lowering hands to launchers (see LaunchGrid.h).
  if (attr.getName() == kLaunchGridAttrName) {
    unsigned params = 0;
    if (auto kernel = dyn_cast<KernelOp>(op))
      params = kernel.getArgumentTypes().size();
    else if (auto type = op->getAttrOfType<TypeAttr>(kKernelTypeAttrName))
      if (auto function = dyn_cast<FunctionType>(type.getValue()))
        params = function.getNumInputs();
    if (!launchGridFromAttr(attr.getValue(), params))
      return op->emitError()
             << "'" << kLaunchGridAttrName
             << "' must be three arrays of [parameter, dimension, extent] "
                "triples naming parameters of the kernel, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kKernelTypeAttrName) {
    auto type = dyn_cast<TypeAttr>(attr.getValue());
    if (!type || !isa<FunctionType>(type.getValue()))
      return op->emitError()
             << "'" << kKernelTypeAttrName << "' must be a function type, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kSourceRecordsAttrName) {
    auto records = dyn_cast<ArrayAttr>(attr.getValue());
    if (!records ||
        !llvm::all_of(records, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitError()
             << "'" << kSourceRecordsAttrName
             << "' must be an array of strings, got " << attr.getValue();
    return success();
  }
  if (attr.getName() != getTargetAttrName())
    return op->emitError() << "unknown hk attribute '"
                           << attr.getName().getValue() << "'";
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << getTargetAttrName()
                           << "' belongs on a builtin.module";
  if (!isa<TargetAttr>(attr.getValue()))
    return op->emitError() << "'" << getTargetAttrName()
                           << "' must be a #hk.target<\"chip\">, got "
                           << attr.getValue();
  return success();
}

const ChipInfo *hk::lookupTargetChip(Operation *op) {
  for (Operation *cur = op; cur; cur = cur->getParentOp())
    if (auto target =
            cur->getAttrOfType<TargetAttr>(HKDialect::getTargetAttrName()))
      return ChipInfo::lookup(target.getChip());
  return nullptr;
}
