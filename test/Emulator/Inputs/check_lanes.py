#!/usr/bin/env python3
"""Expected results of lanes.hip, written from the ISA's definitions of each
cross-lane operation (DPP rows are 16 lanes, banks 4 lanes within a row;
an invalid source lane keeps the old value unless bound_ctrl writes 0; lanes
in disabled rows/banks keep the old value).

usage: check_lanes.py --hk-emu BIN --hsaco FILE
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
args = parser.parse_args()

rng = np.random.default_rng(5)
v = rng.integers(1000, 2**30, size=64).astype(np.int32)
OLD = -1


def dpp(src_lane, bound_ctrl=False, row_mask=0xF, bank_mask=0xF):
    out = []
    for l in range(64):
        row, bank = l // 16, (l // 4) % 4
        if not (row_mask >> row) & 1 or not (bank_mask >> bank) & 1:
            out.append(OLD)
            continue
        s = src_lane(l)
        if s is None:
            out.append(0 if bound_ctrl else OLD)
        else:
            out.append(v[s])
    return out


def shr(n):
    return lambda l: l - n if l % 16 >= n else None


def shl(n):
    return lambda l: l + n if l % 16 + n < 16 else None


expected = [
    dpp(shr(1)),
    dpp(shl(1), bound_ctrl=True),
    dpp(lambda l: (l & ~3) | (3 - (l & 3))),              # quad_perm [3,2,1,0]
    dpp(lambda l: (l & ~15) | ((l % 16 - 8) % 16)),       # row_ror:8
    dpp(lambda l: (l & ~15) | (15 - l % 16)),             # row_mirror
    dpp(lambda l: (l & ~7) | (7 - l % 8)),                # row_half_mirror
    dpp(shr(1), row_mask=0x5, bank_mask=0x3),
    dpp(lambda l: (l & ~15) | 5),                         # row_newbcast:5
    [v[(l & ~3) | (3 - (l & 3))] for l in range(64)],     # swizzle quad perm
    [v[(l & 0x20) | ((l & 0x1F) ^ 1)] for l in range(64)],  # swizzle xor 1
    [v[(l * 5) % 64] for l in range(64)],                 # bpermute
    [v[37]] * 64,                                         # readlane 37
    list(range(64)),                                      # mbcnt: lane id
    [0] * 64,                                             # permute (below)
    [0 if l < 20 else v[20] for l in range(64)],          # readfirstlane
]
for l in range(64):
    expected[13][(l * 3) % 64] = v[l]

with tempfile.TemporaryDirectory() as tmp:
    np.save(os.path.join(tmp, "v.npy"), v)
    out = os.path.join(tmp, "out.npy")
    proc = subprocess.run([args.hk_emu, args.hsaco, "--block=64",
                           "--arg=buf:" + os.path.join(tmp, "v.npy"),
                           "--arg=out:i32:%d:%s" % (64 * len(expected), out)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("hk-emu failed: " + proc.stderr + proc.stdout)
    got = np.load(out).reshape(len(expected), 64)

names = ["row_shr:1", "row_shl:1 bound_ctrl", "quad_perm", "row_ror:8",
         "row_mirror", "row_half_mirror", "row/bank masks", "row_newbcast:5",
         "swizzle quad_perm", "swizzle bitmask", "ds_bpermute", "readlane",
         "mbcnt", "ds_permute", "readfirstlane"]
bad = 0
for i, name in enumerate(names):
    ok = list(got[i]) == [int(x) for x in expected[i]]
    bad += not ok
    print("%-20s %s" % (name, "ok" if ok else "MISMATCH %s vs %s" % (list(got[i][:8]), expected[i][:8])))
print("lanes: %d mismatches %s" % (bad, "PASS" if bad == 0 else "FAIL"))
sys.exit(1 if bad else 0)
