//===- Python.h - Calling the system Python from hk-run ----------*- C++
//-*-===//
//
// hk-run's references in Python (a user's --reference, an example's case
// script) run in a child process: the system Python, or $HK_PYTHON, given a
// driver program and a temporary folder of .npy and JSON files.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HK_RUN_PYTHON_H
#define HK_TOOLS_HK_RUN_PYTHON_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace hk::run {

/// A temporary directory, removed with everything in it.
class TempDir {
public:
  static llvm::Expected<TempDir> create(llvm::StringRef prefix);
  TempDir(TempDir &&other) : path(std::move(other.path)) { other.path.clear(); }
  TempDir(const TempDir &) = delete;
  ~TempDir();
  llvm::StringRef getPath() const { return path; }
  /// getPath()/name.
  std::string file(llvm::StringRef name) const;

private:
  TempDir() = default;
  llvm::SmallString<128> path;
};

/// Runs `driver` (Python source) with `args` as sys.argv[1:]; `what` names
/// the call in the error of a non-zero exit (Python's own message is on
/// stderr already).
llvm::Error runPython(llvm::StringRef driver,
                      llvm::ArrayRef<llvm::StringRef> args,
                      const llvm::Twine &what);

} // namespace hk::run

#endif // HK_TOOLS_HK_RUN_PYTHON_H
