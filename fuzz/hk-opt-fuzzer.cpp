//===- hk-opt-fuzzer.cpp - Fuzz parsing, verifying and lowering hk --------===//
//
// One input is MLIR text. It is scanned for what MLIR's parser crashes on,
// parsed and verified with every dialect hk-opt knows, and, when it parses,
// lowered by the whole hk pipeline for gfx942 or gfx950 (the input picks).
// Diagnostics are the expected outcome of bad input and are dropped.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "hk/Dialect/HK/IR/HKDialect.h"
#include "hk/Pipelines/Pipelines.h"
#include "hk/Support/ParserGuard.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

static const mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    mlir::registerAllDialects(*r);
    r->insert<hk::HKDialect>();
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
  if (!module)
    return 0;
  hk::PipelineOptions options;
  options.chip = hk::fuzz::pick(text, 2) ? "gfx950" : "gfx942";
  mlir::PassManager pm(&context);
  hk::buildHKPipeline(pm, options);
  (void)pm.run(*module);
  return 0;
}
