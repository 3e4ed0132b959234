#!/usr/bin/env python3
"""Expected results of atomics.hip, from the C++ memory model's definitions
of each atomic (fetch_add, fetch_max, compare_exchange, exchange) on exact
values: the final memory does not depend on the order of the updates.
Runs the kernel on four workgroups with the flat atomics aimed at global
memory (--lds=0) or at LDS (--lds=1), sanitizers on.

usage: check_atomics.py --hk-emu BIN --hsaco FILE --lds 0|1
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
parser.add_argument("--lds", type=int, choices=(0, 1), required=True)
args = parser.parse_args()

BLOCKS, LANES = 4, 64
N = BLOCKS * LANES
MASK = (1 << 64) - 1

d_init = np.zeros(4 + 3 * BLOCKS)
d_init[1], d_init[2] = -1e300, 1e300
with tempfile.TemporaryDirectory() as tmp:
    paths = {k: os.path.join(tmp, k + ".npy") for k in ("d", "u", "h")}
    np.save(paths["d"], d_init)
    proc = subprocess.run(
        [args.hk_emu, args.hsaco, "--kernel=atomics",
         "--grid=%d" % BLOCKS, "--block=%d" % LANES,
         "--arg=buf:%s:%s" % (paths["d"], paths["d"]),
         "--arg=out:u64:%d:%s" % (1 + 10 * BLOCKS, paths["u"]),
         "--arg=out:f16:%d:%s" % (2 * (1 + BLOCKS), paths["h"]),
         "--arg=i32:%d" % args.lds],
        capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("hk-emu failed: " + proc.stderr + proc.stdout)
    d = np.load(paths["d"])
    u = [int(x) for x in np.load(paths["u"])]
    h = np.load(paths["h"]).astype(np.float64)

bad = []


def check(name, got, want):
    if got != want:
        bad.append("%s: got %r, want %r" % (name, got, want))


xs = [(i + 1) * 0.5 for i in range(N)]
check("global f64 add", d[0], sum(xs))
check("global f64 max", d[1], max(xs) - 40.0)
check("global f64 min", d[2], 40.0 - max(xs))
check("flat f64 add (global)", d[3], 0.0 if args.lds else 0.25 * N)
flat_u = sum((i << 32) | 1 for i in range(N)) & MASK
check("flat u64 add (global)", u[0], 0 if args.lds else flat_u)
check("global packed f16 add", list(h[0:2]), [float(N), 0.25 * N])
for b in range(BLOCKS):
    ids = range(b * LANES, (b + 1) * LANES)
    wx = [(i + 1) * 0.5 for i in ids]
    big = [((i + 1) << 33) | (i - b * LANES) for i in ids]
    flat_lds = sum((i << 32) | 1 for i in ids) if args.lds else 0
    sd = list(d[4 + 3 * b: 7 + 3 * b])
    check("wg%d LDS f64 add" % b, sd[0], sum(wx) + (0.25 * LANES if args.lds else 0))
    check("wg%d LDS f64 max" % b, sd[1], max(wx))
    check("wg%d LDS f64 min" % b, sd[2], -max(wx))
    su = u[1 + 10 * b: 1 + 10 * b + 10]
    check("wg%d LDS u64 add" % b, su[0], (sum(big) + flat_lds) & MASK)
    check("wg%d LDS u64 max" % b, su[1], max(big))
    check("wg%d LDS i64 min" % b, su[2], (-max(big)) & MASK)
    check("wg%d LDS b64 and" % b, su[3], 0)
    check("wg%d LDS b64 or" % b, su[4], MASK)
    check("wg%d LDS b64 xor" % b, su[5], MASK)
    check("wg%d LDS cmpswap chain" % b, su[6], LANES)
    written = [3 * t for t in range(LANES)]
    if su[7] not in written:
        bad.append("wg%d LDS exchange: final %d was never written" % (b, su[7]))
    check("wg%d LDS exchange returns" % b, su[8] + su[7], sum(written))
    check("wg%d LDS packed f16 add" % b, list(h[2 + 2 * b: 4 + 2 * b]),
          [float(LANES), 0.25 * LANES])
for line in bad:
    print(line)
print("atomics (flat into %s): %d mismatches %s"
      % ("LDS" if args.lds else "global", len(bad), "PASS" if not bad else "FAIL"))
sys.exit(1 if bad else 0)
