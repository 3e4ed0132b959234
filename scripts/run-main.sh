#!/usr/bin/env bash
# The main job: compile every bundled example kernel for gfx942 and gfx950
# and report what each code object holds.
set -euo pipefail

BUILD_DIR=${1:-build}
BIN="$BUILD_DIR/bin"
OUT="$BUILD_DIR/examples"
mkdir -p "$OUT"

shopt -s nullglob
for kernel in examples/*/*.mlir; do
  name=$(basename "$kernel" .mlir)
  for chip in gfx942 gfx950; do
    hsaco="$OUT/$name.$chip.hsaco"
    "$BIN/hk-opt" --hk-pipeline="chip=$chip" "$kernel" |
      "$BIN/hk-translate" --chip="$chip" -o "$hsaco"
    "$BIN/hk-report" "$hsaco"
  done
done
