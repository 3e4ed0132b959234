//===- CompileOptions.h - The options of a compilation -------------*- C++
//-*-===//
//
// hk::CompileOptions holds every option of the hk pipeline beyond the chip;
// its fields come from CompileOptions.def, as do --hk-pipeline's options.
// Text ("direct=always exact-waits=false") is parsed by the pipeline's own
// option parser, so hk-opt, hk-run and Python accept and reject the same.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PIPELINES_COMPILEOPTIONS_H
#define HK_PIPELINES_COMPILEOPTIONS_H

#include "hk/Dialect/HK/Transforms/Options.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

/// The extra llvm::cl modifier of an option without one (a no-op).
#define HK_COMPILE_OPTION_PLAIN ::llvm::cl::NotHidden

namespace hk {

struct CompileOptions {
#define HK_COMPILE_OPTION(NAME, ARG, TYPE, INIT, DESC, EXTRA) TYPE NAME = INIT;
#include "hk/Pipelines/CompileOptions.def"

  /// Options in --hk-pipeline's syntax, "direct=always lds-swizzle=false",
  /// on top of the defaults. The error names what is wrong.
  static llvm::Expected<CompileOptions> parse(llvm::StringRef text);
  /// The options that differ from the defaults, in the same syntax.
  std::string str() const;
};

/// One option, for front ends that list them (Python).
struct CompileOptionInfo {
  std::string name;        ///< "exact-waits"
  std::string kind;        ///< "bool", "unsigned" or "enum"
  std::string defaultText; ///< "true"
  std::string description;
  std::vector<std::string> values; ///< An enum's values.
};

/// Every option of CompileOptions.def, in order.
std::vector<CompileOptionInfo> listCompileOptions();

} // namespace hk

#endif // HK_PIPELINES_COMPILEOPTIONS_H
