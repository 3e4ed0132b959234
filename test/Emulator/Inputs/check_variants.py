#!/usr/bin/env python3
"""Checks the kernels of variants.hip in hk-emu against NumPy.

usage: check_variants.py TEST --hk-emu BIN --hsaco FILE --chip CHIP --workdir DIR

The fp8 formats are decoded here from their definitions (FNUZ E4M3: bias 8,
0x80 NaN, no infinities or negative zero; OCP E4M3FN: bias 7, 0x7f/0xff
NaN), independently of the emulator. Prints "TEST CHIP: ... PASS" or FAIL.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np


def e4m3_table(chip):
    """Value of every E4M3 byte in the chip's format (NaN where NaN)."""
    bias = 8 if chip == "gfx942" else 7
    values = np.empty(256)
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        exp, man = (code >> 3) & 0xF, code & 7
        if chip == "gfx942" and code == 0x80:
            values[code] = np.nan
        elif chip != "gfx942" and (code & 0x7F) == 0x7F:
            values[code] = np.nan
        elif exp == 0:
            values[code] = sign * man * 2.0 ** (1 - bias - 3)
        else:
            values[code] = sign * (1 + man / 8) * 2.0 ** (exp - bias)
    return values


def encode_e4m3(x, table):
    """Nearest finite code, ties to the even code (round to nearest even)."""
    codes = [c for c in range(256) if not np.isnan(table[c])]
    out = []
    for v in x:
        best = min(codes, key=lambda c: (abs(table[c] - v), c & 1,
                                         0 if np.signbit(table[c]) == np.signbit(v) else 1))
        out.append(best)
    return np.array(out, dtype=np.uint8)


