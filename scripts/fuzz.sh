#!/usr/bin/env bash
# Runs one fuzz target (fuzz/README.md) for a given time, at the lowest CPU
# priority, on one core:
#
#   scripts/fuzz.sh TARGET SECONDS [FUZZ_BUILD_DIR [BUILD_DIR]]
#
# TARGET is hk-opt-fuzzer, hk-translate-fuzzer, code-object-fuzzer or
# hk-emu-args-fuzzer; FUZZ_BUILD_DIR (default build-fuzz) is a build made by
# `make fuzz`, BUILD_DIR (default build) an ordinary build whose tools make
# the seed corpora (scripts/fuzz-seeds.sh, once, into FUZZ_BUILD_DIR/seeds).
# The corpus grows in FUZZ_BUILD_DIR/corpus/TARGET; every crash, leak,
# timeout or out-of-memory input is kept in FUZZ_BUILD_DIR/findings/TARGET/
# and fuzzing goes on. The last line reads
#   TARGET: N executions in S s, F finding(s)
set -euo pipefail

TARGET=${1:?usage: fuzz.sh TARGET SECONDS [FUZZ_BUILD_DIR [BUILD_DIR]]}
SECONDS_TO_RUN=${2:?usage: fuzz.sh TARGET SECONDS [FUZZ_BUILD_DIR [BUILD_DIR]]}
FUZZ_BUILD_DIR=${3:-build-fuzz}
BUILD_DIR=${4:-build}
BINARY=$FUZZ_BUILD_DIR/fuzz/$TARGET
[[ -x $BINARY ]] || { echo "fuzz.sh: no $BINARY; run 'make fuzz' first" >&2; exit 1; }

SEEDS=$FUZZ_BUILD_DIR/seeds
[[ -d $SEEDS/$TARGET ]] || "$(dirname "$0")/fuzz-seeds.sh" "$BUILD_DIR" "$SEEDS" >/dev/null
CORPUS=$FUZZ_BUILD_DIR/corpus/$TARGET
FINDINGS=$FUZZ_BUILD_DIR/findings/$TARGET
LOG=$FUZZ_BUILD_DIR/fuzz-$TARGET.log
mkdir -p "$CORPUS" "$FINDINGS"
export HK_FUZZ_HSACO=$PWD/$SEEDS/scale_add.hsaco
# Findings abort (the fork mode's children report them and go on). Reports
# are not symbolized while fuzzing: a child symbolizing its report through
# llvm-symbolizer has been seen to hang for good, stopping the whole run;
# replaying a finding (the target with the file as its argument, as in
# fuzz/README.md) names the source lines.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allow_user_poisoning=0:allocator_may_return_null=1:symbolize=0
export UBSAN_OPTIONS=abort_on_error=1:print_stacktrace=1:symbolize=0

start=$(date +%s)
# -fork=1: one child process fuzzes at a time and is restarted after a
# finding, so one run collects several; -timeout: seconds one input may
# take; -rss_limit_mb: a leak or a runaway allocation is a finding.
nice -n 19 "$BINARY" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
  -ignore_ooms=1 -max_total_time="$SECONDS_TO_RUN" -timeout=60 \
  -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
  -artifact_prefix="$FINDINGS/" "$CORPUS" "$SEEDS/$TARGET" >"$LOG" 2>&1 || true
elapsed=$(( $(date +%s) - start ))

# Fork mode prints "#N ... exec/s" lines as it goes; the last one counts
# every execution of the run.
executions=$(grep -oE '^#[0-9]+' "$LOG" | tail -1 | tr -d '#')
findings=$(find "$FINDINGS" -type f | wc -l)
echo "$TARGET: ${executions:-0} executions in $elapsed s, $findings finding(s) (log: $LOG, findings: $FINDINGS)"
