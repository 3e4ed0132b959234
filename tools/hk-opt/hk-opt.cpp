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
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllPasses();
  registry.insert<hk::HKDialect>();
  hk::registerHKPasses();
  hk::registerHKConversionPasses();
  hk::registerHKPipeline();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "HK-MLIR optimizer driver\n", registry));
}
