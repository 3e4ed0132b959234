//===- Python.cpp - Calling the system Python from hk-run -----------------===//

#include "Python.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace hk::run;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<TempDir> TempDir::create(llvm::StringRef prefix) {
  TempDir dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory(prefix, dir.path))
    return makeError("cannot create a temporary directory: " + ec.message());
  return dir;
}

TempDir::~TempDir() {
  if (!path.empty())
    llvm::sys::fs::remove_directories(path);
}

std::string TempDir::file(llvm::StringRef name) const {
  llvm::SmallString<128> file(path);
  llvm::sys::path::append(file, name);
  return file.str().str();
}

llvm::Error hk::run::runPython(llvm::StringRef driver,
                               llvm::ArrayRef<llvm::StringRef> args,
                               const llvm::Twine &what) {
  std::string python = "/usr/bin/python3";
  if (const char *env = std::getenv("HK_PYTHON"))
    python = env;
  llvm::SmallVector<llvm::StringRef, 8> argv = {python, "-c", driver};
  argv.append(args.begin(), args.end());
  std::string message;
  int status =
      llvm::sys::ExecuteAndWait(python, argv, std::nullopt, {}, 0, 0, &message);
  if (status == 0)
    return llvm::Error::success();
  return makeError(what + (status < 0 ? " could not run: " + message
                                      : " failed (exit code " +
                                            std::to_string(status) +
                                            "; its message is above)"));
}
