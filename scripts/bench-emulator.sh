#!/usr/bin/env bash
# Emulator speed: wave-instructions per second and emulated MFMA FLOP/s of
# hk-emu running a bf16 GEMM (buffer loads, LDS, MFMA), single-threaded and
# with all cores. Prints figures; it is a benchmark, not a timed test.
#
#   scripts/bench-emulator.sh [BUILD_DIR] [SIZE]
set -euo pipefail

BUILD_DIR=${1:-build}
SIZE=${2:-512}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HK_EMU="$BUILD_DIR/bin/hk-emu"
CLANG=/usr/lib/llvm-22/bin/clang++
[[ -x "$CLANG" ]] || CLANG=clang++-22
if [[ ! -x "$HK_EMU" ]]; then
  echo "bench-emulator: $HK_EMU not found; build first (make build)" >&2
  exit 1
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

/usr/bin/python3 - "$WORK" "$SIZE" <<'PY'
import sys, numpy as np
work, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
for name in ("a", "b"):
    x = rng.standard_normal((n, n)).astype(np.float32).view(np.uint32)
    np.save(f"{work}/{name}.npy", (x >> 16).astype(np.uint16))
PY

for chip in gfx942 gfx950; do
  "$CLANG" -x hip --cuda-device-only --no-gpu-bundle-output -nogpulib \
    -nogpuinc -O3 --offload-arch=$chip -I "$ROOT/test/Emulator/Inputs" \
    "$ROOT/test/Emulator/Inputs/gemm.hip" -o "$WORK/gemm-$chip.hsaco"
  for config in "1 all" "0 all" "1 none"; do
    read -r threads sanitize <<<"$config"
    "$HK_EMU" "$WORK/gemm-$chip.hsaco" --grid=$((SIZE / 32)),$((SIZE / 32)) \
      --block=256 --arg=buf:"$WORK/a.npy" --arg=buf:"$WORK/b.npy" \
      --arg=out:f32:$((SIZE * SIZE)) --arg=i32:$SIZE --arg=i32:$SIZE \
      --arg=i32:$SIZE --host-threads=$threads --sanitize=$sanitize \
      --json >"$WORK/run.json"
    /usr/bin/python3 - "$WORK/run.json" "$chip" "$threads" "$SIZE" "$sanitize" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
chip, threads, n, sanitize = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
c, s = r["counters"], r["seconds"]
label = "1 thread" if threads == 1 else f"{os.cpu_count()} threads"
state = "on" if sanitize == "all" else "off"
print(f"hk-emu {chip} bf16 gemm {n}^3, sanitizers {state}, {label}: "
      f"{s:.2f} s, {c['wave_instructions'] / s / 1e6:.2f} M wave-instr/s, "
      f"{c['mfma']['flops'] / s / 1e9:.3f} GFLOP/s emulated MFMA")
PY
  done
done
