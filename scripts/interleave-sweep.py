#!/usr/bin/env python3
"""Checks hk-interleave's cost function against the timing model: predicts
one interleave kernel at one shape under several instruction-group sizes
and under the cost function's own choice, and prints the predicted cycles
of each (predictions of the model, not measurements).

    scripts/interleave-sweep.py FILE KERNEL SHAPE --device=D [--build=build]
        [--settings=M/D/V,...]

    scripts/interleave-sweep.py examples/gemm/gemm_fp8_gfx950.mlir \\
        gemm_abt_fp8_interleave 1024x1024x2048 --device=mi355x

Each setting compiles and runs the kernel through hk-run --timing (about
20 s of CPU at that size). The cost function's choice is the row "auto";
its group sizes are in the remark of hk-opt --hk-interleave=remarks=true.
"""
import argparse
import json
import os
import subprocess
import sys

DEFAULT_SETTINGS = "1/1/1,1/0/0,1/1/0,2/1/1,1/1/4,2/2/0,4/2/1"


def predict(args, sizes):
    cmd = [os.path.join(args.build, "bin", "hk-run"), args.file,
           "--kernel=" + args.kernel, "--shapes=" + args.shape, "--timing",
           "--device=" + args.device, "--json"]
    if sizes:
        m, d, v = sizes.split("/")
        cmd += ["--mfma-per-group=" + m, "--ds-reads-per-group=" + d,
                "--vmem-per-group=" + v]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("hk-run failed: %s\n%s" % (" ".join(cmd), r.stderr))
    found = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("timing"), dict):
                found.append(node["timing"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(json.loads(r.stdout))
    if not found:
        sys.exit("no timing in hk-run's output: " + " ".join(cmd))
    return found[0]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("file")
    p.add_argument("kernel")
    p.add_argument("shape")
    p.add_argument("--device", required=True)
    p.add_argument("--build", default="build")
    p.add_argument("--settings", default=DEFAULT_SETTINGS)
    args = p.parse_args()
    settings = args.settings.split(",")
    for sizes in settings:
        parts = sizes.split("/")
        if len(parts) != 3 or not all(p.lstrip("-").isdigit() for p in parts):
            p.error("--settings: '%s' is not M/D/V (three counts)" % sizes)
    rows = [("auto", predict(args, None))]
    for sizes in settings:
        rows.append((sizes, predict(args, sizes)))
    best = min(t["cycles"] for _, t in rows)
    print("%s %s %s on %s (predicted by the timing model)" %
          (args.file, args.kernel, args.shape, args.device))
    print("%-8s %10s %9s  %s" % ("M/D/V", "cycles", "vs best", "main stall"))
    for name, t in rows:
        loops = [l for l in t["loops"] if "start_pc" in l]
        stall = (max(loops, key=lambda l: l["simd_cycles"])["largest_stall"]
                 if loops else "-")
        print("%-8s %10d %8.1f%%  %s" % (name, t["cycles"],
                                        100.0 * (t["cycles"] / best - 1),
                                        stall))


if __name__ == "__main__":
    main()
