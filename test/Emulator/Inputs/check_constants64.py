#!/usr/bin/env python3
"""Checks the kernels of constants64.hip in hk-emu.

usage: check_constants64.py --hk-emu BIN --hsaco FILE --workdir DIR

The expected bit patterns are the IEEE encodings Python's struct module
gives for the constants (f64 for 64-bit operands, f32 for 32-bit ones).
Prints "constants64: ... PASS" or FAIL per kernel.
"""
import argparse
import os
import struct
import subprocess
import sys

import numpy as np


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def run(args, kernel, kernel_args):
    cmd = [args.hk_emu, args.hsaco, "--kernel=" + kernel, "--grid=1",
           "--block=64"] + ["--arg=" + a for a in kernel_args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("hk-emu %s: exit %d: %s" % (kernel, proc.returncode,
                                             proc.stderr.strip()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hk-emu", required=True)
    parser.add_argument("--hsaco", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    ok = True

    out = os.path.join(args.workdir, "constants.npy")
    x = f64_bits(1.0)
    run(args, "constants", ["out:u64:16:" + out, "u64:%d" % x])
    got = [int(v) for v in np.load(out)]
    # The hardware's 1/(2*pi) is the value LLVM's AMDGPU operand syntax
    # documents, 0.159154943091895317852646485335: 1/(2*pi) truncated to
    # f64, one ulp below the nearest double.
    inv2pi = 0.159154943091895317852646485335
    expected = [f64_bits(c) for c in
                (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, inv2pi)]
    expected += [
        f64_bits(-4.0),                                   # s_mov_b64
        ((x << (f32_bits(1.0) & 7)) + f64_bits(2.0)) % 2**64,  # v_lshl_add_u64
        x ^ f64_bits(0.5),                                # s_xor_b64
        (f64_bits(1.0) << (f32_bits(2.0) & 63)) % 2**64,  # s_lshl_b64
        f64_bits(2.0),                                    # v_add_f64 1.0 + x
        1,                                                # v_cmp_eq_u64 1.0, x
        0,
    ]
    bad = [i for i in range(len(expected)) if got[i] != expected[i]]
    print("constants64 constants: %d values, mismatches at %s %s" %
          (len(expected), bad, "FAIL" if bad else "PASS"))
    ok &= not bad

    # D = A x B with A, B all ones and K = 4: every element is 4.0.
    out = os.path.join(args.workdir, "mfma.npy")
    run(args, "mfma_ones", ["out:f64:256:" + out])
    got = np.load(out)
    good = bool(np.all(got == 4.0))
    print("constants64 mfma_ones: %s %s" %
          (np.unique(got).tolist(), "PASS" if good else "FAIL"))
    ok &= good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
