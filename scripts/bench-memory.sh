#!/usr/bin/env bash
# Memory-path figures: LDS bank conflicts with and without swizzles, the
# pipelined GEMM's main-loop waits with and without exact waits, and direct
# against register-staged group loads on gfx942. See bench_memory.py.
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/bench_memory.py" "${1:-build}"
