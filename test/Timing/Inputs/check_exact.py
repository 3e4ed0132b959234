"""Checks the timing model's cycles per loop iteration on exact.hip's kernels.

    check_exact.py KERNEL --hk-emu=PATH --hsaco=PATH --chip=gfx942|gfx950
                   [--oracles=DIR] [--workdir=DIR]

Each kernel runs at two iteration counts; the difference of the predicted
cycles divided by the difference of the iterations is the cost of one
iteration, free of launch, prologue and write-back. The expected figure comes
from outside the model: the MFMA cycles of AMD's Matrix Instruction
Calculator (the oracles, gfx942) or of the data sheet's peak (gfx950), the
four cycles a 16-lane SIMD takes for a wave64 VALU instruction (AMD's GCN
white paper), the bank-conflict cycles the emulator's bank model counted.
Prints one line per check ending in PASS or FAIL.
"""
import argparse
import json
import os
import struct
import subprocess
import sys

LOW, HIGH = 20, 60  # iteration counts
L1_LATENCY = 120  # lib/Timing/DeviceModel.cpp, l1.latency


def run(args, kernel, block, iters, before=(), after=()):
    """hk-emu's JSON for one launch of `kernel`: (out, *before, iters,
    *after)."""
    cmd = [args.hk_emu, args.hsaco, "--kernel=" + kernel, "--grid=1",
           "--block=%d" % block, "--arg=out:f32:%d" % block]
    cmd += list(before) + ["--arg=i32:%d" % iters] + list(after)
    cmd += ["--timing", "--json", "--print=0"] + list(args.more)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("hk-emu failed (%d): %s\n%s" % (r.returncode, " ".join(cmd),
                                                  r.stderr))
    return json.loads(r.stdout)


def per_iteration(args, kernel, block=64, before=(), after=()):
    """Predicted cycles of one iteration, and the longer run's JSON."""
    lo = run(args, kernel, block, LOW, before, after)
    hi = run(args, kernel, block, HIGH, before, after)
    return (hi["timing"]["cycles"] - lo["timing"]["cycles"]) / (HIGH - LOW), hi


def main_loop(run):
    """The loop of the kernel that took the most cycles."""
    loops = [l for l in run["timing"]["loops"] if "start_pc" in l]
    return max(loops, key=lambda l: l["simd_cycles"])


def verdict(ok):
    return "PASS" if ok else "FAIL"


