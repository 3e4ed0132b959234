#!/usr/bin/env bash
# Timing-model predictions (not measurements) of the memory-bound example
# kernels at HipKittens' and AITER's benchmark shapes: predicted time and
# GB/s per kernel and shape. See bench_kernels.py.
#
#   scripts/bench-kernels.sh [BUILD_DIR] [DEVICE ...] [--only=KERNEL ...]
#   (default device: mi355x; --only limits the table to those kernels)
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/bench_kernels.py" "${1:-build}" "${@:2}"
