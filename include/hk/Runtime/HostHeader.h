//===- HostHeader.h - A C/C++ header per code object --------------*- C++
//-*-===//
//
// Writes what a host program needs to embed a module's code object and
// launch its kernels through HIP's module API, as one self-contained C/C++
// header: the code object's bytes, and per kernel a typed argument struct
// in ABI order (its fields named as in the code object's metadata, their
// offsets checked against it at compile time), the block size, the grid
// helper when the kernel's output tiling fixes the grid, and a launch
// function (hipModuleGetFunction + hipModuleLaunchKernel with the kernarg
// buffer).
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_HOSTHEADER_H
#define HK_RUNTIME_HOSTHEADER_H

#include "hk/Runtime/KernelABI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace hk {

struct HostHeaderOptions {
  /// Prefix of the module-level names (`<prefix>_load`, the include
  /// guard); a C identifier.
  std::string prefix;
  /// Where the module came from, quoted in the header's first comment.
  std::string source;
};

/// Whether `name` can name a C or C++ entity: [A-Za-z_][A-Za-z0-9_]*, not
/// a keyword of either language.
bool isCIdentifier(llvm::StringRef name);

/// `text` with every character a C identifier cannot hold replaced by '_'
/// (and a leading '_' when it would start with a digit or be empty).
std::string toCIdentifier(llvm::StringRef text);

/// The header for `kernels` compiled into `hsaco`. Fails when a name is
/// not a C identifier, or when the code object's metadata disagrees with
/// the signatures (a kernel or argument missing, another offset).
llvm::Expected<std::string>
emitHostHeader(llvm::ArrayRef<KernelSignature> kernels, llvm::StringRef hsaco,
               const HostHeaderOptions &options);

} // namespace hk

#endif // HK_RUNTIME_HOSTHEADER_H
