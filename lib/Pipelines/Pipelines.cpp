//===- Pipelines.cpp - Named hk pass pipelines ----------------------------===//

#include "hk/Pipelines/Pipelines.h"

#include "hk/Conversion/Passes.h"
#include "hk/Dialect/HK/Transforms/Passes.h"
#include "hk/Support/ChipInfo.h"

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
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

hk::CompileOptions hk::PipelineOptions::getCompileOptions() const {
  CompileOptions options;
#define HK_COMPILE_OPTION(NAME, ARG, TYPE, INIT, DESC, EXTRA)                  \
  options.NAME = NAME;
#include "hk/Pipelines/CompileOptions.def"
  return options;
}

void hk::PipelineOptions::setCompileOptions(const CompileOptions &options) {
#define HK_COMPILE_OPTION(NAME, ARG, TYPE, INIT, DESC, EXTRA)                  \
  NAME = options.NAME;
#include "hk/Pipelines/CompileOptions.def"
}

/// Says what is wrong with one `name=value` word before the pipeline's
/// parser sees it: that parser reports on stderr, not to its caller.
static llvm::Error
checkOptionWord(llvm::StringRef word,
                llvm::ArrayRef<hk::CompileOptionInfo> known) {
  auto fail = [&](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  auto [name, value] = word.split('=');
  const hk::CompileOptionInfo *info = nullptr;
  std::string names;
  for (const hk::CompileOptionInfo &option : known) {
    names += (names.empty() ? "" : ", ") + option.name;
    if (option.name == name)
      info = &option;
  }
  if (name == "chip")
    return fail("the chip is not a compile option here; give it apart");
  if (!info)
    return fail("unknown compile option '" + name + "'; known: " + names);
  if (info->kind == "enum" && !llvm::is_contained(info->values, value))
    return fail("compile option " + name + " must be one of " +
                llvm::join(info->values, ", ") + ", got '" + value + "'");
  unsigned number;
  if (info->kind == "unsigned" && value.getAsInteger(10, number))
    return fail("compile option " + name +
                " must be a non-negative integer, got '" + value + "'");
  int signedNumber;
  if (info->kind == "int" &&
      (value.getAsInteger(10, signedNumber) || signedNumber < -1))
    return fail("compile option " + name +
                " must be an integer of at least -1, got '" + value + "'");
  if (info->kind == "bool" &&
      !llvm::is_contained({"true", "false", "1", "0"}, value))
    return fail("compile option " + name + " must be true or false, got '" +
                value + "'");
  return llvm::Error::success();
}

llvm::Expected<hk::CompileOptions>
hk::CompileOptions::parse(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> words;
  text.split(words, ' ', -1, /*KeepEmpty=*/false);
  std::vector<CompileOptionInfo> known = listCompileOptions();
  for (llvm::StringRef word : words)
    if (llvm::Error error = checkOptionWord(word, known))
      return std::move(error);
  PipelineOptions options;
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(options.parseFromString(text, os)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad compile options '" + text + "': " +
                                       llvm::StringRef(errors).trim().str());
  return options.getCompileOptions();
}

/// How an option's value is written in --hk-pipeline's syntax.
static std::string optionText(bool value) { return value ? "true" : "false"; }
static std::string optionText(unsigned value) { return std::to_string(value); }
static std::string optionText(int value) { return std::to_string(value); }
static std::string optionText(hk::DirectMode value) {
  switch (value) {
  case hk::DirectMode::Auto:
    return "auto";
  case hk::DirectMode::Always:
    return "always";
  case hk::DirectMode::Never:
    return "never";
  }
  llvm_unreachable("unknown DirectMode");
}
static std::string optionText(hk::PriorityMode value) {
  switch (value) {
  case hk::PriorityMode::Auto:
    return "auto";
  case hk::PriorityMode::Always:
    return "true";
  case hk::PriorityMode::Never:
    return "false";
  }
  llvm_unreachable("unknown PriorityMode");
}

static std::string optionKind(bool) { return "bool"; }
static std::string optionKind(unsigned) { return "unsigned"; }
static std::string optionKind(int) { return "int"; }
static std::string optionKind(hk::DirectMode) { return "enum"; }
static std::string optionKind(hk::PriorityMode) { return "enum"; }

std::string hk::CompileOptions::str() const {
  CompileOptions defaults;
  std::string text;
#define HK_COMPILE_OPTION(NAME, ARG, TYPE, INIT, DESC, EXTRA)                  \
  if (NAME != defaults.NAME)                                                   \
    text += std::string(text.empty() ? "" : " ") + ARG + "=" + optionText(NAME);
#include "hk/Pipelines/CompileOptions.def"
  return text;
}

/// An enum option's values, from its parser: the list cl::values gave it.
template <typename Option, typename T>
static std::vector<std::string> optionValues(Option &option, T) {
  std::vector<std::string> values;
  if constexpr (std::is_enum_v<T>)
    for (unsigned i = 0, e = option.getParser().getNumOptions(); i < e; ++i)
      values.push_back(option.getParser().getOption(i).str());
  return values;
}

std::vector<hk::CompileOptionInfo> hk::listCompileOptions() {
  std::vector<CompileOptionInfo> list;
  PipelineOptions options;
  CompileOptions defaults;
#define HK_COMPILE_OPTION(NAME, ARG, TYPE, INIT, DESC, EXTRA)                  \
  list.push_back({ARG, optionKind(defaults.NAME), optionText(defaults.NAME),   \
                  DESC, optionValues(options.NAME, defaults.NAME)});
#include "hk/Pipelines/CompileOptions.def"
  return list;
}

void hk::buildHKSchedulePipeline(OpPassManager &pm,
                                 const SchedulePipelineOptions &options) {
  pm.addPass(createHKDoubleBuffer());
  pm.addPass(createHKPingPong(HKPingPongOptions{options.setprio}));
  HKInterleaveOptions interleave;
  interleave.mfmaPerGroup = options.mfmaPerGroup;
  interleave.dsReadsPerGroup = options.dsReadsPerGroup;
  interleave.vmemPerGroup = options.vmemPerGroup;
  interleave.priorities = options.setprio != PriorityMode::Never;
  pm.addPass(createHKInterleave(interleave));
}

void hk::buildHKPipeline(OpPassManager &pm, const PipelineOptions &options) {
  pm.addPass(createHKTarget(HKTargetOptions{options.chip}));
  pm.addPass(createHKCheckChip());
  pm.addPass(createHKGridSwizzle(
      HKGridSwizzleOptions{options.gridChunk, options.gridGroup}));
  pm.addPass(createHKMfmaLayout());
  SchedulePipelineOptions schedule;
  schedule.setprio = options.setprio;
  schedule.mfmaPerGroup = options.mfmaPerGroup;
  schedule.dsReadsPerGroup = options.dsReadsPerGroup;
  schedule.vmemPerGroup = options.vmemPerGroup;
  buildHKSchedulePipeline(pm, schedule);
  pm.addPass(createHKBufferLoads(HKBufferLoadsOptions{options.direct}));
  pm.addPass(createHKLdsLayout(HKLdsLayoutOptions{options.ldsSwizzle}));
  pm.addPass(createConvertHKToAMDGPU(ConvertHKToAMDGPUOptions{
      options.exactWaits, /*scratchSwizzle=*/options.ldsSwizzle}));
  // Without scf.if's if-to-select pattern: on a branch that stays for its
  // side effects (a tile's stores), it adds a select per register of every
  // register tile the branch yields from outside (an accumulator's restart
  // at zero), run whichever way the branch goes. LLVM still turns branches
  // with nothing to do into selects where that is cheaper.
  pm.addPass(createCanonicalizerPass(
      GreedyRewriteConfig(),
      /*disabledPatterns=*/{
          "(anonymous namespace)::ConvertTrivialIfToSelect"}));
  pm.addPass(createCSEPass());
  pm.addPass(createHKHoistLoopSetup());
  if (options.unswitch)
    pm.addPass(createHKUnswitchLoops());
  if (options.peelZeroStart)
    pm.addPass(createHKPeelZeroStart());

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
  PassPipelineRegistration<SchedulePipelineOptions>(
      "hk-schedule",
      "Apply each kernel's schedule: hk-double-buffer, hk-ping-pong, "
      "hk-interleave",
      buildHKSchedulePipeline);
  // Registered by hand rather than through PassPipelineRegistration, to
  // name a missing or unknown chip while the pipeline is built: the
  // upstream passes at its end take the chip too.
  registerPassPipeline(
      "hk-pipeline",
      "Lower an hk tile program to the LLVM and ROCDL dialects for a chip",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        PipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (options.chip.empty())
          return errorHandler("--hk-pipeline needs a chip: "
                              "--hk-pipeline=chip=<chip> (known chips: " +
                              ChipInfo::knownChipNames() + ")");
        if (!ChipInfo::lookup(options.chip))
          return errorHandler("--hk-pipeline: unknown chip '" + options.chip +
                              "'; known chips: " + ChipInfo::knownChipNames());
        buildHKPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(PipelineOptions());
      });
}
