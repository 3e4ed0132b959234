//===- HSACO.cpp - LLVM dialect to AMDGPU code objects --------------------===//

#include "hk/Target/HSACO.h"

#include "hk/Dialect/HK/IR/KernelSignature.h"
#include "hk/Runtime/SourceInfo.h"
#include "hk/Support/ChipInfo.h"

#include "lld/Common/Driver.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace hk;

static constexpr llvm::StringLiteral kTriple = "amdgcn-amd-amdhsa";

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void hk::registerHsacoTranslations(mlir::DialectRegistry &registry) {
  registry.insert<mlir::LLVM::LLVMDialect, mlir::ROCDL::ROCDLDialect>();
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerROCDLDialectTranslation(registry);
}

mlir::Operation *hk::findUntranslatableOp(mlir::ModuleOp module) {
  mlir::Operation *found = nullptr;
  module.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (op == module.getOperation())
      return mlir::WalkResult::advance();
    llvm::StringRef ns = op->getName().getDialectNamespace();
    if (ns == "llvm" || ns == "rocdl")
      return mlir::WalkResult::advance();
    found = op;
    return mlir::WalkResult::interrupt();
  });
  return found;
}

static void initializeAMDGPUTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
  });
}

/// Turns off LLVM's loop strength reduction for every code object. LLVM
/// 22's instruction selection splits a buffer offset x + C into voffset x
/// and immediate C even when the addition wraps, and the hardware's range
/// check, which takes the two unsigned and unwrapped, then rejects a
/// negative x; the offsets HK-MLIR writes are sums of non-negative terms,
/// but loop strength reduction rewrites them around induction variables
/// of its own, whose values can be negative (docs/known-issues.md). An
/// LLVM without the option gets no code object rather than a wrong one.
static llvm::Error disableLoopStrengthReduction() {
  static llvm::cl::opt<bool> *option = [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-lsr");
    return it == options.end() ? nullptr
                               : static_cast<llvm::cl::opt<bool> *>(it->second);
  }();
  if (!option)
    return makeError("this LLVM has no -disable-lsr option: HK-MLIR turns "
                     "loop strength reduction off against a miscompile of "
                     "buffer offsets (docs/known-issues.md)");
  // Set for every code object, not once: LLVM's options return to their
  // defaults between compilations in one process (a second one, set once
  // before the first, ran with loop strength reduction on again).
  option->setValue(true);
  return llvm::Error::success();
}

static std::string listToggleableFeatures(const ChipInfo &chip) {
  std::string list;
  for (llvm::StringRef name : chip.toggleableFeatures)
    list += (list.empty() ? "" : ", ") + name.str();
  return list;
}

/// Accepts only the features ChipInfo lists as safe to toggle. LLVM ignores
/// a feature it does not know (with a warning) and takes every other one at
/// its word: `-16-bit-insts` crashes its branch relaxation and
/// `+wavefrontsize32` silently drops every kernel. `where` names the
/// feature list in messages.
static llvm::Error checkFeatures(const ChipInfo &chip,
                                 llvm::StringRef featureList,
                                 const llvm::Twine &where) {
  if (featureList.empty())
    return llvm::Error::success();
  std::string accepted = "features that can be toggled on " + chip.name.str() +
                         ": " + listToggleableFeatures(chip) +
                         " (each as +name or -name)";
  llvm::SmallVector<llvm::StringRef> features;
  featureList.split(features, ',');
  llvm::StringSet<> seen;
  for (llvm::StringRef feature : features) {
    if (!feature.starts_with("+") && !feature.starts_with("-"))
      return makeError(where + ": target feature '" + feature +
                       "' needs a sign (+name or -name); " + accepted);
    llvm::StringRef name = feature.drop_front();
    if (!llvm::is_contained(chip.toggleableFeatures, name))
      return makeError(where + ": target feature '" + feature +
                       "' cannot be toggled; " + accepted);
    if (!seen.insert(name).second)
      return makeError(where + ": target feature '" + name +
                       "' is named twice in '" + featureList + "'");
  }
  return llvm::Error::success();
}

