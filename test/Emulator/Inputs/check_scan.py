#!/usr/bin/env python3
"""Runs lookback_scan.hip's kernel on random non-negative ints and checks
its output against numpy's cumulative sum; prints the sanitizer summary.

usage: check_scan.py --hk-emu BIN --hsaco FILE --n N --host-threads T
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--hk-emu", required=True)
parser.add_argument("--hsaco", required=True)
parser.add_argument("--n", type=int, required=True)
parser.add_argument("--host-threads", type=int, required=True)
args = parser.parse_args()

TILE = 256
tiles = (args.n + TILE - 1) // TILE
values = np.random.default_rng(args.n).integers(0, 100, args.n).astype(np.int32)
with tempfile.TemporaryDirectory() as tmp:
    src, out = os.path.join(tmp, "in.npy"), os.path.join(tmp, "out.npy")
    np.save(src, values)
    proc = subprocess.run(
        [args.hk_emu, args.hsaco, "--kernel=scan", "--grid=%d" % tiles,
         "--block=%d" % TILE, "--arg=buf:" + src,
         "--arg=out:i32:%d:%s" % (args.n, out), "--arg=out:i32:%d" % tiles,
         "--arg=out:i32:1", "--arg=i32:%d" % args.n,
         "--host-threads=%d" % args.host_threads],
        capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith(("sanitizers:", "global-race", "lds-race")):
            print(line)
    if proc.returncode != 0:
        sys.exit("hk-emu failed: " + proc.stderr)
    got = np.load(out)
want = np.cumsum(values)
bad = int((got != want).sum())
print("scan of %d: %d mismatches %s" % (args.n, bad, "PASS" if not bad else "FAIL"))
sys.exit(1 if bad else 0)
