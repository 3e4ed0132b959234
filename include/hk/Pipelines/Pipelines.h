//===- Pipelines.h - Named hk pass pipelines ----------------------*- C++
//-*-===//

#ifndef HK_PIPELINES_PIPELINES_H
#define HK_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace hk {

struct PipelineOptions : public mlir::PassPipelineOptions<PipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip: gfx942 or gfx950")};
  Option<std::string> direct{
      *this, "direct",
      llvm::cl::desc("Direct-to-LDS group loads: auto, always or never"),
      llvm::cl::init("auto")};
  Option<bool> exactWaits{
      *this, "exact-waits",
      llvm::cl::desc("Wait for exact vmcnt values instead of draining"),
      llvm::cl::init(true)};
  Option<unsigned> gridChunk{
      *this, "grid-chunk",
      llvm::cl::desc("Consecutive blocks per XCD (0: hardware order)"),
      llvm::cl::init(0)};
  Option<unsigned> gridGroup{
      *this, "grid-group",
      llvm::cl::desc("Block rows per group of the block order (0: row-major)"),
      llvm::cl::init(0)};
  Option<unsigned> mfmaPerGroup{
      *this, "mfma-per-group",
      llvm::cl::desc("Interleave schedule: MFMAs per scheduling group"),
      llvm::cl::init(1)};
  Option<unsigned> dsReadsPerGroup{
      *this, "ds-reads-per-group",
      llvm::cl::desc("Interleave schedule: LDS reads after each MFMA group"),
      llvm::cl::init(1)};
  Option<unsigned> vmemPerGroup{
      *this, "vmem-per-group",
      llvm::cl::desc(
          "Interleave schedule: vector-memory reads after each MFMA group"),
      llvm::cl::init(1)};
  Option<bool> ldsSwizzle{
      *this, "lds-swizzle",
      llvm::cl::desc("Swizzle shared tiles and conversion scratch against "
                     "bank conflicts"),
      llvm::cl::init(true)};
};

/// hk tile program -> LLVM + ROCDL dialects ready for hk-translate.
void buildHKPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers `--hk-pipeline` with the pass registry.
void registerHKPipeline();

} // namespace hk

#endif // HK_PIPELINES_PIPELINES_H
