#!/usr/bin/env bash
# The main job: compile every bundled example for gfx942 and gfx950, run it
# in the emulator on seeded random inputs with sanitizers on, and check it
# against a CPU reference (hk-run prints errors, counters, registers, LDS).
# The code objects are written to BUILD_DIR/examples/<example>.<chip>.hsaco;
# the last lines list them with the target their metadata names.
set -euo pipefail

BUILD_DIR=${1:-build}
HSACO_DIR=$BUILD_DIR/examples
# Only this run's code objects: a failed compile leaves no stale file behind.
mkdir -p "$HSACO_DIR"
rm -f "$HSACO_DIR"/*.hsaco
status=0
for example in examples/*/*.mlir; do
  "$BUILD_DIR/bin/hk-run" "$example" --save-hsaco="$HSACO_DIR" || status=1
  echo
done

echo "Code objects:"
for hsaco in "$HSACO_DIR"/*.hsaco; do
  [ -e "$hsaco" ] || continue
  # hk-report's first line ends with the metadata's amdhsa.target.
  if report=$("$BUILD_DIR/bin/hk-report" "$hsaco"); then
    first=${report%%$'\n'*}
    echo "  $hsaco: amdhsa.target ${first##*, target }"
  else
    status=1
  fi
done
exit $status
