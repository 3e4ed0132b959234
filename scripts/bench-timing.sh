#!/usr/bin/env bash
# Timing-model predictions (not measurements) of the example kernels at
# HipKittens' benchmark sizes, per device: GEMMs (bf16 and fp8), attention
# forward (and, with --families=backward, the fused attention backward),
# and the memory-bound kernels of bench-kernels.sh. See
# bench_timing.py for the options; with none it predicts the 8192^3 GEMMs,
# GQA attention at N = 1024 and the memory-bound table on all four devices.
#
#   scripts/bench-timing.sh [BUILD_DIR] [SIZE ...] [--devices=D,...]
#       [--gemm=N,...] [--attn=N,...] [--heads=gqa,mha]
#       [--families=gemm,attention,memory,backward] [--only=KERNEL,...]
#       [--markdown]
#
# Each prediction emulates up to three dispatch waves of one XCD (and a
# partial last one), whose workgroups loop over K (GEMM) or the keys
# (attention): a 8192^3 GEMM or an N = 8192 attention takes half a minute
# to two minutes of CPU (simulated twice: at the peak clock, then at the
# clock its load sustains), more at 16384. Run it under nice on a shared
# machine.
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/bench_timing.py" "${1:-build}" "${@:2}"
