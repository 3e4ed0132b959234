//===- HSACO.h - LLVM dialect to AMDGPU code objects --------------*- C++
//-*-===//
//
// Turns a module in the LLVM and ROCDL dialects into LLVM IR, AMDGPU
// assembly, a relocatable object or a loadable code object (hsaco), all in
// process: LLVM's AMDGPU backend, then lld's ELF linker as a library.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_HSACO_H
#define HK_TARGET_HSACO_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>

namespace hk {

struct ChipInfo;

enum class EmitKind { LLVM, Assembly, Object, Hsaco };

struct TargetOptions {
  const ChipInfo *chip = nullptr;
  /// Target features such as "+sramecc,-xnack"; empty means "any".
  std::string features;
  /// AMDHSA code object version: 4, 5 or 6.
  unsigned codeObjectVersion = 5;
  /// LLVM optimization level, 0 to 3.
  unsigned optLevel = 3;
};

/// An llvm.func argument attribute, a string: compileModule names the LLVM
/// argument after it, so that the code object's metadata names it
/// (`.name`). convert-hk-to-amdgpu sets it on kernel arguments.
constexpr llvm::StringLiteral kArgNameAttrName = "hk.name";

/// The first op (pre-order) outside the LLVM and ROCDL dialects, the only
/// ones the translation understands: input that was not lowered. Null when
/// there is none.
mlir::Operation *findUntranslatableOp(mlir::ModuleOp module);

/// Compiles `module` (LLVM + ROCDL dialects only) to the requested form and
/// returns its bytes. Objects and code objects carry a DWARF line table of
/// the ops' locations, and the `.hk.source` section when a function has
/// kSourceRecordsAttrName (hk/Dialect/HK/IR/KernelSignature.h).
llvm::Expected<std::string> compileModule(mlir::ModuleOp module,
                                          const TargetOptions &options,
                                          EmitKind kind);

/// Links a relocatable AMDGPU object into a code object with lld's ELF
/// linker, in process. Thread-safe (lld keeps global state; calls are
/// serialised).
llvm::Expected<std::string> linkCodeObject(llvm::StringRef object);

/// Registers the dialects and LLVM IR translations compileModule needs.
void registerHsacoTranslations(mlir::DialectRegistry &registry);

} // namespace hk

#endif // HK_TARGET_HSACO_H
