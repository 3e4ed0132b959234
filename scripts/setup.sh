#!/usr/bin/env bash
# Installs the Debian packages HK-MLIR builds and tests with. Idempotent: when
# everything is present it only queries dpkg and returns in well under a second.
set -euo pipefail

PACKAGES=(
  # LLVM/MLIR 22: headers, shared libraries, lit/FileCheck, lld as a library.
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22 liblld-22-dev
  # clang-22 builds the project and the foreign HIP-style test kernels;
  # its runtimes give the sanitizer build (make test-sanitize) and the
  # fuzz targets (fuzz/) AddressSanitizer, UBSan and libFuzzer.
  clang-22 clang-format-22 libclang-rt-22-dev
  # Build tools.
  cmake ninja-build ccache make git
  # Differential testing of the emulator: random C programs and their
  # runtime headers (scripts/csmith-diff.py, test/Emulator/csmith.test).
  csmith libcsmith-dev
  # C++ unit tests.
  libgtest-dev googletest
  # HIP's headers and runtime: generated headers and the host example
  # compile against them.
  libamdhip64-dev
  # Python package, bindings and tests (Debian packages: no PyPI here).
  python3 python3-dev python3-numpy python3-pytest pybind11-dev
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || {
    echo "setup: missing packages (${missing[*]}) and not root; install them or run as root" >&2
    exit 1
  }
  SUDO="sudo"
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
