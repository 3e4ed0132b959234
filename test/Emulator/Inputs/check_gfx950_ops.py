#!/usr/bin/env python3
"""Checks the kernels of gfx950_ops.hip in hk-emu.

usage: check_gfx950_ops.py TEST --hk-emu BIN --hsaco FILE --oracles DIR
                           --workdir DIR

moves:   v_permlane16_swap_b32 against the CDNA4 ISA's pseudocode, and the
         transposing LDS reads against the ASSUMED element order (below).
scaled:  the scaled f8f6f4 MFMAs with fp6/bf6/fp4 operands against NumPy,
         the element formats decoded from their OCP definitions, the result
         layout read from AMD's Matrix Instruction Calculator tables.
Prints "NAME: ... PASS" or FAIL per check.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np


def run(args, kernel, kernel_args):
    cmd = [args.hk_emu, args.hsaco, "--kernel=" + kernel, "--block=64"] + \
        ["--arg=" + a for a in kernel_args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("hk-emu %s: exit %d: %s" % (kernel, proc.returncode,
                                             proc.stderr.strip()))


def check(name, ok, detail=""):
    print("%s: %s%s" % (name, detail + " " if detail else "",
                        "PASS" if ok else "FAIL"))
    return ok


def lane_bits(words, lane, count):
    """Lane `lane`'s first `count` dwords of a [lane][dword] array, as one
    little-endian integer."""
    return sum(int(words[lane][d]) << (32 * d) for d in range(count))


def transposed(lanes, nbytes, bits):
    """ASSUMED order (no AMD document gives it; Modular's Mojo reference
    describes ds_read_b64_tr_b8 as two interleaved 8x8 byte transposes per
    16 lanes, which this is): in each group of 16 lanes, the elements the
    lanes load form a tile with rows of 16 elements, lanes taken in order
    and each lane's elements from bit 0 up; lane c receives column c, row r
    at bits r*bits."""
    per_lane = nbytes * 8 // bits
    lanes_per_row = 16 // per_lane
    mask = (1 << bits) - 1
    element = lambda lane, e: (lanes[lane] >> (e * bits)) & mask
    out = []
    for lane in range(64):
        group, c = lane & ~15, lane & 15
        value = 0
        for r in range(per_lane):
            src = group + r * lanes_per_row + c // per_lane
            value |= element(src, c % per_lane) << (r * bits)
        out.append(value)
    return out


def moves(args, rng, w):
    data = rng.integers(0, 2**32, size=384, dtype=np.uint64).astype(np.uint32)
    np.save(w("in.npy"), data)
    run(args, "moves", ["buf:" + w("in.npy"), "out:u32:448:" + w("tr.npy"),
                        "out:u32:128:" + w("sw.npy")])
    got = np.load(w("tr.npy"))
    image64 = data[:128].reshape(64, 2)
    image96 = data[128:].reshape(64, 4)
    lanes64 = [lane_bits(image64, l, 2) for l in range(64)]
    lanes96 = [lane_bits(image96, l, 3) for l in range(64)]
    ok = True
    for name, want, words, count in [
            ("ds_read_b64_tr_b8", transposed(lanes64, 8, 8), got[:128], 2),
            ("ds_read_b64_tr_b4", transposed(lanes64, 8, 4), got[128:256], 2),
            ("ds_read_b96_tr_b6", transposed(lanes96, 12, 6), got[256:], 3)]:
        words = words.reshape(64, count)
        have = [lane_bits(words, l, count) for l in range(64)]
        bad = sum(h != x for h, x in zip(have, want))
        ok &= check(name + "-assumed-order", bad == 0, "mismatched lanes=%d" % bad)
    # CDNA4 ISA, V_PERMLANE16_SWAP_B32: for each 32-lane half, lanes 0-15
    # of SRC0 (the second operand) trade places with lanes 16-31 of VDST
    # (the first); the builtin returns (VDST, SRC0).
    vdst = list(range(64))
    src0 = [100 + l for l in range(64)]
    for half in (0, 32):
        for l in range(16):
            a, b = half + l + 16, half + l
            vdst[a], src0[b] = src0[b], vdst[a]
    sw = np.load(w("sw.npy")).reshape(64, 2)
    ok &= check("v_permlane16_swap_b32",
                sw[:, 0].tolist() == vdst and sw[:, 1].tolist() == src0)
    return ok


# Format codes of cbsz/blgp: (exponent bits, mantissa bits, bias, specials).
# OCP 8-bit formats (OFP8): E4M3FN has no infinities and S.1111.111 is NaN;
# E5M2 is IEEE-like. OCP MX: E2M3 (fp6), E3M2 (bf6), E2M1 (fp4) have none.
FORMATS = {0: (4, 3, 7, "fn"), 1: (5, 2, 15, "ieee"), 2: (2, 3, 1, None),
           3: (3, 2, 3, None), 4: (2, 1, 1, None)}


def format_bits(code):
    ebits, mbits, _, _ = FORMATS[code]
    return 1 + ebits + mbits


def value_table(code):
    """The value of every bit pattern of format `code` (NaN if not finite)."""
    ebits, mbits, bias, specials = FORMATS[code]
    table = []
    for pattern in range(1 << format_bits(code)):
        sign = -1.0 if pattern >> (ebits + mbits) else 1.0
        exp = (pattern >> mbits) & ((1 << ebits) - 1)
        man = pattern & ((1 << mbits) - 1)
        if specials == "ieee" and exp == (1 << ebits) - 1:
            table.append(np.nan)
        elif specials == "fn" and exp == (1 << ebits) - 1 and \
                man == (1 << mbits) - 1:
            table.append(np.nan)
        elif exp == 0:
            table.append(sign * man * 2.0 ** (1 - bias - mbits))
        else:
            table.append(sign * (1 + man / 2.0**mbits) * 2.0 ** (exp - bias))
    return np.array(table)


def pack_operand(codes, bits, rows):
    """Lane row+rows*g holds K elements 32g..32g+31 of row `row`, element e
    at bits e*bits of its eight registers (ASSUMED K order, as for the
    16x16x128 fp8/fp4 case in gfx950-assumed-orders.test)."""
    regs = np.zeros((8, 64), dtype=np.uint32)
    for lane in range(64):
        row, g = lane % rows, lane // rows
        value = 0
        for e in range(32):
            value |= int(codes[row, 32 * g + e]) << (e * bits)
        for r in range(8):
            regs[r, lane] = (value >> (32 * r)) & 0xFFFFFFFF
    return regs


def scaled(args, rng, w):
    ok = True
    for kernel, m, fa, fb, table in [
            ("scaled32_fp6_bf6", 32, 2, 3, "v_mfma_f32_32x32x8_f16"),
            ("scaled32_fp4_bf8", 32, 4, 1, "v_mfma_f32_32x32x8_f16"),
            ("scaled16_bf6_fp6", 16, 3, 2, "v_mfma_f32_16x16x16_f16")]:
        k = 64 * 32 // m
        va, vb = value_table(fa), value_table(fb)
        finite_a = np.flatnonzero(~np.isnan(va))
        finite_b = np.flatnonzero(~np.isnan(vb))
        a = rng.choice(finite_a, size=(m, k))
        b = rng.choice(finite_b, size=(m, k))  # B transposed: [column][k]
        sa = rng.integers(124, 131, size=64)
        sb = rng.integers(124, 131, size=64)
        np.save(w("a.npy"), pack_operand(a, format_bits(fa), m).reshape(-1))
        np.save(w("b.npy"), pack_operand(b, format_bits(fb), m).reshape(-1))
        np.save(w("sa.npy"), sa.astype(np.uint32))
        np.save(w("sb.npy"), sb.astype(np.uint32))
        regs = m * m // 64
        run(args, kernel, ["buf:" + w("a.npy"), "buf:" + w("b.npy"),
                           "buf:" + w("sa.npy"), "buf:" + w("sb.npy"),
                           "out:f32:%d:%s" % (regs * 64, w("d.npy"))])
        # Lane row + m*g scales its K elements 32g..32g+31.
        scale_a = np.repeat(2.0 ** (sa.reshape(64 // m, m).T - 127), 32, axis=1)
        scale_b = np.repeat(2.0 ** (sb.reshape(64 // m, m).T - 127), 32, axis=1)
        av, bv = va[a] * scale_a, vb[b] * scale_b
        ref = av @ bv.T
        bound = 2 * 2.0**-23 * (np.abs(av) @ np.abs(bv).T) + 1e-30
        got = np.load(w("d.npy")).reshape(regs, 64)
        with open(os.path.join(args.oracles, "mfma", "gfx942",
                               table + ".json")) as f:
            layout = json.load(f)["d"]
        d = np.empty((m, m))
        for i, j, reg, lane in layout:
            d[i, j] = got[reg, lane]
        err = np.abs(d - ref)
        ok &= check(kernel + "-assumed-k-order", bool(np.all(err <= bound)),
                    "max_err=%.3g" % err.max())
    return ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("test", choices=["moves", "scaled"])
    parser.add_argument("--hk-emu", required=True)
    parser.add_argument("--hsaco", required=True)
    parser.add_argument("--oracles", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = np.random.default_rng(11)
    ok = globals()[args.test](args, rng,
                              lambda n: os.path.join(args.workdir, n))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
