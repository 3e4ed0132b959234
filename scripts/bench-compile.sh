#!/usr/bin/env bash
# Compile-time benchmark: for every example and chip, the wall time from
# .mlir to hsaco (parse, hk pipeline, LLVM codegen, in-process lld), best of
# three, pinned to one core. Prints figures; it is not a test.
set -euo pipefail

BUILD_DIR=${1:-build}
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
echo "compile time, one core, best of 3:"
for example in examples/*/*.mlir; do
  $pin "$BUILD_DIR/bin/hk-run" --compile-only --repeat=3 "$example"
done
