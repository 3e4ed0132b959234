#!/usr/bin/env bash
# The main job: compile every bundled example for gfx942 and gfx950, run it
# in the emulator on seeded random inputs with sanitizers on, and check it
# against a CPU reference (hk-run prints errors, counters, registers, LDS).
set -euo pipefail

BUILD_DIR=${1:-build}
status=0
for example in examples/*/*.mlir; do
  "$BUILD_DIR/bin/hk-run" "$example" || status=1
  echo
done
exit $status
