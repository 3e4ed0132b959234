"""What the timing-model benchmark scripts share (bench_timing.py,
bench_kernels.py): compiling an example for a device's chip, predicting one
launch with hk-emu --timing --workgroups=sample, and reading the
prediction. Only the workgroups the model simulates (XCD 0's first three
dispatch waves, and a partial last one) are emulated, on zero-filled
buffers unless a case passes its own: the model's time does not depend on
the values. Every time and rate is a PREDICTION of the model, not a
measurement.
"""

import json
import os
import resource
import subprocess

CHIP = {"mi300x": "gfx942", "mi325x": "gfx942", "mi350x": "gfx950",
        "mi355x": "gfx950"}
DEVICES = list(CHIP)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cdiv(a, b):
    return -(-a // b)


def i32(*values):
    return [f"--arg=i32:{v}" for v in values]


def buf(dtype, count):
    return f"--arg=out:{dtype}:{count}"


class Runner:
    """Compiles examples (once per example, chip and options) into `tmp`
    and predicts launches of them."""

    def __init__(self, build_dir, tmp):
        self.bin = os.path.join(build_dir, "bin")
        self.tmp = tmp
        self.hsacos = {}
        for tool in ("hk-opt", "hk-translate", "hk-emu"):
            if not os.access(os.path.join(self.bin, tool), os.X_OK):
                raise SystemExit(f"{self.bin}/{tool} not found; build first "
                                 "(make build)")

    def compile(self, example, chip, options=""):
        """The code object of examples/`example` for `chip`."""
        key = (example, chip, options)
        if key not in self.hsacos:
            name = "_".join([example.replace("/", "_"), chip,
                             options.replace(" ", "_").replace("=", "-")])
            hsaco = os.path.join(self.tmp, name + ".hsaco")
            lowered = subprocess.run(
                [os.path.join(self.bin, "hk-opt"),
                 f"--hk-pipeline=chip={chip} {options}",
                 os.path.join(ROOT, "examples", example)],
                capture_output=True, check=True).stdout
            subprocess.run([os.path.join(self.bin, "hk-translate"),
                            f"--chip={chip}", "-o", hsaco],
                           input=lowered, check=True)
            self.hsacos[key] = hsaco
        return self.hsacos[key]

    def predict(self, hsaco, kernel, grid, block, args, device):
        """The "timing" object of hk-emu's JSON for one launch, with the
        CPU seconds hk-emu took added as "cpu_seconds"."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(
            [os.path.join(self.bin, "hk-emu"), hsaco, f"--kernel={kernel}",
             "--grid=" + ",".join(map(str, grid)), f"--block={block}",
             *args, "--sanitize=none", "--timing", f"--device={device}",
             "--workgroups=sample", "--json", "--print=0"],
            capture_output=True, check=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        timing = json.loads(out)["timing"]
        timing["cpu_seconds"] = (after.ru_utime - before.ru_utime +
                                 after.ru_stime - before.ru_stime)
        return timing


def main_loop_stall(timing):
    """The largest stall of the loop that took the most cycles, with its
    share of that loop's cycles: "vmcnt 29%"."""
    loops = [l for l in timing["loops"] if "start_pc" in l] or timing["loops"]
    main = max(loops, key=lambda l: l["simd_cycles"])
    stall = main["largest_stall"]
    share = main["breakdown"][stall] / max(1, main["simd_cycles"])
    return f"{stall} {100 * share:.0f}%"