/// The LLVM dialect can give a function its own target-cpu and
/// target-features, which override the command line's: they get the same
/// checks.
static llvm::Error checkFunctionTargets(const llvm::Module &module,
                                        const ChipInfo &chip) {
  for (const llvm::Function &function : module) {
    llvm::Attribute cpu = function.getFnAttribute("target-cpu");
    if (cpu.isValid() && cpu.getValueAsString() != chip.name)
      return makeError("function '" + function.getName() +
                       "' asks for target cpu '" + cpu.getValueAsString() +
                       "' in a module compiled for " + chip.name);
    llvm::Attribute features = function.getFnAttribute("target-features");
    if (features.isValid())
      if (llvm::Error error =
              checkFeatures(chip, features.getValueAsString(),
                            "function '" + function.getName() + "'"))
        return error;
  }
  return llvm::Error::success();
}

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetOptions &options) {
  initializeAMDGPUTarget();
  if (llvm::Error error = disableLoopStrengthReduction())
    return std::move(error);
  llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("AMDGPU target unavailable in this LLVM: " + error);
  if (llvm::Error error =
          checkFeatures(*options.chip, options.features, "--features"))
    return std::move(error);
  llvm::CodeGenOptLevel level =
      llvm::CodeGenOpt::getLevel(options.optLevel)
          .value_or(llvm::CodeGenOptLevel::Aggressive);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, options.chip->name, options.features, llvm::TargetOptions(),
      llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine)
    return makeError("cannot create an AMDGPU target machine for " +
                     options.chip->name);
  return machine;
}

static void optimize(llvm::Module &module, llvm::TargetMachine &machine,
                     unsigned optLevel) {
  if (optLevel == 0)
    return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  builder.buildPerModuleDefaultPipeline(level).run(module, mam);
}

/// Loads `<N x i8>` vectors (N a multiple of 4) as dwords and bitcasts them.
/// The code is the same either way, but the locations are not: i8 vectors
/// are not a legal type on AMDGPU, and instruction selection rebuilds such a
/// load as a dword load from its bitcast user, which takes that user's source
/// location, sometimes the next op's. The line table then attributes the last
/// read of one `hk.load` to the op after it, and the emulator's shared-tile
/// check, which trusts the line table, reports a read of the wrong tile.
static void loadByteVectorsAsDwords(llvm::Module &module) {
  llvm::Type *i32 = llvm::Type::getInt32Ty(module.getContext());
  for (llvm::Function &function : module)
    for (llvm::Instruction &inst :
         llvm::make_early_inc_range(llvm::instructions(function))) {
      auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
      if (!load || !load->isSimple())
        continue;
      auto *type = llvm::dyn_cast<llvm::FixedVectorType>(load->getType());
      if (!type || !type->getElementType()->isIntegerTy(8) ||
          type->getNumElements() % 4)
        continue;
      unsigned count = type->getNumElements() / 4;
      llvm::Type *dwords =
          count == 1 ? i32 : llvm::FixedVectorType::get(i32, count);
      llvm::IRBuilder<> b(load);
      b.SetCurrentDebugLocation(load->getDebugLoc());
      llvm::LoadInst *wide = b.CreateAlignedLoad(
          dwords, load->getPointerOperand(), load->getAlign(), load->getName());
      // All of the load's metadata but the range of its i8 elements.
      wide->copyMetadata(*load);
      wide->setMetadata(llvm::LLVMContext::MD_range, nullptr);
      load->replaceAllUsesWith(b.CreateBitCast(wide, type));
      load->eraseFromParent();
    }
}

/// SCF-to-CF leaves a loop's annotation on its back edge as a discardable
/// `llvm.loop_annotation` attribute, which the translation to LLVM IR does
/// not read; make it the branch's own loop metadata.
static void adoptLoopAnnotations(mlir::ModuleOp module) {
  static constexpr llvm::StringLiteral name = "llvm.loop_annotation";
  module.walk([](mlir::LLVM::BrOp branch) {
    if (auto annotation =
            branch->getAttrOfType<mlir::LLVM::LoopAnnotationAttr>(name)) {
      branch.setLoopAnnotationAttr(annotation);
      branch->removeAttr(name);
    }
  });
  module.walk([](mlir::LLVM::CondBrOp branch) {
    if (auto annotation =
            branch->getAttrOfType<mlir::LLVM::LoopAnnotationAttr>(name)) {
      branch.setLoopAnnotationAttr(annotation);
      branch->removeAttr(name);
    }
  });
}

