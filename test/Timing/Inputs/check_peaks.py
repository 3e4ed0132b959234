"""Checks the timing model's rates on micro.hip's kernels against published
ceilings of the device.

    check_peaks.py KERNEL --hk-emu=PATH --hsaco=PATH --device=NAME

Each kernel fills the device (every CU of XCD 0 gets workgroups; the model
simulates that XCD). Steady-state rates come from two iteration counts: the
difference of the work over the difference of the predicted cycles, free of
launch and write-back. The ceilings are the data sheets' and white papers',
written here with their source, not read from the model. Prints one line
per check ending in PASS or FAIL.
"""
import argparse
import json
import subprocess
import sys

# Data sheets (MI300X, MI325X, MI350X, MI355X): compute units, peak engine
# clock in MHz, dense bf16 matrix peak in TFLOP/s, HBM peak in TB/s.
DEVICES = {
    "mi300x": dict(chip="gfx942", cus=304, mhz=2100, bf16=1307.4, hbm=5.3),
    "mi325x": dict(chip="gfx942", cus=304, mhz=2100, bf16=1307.4, hbm=6.0),
    "mi350x": dict(chip="gfx950", cus=256, mhz=2200, bf16=2300, hbm=8.0),
    "mi355x": dict(chip="gfx950", cus=256, mhz=2400, bf16=2500, hbm=8.0),
}
# AMD's max-achievable bf16 GEMM figures (ROCm blog "Measuring
# Max-Achievable FLOPs - Part 2", Table 1: hipBLASLt at the median clock the
# power management held, MI300X 708 TFLOP/s at 1207 MHz, MI325X 843 at 1447
# MHz). AMD has published none for MI350X/MI355X.
MAF_BF16 = {"mi300x": 708, "mi325x": 843}
# LDS bytes per clock per CU: AMD's CDNA3 white paper (128) and CDNA4 white
# paper (reads doubled to 256).
LDS_BYTES_PER_CLOCK = {"gfx942": 128, "gfx950": 256}


