#!/usr/bin/python3
"""Emulator counts per 64-deep K-step per wave of an example's main loop.

Runs an example GEMM through hk-run at two depths K1 < K2 on the same
M x N (every workgroup of the grid, sanitizers off) and divides the
difference of the emulator's counters by the K-steps and waves it adds:
what one more K-step costs each wave in the steady state, with the
prologue and epilogue cancelled out. With --whole, the counts of the
deeper run divided by its K-steps are printed too (prologue and epilogue
amortised, as a whole-run average). Any other example whose loop runs
over one dimension of its case works the same with --template (the case
with {k} for that dimension) and --kernel, e.g. attention's key tiles.

  scripts/kstep-counts.py examples/gemm/gemm_pingpong_gfx950.mlir --chip=gfx950
  scripts/kstep-counts.py examples/gemm/gemm_pingpong.mlir --chip=gfx942 \\
      --shape=512x1024 --k=4096,8192 --whole
  scripts/kstep-counts.py ... --max-valu=24    # exit 1 when VALU exceeds it
  scripts/kstep-counts.py examples/attention/attention_d128_gfx950.mlir \\
      --chip=gfx950 --kernel=attention_fwd_d128_interleave \\
      --template=1x64x{k}x128 --k=1024,2048

The counts are the emulator's measurements of the code object (dynamic
instruction counts), not hardware timings.
"""

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSTEP = 64
KEYS = ["valu", "salu", "branch", "wait", "barrier", "lds", "vmem", "mfma",
        "other"]


def run(hk_run, example, chip, kernel, shape, flags):
    cmd = [hk_run, example, "--chip=" + chip, "--no-sanitizers", "--json",
           "--shapes=" + shape] + flags
    if kernel:
        cmd.append("--kernel=" + kernel)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        sys.exit("kstep-counts: %s failed:\n%s%s" %
                 (" ".join(cmd), proc.stdout[-2000:], proc.stderr[-2000:]))
    # Lines whose inputs are shaped for a particular path (kramp=: keys
    # ramped up so that the softmax's max keeps moving) are left out: the
    # counts are of the plain random inputs.
    results = [r for r in json.loads(proc.stdout)
               if " kramp=" not in r["case"]]
    if len(results) != 1:
        sys.exit("kstep-counts: expected one case from %s, got %d (pick "
                 "one kernel with --kernel)" % (example, len(results)))
    result = results[0]
    if not result["passed"]:
        sys.exit("kstep-counts: %s gave wrong results at %s" %
                 (example, shape))
    return result


def waves_of(example, kernel):
    """The waves per workgroup `kernel` (or, without one, every kernel of
    `example`) declares."""
    with open(example) as f:
        text = f.read()
    if kernel:
        # From the kernel's name to the first `waves(N)` of its signature.
        m = re.search(r"hk\.kernel @%s\(.*?waves\((\d+)\)" % re.escape(kernel),
                      text, re.S)
        found = {m.group(1)} if m else set()
    else:
        found = set(re.findall(r"waves\((\d+)\)", text))
    if len(found) != 1:
        sys.exit("kstep-counts: cannot tell the waves per workgroup of %s; "
                 "pass --waves" % example)
    return int(found.pop())


def counts(result):
    c = result["counters"]
    values = {"wave-instructions": c["wave_instructions"]}
    for key in KEYS:
        values[key] = c["mix"].get(key, 0)
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("example")
    parser.add_argument("--chip", required=True)
    parser.add_argument("--shape", default="512x1024",
                        help="M x N (default: 2x4 workgroups of 256x256)")
    parser.add_argument("--k", default="512,1024",
                        help="the two depths K1,K2 (multiples of 64)")
    parser.add_argument("--template",
                        help="the case with {k} for the looped dimension "
                        "(default: MxNx{k} from --shape)")
    parser.add_argument("--kernel", help="the example's kernel to run")
    parser.add_argument("--waves", type=int, help="waves per workgroup "
                        "(default: read from the example)")
    parser.add_argument("--hk-run", default=os.path.join(ROOT, "build", "bin",
                                                         "hk-run"))
    parser.add_argument("--flag", action="append", default=[],
                        help="a compile flag for hk-run, e.g. "
                        "--flag=--unswitch=false (repeatable)")
    parser.add_argument("--whole", action="store_true",
                        help="also print the deeper run's whole-run average")
    parser.add_argument("--max-valu", type=float,
                        help="fail when steady-state VALU per step exceeds this")
    parser.add_argument("--max-instructions", type=float,
                        help="fail when wave-instructions per step exceed this")
    args = parser.parse_args()

    template = args.template or args.shape + "x{k}"
    if "{k}" not in template:
        sys.exit("kstep-counts: --template needs {k} for the looped "
                 "dimension, got '%s'" % template)
    try:
        k1, k2 = (int(x) for x in args.k.split(","))
    except ValueError:
        sys.exit("kstep-counts: --k takes two depths K1,K2, got '%s'" % args.k)
    if k1 >= k2 or k1 % KSTEP or k2 % KSTEP:
        sys.exit("kstep-counts: --k needs K1 < K2, both multiples of 64")
    waves = args.waves or waves_of(args.example, args.kernel)

    low = run(args.hk_run, args.example, args.chip, args.kernel,
              template.replace("{k}", str(k1)), args.flag)
    high = run(args.hk_run, args.example, args.chip, args.kernel,
               template.replace("{k}", str(k2)), args.flag)
    workgroups = 1
    for g in high["grid"]:
        workgroups *= g
    wave_steps = workgroups * waves
    c1, c2 = counts(low), counts(high)
    steady = {key: (c2[key] - c1[key]) / ((k2 - k1) // KSTEP) / wave_steps
              for key in c2}

    def line(label, values):
        return "%-8s %-7s %s" % (label, args.chip, "  ".join(
            "%s %.1f" % (key, values[key]) for key in c2))

    print("%s (%s, %d workgroups x %d waves, K %d -> %d)" %
          (os.path.basename(args.example), high["kernel"], workgroups, waves,
           k1, k2))
    print(line("steady", steady))
    if args.whole:
        whole = {key: c2[key] / (k2 // KSTEP) / wave_steps for key in c2}
        print(line("whole", whole))
    failed = False
    if args.max_valu is not None and steady["valu"] > args.max_valu:
        print("kstep-counts: %.1f VALU per K-step exceeds %.1f" %
              (steady["valu"], args.max_valu))
        failed = True
    if (args.max_instructions is not None and
            steady["wave-instructions"] > args.max_instructions):
        print("kstep-counts: %.1f wave-instructions per K-step exceed %.1f" %
              (steady["wave-instructions"], args.max_instructions))
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
