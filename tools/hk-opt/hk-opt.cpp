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
#include "hk/Support/ParserGuard.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

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

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "hk-opt") << message << "\n";
  return 1;
}

static void onFatalError(void *, const char *reason, bool) {
  llvm::WithColor::error(llvm::errs(), "hk-opt") << reason << "\n";
  std::exit(1);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllPasses();
  registry.insert<hk::HKDialect>();
  hk::registerHKPasses();
  hk::registerHKConversionPasses();
  hk::registerHKPipeline();
  printOpOnDiagnosticOnlyOnRequest();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "HK-MLIR optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  llvm::install_fatal_error_handler(onFatalError);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input)
    return fail(error);
  // Input MLIR's parser would crash on is reported before it gets there.
  {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(), false),
        llvm::SMLoc());
    if (hk::reportKnownParserCrash(sourceMgr, llvm::errs()))
      return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output)
    return fail(error);
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->os().flush();
  if (output->os().has_error()) {
    std::string message = output->os().error().message();
    output->os().clear_error();
    return fail("cannot write '" + outputFilename + "': " + message);
  }
  output->keep();
  return 0;
}
