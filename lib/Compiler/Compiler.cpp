//===- Compiler.cpp - hk source to code object, in process ----------------===//

#include "hk/Compiler/Compiler.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/KernelSignature.h"
#include "hk/Pipelines/Pipelines.h"
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

  mlir::PassManager pm(&context);
  PipelineOptions options;
  options.chip = chip.name.str();
  options.setCompileOptions(compileOptions);
  buildHKPipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return fail("cannot lower " + bufferName.str() + " for " + chip.name.str());

  TargetOptions target;
  target.chip = &chip;
  llvm::Expected<std::string> hsaco =
      compileModule(*module, target, EmitKind::Hsaco);
  if (!hsaco)
    return hsaco.takeError();
  result.hsaco = std::move(*hsaco);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}
