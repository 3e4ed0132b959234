//===- Workloads.h - What hk-run runs and how it checks it --------*- C++
//-*-===//
//
// An example kernel says how to run it in `// HK-RUN:` lines:
//
//   // HK-RUN: gemm kernel=gemm_abt_bf16 form=abt block=128x128
//   shapes=256x256x128,200x136x72
//   // HK-RUN: elementwise kernel=scale_add expr=scale_add block=64x64
//   alpha=1.5 shapes=300x200
//
// Each workload builds seeded random inputs, launches the kernel in the
// emulator, computes a CPU reference in double precision and compares every
// element against an error bound derived from the element types.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HK_RUN_WORKLOADS_H
#define HK_TOOLS_HK_RUN_WORKLOADS_H

#include "hk/Emulator/Device.h"
#include "hk/Runtime/KernelABI.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace hk::run {

/// One `// HK-RUN:` line.
struct RunSpec {
  std::string workload;
  llvm::StringMap<std::string> params;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::string> chips; ///< Empty: every chip.
  unsigned line = 0;

  std::string get(llvm::StringRef key, llvm::StringRef fallback = "") const;
};

/// Reads every `// HK-RUN:` line of an example.
llvm::Expected<std::vector<RunSpec>> parseRunSpecs(llvm::StringRef source);

/// Reads a list of cases, "256x256x128,200x136x72".
llvm::Expected<std::vector<std::vector<int64_t>>>
parseShapes(llvm::StringRef text);

/// How a case builds its inputs.
struct CaseSettings {
  uint64_t seed = 1;
  /// Elements between the end of each matrix row and the start of the next
  /// (the row stride is columns + rowPadding). The kernel must neither use
  /// them (inputs hold NaN there) nor write them (outputs are checked).
  int64_t rowPadding = 0;
};

/// How one case compared with the reference.
struct CheckResult {
  uint64_t elements = 0;
  uint64_t failures = 0;
  double maxAbsError = 0;
  double maxRelError = 0;
  double worstErrorOverBound = 0; ///< <= 1 when every element is in bound.
  std::string firstFailure;       ///< Empty when none.
  std::string toleranceRule;      ///< The bound, in words.

  bool passed() const { return failures == 0; }
};

struct CaseOutcome {
  std::string description; ///< "M=256 N=256 K=128".
  CheckResult check;
  emu::LaunchResult launch;
};

/// A runnable kind of kernel.
class Workload {
public:
  virtual ~Workload();
  /// Runs one case: inputs from `settings`, launch, reference, comparison.
  virtual llvm::Expected<CaseOutcome>
  run(emu::Device &device, const emu::Module &module,
      const KernelSignature &signature, llvm::ArrayRef<int64_t> shape,
      const CaseSettings &settings,
      const emu::LaunchOptions &options) const = 0;
  /// Whether run() honours CaseSettings::rowPadding.
  virtual bool padsRows() const { return false; }
};

/// The workload a spec names, configured from its parameters.
llvm::Expected<std::unique_ptr<Workload>> makeWorkload(const RunSpec &spec);

} // namespace hk::run

#endif // HK_TOOLS_HK_RUN_WORKLOADS_H