def fp4_values():
    mags = [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    return np.array(mags + [-m for m in mags])


def bf16_bits(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def run(args, kernel, kernel_args):
    cmd = [args.hk_emu, args.hsaco, "--json", "--kernel=" + kernel,
           "--block=64"] + ["--arg=" + a for a in kernel_args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("hk-emu %s: exit %d: %s%s" % (kernel, proc.returncode,
                                               proc.stderr.strip(), proc.stdout[-2000:]))
    return json.loads(proc.stdout)


def check(name, ok, detail):
    print("%s: %s %s" % (name, detail, "PASS" if ok else "FAIL"))
    return ok


def fp8_gemm(args, rng, w):
    # Products of fp8 values are exact in f32 and K=64 terms accumulate in
    # the MFMA's f32 result: |err| <= 2 * 2^-23 * sum|a*b| (two MFMA steps).
    table = e4m3_table(args.chip)
    K = 64
    finite = np.array([c for c in range(256) if not np.isnan(table[c])
                       and abs(table[c]) <= 16], dtype=np.uint8)
    a = rng.choice(finite, size=(16, K))
    b = rng.choice(finite, size=(16, K))
    np.save(w("a8.npy"), a)
    np.save(w("b8.npy"), b)
    run(args, "fp8_gemm", ["buf:" + w("a8.npy"), "buf:" + w("b8.npy"),
                           "out:f32:256:" + w("c8.npy"), "i32:%d" % K])
    av, bv = table[a], table[b]
    ref = av @ bv.T
    got = np.load(w("c8.npy")).reshape(16, 16)
    bound = 2 * 2.0**-23 * (np.abs(av) @ np.abs(bv).T) + 1e-30
    err = np.abs(got - ref)
    return check("fp8_gemm " + args.chip, bool(np.all(err <= bound)),
                 "max_err=%.3g" % err.max())


def fp8_convert(args, rng, w):
    # v_cvt_pk_fp8_f32 rounds to nearest even; in-range inputs only (no
    # clamp is set, overflow would be NaN). Bit-exact.
    table = e4m3_table(args.chip)
    top = 240.0 if args.chip == "gfx942" else 448.0
    x = (rng.standard_normal(256) * 20).astype(np.float32)
    x = np.clip(x, -top, top).astype(np.float32)
    x[:8] = [0.0, 1.0, -2.5, 1.0625, 1.1875, top, -top, 2.0**-9]
    np.save(w("x.npy"), x)
    run(args, "fp8_convert", ["buf:" + w("x.npy"), "out:u32:64:" + w("p.npy"),
                              "out:f32:256:" + w("back.npy")])
    want = encode_e4m3(x.astype(np.float64), table)
    got = np.load(w("p.npy")).view(np.uint8)
    back = np.load(w("back.npy"))
    ok = np.array_equal(got, want) and np.array_equal(back, table[want].astype(np.float32))
    return check("fp8_convert " + args.chip, ok,
                 "mismatches=%d" % int(np.sum(got != want)))


def bf16_x32(args, rng, w):
    # One double-rate MFMA, K=32: |err| <= 2^-23 * sum|a*b|.
    a = bf16_bits(rng.standard_normal((16, 32)))
    b = bf16_bits(rng.standard_normal((16, 32)))
    np.save(w("a.npy"), a)
    np.save(w("b.npy"), b)
    run(args, "bf16_x32", ["buf:" + w("a.npy"), "buf:" + w("b.npy"),
                           "out:f32:256:" + w("c.npy")])
    av, bv = bf16_value(a), bf16_value(b)
    ref = av @ bv.T
    got = np.load(w("c.npy")).reshape(16, 16)
    err = np.abs(got - ref)
    return check("bf16_x32 " + args.chip,
                 bool(np.all(err <= 2.0**-23 * (np.abs(av) @ np.abs(bv).T))),
                 "max_err=%.3g" % err.max())


def scaled(args, rng, w):
    # ASSUMED K ORDER (no public table settles it): lane row+16*g holds
    # K elements 32g..32g+31 in order, fp8 one byte each (8 registers),
    # fp4 one nibble each (4 registers); the lane's E8M0 scale (byte 0)
    # applies to its 32 elements. Products and sums are exact in f32 here.
    fp4 = fp4_values()
    a_codes = rng.integers(0, 256, size=(16, 128))
    table = e4m3_table("gfx950")
    a_codes[np.isnan(table[a_codes])] = 0x38
    b_codes = rng.integers(0, 16, size=(16, 128))
    sa = rng.integers(124, 131, size=64)
    sb = rng.integers(124, 131, size=64)
    A = np.zeros((8, 64), dtype=np.uint32)
    B = np.zeros((4, 64), dtype=np.uint32)
    for lane in range(64):
        row, g = lane % 16, lane // 16
        for e in range(32):
            A[e // 4, lane] |= np.uint32(a_codes[row, 32 * g + e]) << np.uint32(8 * (e % 4))
            B[e // 8, lane] |= np.uint32(b_codes[row, 32 * g + e]) << np.uint32(4 * (e % 8))
    np.save(w("sa.npy"), A.reshape(-1))
    np.save(w("sb.npy"), B.reshape(-1))
    np.save(w("ka.npy"), sa.astype(np.uint32))
    np.save(w("kb.npy"), sb.astype(np.uint32))
    run(args, "scaled", ["buf:" + w("sa.npy"), "buf:" + w("sb.npy"),
                         "buf:" + w("ka.npy"), "buf:" + w("kb.npy"),
                         "out:f32:256:" + w("sc.npy")])
    av = table[a_codes] * np.repeat(2.0 ** (sa.reshape(4, 16).T - 127), 32, axis=1)
    bv = fp4[b_codes] * np.repeat(2.0 ** (sb.reshape(4, 16).T - 127), 32, axis=1)
    ref = av @ bv.T
    got = np.load(w("sc.npy")).reshape(4, 64)
    err = 0.0
    for i in range(16):
        for j in range(16):
            err = max(err, abs(got[i % 4, j + 16 * (i // 4)] - ref[i, j]))
    bound = 2.0**-23 * np.abs(av).sum(axis=1).max() * np.abs(bv).max()
    return check("scaled-assumed-k-order " + args.chip, err <= bound,
                 "max_err=%.3g" % err)


def lane_moves(args, rng, w):
    # ASSUMED transpose order of ds_read_b64_tr_b16 (no public table): in
    # each group of 16 lanes the 16 lanes' 4 halves form a 4x16 tile, lane
    # L's data being row L/4, columns 4*(L%4)..+3; lane c receives column c.
    # v_permlane32_swap swaps the upper 32 lanes of the first operand with
    # the lower 32 lanes of the second (LLVM AMDGPUUsage).
    data = rng.integers(0, 2**16, size=256, dtype=np.uint16)
    np.save(w("in16.npy"), data)
    run(args, "lane_moves", ["buf:" + w("in16.npy"), "out:u16:256:" + w("tr.npy"),
                             "out:u32:128:" + w("sw.npy")])
    src = data.reshape(64, 4)
    want = np.empty((64, 4), dtype=np.uint16)
    for lane in range(64):
        group, c = lane & ~15, lane & 15
        for r in range(4):
            want[lane, r] = src[group + 4 * r + c // 4, c % 4]
    got = np.load(w("tr.npy")).reshape(64, 4)
    lanes = np.arange(64)
    first = np.where(lanes < 32, lanes, 100 + lanes - 32)
    second = np.where(lanes < 32, lanes + 32, 100 + lanes)
    sw = np.load(w("sw.npy")).reshape(64, 2)
    ok1 = check("ds_read_b64_tr_b16-assumed-order " + args.chip,
                np.array_equal(got, want), "")
    ok2 = check("permlane32_swap " + args.chip,
                np.array_equal(sw[:, 0], first) and np.array_equal(sw[:, 1], second), "")
    return ok1 and ok2


def bitop3(args, rng, w):
    # Each result bit is the truth table's entry at index
    # (a << 2) | (b << 1) | c (LLVM's operand constants 0xf0, 0xcc, 0xaa):
    # 0x6c is b ^ (a & c), 0xe8 the majority of a, b, c, 0x96 a ^ b ^ c.
    data = rng.integers(0, 2**32, size=192, dtype=np.uint64).astype(np.uint32)
    np.save(w("bits.npy"), data)
    run(args, "bitop3", ["buf:" + w("bits.npy"), "out:u32:192:" + w("b3.npy")])
    a, b, c = data[:64], data[64:128], data[128:]
    want = np.concatenate([b ^ (a & c), (a & b) | (a & c) | (b & c), a ^ b ^ c])
    got = np.load(w("b3.npy"))
    return check("bitop3 " + args.chip, np.array_equal(got, want),
                 "mismatches=%d" % int(np.sum(got != want)))


def minmax3(args, rng, w):
    # IEEE 754-2019 minimum/maximum: a NaN operand gives NaN, -0 < +0;
    # v_cvt_pk_f16_f32 rounds each f32 to f16 (nearest even, NumPy's rule).
    x = rng.standard_normal(192).astype(np.float32) * 100
    x[0], x[64], x[128] = np.nan, 1.0, 2.0
    x[1], x[65], x[129] = -0.0, 0.0, 5.0
    x[2], x[66], x[130] = 0.0, -0.0, -5.0
    x[3] = 70000.0  # beyond f16: rounds to infinity
    np.save(w("mm.npy"), x)
    run(args, "minmax3", ["buf:" + w("mm.npy"), "out:f32:128:" + w("mmo.npy"),
                          "out:u32:64:" + w("mmp.npy")])
    a, b, c = x[:64], x[64:128], x[128:]

    def minimum(p, q):  # NumPy does not order signed zeros; 754-2019 does
        if np.isnan(p) or np.isnan(q):
            return np.float32(np.nan)
        if p == 0 and q == 0:
            return np.float32(-0.0) if np.signbit(p) or np.signbit(q) else np.float32(0.0)
        return min(p, q)

    def maximum(p, q):
        if np.isnan(p) or np.isnan(q):
            return np.float32(np.nan)
        if p == 0 and q == 0:
            return np.float32(0.0) if not (np.signbit(p) and np.signbit(q)) else np.float32(-0.0)
        return max(p, q)

    lo = np.array([minimum(minimum(p, q), r) for p, q, r in zip(a, b, c)], np.float32)
    hi = np.array([maximum(maximum(p, q), r) for p, q, r in zip(a, b, c)], np.float32)
    got = np.load(w("mmo.npy"))
    same = lambda g, e: np.array_equal(g.view(np.uint32), e.astype(np.float32).view(np.uint32)) \
        or (np.array_equal(np.isnan(g), np.isnan(e)) and
            np.array_equal(g[~np.isnan(g)].view(np.uint32), e[~np.isnan(e)].astype(np.float32).view(np.uint32)))
    with np.errstate(over="ignore"):
        pk = a.astype(np.float16).view(np.uint16).astype(np.uint32) | \
            (b.astype(np.float16).view(np.uint16).astype(np.uint32) << 16)
    ok = same(got[:64], lo) and same(got[64:], hi) and np.array_equal(np.load(w("mmp.npy")), pk)
    return check("minmax3 " + args.chip, ok, "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("test")
    parser.add_argument("--hk-emu", required=True)
    parser.add_argument("--hsaco", required=True)
    parser.add_argument("--chip", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = np.random.default_rng(42)
    ok = globals()[args.test](args, rng, lambda n: os.path.join(args.workdir, n))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