/// Removes the kArgNameAttrName argument attributes, which the translation
/// to LLVM IR does not know, and returns them by function and argument.
static llvm::StringMap<llvm::SmallVector<std::string>>
takeArgumentNames(mlir::ModuleOp module) {
  llvm::StringMap<llvm::SmallVector<std::string>> names;
  for (auto func : module.getOps<mlir::LLVM::LLVMFuncOp>())
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (auto name = llvm::dyn_cast_or_null<mlir::StringAttr>(
              func.removeArgAttr(i, kArgNameAttrName))) {
        llvm::SmallVector<std::string> &list = names[func.getName()];
        list.resize(e);
        list[i] = name.str();
      }
  return names;
}

/// Names the LLVM functions' arguments; unnamed ones stay unnamed.
static void
nameArguments(llvm::Module &llvmModule,
              const llvm::StringMap<llvm::SmallVector<std::string>> &names) {
  for (const auto &[functionName, list] : names)
    if (llvm::Function *function = llvmModule.getFunction(functionName))
      for (auto [argument, name] : llvm::zip(function->args(), list))
        argument.setName(name);
}

/// Removes the kSourceRecordsAttrName attributes and returns the text of
/// the `.hk.source` section they make (empty without any). Op records are
/// written once even when several kernels name the same location.
static std::string takeSourceRecords(mlir::ModuleOp module) {
  std::string text;
  llvm::StringSet<> ops;
  for (auto func : module.getOps<mlir::LLVM::LLVMFuncOp>()) {
    auto records = llvm::dyn_cast_or_null<mlir::ArrayAttr>(
        func->removeAttr(kSourceRecordsAttrName));
    if (!records)
      continue;
    for (auto record : records.getAsRange<mlir::StringAttr>()) {
      if (record.getValue().starts_with("op\t") &&
          !ops.insert(record.getValue()).second)
        continue;
      text += record.getValue().str() + "\n";
    }
  }
  return text.empty() ? text : "hk-source\t1\n" + text;
}

/// Module-level assembly that puts `text` in a non-allocated section: it
/// stays in the code object without being loaded.
static std::string sectionAssembly(llvm::StringRef section,
                                   llvm::StringRef text) {
  std::string assembly;
  llvm::raw_string_ostream os(assembly);
  os << ".pushsection " << section << ",\"\",@progbits\n";
  for (size_t i = 0; i < text.size(); i += 64) {
    os << ".ascii \"";
    for (char c : text.substr(i, 64)) {
      if (c == '"' || c == '\\')
        os << '\\' << c;
      else if (llvm::isPrint(c))
        os << c;
      else
        os << '\\' << llvm::format("%03o", unsigned(uint8_t(c)));
    }
    os << "\"\n";
  }
  os << ".popsection\n";
  return assembly;
}

/// Names of the module's kernels (AMDGPU_KERNEL functions with a body).
static llvm::SmallVector<std::string> kernelNames(const llvm::Module &module) {
  llvm::SmallVector<std::string> names;
  for (const llvm::Function &function : module)
    if (function.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL &&
        !function.isDeclaration())
      names.push_back(function.getName().str());
  return names;
}

/// The backend skips a kernel it cannot compile for the subtarget without
/// an error; a kernel missing from the output is one of those.
static llvm::Error checkKernelsEmitted(llvm::StringRef output, EmitKind kind,
                                       llvm::ArrayRef<std::string> kernels) {
  llvm::StringSet<> present;
  if (kind == EmitKind::Assembly) {
    llvm::SmallVector<llvm::StringRef> lines;
    output.split(lines, '\n');
    for (llvm::StringRef line : lines) {
      line = line.trim();
      if (line.consume_front(".amdhsa_kernel "))
        present.insert(line.trim());
    }
  } else {
    auto object = llvm::object::ObjectFile::createObjectFile(
        llvm::MemoryBufferRef(output, "code object"));
    if (!object)
      return makeError("the backend's output is not an object file: " +
                       llvm::toString(object.takeError()));
    for (const llvm::object::SymbolRef &symbol : (*object)->symbols()) {
      llvm::Expected<llvm::StringRef> name = symbol.getName();
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (name->consume_back(".kd"))
        present.insert(*name);
    }
  }
  for (const std::string &kernel : kernels)
    if (!present.contains(kernel))
      return makeError("the AMDGPU backend emitted no code for kernel '" +
                       kernel +
                       "' (are the target features compatible "
                       "with the chip?)");
  return llvm::Error::success();
}

