#!/usr/bin/env bash
# Runs the whole HK-MLIR test suite through lit (FileCheck tests, GoogleTest
# unit tests, end-to-end emulator runs) and ends with "N passed, N failed".
set -uo pipefail

BUILD_DIR=${1:-build}
LIT=/usr/lib/llvm-22/bin/lit
RESULTS="$BUILD_DIR/test-results.json"

"$LIT" -sv --order=lexical -o "$RESULTS" "$BUILD_DIR/test"
lit_status=$?

/usr/bin/python3 - "$RESULTS" "$lit_status" <<'PY'
import json, sys
path, status = sys.argv[1], int(sys.argv[2])
try:
    tests = json.load(open(path))["tests"]
except (OSError, ValueError, KeyError):
    print("0 passed, 1 failed")
    sys.exit(1)
passed = sum(t["code"] in ("PASS", "XFAIL") for t in tests)
failed = sum(t["code"] in ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT") for t in tests)
skipped = sum(t["code"] == "UNSUPPORTED" for t in tests)
if status != 0 and failed == 0:
    failed = 1  # lit itself failed (e.g. a broken configuration)
if skipped:
    print(f"({skipped} unsupported on this machine)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
