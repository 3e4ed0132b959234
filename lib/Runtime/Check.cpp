//===- Check.cpp - Compare a kernel's outputs with a reference ------------===//

#include "hk/Runtime/Check.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace hk;

void CheckResult::merge(const CheckResult &other) {
  elements += other.elements;
  if (firstFailure.empty())
    firstFailure = other.firstFailure;
  failures += other.failures;
  unwritten += other.unwritten;
  changed += other.changed;
  auto maxOf = [](double a, double b) {
    return std::isnan(a) || std::isnan(b) ? std::nan("") : std::max(a, b);
  };
  maxAbsError = maxOf(maxAbsError, other.maxAbsError);
  maxRelError = maxOf(maxRelError, other.maxRelError);
  worstErrorOverBound = maxOf(worstErrorOverBound, other.worstErrorOverBound);
  if (toleranceRule.empty())
    toleranceRule = other.toleranceRule;
  else if (!other.toleranceRule.empty() && other.toleranceRule != toleranceRule)
    toleranceRule += "; " + other.toleranceRule;
}

Reference hk::boundedBy(std::vector<double> values, double rtol, double atol) {
  Reference reference;
  reference.bounds.reserve(values.size());
  for (double value : values)
    reference.bounds.push_back(atol + rtol * std::fabs(value));
  reference.values = std::move(values);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "|got - ref| <= " << llvm::format("%g", atol) << " + "
     << llvm::format("%g", rtol) << "*|ref|";
  reference.rule = text;
  return reference;
}

CheckResult hk::compareWithReference(const HostArray &out,
                                     const Reference &reference,
                                     llvm::StringRef name) {
  CheckResult result;
  result.toleranceRule = reference.rule;
  double refScale = 0;
  for (double r : reference.values)
    if (std::isfinite(r))
      refScale = std::max(refScale, std::fabs(r));
  for (int64_t i = 0, e = out.getNumElements(); i < e; ++i) {
    ++result.elements;
    double got = out.get(i), want = reference.values[i];
    double bound = reference.bounds[i];
    bool ok;
    if (std::isnan(want) || std::isnan(got)) {
      // NaN is right only where the reference is NaN too.
      ok = std::isnan(want) && std::isnan(got);
      if (!ok)
        result.maxAbsError = result.maxRelError = result.worstErrorOverBound =
            std::nan("");
    } else if (std::isinf(want) || std::isinf(got)) {
      ok = got == want;
      if (!ok)
        result.maxAbsError = result.worstErrorOverBound =
            std::numeric_limits<double>::infinity();
    } else {
      double err = std::fabs(got - want);
      ok = err <= bound;
      auto raise = [](double &slot, double value) {
        if (!std::isnan(slot))
          slot = std::max(slot, value);
      };
      raise(result.maxAbsError, err);
      if (std::fabs(want) > 1e-3 * refScale && want != 0)
        raise(result.maxRelError, err / std::fabs(want));
      if (bound > 0)
        raise(result.worstErrorOverBound, err / bound);
      else if (err > 0)
        raise(result.worstErrorOverBound,
              std::numeric_limits<double>::infinity());
    }
    if (ok)
      continue;
    if (!result.failures) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << name << " element " << out.describeIndex(i) << ": got "
         << llvm::format("%.9g", got) << ", expected "
         << llvm::format("%.9g", want) << " (bound "
         << llvm::format("%.3g", bound) << ")";
      result.firstFailure = text;
    }
    ++result.failures;
  }
  return result;
}

void hk::markUnwritten(HostArray &out) {
  std::optional<uint64_t> bits = out.getType().unwrittenBits();
  if (!bits)
    return;
  for (int64_t i = 0, e = out.getNumElements(); i < e; ++i)
    out.setBits(i, *bits);
}

void hk::checkWritten(const HostArray &out, llvm::StringRef name,
                      CheckResult &result) {
  std::optional<uint64_t> bits = out.getType().unwrittenBits();
  if (!bits)
    return;
  uint64_t before = result.unwritten;
  int64_t first = -1;
  for (int64_t i = 0, e = out.getNumElements(); i < e; ++i)
    if (out.getBits(i) == *bits) {
      if (first < 0)
        first = i;
      ++result.unwritten;
    }
  uint64_t count = result.unwritten - before;
  if (!count)
    return;
  std::string message = std::to_string(count) + " of " +
                        std::to_string(out.getNumElements()) + " elements of " +
                        name.str() + " were not written (first " +
                        out.describeIndex(first) + "): is the grid too small?";
  // An unwritten output explains its mismatches better than they do.
  if (result.firstFailure.empty() || result.failures)
    result.firstFailure = message;
}

void hk::checkUnchanged(const HostArray &before, const HostArray &after,
                        llvm::StringRef name, CheckResult &result,
                        bool paddingOnly) {
  uint64_t bytes = std::min(before.getByteSize(), after.getByteSize());
  unsigned unit = before.getType().bytes;
  // Which units of the span hold elements (the rest is padding).
  std::vector<int64_t> elementAt(bytes / unit, -1);
  for (int64_t i = 0, e = before.getNumElements(); i < e; ++i)
    if (before.offsetOf(i) / unit < elementAt.size())
      elementAt[before.offsetOf(i) / unit] = i;
  const uint8_t *a = before.getData(), *b = after.getData();
  uint64_t changedUnits = 0, first = 0;
  for (uint64_t u = 0; u < elementAt.size(); ++u) {
    if (paddingOnly && elementAt[u] >= 0)
      continue;
    if (std::memcmp(a + u * unit, b + u * unit, unit) == 0)
      continue;
    if (!changedUnits++)
      first = u;
  }
  if (!changedUnits)
    return;
  result.changed += changedUnits;
  std::string what =
      elementAt[first] >= 0
          ? "element " + before.describeIndex(elementAt[first])
          : "padding at byte offset " + std::to_string(first * unit);
  std::string message =
      std::to_string(changedUnits) +
      (paddingOnly ? " padding elements of " + name.str() +
                         " were written (first " + what + ")"
                   : " elements of " + name.str() +
                         " changed although the kernel should only read it "
                         "(first " +
                         what + ")");
  if (result.firstFailure.empty())
    result.firstFailure = message;
}
