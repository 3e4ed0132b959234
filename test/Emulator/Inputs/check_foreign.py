#!/usr/bin/env python3
"""Runs a foreign (clang-compiled HIP-style) kernel in hk-emu on seeded random
inputs and compares the result with a NumPy float64 reference.

usage: check_foreign.py KERNEL --hk-emu BIN --hsaco FILE --workdir DIR

Prints one line "KERNEL CHIP: max_err=E tol=T sanitizers=clean" and exits 0
when the error is within the tolerance stated below for the kernel's dtypes
and no sanitizer reported anything; exits 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np


def to_bf16_bits(x):
    """Round float32 to bfloat16 (nearest even); returns the uint16 bits."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def run(args, hsaco, grid, block, kernel_args, kernel=None):
    cmd = [args.hk_emu, hsaco, "--json", "--grid=" + grid, "--block=" + block]
    if kernel:
        cmd.append("--kernel=" + kernel)
    cmd += ["--arg=" + a for a in kernel_args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 2):
        sys.exit("hk-emu failed (%d): %s" % (proc.returncode, proc.stderr.strip()))
    return json.loads(proc.stdout)


def gemm(args, rng, w):
    # bf16 inputs, f32 accumulation. Each of the K/16 MFMA steps rounds the
    # running sum once to f32, so |err| <= (K/16 + 1) * 2^-23 * sum_k |a*b|
    # (hardware rounds at most as often).
    M = N = 64
    K = 64
    a = to_bf16_bits(rng.standard_normal((M, K)))
    b = to_bf16_bits(rng.standard_normal((N, K)))
    np.save(w("a.npy"), a)
    np.save(w("b.npy"), b)
    out = run(args, args.hsaco, "2,2", "256",
              ["buf:" + w("a.npy"), "buf:" + w("b.npy"),
               "out:f32:%d:%s" % (M * N, w("c.npy")), "i32:%d" % M,
               "i32:%d" % N, "i32:%d" % K])
    af, bf = bf16_value(a), bf16_value(b)
    ref = af @ bf.T
    got = np.load(w("c.npy")).reshape(M, N).astype(np.float64)
    bound = (K / 16 + 1) * 2.0**-23 * (np.abs(af) @ np.abs(bf).T)
    return out, np.abs(got - ref), bound


def attention(args, rng, w):
    # bf16 Q/K/V, f32 softmax and accumulation; P is rounded to bf16 before
    # the P*V MFMA, a relative error of at most 2^-9 per weight, so
    # |err| <= 2^-8 * max|V| (twice the rounding bound, for the exp2 and
    # rescaling roundings in f32 that are far smaller).
    Lq, L, D = 64, 64, 16
    q = to_bf16_bits(rng.standard_normal((Lq, D)))
    k = to_bf16_bits(rng.standard_normal((L, D)))
    v = to_bf16_bits(rng.standard_normal((L, D)))
    for name, arr in (("q", q), ("k", k), ("v", v)):
        np.save(w(name + ".npy"), arr)
    scale = 1.0 / np.sqrt(D)
    out = run(args, args.hsaco, str(Lq // 16), "64",
              ["buf:" + w("q.npy"), "buf:" + w("k.npy"), "buf:" + w("v.npy"),
               "out:f32:%d:%s" % (Lq * D, w("o.npy")), "i32:%d" % L,
               "f32:%r" % float(np.float32(scale * np.log2(np.e)))])
    qf, kf, vf = bf16_value(q), bf16_value(k), bf16_value(v)
    s = (qf @ kf.T) * scale
    p = np.exp(s - s.max(axis=1, keepdims=True))
    ref = (p / p.sum(axis=1, keepdims=True)) @ vf
    got = np.load(w("o.npy")).reshape(Lq, D).astype(np.float64)
    return out, np.abs(got - ref), np.full(ref.shape, 2.0**-8 * np.abs(vf).max())


def layernorm(args, rng, w):
    # f32 throughout: sums of H=1024 values round with relative error about
    # H * 2^-24 (6e-5) and v_rsq_f32 is within 1 ulp, so on outputs of a few
    # units the error stays below 1e-4 * (1 + |y|).
    R, H = 8, 1024
    x = (rng.standard_normal((R, H)) * 3 + 1).astype(np.float32)
    g = rng.standard_normal(H).astype(np.float32)
    b = rng.standard_normal(H).astype(np.float32)
    for name, arr in (("x", x), ("g", g), ("b", b)):
        np.save(w(name + ".npy"), arr)
    eps = 1e-5
    out = run(args, args.hsaco, str(R), "256",
              ["buf:" + w("x.npy"), "buf:" + w("g.npy"), "buf:" + w("b.npy"),
               "out:f32:%d:%s" % (R * H, w("y.npy")), "i32:%d" % H,
               "f32:%r" % eps])
    xd = x.astype(np.float64)
    mean = xd.mean(axis=1, keepdims=True)
    var = xd.var(axis=1, keepdims=True)
    ref = (xd - mean) / np.sqrt(var + eps) * g + b
    got = np.load(w("y.npy")).reshape(R, H).astype(np.float64)
    return out, np.abs(got - ref), 1e-4 * (1 + np.abs(ref))


def dma(args, rng, w):
    # A copy with a permutation: bit-exact, tolerance 0.
    chip_bytes = 16 if args.chip == "gfx950" else 4
    per_group = 256 * chip_bytes // 4
    groups = 3
    data = rng.integers(0, 2**32, size=per_group * groups, dtype=np.uint32)
    np.save(w("in.npy"), data)
    out = run(args, args.hsaco, str(groups), "256",
              ["buf:" + w("in.npy"),
               "out:u32:%d:%s" % (data.size, w("out.npy")),
               "i32:%d" % data.size], kernel=args.kernel_name or "dma")
    ref = np.empty_like(data)
    for g in range(groups):
        tile = data[g * per_group:(g + 1) * per_group]
        e = np.arange(per_group)
        ref[g * per_group + (e % 4) * (per_group // 4) + e // 4] = tile
    got = np.load(w("out.npy"))
    err = (got != ref).astype(np.float64)
    if out["counters"]["bytes"]["direct_to_lds"] != data.size * 4:
        sys.exit("expected %d direct-to-LDS bytes, counted %d" %
                 (data.size * 4, out["counters"]["bytes"]["direct_to_lds"]))
    return out, err, np.zeros(err.shape)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kernel", choices=["gemm", "attention", "layernorm", "dma"])
    parser.add_argument("--hk-emu", required=True)
    parser.add_argument("--hsaco", required=True)
    parser.add_argument("--chip", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--kernel-name", default=None,
                        help="kernel to run when the code object has several")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = np.random.default_rng(20251122)
    out, err, tol = globals()[args.kernel](args, rng,
                                           lambda n: os.path.join(args.workdir, n))
    clean = out["total_reports"] == 0
    ok = bool(np.all(err <= tol)) and clean
    for report in out["reports"]:
        print(report["message"])
    print("%s %s: max_err=%.3g tol=%.3g sanitizers=%s %s" %
          (args.kernel_name or args.kernel, args.chip, err.max(), tol.min(),
           "clean" if clean else "REPORTED", "PASS" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
