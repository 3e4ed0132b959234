//===- Compiler.h - hk source to code object, in process ----------*- C++
//-*-===//
//
// The whole flow of `hk-opt --hk-pipeline=chip=X | hk-translate` as one call,
// for tools and bindings that compile kernels themselves.
//
//===----------------------------------------------------------------------===//

#ifndef HK_COMPILER_COMPILER_H
#define HK_COMPILER_COMPILER_H

#include "hk/Pipelines/CompileOptions.h"
#include "hk/Runtime/KernelABI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hk {

struct ChipInfo;

struct CompiledModule {
  std::string hsaco;
  /// Every hk.kernel of the source, with its ABI.
  std::vector<KernelSignature> kernels;
  double seconds = 0; ///< Wall time from source text to code object.
  /// The kernels that spilled registers with their main loops unswitched
  /// (hk-unswitch-loops): the code object is then the module compiled
  /// again without unswitching.
  std::vector<std::string> unswitchSpilled;

  const KernelSignature *findKernel(llvm::StringRef name) const;
};

/// Compiles hk source text for `chip`. Diagnostics (with source locations
/// in `bufferName`) become the error's message.
llvm::Expected<CompiledModule>
compileSource(llvm::StringRef source, llvm::StringRef bufferName,
              const ChipInfo &chip, const CompileOptions &options = {});

} // namespace hk

#endif // HK_COMPILER_COMPILER_H
