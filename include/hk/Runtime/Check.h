//===- Check.h - Compare a kernel's outputs with a reference -------*- C++
//-*-===//
//
// What a run is checked for, shared by hk-run and the Python package:
// every output element within its error bound of the reference (a NaN
// where the reference is a number fails and shows as NaN), every output
// element written (outputs start out holding ElementType::unwrittenBits),
// and every input the kernel should only read left as it was.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_CHECK_H
#define HK_RUNTIME_CHECK_H

#include "hk/Runtime/HostArray.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hk {

/// How a run compared with what it should have done.
struct CheckResult {
  uint64_t elements = 0;  ///< Output elements compared.
  uint64_t failures = 0;  ///< Out of bound (NaN included).
  uint64_t unwritten = 0; ///< Output elements the kernel never wrote.
  uint64_t changed = 0;   ///< Input elements (or padding) it modified.
  /// NaN when an element is NaN where the reference is a number.
  double maxAbsError = 0;
  double maxRelError = 0;
  double worstErrorOverBound = 0; ///< <= 1 when every element is in bound.
  std::string firstFailure;       ///< Empty when none.
  std::string toleranceRule;      ///< The bound, in words.

  bool passed() const { return !failures && !unwritten && !changed; }
  /// Folds `other` (another output of the same run) into this result.
  void merge(const CheckResult &other);
};

/// A reference result and its per-element error bound.
struct Reference {
  std::vector<double> values;
  std::vector<double> bounds;
  std::string rule; ///< The bound, in words.
};

/// |got - ref| <= atol + rtol * |ref|, for references that say nothing
/// about their error.
Reference boundedBy(std::vector<double> values, double rtol, double atol);

/// Compares every element of `out` (named `name` in messages) with
/// `reference`.
CheckResult compareWithReference(const HostArray &out,
                                 const Reference &reference,
                                 llvm::StringRef name);

/// Sets every element of `out` to its type's unwritten bits (integer
/// arrays are left alone).
void markUnwritten(HostArray &out);

/// Counts the elements of `out` still holding the unwritten bits into
/// `result`.
void checkWritten(const HostArray &out, llvm::StringRef name,
                  CheckResult &result);

/// Counts the elements of `after` that differ from `before` into `result`,
/// padding between rows included: `name` was not the kernel's to write.
/// With `paddingOnly`, only the padding counts (an output's own elements
/// may change).
void checkUnchanged(const HostArray &before, const HostArray &after,
                    llvm::StringRef name, CheckResult &result,
                    bool paddingOnly = false);

} // namespace hk

#endif // HK_RUNTIME_CHECK_H
