//===- Workloads.h - The example kernels' runs and checks ----------*- C++
//-*-===//
//
// An example kernel says how to run it in `// HK-RUN:` lines:
//
//   // HK-RUN: gemm kernel=gemm_abt_bf16 form=abt shapes=256x256x128,200x136x72
//   // HK-RUN: elementwise kernel=scale_add expr=scale_add alpha=1.5
//   shapes=300x200
//
// Each workload builds seeded random inputs, launches the kernel in the
// emulator (launchKernel), and checks the run (Check.h) against its
// reference (References.h): every output element within its bound and
// written, every input unchanged. The grid is the one the kernel's output
// tiling fixes, or the one `block=RxC` (`rows=N`) says when given.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_WORKLOADS_H
#define HK_RUNTIME_WORKLOADS_H

#include "hk/Emulator/Device.h"
#include "hk/Runtime/Check.h"
#include "hk/Runtime/KernelABI.h"
#include "hk/Runtime/Launch.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
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

/// Reads every `// HK-RUN:` line of an example; an unknown chip in
/// `chips=` is an error.
llvm::Expected<std::vector<RunSpec>> parseRunSpecs(llvm::StringRef source);

/// Reads a list of cases, "256x256x128,200x136x72".
llvm::Expected<std::vector<std::vector<int64_t>>>
parseShapes(llvm::StringRef text);

/// Reads one shape, "256x256x64"; sizes are 32-bit in the kernel ABI.
llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef text);

/// How a case builds its inputs.
struct CaseSettings {
  uint64_t seed = 1;
  /// Elements between the end of each matrix row and the start of the next
  /// (the row stride is columns + rowPadding). The kernel must neither use
  /// them (inputs hold NaN there) nor write them (outputs are checked).
  int64_t rowPadding = 0;
};

struct CaseOutcome {
  std::string description; ///< "M=256 N=256 K=128".
  CheckResult check;
  emu::LaunchResult launch;
  GridSize grid{1, 1, 1};
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

#endif // HK_RUNTIME_WORKLOADS_H
