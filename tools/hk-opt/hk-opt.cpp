//===- hk-opt.cpp - The hk optimizer driver -------------------------------===//
//
// mlir-opt with the hk dialect, its passes and pipeline, and the upstream
// dialects and passes the pipeline lowers through.
//
//===----------------------------------------------------------------------===//

#include "hk/Conversion/Passes.h"
#include "hk/Dialect/HK/IR/HKDialect.h"
#include "hk/Dialect/HK/Transforms/Passes.h"
#include "hk/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

/// MLIR attaches a dump of the failing op to every diagnostic; for a pass
/// that fails on the module that is the whole module, after a message that
/// already names the source line. hk-opt prints the message alone unless
/// --mlir-print-op-on-diagnostic asks for the dump.
static void printOpOnDiagnosticOnlyOnRequest() {
  mlir::registerMLIRContextCLOptions();
  llvm::cl::Option *option =
      llvm::cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic");
  if (auto *printOp = static_cast<llvm::cl::opt<bool> *>(option))
    printOp->setInitialValue(false);
}

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllPasses();
  registry.insert<hk::HKDialect>();
  hk::registerHKPasses();
  hk::registerHKConversionPasses();
  hk::registerHKPipeline();
  printOpOnDiagnosticOnlyOnRequest();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "HK-MLIR optimizer driver\n", registry));
}