llvm::Expected<std::string> hk::compileModule(mlir::ModuleOp module,
                                              const TargetOptions &options,
                                              EmitKind kind) {
  if (!options.chip)
    return makeError("no target chip given");
  if (options.codeObjectVersion < 4 || options.codeObjectVersion > 6)
    return makeError("code object version must be 4, 5 or 6, got " +
                     llvm::Twine(options.codeObjectVersion));

  adoptLoopAnnotations(module);
  auto argumentNames = takeArgumentNames(module);
  std::string sourceRecords = takeSourceRecords(module);
  // Objects get a line table of the ops' locations (reports of the emulator
  // and of any debugger then name source lines) and the `.hk.source`
  // section; LLVM IR and assembly stay as they were, for reading.
  bool objectFile = kind == EmitKind::Object || kind == EmitKind::Hsaco;
  if (!objectFile)
    sourceRecords.clear();
  if (objectFile) {
    mlir::PassManager pm(module.getContext());
    pm.addPass(mlir::LLVM::createDIScopeForLLVMFuncOpPass());
    if (mlir::failed(pm.run(module)))
      return makeError("cannot attach debug scopes to the module's functions");
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "hk");
  if (!llvmModule)
    return makeError("translation to LLVM IR failed");
  nameArguments(*llvmModule, argumentNames);
  if (!sourceRecords.empty())
    llvmModule->appendModuleInlineAsm(
        sectionAssembly(kSourceSectionName, sourceRecords));
  llvm::SmallVector<std::string> kernels = kernelNames(*llvmModule);
  if (kernels.empty())
    return makeError("the module has no kernel (an llvm.func with the "
                     "rocdl.kernel attribute): a code object without "
                     "kernels cannot be launched");
  if (llvm::Error error = checkFunctionTargets(*llvmModule, *options.chip))
    return std::move(error);

  auto machine = createTargetMachine(options);
  if (!machine)
    return machine.takeError();
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                            options.codeObjectVersion * 100);

  optimize(*llvmModule, **machine, options.optLevel);
  std::string output;
  llvm::raw_string_ostream stream(output);
  if (kind == EmitKind::LLVM) {
    llvmModule->print(stream, nullptr);
    return output;
  }

  loadByteVectorsAsDwords(*llvmModule);
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream bufferStream(buffer);
  llvm::legacy::PassManager codegen;
  auto fileType = kind == EmitKind::Assembly
                      ? llvm::CodeGenFileType::AssemblyFile
                      : llvm::CodeGenFileType::ObjectFile;
  if ((*machine)->addPassesToEmitFile(codegen, bufferStream, nullptr, fileType))
    return makeError("the AMDGPU backend cannot emit this file type");
  codegen.run(*llvmModule);
  if (llvm::Error error = checkKernelsEmitted(buffer.str(), kind, kernels))
    return std::move(error);
  if (kind != EmitKind::Hsaco)
    return std::string(buffer.str());
  llvm::Expected<std::string> hsaco = linkCodeObject(buffer.str());
  if (!hsaco)
    return hsaco.takeError();
  if (llvm::Error error = checkKernelsEmitted(*hsaco, kind, kernels))
    return std::move(error);
  return hsaco;
}

namespace {
/// A temporary file removed when the object goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};
} // namespace

llvm::Expected<std::string> hk::linkCodeObject(llvm::StringRef object) {
  TempFile input, output;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("hk", "o", fd, input.path))
    return makeError("cannot create a temporary object file: " + ec.message());
  {
    llvm::raw_fd_ostream stream(fd, /*shouldClose=*/true);
    stream << object;
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("hk", "hsaco", output.path))
    return makeError("cannot create a temporary code object file: " +
                     ec.message());

  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  const char *args[] = {"ld.lld", "-shared", input.path.c_str(), "-o",
                        output.path.c_str()};
  lld::Result result;
  {
    // lld keeps global state: one link at a time.
    static std::mutex lldMutex;
    std::lock_guard<std::mutex> lock(lldMutex);
    result = lld::lldMain(args, diagStream, diagStream,
                          {{lld::Gnu, &lld::elf::link}});
  }
  if (result.retCode != 0)
    return makeError("lld failed to link the code object: " +
                     llvm::StringRef(diagnostics).trim());

  auto buffer = llvm::MemoryBuffer::getFile(output.path);
  if (!buffer)
    return makeError("cannot read the linked code object: " +
                     buffer.getError().message());
  return (*buffer)->getBuffer().str();
}
