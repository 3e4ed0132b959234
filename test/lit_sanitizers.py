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
    """The AddressSanitizer runtime an uninstrumented program (Python) must
    preload to load an instrumented extension module."""
    path = subprocess.run([clang, "-print-file-name=libclang_rt.asan-x86_64.so"],
                          capture_output=True, text=True).stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else ""
