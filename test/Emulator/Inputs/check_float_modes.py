"""Runs float_modes.hip's kernels in hk-emu and checks every element, bit
for bit, against numpy's IEEE f32 arithmetic.

usage: check_float_modes.py --hk-emu BIN --hsaco FILE [--flush]

With --flush the code object was compiled to flush f32 denormals: products
treat subnormal sources as zero and flush subnormal results, and the
division sequence's result is flushed. Its inputs here are never subnormal
and its denominators stay below 2^126: a larger denominator has a
subnormal reciprocal, which v_rcp_f32 flushes under that MODE before the
sequence enables denormals (AMD's V_DIV_SCALE_F32 tests the reciprocal
in f64, so it never rescales an f32 denominator for that).
Without it, subnormals are kept and division must round exactly once.
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
parser.add_argument("--flush", action="store_true")
args = parser.parse_args()

TINY = np.finfo(np.float32).tiny
MAX = np.finfo(np.float32).max


def flush(x):
    return np.where(np.abs(x) < TINY, np.copysign(np.float32(0), x), x)


def inputs(n, subnormal_sources):
    rng = np.random.default_rng(5)
    special = [(1.2e-38, 2.0), (TINY, 3.0), (3e38, 0.5), (1e-20, 1e-20),
               (2.0, 0.0), (0.0, 0.0), (np.inf, 2.0), (np.nan, 1.0),
               (-1.5, 1e-30), (1e-19, -1e-19)]
    if subnormal_sources:
        special += [(5.88e-39, 2.0), (1.0, 1e-39), (1e-40, 1e-40),
                    (1.0, 3e38)]
    a = np.empty(n, np.float32)
    b = np.empty(n, np.float32)
    a[:len(special)] = [x for x, _ in special]
    b[:len(special)] = [y for _, y in special]
    rest = n - len(special)
    low = -125 if not subnormal_sources else -149
    for out, high in ((a, 128), (b, 128 if subnormal_sources else 126)):
        mant = rng.uniform(1.0, 2.0, rest)
        exp = rng.integers(low, high, rest)
        out[len(special):] = (rng.choice([-1.0, 1.0], rest) *
                              np.ldexp(mant, exp)).astype(np.float32)
        if not subnormal_sources:
            out[:] = flush(out)
    return a, b


def inputs64(n):
    """f64 pairs: the f32 cases widened, the f64 range's own edges (its
    subnormals, reciprocals of huge values, overflow), random ones."""
    rng = np.random.default_rng(9)
    small = np.finfo(np.float64).tiny
    big = np.finfo(np.float64).max
    special = [(2.4e-308, 2.0), (small, 3.0), (1.0, 1.7e308), (1e-310, 2.0),
               (1.0, 1e-310), (big, 0.5), (1e-300, 1e300), (5e-324, 4.0),
               (0.0, 0.0), (-0.0, 1.0), (np.inf, np.inf), (np.nan, 2.0),
               (1.0, 3.0), (1e300, 1e-10)]
    a = np.empty(n)
    b = np.empty(n)
    a[:len(special)] = [x for x, _ in special]
    b[:len(special)] = [y for _, y in special]
    rest = n - len(special)
    for out in (a, b):
        out[len(special):] = (rng.choice([-1.0, 1.0], rest) *
                              np.ldexp(rng.uniform(1.0, 2.0, rest),
                                       rng.integers(-1074, 1024, rest)))
    return a, b


def run(kernel, a, b, tmp):
    np.save(os.path.join(tmp, "a.npy"), a)
    np.save(os.path.join(tmp, "b.npy"), b)
    out = os.path.join(tmp, "out.npy")
    dtype = "f64" if a.dtype == np.float64 else "f32"
    proc = subprocess.run(
        [args.hk_emu, args.hsaco, "--kernel=" + kernel, "--block=64",
         "--grid=%d" % (a.size // 64), "--arg=buf:" + os.path.join(tmp, "a.npy"),
         "--arg=buf:" + os.path.join(tmp, "b.npy"),
         "--arg=out:%s:%d:%s" % (dtype, a.size, out), "--arg=i32:%d" % a.size],
        capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("hk-emu failed: " + proc.stderr + proc.stdout)
    return np.load(out)


def compare(name, got, ref):
    nan = np.isnan(ref)
    bits = np.uint64 if ref.dtype == np.float64 else np.uint32
    wrong = np.flatnonzero((got.view(bits) != ref.view(bits)) & ~nan |
                           (np.isnan(got) != nan))
    status = "PASS" if wrong.size == 0 else "FAIL"
    first = "" if wrong.size == 0 else ", first at %d: got %r expected %r" % (
        wrong[0], got[wrong[0]], ref[wrong[0]])
    print("%s %s: %d elements, %d wrong%s" % (status, name, got.size,
                                              wrong.size, first))


n = 64 * 32
with tempfile.TemporaryDirectory() as tmp, np.errstate(all="ignore"):
    a, b = inputs(n, subnormal_sources=not args.flush)
    got = run("divide", a, b, tmp)
    ref = (a / b).astype(np.float32)
    compare("divide", got, flush(ref) if args.flush else ref)
    a, b = inputs(n, subnormal_sources=True)
    got = run("multiply", a, b, tmp)
    ref = (flush(a) * flush(b)) if args.flush else a * b
    compare("multiply", got, flush(ref) if args.flush else ref)
    # f64 keeps its denormals in both builds.
    a, b = inputs64(n)
    compare("divide64", run("divide64", a, b, tmp), a / b)