def run(args, kernel, grid, kernel_args):
    cmd = [args.hk_emu, args.hsaco, "--kernel=" + kernel,
           "--grid=%d" % grid, "--block=256"] + kernel_args
    cmd += ["--timing", "--device=" + args.device, "--workgroups=sample",
            "--json", "--print=0"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("hk-emu failed (%d): %s\n%s" % (r.returncode, " ".join(cmd),
                                                  r.stderr))
    return json.loads(r.stdout)


def verdict(ok):
    return "PASS" if ok else "FAIL"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kernel")
    p.add_argument("--hk-emu", required=True)
    p.add_argument("--hsaco", required=True)
    p.add_argument("--device", required=True)
    args = p.parse_args()
    d = DEVICES[args.device]
    cus_per_xcd = d["cus"] // 8
    tag = "%s %s:" % (args.kernel, args.device)

    if args.kernel == "mfma_peak":
        # One workgroup of four waves per CU: one wave per SIMD, eight
        # independent accumulators, the matrix pipe never waits.
        grid = d["cus"]
        out = "--arg=out:f32:%d" % (grid * 256)
        lo = run(args, "mfma_peak", grid, [out, "--arg=i32:50"])
        hi = run(args, "mfma_peak", grid, [out, "--arg=i32:150"])
        flops = hi["timing"]["flops"] - lo["timing"]["flops"]
        cycles = hi["timing"]["cycles"] - lo["timing"]["cycles"]
        tflops = flops / (cycles / (d["mhz"] * 1e6)) / 1e12
        # Within 2% of the data sheet, which gives two or three digits.
        print("%s steady state %.1f TFLOP/s, data-sheet bf16 peak %.1f %s" %
              (tag, tflops, d["bf16"],
               verdict(abs(tflops - d["bf16"]) <= 0.02 * d["bf16"])))
        whole = hi["timing"]
        print("%s whole launch %.1f%% of the model's peak %s" %
              (tag, 100 * whole["tflops"] / whole["peak_tflops"],
               verdict(whole["tflops"] <= whole["peak_tflops"])))
        # A device-filling MFMA loop loads the matrix pipes about as much as
        # AMD's GEMM did, so at the clock the model predicts for that load
        # it lands near AMD's measured figure, within 5% (its pipes are a
        # few percent less busy than hipBLASLt's 93-94%).
        if args.device in MAF_BF16:
            maf = MAF_BF16[args.device]
            print("%s sustained clock %.0f MHz: %.1f TFLOP/s, AMD's measured "
                  "%d %s" % (tag, whole["clock_mhz"], whole["tflops"], maf,
                             verdict(abs(whole["tflops"] - maf) <=
                                     0.05 * maf)))
        else:
            print("%s sustained clock %.0f MHz (assumed, no published "
                  "measurement): %.1f TFLOP/s" %
                  (tag, whole["clock_mhz"], whole["tflops"]))
    elif args.kernel == "stream_copy":
        # Two workgroups per CU, 16 float4 per work-item each way.
        grid = 2 * d["cus"]
        n = grid * 256 * 16
        r = run(args, "stream_copy", grid,
                ["--arg=out:f32:%d" % (4 * n), "--arg=out:f32:%d" % (4 * n),
                 "--arg=u32:%d" % n])
        gbps = r["timing"]["gbps"]
        peak = d["hbm"] * 1000
        # Below peak times the stream efficiency the device table cites
        # (78%), and not far below it: the copy is HBM-bound.
        print("%s %.0f GB/s, %.1f%% of the %.0f GB/s HBM peak %s" %
              (tag, gbps, 100 * gbps / peak, peak,
               verdict(0.5 * peak <= gbps <= 0.78 * peak)))
        loop = max((l for l in r["timing"]["loops"] if "start_pc" in l),
                   key=lambda l: l["simd_cycles"])
        print("%s copy loop: largest stall %s" % (tag, loop["largest_stall"]))
        # No MFMA work: nothing pulls the clock below the peak.
        print("%s clock %.0f MHz, peak %d %s" %
              (tag, r["timing"]["clock_mhz"], d["mhz"],
               verdict(r["timing"]["clock_mhz"] == d["mhz"])))
        # A quarter of the waves in flight (half the workgroups, each
        # doing twice the work) hide less of HBM's latency.
        half = run(args, "stream_copy", grid // 2,
                   ["--arg=out:f32:%d" % (4 * n), "--arg=out:f32:%d" % (4 * n),
                    "--arg=u32:%d" % n])["timing"]["gbps"]
        print("%s one workgroup per CU: %.0f GB/s %s" %
              (tag, half, verdict(half < gbps)))
        # 64 workgroups per CU, one float4 per work-item each way: eight
        # dispatch waves. Each wave's stores sit in L2 until evicted, but
        # they reach HBM all the same, so the copy stays below the ceiling.
        many = 32 * grid
        r = run(args, "stream_copy", many,
                ["--arg=out:f32:%d" % (4 * many * 256),
                 "--arg=out:f32:%d" % (4 * many * 256),
                 "--arg=u32:%d" % (many * 256)])
        waves = r["timing"]["extrapolation"].split(": ")[1].split(" full")[0]
        print("%s %s dispatch waves: %.0f GB/s, %.1f%% of HBM peak %s" %
              (tag, waves, r["timing"]["gbps"],
               100 * r["timing"]["gbps"] / peak,
               verdict(0.5 * peak <= r["timing"]["gbps"] <= 0.78 * peak)))
    elif args.kernel == "lds_read":
        # Two workgroups of four waves per CU (each holds 32 KB of LDS, so
        # both fit on either chip and the sample is the whole XCD): two
        # waves per SIMD keep the LDS busy while each waits for its reads.
        grid = 2 * d["cus"]
        out = "--arg=out:f32:%d" % (grid * 256)
        lo = run(args, "lds_read", grid, [out, "--arg=i32:20"])
        hi = run(args, "lds_read", grid, [out, "--arg=i32:60"])
        bytes_ = (hi["counters"]["bytes"]["lds_read"] -
                  lo["counters"]["bytes"]["lds_read"])
        cycles = hi["timing"]["cycles"] - lo["timing"]["cycles"]
        rate = bytes_ / cycles / cus_per_xcd
        ceiling = LDS_BYTES_PER_CLOCK[d["chip"]]
        print("%s steady state %.1f LDS bytes/clock/CU, ceiling %d %s" %
              (tag, rate, ceiling, verdict(0.9 * ceiling <= rate <= ceiling)))
    else:
        sys.exit("unknown kernel " + args.kernel)


if __name__ == "__main__":
    main()
