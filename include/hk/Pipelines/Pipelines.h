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

/// --hk-schedule's options: those of hk-ping-pong and hk-interleave.
struct SchedulePipelineOptions
    : public mlir::PassPipelineOptions<SchedulePipelineOptions> {
  Option<PriorityMode> setprio{
      *this, "setprio",
      llvm::cl::desc("Run MFMA work at raised priority with s_setprio: "
                     "auto, true or false (ping-pong compute clusters; "
                     "interleave clusters' MFMAs beside a softmax)"),
      llvm::cl::init(PriorityMode::Auto), HK_PRIORITY_MODE_VALUES};
  Option<int> mfmaPerGroup{
      *this, "mfma-per-group",
      llvm::cl::desc("Interleave: MFMAs per scheduling group (-1: the cost "
                     "function's choice)"),
      llvm::cl::init(-1)};
  Option<int> dsReadsPerGroup{
      *this, "ds-reads-per-group",
      llvm::cl::desc("Interleave: LDS reads after each MFMA group (-1: the "
                     "cost function's choice)"),
      llvm::cl::init(-1)};
  Option<int> vmemPerGroup{
      *this, "vmem-per-group",
      llvm::cl::desc("Interleave: vector-memory reads after each MFMA group "
                     "(-1: the cost function's choice)"),
      llvm::cl::init(-1)};
};

/// The schedule passes in order: hk-double-buffer, hk-ping-pong,
/// hk-interleave. Needs MFMA instructions (hk-mfma-layout) and a target.
void buildHKSchedulePipeline(mlir::OpPassManager &pm,
                             const SchedulePipelineOptions &options);

/// hk tile program -> LLVM + ROCDL dialects ready for hk-translate.
void buildHKPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers `--hk-pipeline` and `--hk-schedule` with the pass registry.
void registerHKPipeline();

} // namespace hk

#endif // HK_PIPELINES_PIPELINES_H
