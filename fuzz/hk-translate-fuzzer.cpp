//===- hk-translate-fuzzer.cpp - Fuzz LLVM dialect to code object ---------===//
//
// One input is MLIR text, normally in the LLVM and ROCDL dialects (what
// hk-opt's pipeline produces). What parses is compiled as hk-translate does:
// to LLVM IR, through the AMDGPU backend and lld into a code object, for the
// module's hk.target or, without one, a chip the input picks.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Support/ChipInfo.h"
#include "hk/Support/ParserGuard.h"
#include "hk/Target/HSACO.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

static const mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    mlir::registerAllDialects(*r);
    r->insert<hk::HKDialect>();
    hk::registerHsacoTranslations(*r);
    return r;
  }();
  return *registry;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text = hk::fuzz::asString(data, size);
  if (hk::findKnownParserCrash(text))
    return 0;
  mlir::MLIRContext context(registry(), mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler drop(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text),
                               llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module || hk::findUntranslatableOp(*module))
    return 0;
  hk::TargetOptions options;
  options.chip = &hk::ChipInfo::all()[hk::fuzz::pick(text, 2)];
  if (auto target = (*module)->getAttrOfType<hk::TargetAttr>(
          hk::HKDialect::getTargetAttrName()))
    options.chip = &target.getChipInfo();
  llvm::Expected<std::string> hsaco =
      hk::compileModule(*module, options, hk::EmitKind::Hsaco);
  if (!hsaco)
    llvm::consumeError(hsaco.takeError());
  return 0;
}
