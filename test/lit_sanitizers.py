# Environment of the test processes in a sanitizer build (HK_ENABLE_SANITIZERS,
# `make test-sanitize`), shared by the lit configurations of test/ and
# test/Unit/.
import os
import subprocess


def enabled(config):
    return config.hk_sanitizers.upper() in ("ON", "1", "TRUE", "YES", "Y")


def configure(config, llvm_tools_dir="/usr/lib/llvm-22/bin"):
    """Makes every AddressSanitizer or UBSan finding abort the process: a
    finding then fails even a test that expects a non-zero exit (`not`
    accepts an exit code of 1, the sanitizers' default, but not a crash)."""
    if not enabled(config):
        return
    config.available_features.add("sanitizers")
    # allow_user_poisoning=0: LLVM's allocators poison memory in the inline
    # code compiled into the instrumented project, which the uninstrumented
    # libLLVM and libMLIR then write to without unpoisoning it.
    # allocator_may_return_null=1: the emulator allocates device memory with
    # calloc and reports a request the host cannot meet, as it does without
    # the sanitizers.
    common = "abort_on_error=1:halt_on_error=1:print_stacktrace=1"
    config.environment["ASAN_OPTIONS"] = (
        common + ":detect_leaks=1:allow_user_poisoning=0"
        ":allocator_may_return_null=1")
    config.environment["UBSAN_OPTIONS"] = common
    symbolizer = os.path.join(llvm_tools_dir, "llvm-symbolizer")
    if os.path.exists(symbolizer):
        config.environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
        config.environment["UBSAN_SYMBOLIZER_PATH"] = symbolizer


def asan_runtime(clang):
    """The AddressSanitizer runtime an uninstrumented program (Python, a
    host program) must preload to load an instrumented library."""
    path = subprocess.run([clang, "-print-file-name=libclang_rt.asan-x86_64.so"],
                          capture_output=True, text=True).stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else ""


def shared_runtime_link_flags(config):
    """Link flags of a host program that loads the sanitizer build's
    libhkhip, which takes the sanitizer runtimes from their shared library:
    the program must use that same library (and load it first)."""
    if not enabled(config):
        return ""
    runtime = asan_runtime(os.path.join(config.llvm_tools_dir, "clang"))
    return (" -fsanitize=address,undefined -shared-libasan -Wl,-rpath," +
            os.path.dirname(runtime))


def preload_runtime(config, feature):
    """For tests whose uninstrumented programs load an instrumented library:
    preloads the runtime, without leak checks of the programs' own memory.
    Without the runtime the tests become unsupported (`feature` is
    dropped)."""
    if not enabled(config):
        return
    runtime = asan_runtime(os.path.join(config.llvm_tools_dir, "clang"))
    if runtime:
        config.environment["LD_PRELOAD"] = runtime
        config.environment["ASAN_OPTIONS"] += ":detect_leaks=0"
    else:
        config.available_features.discard(feature)
