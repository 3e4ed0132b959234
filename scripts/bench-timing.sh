#!/usr/bin/env bash
# Timing-model predictions of the GEMM examples at HipKittens' benchmark
# sizes (M = N = K), per device: predicted time, TFLOP/s, percent of the
# device's dense peak for the kernel's MFMA, the main loop's largest stall,
# and the CPU time the model took. Only XCD 0's first dispatch wave (and a
# partial last one) is emulated (hk-emu --workgroups=sample). Every figure
# is a PREDICTION of the model, not a measurement.
#
#   scripts/bench-timing.sh [BUILD_DIR] [SIZE ...]      (default: 8192)
#
# HK_BENCH_KERNELS=gemm_pingpong_k64,... limits the table to those kernels.
#
# A 8192^3 bf16 GEMM takes about 25 to 40 s of CPU per device; 16384^3
# eight times that. Run it under nice on a shared machine.
set -euo pipefail

BUILD_DIR=${1:-build}
shift || true
SIZES=("$@")
[[ ${#SIZES[@]} -gt 0 ]] || SIZES=(8192)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$BUILD_DIR/bin"
for tool in hk-opt hk-translate hk-emu; do
  if [[ ! -x "$BIN/$tool" ]]; then
    echo "bench-timing: $BIN/$tool not found; build first (make build)" >&2
    exit 1
  fi
done

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# example file, kernel, chip, waves, output tile, A/B element type
KERNELS=(
  "gemm_pingpong.mlir gemm_pingpong_k32 gfx942 8 256 bf16"
  "gemm_fp8_gfx942.mlir gemm_abt_fp8_interleave gfx942 4 128 fp8"
  "gemm_pingpong_gfx950.mlir gemm_pingpong_k64 gfx950 8 256 bf16"
  "gemm_fp8_gfx950.mlir gemm_abt_fp8_interleave gfx950 4 128 fp8"
)
declare -A DEVICES=([gfx942]="mi300x mi325x" [gfx950]="mi350x mi355x")

printf '%-24s %-7s %6s %10s %9s %7s  %-18s %8s\n' kernel device size \
  "time (ms)" "TFLOP/s" "% peak" "main loop's stall" "model s"
for entry in "${KERNELS[@]}"; do
  read -r file kernel chip waves tile dtype <<<"$entry"
  if [[ -n "${HK_BENCH_KERNELS:-}" && ",$HK_BENCH_KERNELS," != *",$kernel,"* ]]; then
    continue
  fi
  hsaco="$WORK/$kernel.$chip.hsaco"
  "$BIN/hk-opt" --hk-pipeline=chip=$chip "$ROOT/examples/gemm/$file" |
    "$BIN/hk-translate" --chip=$chip -o "$hsaco"
  for n in "${SIZES[@]}"; do
    tiles=$(((n + tile - 1) / tile))
    for device in ${DEVICES[$chip]}; do
      # A (n x n), B (n x n, transposed), C (n x n) as zero buffers: the
      # model's time does not depend on the values.
      /usr/bin/time -f '%U %S' -o "$WORK/cpu" \
        "$BIN/hk-emu" "$hsaco" --kernel=$kernel --grid=$tiles,$tiles \
        --block=$((64 * waves)) --arg=out:$dtype:$((n * n)) \
        --arg=out:$dtype:$((n * n)) --arg=out:bf16:$((n * n)) \
        --arg=i32:$n --arg=i32:$n --arg=i32:$n --arg=i32:$n --arg=i32:$n \
        --arg=i32:$n --arg=i32:$n --arg=i32:$n --arg=i32:$n \
        --sanitize=none --timing --device=$device --workgroups=sample \
        --json >"$WORK/run.json"
      /usr/bin/python3 - "$WORK/run.json" "$WORK/cpu" "$kernel" "$n" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["timing"]
cpu = sum(float(x) for x in open(sys.argv[2]).read().split())
loops = [l for l in t["loops"] if "start_pc" in l] or t["loops"]
main = max(loops, key=lambda l: l["simd_cycles"])
stall = main["largest_stall"]
share = main["breakdown"][stall] / max(1, main["simd_cycles"])
print(f"{sys.argv[3]:<24} {t['device']:<7} {int(sys.argv[4]):>6} "
      f"{t['seconds'] * 1e3:>10.4g} {t['tflops']:>9.1f} "
      f"{t['percent_of_peak']:>6.1f}%  "
      f"{stall + f' {100 * share:.0f}%':<18} {cpu:>8.1f}")
PY
    done
  done
done
