//===- ReplayMain.cpp - Run a fuzz target once per input file -------------===//
//
// The driver of the fuzz targets in builds without libFuzzer: every argument
// is a file or a directory of files, and each file is one input. Exits 0
// when every input ran; a finding crashes (or trips a sanitizer) instead.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <vector>

static bool collect(llvm::StringRef path, std::vector<std::string> &files) {
  if (!llvm::sys::fs::is_directory(path)) {
    files.push_back(path.str());
    return true;
  }
  std::error_code ec;
  std::vector<std::string> found;
  for (llvm::sys::fs::recursive_directory_iterator it(path, ec), end;
       it != end && !ec; it.increment(ec))
    if (!llvm::sys::fs::is_directory(it->path()))
      found.push_back(it->path());
  if (ec) {
    llvm::errs() << "cannot list '" << path << "': " << ec.message() << "\n";
    return false;
  }
  std::sort(found.begin(), found.end());
  files.insert(files.end(), found.begin(), found.end());
  return true;
}

int main(int argc, char **argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i)
    if (!collect(argv[i], files))
      return 1;
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << "cannot read '" << file
                   << "': " << buffer.getError().message() << "\n";
      return 1;
    }
    llvm::StringRef bytes = (*buffer)->getBuffer();
    // A copy of its own, so that reads past the end are caught.
    std::vector<uint8_t> input(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  llvm::outs() << "ran " << files.size() << " input(s)\n";
  return 0;
}
