"""Checks the timing model's second simulation at the clock a launch's load
sustains (HBM and the Infinity Cache keep their own clocks).

    check_memory_clock.py --emu=PATH --hsaco=PATH --device=NAME --workdir=DIR

A compute-bound launch (mfma_peak filling the device) is simulated twice:
its JSON says so, and the memory side ran at the first simulation's
clock, within 2% of the clock the second one found. mfma_accumulate adds
the same work in place: after a timed launch every element must hold what
it held plus mfma_peak's value once, so the second simulation started
from the memory the first one found, not from what it left.
"""
import argparse
import json
import os

import numpy as np

from tools import run


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--emu", required=True)
    parser.add_argument("--hsaco", required=True)
    parser.add_argument("--device", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    # One dispatch wave of eight 256-lane workgroups per CU on every CU.
    cus = {"mi300x": 304, "mi325x": 304, "mi350x": 256, "mi355x": 256}
    grid = cus[args.device] * 8
    count = grid * 256
    common = [args.hsaco, "--grid=%d" % grid, "--block=256",
              "--device=" + args.device, "--sanitize=none", "--print=0"]

    peak_out = os.path.join(args.workdir, "peak.npy")
    timing = json.loads(run(
        [args.emu, *common, "--kernel=mfma_peak",
         "--arg=out:f32:%d:%s" % (count, peak_out), "--arg=i32:16",
         "--timing", "--json"]))["timing"]
    print("simulations %d, clock %.0f MHz of %.0f, memory side at %.0f MHz"
          % (timing["simulations"], timing["clock_mhz"],
             timing["peak_clock_mhz"], timing["memory_clock_mhz"]))
    print("memory clock basis: " + timing["memory_clock_basis"])
    drift = timing["memory_clock_mhz"] / timing["clock_mhz"] - 1
    print("memory clock within 2%% of the clock: %s"
          % ("yes" if abs(drift) <= 0.02 else "no (%+.1f%%)" % (100 * drift)))

    start = np.arange(count, dtype=np.float32) % 7
    inout = os.path.join(args.workdir, "inout.npy")
    result = os.path.join(args.workdir, "result.npy")
    np.save(inout, start)
    run([args.emu, *common, "--kernel=mfma_accumulate",
         "--arg=buf:%s:%s" % (inout, result), "--arg=i32:16", "--timing"])
    got = np.load(result)
    want = start + np.load(peak_out)
    print("in-place launch under the model adds its work once: %s"
          % ("yes" if np.array_equal(got, want) else
             "no (%d elements differ)" % int(np.sum(got != want))))


if __name__ == "__main__":
    main()
