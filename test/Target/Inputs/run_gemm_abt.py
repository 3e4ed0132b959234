#!/usr/bin/env python3
"""Runs examples/gemm/gemm_abt.mlir's gemm_abt_bf16 code object in hk-emu on
seeded random 256x128x128 bf16 matrices (grid 2x1 of 256 work-items) and
compares C with a float64 NumPy reference.

usage: run_gemm_abt.py HK_EMU HSACO WORKDIR

Prints "gemm_abt_bf16: max_err=E sanitizers=S PASS|FAIL" and exits 1 on FAIL.
Bound per element, as hk-run states it for this kernel: one bf16 rounding of
the output (2^-8 |ref|) plus K * 2^-23 * sum|a*b| for f32 accumulation in
any order.
"""
import json
import os
import subprocess
import sys

import numpy as np


def to_bf16(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def main():
    hk_emu, hsaco, workdir = sys.argv[1:4]
    os.makedirs(workdir, exist_ok=True)
    M, N, K = 256, 128, 128
    rng = np.random.default_rng(5)
    a = to_bf16(rng.standard_normal((M, K)))
    b = to_bf16(rng.standard_normal((N, K)))
    np.save(os.path.join(workdir, "a.npy"), a)
    np.save(os.path.join(workdir, "b.npy"), b)
    c_path = os.path.join(workdir, "c.npy")
    sizes = [M, K, N, K, M, N, K, K, N]  # sizes of A, B, C; then strides
    cmd = [hk_emu, hsaco, "--kernel=gemm_abt_bf16", "--json", "--grid=2,1",
           "--block=256",
           "--arg=buf:" + os.path.join(workdir, "a.npy"),
           "--arg=buf:" + os.path.join(workdir, "b.npy"),
           "--arg=out:bf16:%d:%s" % (M * N, c_path)]
    cmd += ["--arg=i32:%d" % s for s in sizes]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 2):
        sys.exit("hk-emu failed (%d): %s" % (proc.returncode,
                                             proc.stderr.strip()))
    result = json.loads(proc.stdout)
    af, bf = from_bf16(a), from_bf16(b)
    ref = af @ bf.T
    got = from_bf16(np.load(c_path)).reshape(M, N)
    bound = 2.0**-8 * np.abs(ref) + K * 2.0**-23 * (np.abs(af) @ np.abs(bf).T)
    err = np.abs(got - ref)
    clean = not result["reports"]
    ok = bool(np.all(err <= bound)) and clean and proc.returncode == 0
    print("gemm_abt_bf16: max_err=%.3g sanitizers=%s %s" %
          (err.max(), "clean" if clean else "reported",
           "PASS" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


main()
