//===- Compiler.cpp - hk source to code object, in process ----------------===//

#include "hk/Compiler/Compiler.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/KernelSignature.h"
#include "hk/Pipelines/Pipelines.h"
#include "hk/Runtime/CodeObject.h"
#include "hk/Support/ChipInfo.h"
#include "hk/Support/ParserGuard.h"
#include "hk/Target/HSACO.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>

using namespace hk;

const KernelSignature *CompiledModule::findKernel(llvm::StringRef name) const {
  for (const KernelSignature &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

/// The kernels of the code object `hsaco` that spill registers (none when
/// it cannot be read: loading it reports that).
static std::vector<std::string> spillingKernels(llvm::StringRef hsaco) {
  std::vector<std::string> names;
  llvm::Expected<CodeObject> object = CodeObject::parse(hsaco);
  if (!object) {
    llvm::consumeError(object.takeError());
    return names;
  }
  for (const KernelInfo &kernel : object->getKernels())
    if (kernel.spills())
      names.push_back(kernel.name);
  return names;
}

llvm::Expected<CompiledModule>
hk::compileSource(llvm::StringRef source, llvm::StringRef bufferName,
                  const ChipInfo &chip, const CompileOptions &compileOptions) {
  auto start = std::chrono::steady_clock::now();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registry.insert<HKDialect>();
  registerHsacoTranslations(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  // Messages name the source line; the op dump would only repeat it.
  context.printOpOnDiagnostic(false);

  // Collect diagnostics into the error message, one per line.
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagStream);
  auto fail = [&](llvm::StringRef what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   what + ":\n" + diagnostics);
  };

  if (reportKnownParserCrash(sourceMgr, diagStream))
    return fail("cannot parse " + bufferName.str());
  // Verified apart, so that a module that parses but breaks an op's rules
  // is not called unparsable.
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(
          sourceMgr, mlir::ParserConfig(&context, /*verifyAfterParse=*/false));
  if (!module)
    return fail("cannot parse " + bufferName.str());
  if (mlir::failed(mlir::verify(*module)))
    return fail("invalid " + bufferName.str());

  CompiledModule result;
  for (KernelOp kernel : module->getOps<KernelOp>())
    result.kernels.push_back(getKernelSignature(kernel));

  // Lowers a copy of the module with `options` to a code object.
  auto lower =
      [&](const CompileOptions &compile) -> llvm::Expected<std::string> {
    mlir::OwningOpRef<mlir::ModuleOp> copy = module->clone();
    mlir::PassManager pm(&context);
    PipelineOptions options;
    options.chip = chip.name.str();
    options.setCompileOptions(compile);
    buildHKPipeline(pm, options);
    if (mlir::failed(pm.run(*copy)))
      return fail("cannot lower " + bufferName.str() + " for " +
                  chip.name.str());
    TargetOptions target;
    target.chip = &chip;
    return compileModule(*copy, target, EmitKind::Hsaco);
  };
  llvm::Expected<std::string> hsaco = lower(compileOptions);
  if (!hsaco)
    return hsaco.takeError();
  result.hsaco = std::move(*hsaco);
  // The loop copies of hk-unswitch-loops can leave LLVM's register
  // allocator short of registers where one loop fitted: then the module is
  // compiled again with one copy per loop, kept when fewer kernels spill,
  // with the kernels it saved named.
  if (compileOptions.unswitch) {
    std::vector<std::string> spilled = spillingKernels(result.hsaco);
    if (!spilled.empty()) {
      CompileOptions single = compileOptions;
      single.unswitch = false;
      llvm::Expected<std::string> again = lower(single);
      if (!again)
        return again.takeError();
      std::vector<std::string> still = spillingKernels(*again);
      if (still.size() < spilled.size()) {
        result.hsaco = std::move(*again);
        for (std::string &name : spilled)
          if (!llvm::is_contained(still, name))
            result.unswitchSpilled.push_back(std::move(name));
      }
    }
  }
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}
