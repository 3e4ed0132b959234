//===- Pipelines.cpp - Named hk pass pipelines ----------------------------===//

#include "hk/Pipelines/Pipelines.h"

#include "hk/Conversion/Passes.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

#include "mlir/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.h"
#include "mlir/Conversion/ArithToAMDGPU/ArithToAMDGPU.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void hk::buildHKPipeline(OpPassManager &pm, const PipelineOptions &options) {
  pm.addPass(createHKTarget(HKTargetOptions{options.chip}));
  pm.addPass(createHKGridSwizzle(
      HKGridSwizzleOptions{options.gridChunk, options.gridGroup}));
  pm.addPass(createHKMfmaLayout());
  pm.addPass(createHKSchedule(HKScheduleOptions{
      options.mfmaPerGroup, options.dsReadsPerGroup, options.vmemPerGroup}));
  pm.addPass(createHKBufferLoads(HKBufferLoadsOptions{options.direct}));
  pm.addPass(createHKLdsLayout(HKLdsLayoutOptions{options.ldsSwizzle}));
  pm.addPass(createConvertHKToAMDGPU(ConvertHKToAMDGPUOptions{
      options.exactWaits, /*scratchSwizzle=*/options.ldsSwizzle}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Upstream conversions to the LLVM and ROCDL dialects. Index arithmetic is
  // 32-bit, like the kernel ABI's sizes and strides.
  ArithToAMDGPUConversionPassOptions arithToAMDGPU;
  arithToAMDGPU.chipset = options.chip;
  arithToAMDGPU.saturateFP8Truncf = true;
  pm.addPass(createArithToAMDGPUConversionPass(arithToAMDGPU));
  ConvertAMDGPUToROCDLPassOptions amdgpuToROCDL;
  amdgpuToROCDL.chipset = options.chip;
  pm.addPass(createConvertAMDGPUToROCDLPass(amdgpuToROCDL));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertVectorToLLVMPass());
  ArithToLLVMConversionPassOptions arithToLLVM;
  arithToLLVM.indexBitwidth = 32;
  pm.addPass(createArithToLLVMConversionPass(arithToLLVM));
  ConvertControlFlowToLLVMPassOptions cfToLLVM;
  cfToLLVM.indexBitwidth = 32;
  pm.addPass(createConvertControlFlowToLLVMPass(cfToLLVM));
  ConvertIndexToLLVMPassOptions indexToLLVM;
  indexToLLVM.indexBitwidth = 32;
  pm.addPass(createConvertIndexToLLVMPass(indexToLLVM));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void hk::registerHKPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "hk-pipeline",
      "Lower an hk tile program to the LLVM and ROCDL dialects for a chip",
      buildHKPipeline);
}
