//===- hk-emu-args-fuzzer.cpp - Fuzz hk-emu's command line ----------------===//
//
// One input is hk-emu's command line after the code object, one argument per
// line, optionally followed by a NUL byte and the bytes of an input file.
// In the arguments, @FILE@ names a file holding those bytes and @OUT@ an
// output path, so that `--arg=buf:@FILE@` reads them (as .npy when they
// start with NumPy's magic) and `--arg=out:f32:4:@OUT@` writes one. The code
// object is $HK_FUZZ_HSACO.
//
// hk-emu's main (compiled into this target as hkEmuMain) ends with exit(),
// so each input runs in a forked child: the child's exit status is the
// tool's business, but its death by a signal (a crash, or a sanitizer's
// abort) or a run longer than 20 s aborts this process, which makes the
// input a finding. The child's output goes to a file that is printed then.
// The child's coverage counters come back through shared memory, so that
// libFuzzer sees what hk-emu's code did with the input.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/common_interface_defs.h>
#define HK_FUZZ_ASAN 1
#endif
#endif

int hkEmuMain(int argc, char **argv);

/// The child dies of a plain signal on a crash or a sanitizer finding:
/// libFuzzer's handlers, inherited through fork, would exit with a status
/// instead.
static void restoreDefaultDeath() {
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM, SIGINT,
                  SIGTERM, SIGUSR1, SIGUSR2})
    std::signal(sig, SIG_DFL);
#ifdef HK_FUZZ_ASAN
  __sanitizer_set_death_callback(nullptr);
#endif
}

// The 8-bit coverage counters of the instrumented code, as the compiler's
// module constructor hands them to libFuzzer: the fuzz build links this
// target with --wrap for that call (fuzz/CMakeLists.txt). The code is one
// module, linked statically; in the replay build nothing is recorded.
static uint8_t *counterStart, *counterEnd;
#ifdef HK_FUZZ_SHARE_COVERAGE
extern "C" void __real___sanitizer_cov_8bit_counters_init(uint8_t *start,
                                                          uint8_t *stop);
extern "C" void __wrap___sanitizer_cov_8bit_counters_init(uint8_t *start,
                                                          uint8_t *stop) {
  if (!counterStart) {
    counterStart = start;
    counterEnd = stop;
  }
  __real___sanitizer_cov_8bit_counters_init(start, stop);
}
#endif

namespace {
/// Carries a forked child's coverage counters back to this process: the
/// child's own increments stay in its copy-on-write pages otherwise, and
/// libFuzzer would see only this harness's code covered.
class ChildCoverage {
public:
  ChildCoverage() {
    counters = counterStart;
    if (!counters || counterEnd <= counters)
      return;
    size = size_t(counterEnd - counters);
    void *memory = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    shared = memory == MAP_FAILED ? nullptr : static_cast<uint8_t *>(memory);
  }
  /// In the child, as it ends: its counters (which began as a copy of
  /// this process's) to the shared copy.
  void save() const {
    if (shared)
      std::memcpy(shared, counters, size);
  }
  /// In this process, once the child has ended normally.
  void merge() const {
    if (!shared)
      return;
    for (size_t i = 0; i < size; ++i)
      counters[i] = std::max(counters[i], shared[i]);
  }

private:
  uint8_t *counters = nullptr, *shared = nullptr;
  size_t size = 0;
};

/// Files the inputs use, in a directory of this process's own.
struct Scratch {
  std::string dir, file, out, log;
  Scratch() {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createUniqueDirectory("hk-emu-args-fuzz", path)) {
      llvm::errs() << "hk-emu-args-fuzzer: cannot create a scratch "
                      "directory\n";
      std::abort();
    }
    dir = path.str().str();
    file = dir + "/input";
    out = dir + "/output";
    log = dir + "/log";
  }
  ~Scratch() {
    // Forked children leave with _exit and never get here.
    llvm::sys::fs::remove_directories(dir);
  }
};
} // namespace

static void writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec)
    os << bytes;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Scratch scratch;
  static ChildCoverage coverage;
  static const char *hsaco = std::getenv("HK_FUZZ_HSACO");
  if (!hsaco) {
    llvm::errs() << "hk-emu-args-fuzzer: set HK_FUZZ_HSACO to a code object\n";
    std::abort();
  }
  auto [text, file] = hk::fuzz::asString(data, size).split('\0');
  // A file name with a NumPy suffix when the bytes are one, as users name
  // them.
  std::string filePath =
      scratch.file + (file.starts_with("\x93NUMPY") ? ".npy" : ".bin");
  writeFile(filePath, file);

  std::vector<std::string> args = {"hk-emu", hsaco};
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/64, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    std::string arg = line.str();
    for (auto [pattern, value] :
         {std::pair<std::string, std::string>{"@FILE@", filePath},
          {"@OUT@", scratch.out}})
      for (size_t at; (at = arg.find(pattern)) != std::string::npos;)
        arg.replace(at, pattern.size(), value);
    args.push_back(arg);
  }
  std::vector<char *> argv;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);

  fflush(nullptr);
  pid_t child = fork();
  if (child < 0)
    return 0;
  if (child == 0) {
    // The child: its output to the log, a time limit, then hk-emu.
    if (!freopen(scratch.log.c_str(), "w", stdout) ||
        dup2(fileno(stdout), STDERR_FILENO) < 0)
      _exit(0);
    restoreDefaultDeath();
    // hk-emu leaves through exit(1) on errors (its own and LLVM's command
    // line parser's); libFuzzer's exit handler, inherited through fork,
    // would turn that into its error status (77) and a finding. Handlers
    // run last-registered first, so this one ends the child before it. Any
    // exit() counts as status 1: not a finding, whatever its status was.
    std::atexit([] {
      fflush(nullptr);
      coverage.save();
      _exit(1);
    });
    // Mutated output paths are relative to the scratch directory, not to
    // wherever the fuzzer was started.
    if (chdir(scratch.dir.c_str()) != 0)
      _exit(0);
    alarm(20);
    int status = hkEmuMain(int(argv.size()) - 1, argv.data());
    fflush(nullptr);
    coverage.save();
    _exit(status);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR)
      return 0;
  if (WIFEXITED(status))
    coverage.merge();
  // hk-emu exits 0, 1 (an error) or 2 (sanitizer reports); anything else
  // is a death.
  bool died = WIFSIGNALED(status) || WEXITSTATUS(status) > 2;
  if (died) {
    if (WIFSIGNALED(status))
      llvm::errs() << "hk-emu-args-fuzzer: hk-emu died of signal "
                   << WTERMSIG(status)
                   << (WTERMSIG(status) == SIGALRM ? " (ran for over 20 s)"
                                                   : "");
    else
      llvm::errs() << "hk-emu-args-fuzzer: hk-emu exited with status "
                   << WEXITSTATUS(status);
    llvm::errs() << "; its command line:\n";
    for (size_t i = 0; i + 1 < argv.size(); ++i)
      llvm::errs() << "  " << argv[i] << "\n";
    if (auto log = llvm::MemoryBuffer::getFile(scratch.log))
      llvm::errs() << "its output:\n" << (*log)->getBuffer() << "\n";
    std::abort();
  }
  return 0;
}
