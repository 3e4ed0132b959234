#!/usr/bin/env python3
"""Checks the ids kernel of dispatch.hip: every work-item reports what the
dispatch model gave it, compared with what HIP's launch model defines.

usage: check_dispatch.py --hk-emu BIN --hsaco FILE [--only ID] [extra hk-emu args]
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
parser.add_argument("--only", type=int, default=None)
args, extra = parser.parse_known_args()

grid, block = (3, 2, 2), (8, 4, 3)
groups = grid[0] * grid[1] * grid[2]
per_group = block[0] * block[1] * block[2]
marker = 7000
with tempfile.TemporaryDirectory() as tmp:
    out_path = os.path.join(tmp, "out.npy")
    cmd = [args.hk_emu, args.hsaco, "--grid=%d,%d,%d" % grid,
           "--block=%d,%d,%d" % block, "--dynamic-lds=%d" % (4 * per_group),
           "--arg=out:u32:%d:%s" % (groups * per_group * 14, out_path),
           "--arg=i32:%d" % marker] + extra
    if args.only is not None:
        cmd.append("--workgroups=%d" % args.only)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("hk-emu failed: " + proc.stderr + proc.stdout)
    got = np.load(out_path).reshape(groups, per_group, 14)

bad = 0
for g in range(groups):
    bx, by, bz = g % grid[0], (g // grid[0]) % grid[1], g // (grid[0] * grid[1])
    for l in range(per_group):
        x, y, z = l % block[0], (l // block[0]) % block[1], l // (block[0] * block[1])
        want = [x, y, z, bx, by, bz,
                grid[0] * 1000000 + grid[1] * 1000 + grid[2],
                block[0] * 1000000 + block[1] * 1000 + block[2],
                grid[0] * block[0], marker + (l + 1) % per_group, marker, l % 64,
                3, 4 * per_group]
        if args.only is not None and g != args.only:
            want = [0] * 14
        if list(got[g, l]) != want:
            if bad < 5:
                print("workgroup %d item %d: got %s want %s" % (g, l, list(got[g, l]), want))
            bad += 1
print("dispatch: %d mismatches %s" % (bad, "PASS" if bad == 0 else "FAIL"))
sys.exit(1 if bad else 0)