def mfma_cycles(args):
    """Cycles of the chain's MFMA, from outside the model."""
    if args.chip == "gfx942":
        with open(os.path.join(args.oracles, "mfma", "gfx942",
                               "v_mfma_f32_16x16x16_bf16.json")) as f:
            return json.load(f)["cycles"], "the oracle's cycles"
    # MI355X data sheet: 2.5 PFLOP/s dense bf16 on 256 CUs of 4 SIMDs at
    # 2400 MHz; v_mfma_f32_16x16x32_bf16 does 2*16*16*32 flops.
    return (2 * 16 * 16 * 32 * 256 * 4 * 2.4e9 / 2.5e15,
            "MI355X's data-sheet peak")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kernel")
    p.add_argument("--hk-emu", required=True)
    p.add_argument("--hsaco", required=True)
    p.add_argument("--chip", required=True)
    p.add_argument("--oracles", default="")
    p.add_argument("--workdir", default=".")
    p.add_argument("more", nargs="*", help="more hk-emu options")
    args = p.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    k = args.kernel
    tag = "%s %s:" % (k, args.chip)

    if k == "mfma_chain":
        # Four more dependent MFMAs per iteration: the loop's own scalar
        # instructions and branch cancel.
        c, source = mfma_cycles(args)
        four, _ = per_iteration(args, "mfma_chain4")
        eight, _ = per_iteration(args, "mfma_chain8")
        got = eight - four
        # 2%: gfx950's data-sheet peak is rounded to 2.5 PFLOP/s.
        print("%s 4 more MFMAs: %.1f more cycles/iteration, 4 x %.1f (%s) %s"
              % (tag, got, c, source, verdict(abs(got - 4 * c) <= 0.08 * c)))
        print("%s 4 MFMAs: %.1f cycles/iteration" % (tag, four))
    elif k == "mfma_valu":
        c, source = mfma_cycles(args)
        two, _ = per_iteration(args, "mfma_valu2")
        four, _ = per_iteration(args, "mfma_valu4")
        got = four - two
        want = 2 * (round(c) + 4)
        print("%s 2 more MFMA+VALU pairs: %.1f more cycles/iteration, "
              "2 x (%.0f + 4) %s" % (tag, got, c, verdict(got == want)))
    elif k == "valu_independent":
        # One wave per SIMD: 32 VALU instructions of 4 cycles, plus the
        # loop's own scalar instructions and branch (one issue slot each).
        one, _ = per_iteration(args, k, 64)
        print("%s one wave per SIMD: %.1f cycles/iteration, at least 32 x 4 "
              "and at most 32 x 4 + 32 %s" %
              (tag, one, verdict(128 <= one <= 160)))
        # Two waves per SIMD (eight in the workgroup): each SIMD has 64
        # VALU instructions an iteration to run, and one wave's scalar
        # instructions and branch overlap the other's VALU work.
        two, _ = per_iteration(args, k, 512)
        print("%s two waves per SIMD: %.1f cycles/iteration, at least "
              "2 x 32 x 4 and less than twice one wave's %s" %
              (tag, two, verdict(256 <= two < 2 * one)))
    elif k == "lds_stride":
        free, f = per_iteration(args, k, 64, after=["--arg=i32:1"])
        bad, b = per_iteration(args, k, 64, after=["--arg=i32:64"])
        reads = [i for i in b["counters"]["lds_instructions"]
                 if i["mnemonic"] == "ds_read_b32"]
        conflict = reads[0]["conflict_cycles"] / reads[0]["executions"]
        # The wave resumes at its SIMD's next issue slot (every 4 cycles).
        print("%s conflict-free %.1f, one bank %.1f cycles/iteration; the "
              "bank model's %.0f conflict cycles per read, to an issue slot %s"
              % (tag, free, bad, conflict,
                 verdict(abs(bad - free - conflict) < 4)))
        loop = main_loop(b)
        print("%s one bank: the read loop waited %d cycles on bank conflicts, "
              "the bank model counts %d %s" %
              (tag, loop["breakdown"]["lds_bank_conflict"],
               reads[0]["conflict_cycles"],
               verdict(loop["breakdown"]["lds_bank_conflict"] ==
                       reads[0]["conflict_cycles"])))
    elif k == "loads":
        src = os.path.join(args.workdir, "in.npy")
        write_input(src)
        exact, e = per_iteration(args, "loads_exact", 64,
                                  before=["--arg=buf:" + src])
        blanket, _ = per_iteration(args, "loads_blanket", 64,
                                    before=["--arg=buf:" + src])
        # Four loads of lines already in L1: waited for together they cost
        # one L1 latency, each on its own four. L1_LATENCY is the device
        # table's (an assumption there); the wave resumes at an issue slot.
        per_load = (blanket - exact) / 3
        print("%s exact waits %.1f, blanket vmcnt(0) %.1f cycles/iteration: "
              "%.1f more per load, the L1 latency %d to an issue slot %s" %
              (tag, exact, blanket, per_load, L1_LATENCY,
               verdict(L1_LATENCY <= per_load < L1_LATENCY + 8)))
        print("%s exact: largest stall %s" %
              (tag, main_loop(e)["largest_stall"]))
    elif k == "barrier_wait":
        # Two waves on two SIMDs: wave 0's 32 dependent VALU instructions
        # (4 cycles each) per iteration, while wave 1 waits at the barrier
        # that ends it. Those cycles are the loop's, as barrier waits: one
        # iteration more adds at least 32 x 4 less wave 1's own few issue
        # slots, and nothing outside the loop.
        lo = run(args, k, 128, LOW)
        hi = run(args, k, 128, HIGH)

        def per_iter(key, category):
            def cycles(r):
                return sum(l["breakdown"][category]
                           for l in r["timing"]["loops"]
                           if ("start_pc" in l) == (key == "loop"))
            return (cycles(hi) - cycles(lo)) / (HIGH - LOW)

        barrier = per_iter("loop", "barrier")
        outside = per_iter("outside", "dependency") + \
            per_iter("outside", "barrier")
        print("%s the loop waits %.1f cycles/iteration at its barrier, at "
              "least 32 x 4 - 16 %s" %
              (tag, barrier, verdict(barrier >= 32 * 4 - 16)))
        print("%s outside the loop: %.1f more stall cycles/iteration %s" %
              (tag, outside, verdict(outside < 1)))
    else:
        sys.exit("unknown kernel " + k)


def write_input(path):
    """1024 float32 zeros as a .npy file."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1024,), }"
    header += " " * (63 - len(header) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode() + bytes(4096))


if __name__ == "__main__":
    main()
