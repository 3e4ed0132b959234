//===- Pipelines.h - Named hk pass pipelines ----------------------*- C++
//-*-===//

#ifndef HK_PIPELINES_PIPELINES_H
#define HK_PIPELINES_PIPELINES_H

#include "hk/Pipelines/CompileOptions.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace hk {

/// --hk-pipeline's options: the chip, then those of CompileOptions.def.
struct PipelineOptions : public mlir::PassPipelineOptions<PipelineOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target chip: gfx942 or gfx950 (required)")};
#define HK_COMPILE_OPTION(NAME, ARG, TYPE, INIT, DESC, EXTRA)                  \
  Option<TYPE> NAME{*this, ARG, llvm::cl::desc(DESC), llvm::cl::init(INIT),    \
                    EXTRA};
#include "hk/Pipelines/CompileOptions.def"

  CompileOptions getCompileOptions() const;
  void setCompileOptions(const CompileOptions &options);
};

/// hk tile program -> LLVM + ROCDL dialects ready for hk-translate.
void buildHKPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers `--hk-pipeline` with the pass registry.
void registerHKPipeline();

} // namespace hk

#endif // HK_PIPELINES_PIPELINES_H
