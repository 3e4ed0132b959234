//===- FuzzTarget.h - What the fuzz targets share ------------------*- C++
//-*-===//
//
// Each fuzz target defines LLVMFuzzerTestOneInput: a function that feeds one
// input to a part of HK-MLIR and returns 0. A crash, a sanitizer report, a
// hang or an exit is a finding; an input the code rejects with an error is
// not. With HK_BUILD_FUZZERS the targets link against libFuzzer; otherwise
// ReplayMain.cpp runs each file named on the command line once, which is how
// the test suite replays the seed corpora and past findings.
//
//===----------------------------------------------------------------------===//

#ifndef HK_FUZZ_FUZZTARGET_H
#define HK_FUZZ_FUZZTARGET_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace hk::fuzz {

inline llvm::StringRef asString(const uint8_t *data, size_t size) {
  return llvm::StringRef(reinterpret_cast<const char *>(data), size);
}

/// A choice (such as the chip) that depends on the whole input, so that a
/// mutation can flip it but replaying an input repeats it.
inline unsigned pick(llvm::StringRef input, unsigned choices) {
  uint32_t hash = 2166136261u;
  for (char c : input)
    hash = (hash ^ uint8_t(c)) * 16777619u;
  return hash % choices;
}

} // namespace hk::fuzz

#endif // HK_FUZZ_FUZZTARGET_H
