#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets (fuzz/README.md) from the
# tree's examples and tests, with the tools of an ordinary build:
#
#   scripts/fuzz-seeds.sh BUILD_DIR OUT_DIR [--quick]
#
# OUT_DIR/<target>/ gets one input per file:
#   hk-opt-fuzzer        every example and test .mlir, test files split at
#                        their `// -----` markers
#   hk-translate-fuzzer  the examples lowered by hk-opt for each chip (the
#                        LLVM dialect hk-translate reads)
#   code-object-fuzzer   the examples' code objects for each chip and
#                        clang-compiled HIP-style test kernels
#   hk-emu-args-fuzzer   hk-emu command lines for OUT_DIR/scale_add.hsaco
#                        (the fuzz target reads $HK_FUZZ_HSACO)
# Past findings (fuzz/regressions/<target>/) are copied in too. --quick
# takes two examples and no HIP kernels (what the test suite replays).
set -euo pipefail

BUILD_DIR=${1:?usage: fuzz-seeds.sh BUILD_DIR OUT_DIR [--quick]}
OUT=${2:?usage: fuzz-seeds.sh BUILD_DIR OUT_DIR [--quick]}
QUICK=${3:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$BUILD_DIR/bin
CLANGXX=${CLANGXX:-clang++-22}

if [[ $QUICK == --quick ]]; then
  EXAMPLES=("$ROOT/examples/elementwise/scale_add.mlir"
            "$ROOT/examples/gemm/gemm_abt.mlir")
else
  EXAMPLES=("$ROOT"/examples/*/*.mlir)
fi

rm -rf "$OUT"
for target in hk-opt-fuzzer hk-translate-fuzzer code-object-fuzzer \
              hk-emu-args-fuzzer; do
  mkdir -p "$OUT/$target"
  if [[ -d $ROOT/fuzz/regressions/$target ]]; then
    cp "$ROOT/fuzz/regressions/$target"/* "$OUT/$target/" 2>/dev/null || true
  fi
done

# hk-opt: whole files and their split-input-file pieces.
n=0
for file in "${EXAMPLES[@]}" $([[ $QUICK == --quick ]] || find "$ROOT/test" -name '*.mlir' | sort); do
  /usr/bin/python3 - "$file" "$OUT/hk-opt-fuzzer" "$n" <<'PY'
import re, sys
path, out, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(path).read()
pieces = [text] + (re.split(r"^// -----\s*$", text, flags=re.M)
                   if "// -----" in text else [])
for i, piece in enumerate(pieces):
    open("%s/mlir-%04d-%02d.mlir" % (out, first, i), "w").write(piece)
PY
  n=$((n + 1))
done

# hk-translate and code objects: each example lowered and compiled per chip.
for file in "${EXAMPLES[@]}"; do
  name=$(basename "$file" .mlir)
  for chip in gfx942 gfx950; do
    case $name in *_gfx942) [[ $chip == gfx942 ]] || continue ;; esac
    case $name in *_gfx950) [[ $chip == gfx950 ]] || continue ;; esac
    lowered=$OUT/hk-translate-fuzzer/$name.$chip.mlir
    "$BIN/hk-opt" --hk-pipeline=chip=$chip "$file" -o "$lowered"
    "$BIN/hk-translate" "$lowered" -o "$OUT/code-object-fuzzer/$name.$chip.hsaco"
  done
done
if [[ $QUICK != --quick ]]; then
  for hip in gemm layernorm dma scratch call globals; do
    for chip in gfx942 gfx950; do
      "$CLANGXX" -x hip --cuda-device-only --no-gpu-bundle-output -nogpulib \
        -nogpuinc -O3 -I "$ROOT/test/Emulator/Inputs" --offload-arch=$chip \
        "$ROOT/test/Emulator/Inputs/$hip.hip" \
        -o "$OUT/code-object-fuzzer/hip-$hip.$chip.hsaco"
    done
  done
fi

# hk-emu command lines for scale_add (x, b, y, nine sizes and strides,
# alpha), with an input file after a NUL byte.
"$BIN/hk-opt" --hk-pipeline=chip=gfx942 "$ROOT/examples/elementwise/scale_add.mlir" \
  | "$BIN/hk-translate" -o "$OUT/scale_add.hsaco"
/usr/bin/python3 - "$OUT/hk-emu-args-fuzzer" <<'PY'
import io, sys
import numpy as np
out = sys.argv[1]
def npy(array):
    f = io.BytesIO()
    np.save(f, array)
    return f.getvalue()
sizes = ["--arg=i32:16"] * 9
seeds = {
    "run-npy": (["--grid=1", "--block=256", "--arg=buf:@FILE@",
                 "--arg=buf:@FILE@", "--arg=out:f32:256:@OUT@.npy"] + sizes +
                ["--arg=f32:1.5", "--json"],
                npy(np.arange(256, dtype=np.float32))),
    "run-raw": (["--grid=1,1,1", "--block=256", "--arg=buf:@FILE@",
                 "--arg=buf:@FILE@:@OUT@", "--arg=out:f32:256"] + sizes +
                ["--arg=f32:-0.25", "--sanitize=bounds,race", "--print=3"],
                bytes(1024)),
    "workgroups": (["--grid=2,2", "--block=64,4", "--arg=buf:@FILE@",
                    "--arg=buf:@FILE@", "--arg=out:bf16:512"] + sizes +
                   ["--arg=f32:2", "--workgroups=0,3", "--host-threads=1",
                    "--watchdog=100000", "--dynamic-lds=256"],
                   npy(np.ones((16, 16), dtype=np.float32))),
    "list": (["--list-unsupported"], b""),
    "wrong-count": (["--grid=1", "--block=64", "--arg=i32:7",
                     "--arg=u64:0x10", "--arg=f64:1e300"], b""),
}
for name, (args, data) in seeds.items():
    with open("%s/%s" % (out, name), "wb") as f:
        f.write("\n".join(args).encode())
        if data:
            f.write(b"\0" + data)
PY
for target in "$OUT"/*/; do
  echo "$(basename "$target"): $(ls "$target" | wc -l) seed(s)"
done
