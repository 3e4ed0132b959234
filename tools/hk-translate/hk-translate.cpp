//===- hk-translate.cpp - LLVM/ROCDL dialect to AMDGPU code objects -------===//
//
//   hk-opt --hk-pipeline=chip=gfx950 k.mlir | hk-translate --emit=hsaco -o
//   k.hsaco
//
// Every failure is one line on stderr and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/KernelSignature.h"
#include "hk/Runtime/HostHeader.h"
#include "hk/Support/ChipInfo.h"
#include "hk/Support/ParserGuard.h"
#include "hk/Target/HSACO.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static cl::OptionCategory category("hk-translate options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir>"),
                                          cl::init("-"), cl::cat(category));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("file"),
                                           cl::init("-"), cl::cat(category));
// A string rather than a cl::values enum: the command-line library reports
// a bad value without the "error:" prefix every other failure has.
static cl::opt<std::string>
    emitOption("emit",
               cl::desc("What to produce: llvm (LLVM IR), asm (AMDGPU "
                        "assembly), obj (relocatable object), hsaco "
                        "(loadable code object, the default) or header (a "
                        "C/C++ header embedding the code object, with an "
                        "argument struct and a launch function per kernel)"),
               cl::value_desc("kind"), cl::init("hsaco"), cl::cat(category));
static cl::opt<std::string>
    chipName("chip",
             cl::desc("Target chip (gfx942, gfx950); defaults to the "
                      "module's hk.target"),
             cl::cat(category));
static cl::opt<std::string>
    features("features", cl::desc("Target features, e.g. +sramecc,-xnack"),
             cl::cat(category));
static cl::opt<unsigned>
    codeObjectVersion("code-object-version",
                      cl::desc("AMDHSA code object version (4, 5 or 6)"),
                      cl::init(5), cl::cat(category));
static cl::opt<std::string> headerPrefix(
    "header-prefix",
    cl::desc("--emit=header: prefix of the module-level names (default: "
             "the output file's name, else the input's)"),
    cl::value_desc("name"), cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level"),
                                  cl::Prefix, cl::init(3), cl::cat(category));

static int fail(const Twine &message) {
  WithColor::error(errs(), "hk-translate") << message << "\n";
  return 1;
}

static void onFatalError(void *, const char *reason, bool) {
  WithColor::error(errs(), "hk-translate") << "LLVM: " << reason << "\n";
  std::exit(1);
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "HK-MLIR: LLVM/ROCDL dialect to AMDGPU code "
                              "objects\n");
  install_fatal_error_handler(onFatalError);
  std::optional<hk::EmitKind> emitKind =
      StringSwitch<std::optional<hk::EmitKind>>(emitOption)
          .Case("llvm", hk::EmitKind::LLVM)
          .Case("asm", hk::EmitKind::Assembly)
          .Case("obj", hk::EmitKind::Object)
          .Case("hsaco", hk::EmitKind::Hsaco)
          .Case("header", hk::EmitKind::Hsaco)
          .Default(std::nullopt);
  if (!emitKind)
    return fail("unknown --emit kind '" + emitOption +
                "'; expected llvm, asm, obj, hsaco or header");
  const bool emitHeader = emitOption == "header";
  if (!headerPrefix.empty() && !emitHeader)
    return fail("--header-prefix applies to --emit=header only");
  std::string prefix = headerPrefix;
  if (prefix.empty() && emitHeader)
    prefix = hk::toCIdentifier(
        outputFilename != "-"  ? sys::path::stem(outputFilename)
        : inputFilename != "-" ? sys::path::stem(inputFilename)
                               : StringRef("hk_module"));
  if (emitHeader && !hk::isCIdentifier(prefix))
    return fail("--header-prefix '" + prefix + "' is not a C identifier");

  // Every dialect parses, so that input that was not lowered gets the
  // message below rather than a parser error naming its first dialect.
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registry.insert<hk::HKDialect>();
  hk::registerHsacoTranslations(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Messages name the source line; the op dump would only repeat it.
  context.printOpOnDiagnostic(false);

  std::string error;
  std::unique_ptr<MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input)
    return fail(error);
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  if (hk::reportKnownParserCrash(sourceMgr, errs()))
    return 1;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1; // The parser has reported the error with its location.

  if (mlir::Operation *op = hk::findUntranslatableOp(*module)) {
    op->emitError() << "hk-translate needs the LLVM and ROCDL dialects only; "
                       "lower '"
                    << op->getName()
                    << "' first (hk-opt --hk-pipeline=chip=...)";
    return 1;
  }

  // The chip: --chip, else the module's hk.target; both must agree.
  std::string chip = chipName;
  if (auto target = (*module)->getAttrOfType<hk::TargetAttr>(
          hk::HKDialect::getTargetAttrName())) {
    if (!chip.empty() && hk::ChipInfo::lookup(chip) &&
        hk::ChipInfo::lookup(chip) != &target.getChipInfo())
      return fail("--chip=" + chip + " contradicts the module's hk.target '" +
                  target.getChip() + "'");
    if (chip.empty())
      chip = target.getChip().str();
  }
  if (chip.empty())
    return fail("no target chip: pass --chip (known chips: " +
                hk::ChipInfo::knownChipNames() + ")");
  hk::TargetOptions options;
  options.chip = hk::ChipInfo::lookup(chip);
  if (!options.chip)
    return fail("unknown chip '" + chip +
                "'; known chips: " + hk::ChipInfo::knownChipNames());
  options.features = features;
  options.codeObjectVersion = codeObjectVersion;
  options.optLevel = optLevel;
  if (optLevel > 3)
    return fail("optimization level must be 0 to 3, got " + Twine(optLevel));

  // The kernels' signatures, read before compileModule strips the
  // attributes that carry them.
  std::vector<hk::KernelSignature> kernels;
  if (emitHeader)
    for (auto func : module->getOps<mlir::LLVM::LLVMFuncOp>()) {
      if (!func->hasAttr("rocdl.kernel"))
        continue;
      std::optional<hk::KernelSignature> signature =
          hk::getLoweredKernelSignature(func);
      if (!signature) {
        func.emitError() << "--emit=header needs kernels lowered from "
                            "hk.kernel (by convert-hk-to-amdgpu): '"
                         << func.getSymName()
                         << "' does not say which views its arguments are";
        return 1;
      }
      kernels.push_back(std::move(*signature));
    }

  // lld resets every command-line option when it links, so read the
  // remaining options before compiling.
  std::string outputPath = outputFilename;
  std::string source =
      inputFilename == "-" ? std::string("<stdin>") : inputFilename.getValue();
  Expected<std::string> result = hk::compileModule(*module, options, *emitKind);
  if (!result)
    return fail(toString(result.takeError()));
  if (emitHeader) {
    hk::HostHeaderOptions headerOptions;
    headerOptions.prefix = prefix;
    headerOptions.source = sys::path::filename(source).str();
    result = hk::emitHostHeader(kernels, *result, headerOptions);
    if (!result)
      return fail(toString(result.takeError()));
  }

  std::unique_ptr<ToolOutputFile> output =
      mlir::openOutputFile(outputPath, &error);
  if (!output)
    return fail(error);
  output->os() << *result;
  output->os().flush();
  if (output->os().has_error()) {
    // Cleared, or the stream reports the same failure again when it closes.
    std::string message = output->os().error().message();
    output->os().clear_error();
    return fail("cannot write '" + outputPath + "': " + message);
  }
  output->keep();
  return 0;
}
