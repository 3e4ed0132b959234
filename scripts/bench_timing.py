"""Timing-model predictions of the example kernels at HipKittens' benchmark
sizes, per device: predicted time, TFLOP/s (matrix kernels) or GB/s
(memory-bound ones), percent of the device's peak for it (the dense peak of
the kernel's MFMA at the peak clock, or HBM's peak bandwidth), the engine
clock the model predicts for the launch's load, the main loop's largest
stall and the CPU seconds the prediction took. Prints a table; it is not a test.
Run by scripts/bench-timing.sh.

    scripts/bench-timing.sh [BUILD_DIR] [SIZE ...] [--devices=D,...]
        [--gemm=N,...] [--attn=N,...] [--heads=gqa,mha]
        [--families=gemm,attention,memory,backward] [--only=KERNEL,...]
        [--markdown]

- GEMMs, C = A B^T with M = N = K (bare SIZEs and --gemm; default 8192,
  HipKittens benchmarks 1024 to 16384): the bf16 ping-pong kernel of the
  device's chip and the fp8 interleave kernel. FLOPs 2 M N K.
- Attention forward (--attn: sequence lengths N = Nq = Nk, default 1024,
  HipKittens benchmarks 1024 to 16384): every kernel of attention.mlir (d
  64; attention_causal is the causal one), attention_d128.mlir (d 128) and,
  on gfx950, attention_d128_gfx950.mlir (d 128, interleave and 8-wave
  ping-pong schedules, causal and not) and attention_gfx950.mlir (d 64),
  on gfx942 their twins attention_d128_gfx942.mlir and
  attention_gfx942.mlir,
  with HipKittens' heads (its analysis/attn/fwd/plot.py; --heads, default
  gqa): GQA batch 16, 64 query heads over 8 KV heads; MHA batch 16, 16
  heads. The batch is folded
  into the heads (the examples' views are heads x rows x d). FLOPs 4 B H
  N^2 d, half of it for causal (HipKittens' count).
- Attention backward (--families=backward, not in the default set: an
  N = 8192 GQA prediction takes tens of minutes of CPU): the fused
  attention_bwd kernels of attention_bwd.mlir (d 64) and
  attention_bwd_d128.mlir (d 128), not causal, at the --attn lengths and
  --heads. FLOPs 2.5 times the forward's, 10 B H N^2 d (five products of
  2 N^2 d per query head), half of it for causal (HipKittens' count).
- Memory-bound kernels (normalizations, activations, RoPE, softmax) at the
  shapes bench_kernels.py uses, through its table.

Only the workgroups the model simulates are emulated (bench_common.py).
Every figure is a PREDICTION of the model, not a measurement.
"""

import argparse
import os
import re
import sys
import tempfile

from bench_common import (CHIP, DEVICES, ROOT, Runner, buf, cdiv, i32,
                          main_loop_stall)
from bench_kernels import memory_bound_table, predict_memory_bound

# Per chip: (example, kernel, waves, output tile, A/B element type).
GEMMS = {
    "gfx942": [("gemm/gemm_pingpong.mlir", "gemm_pingpong_k32", 8, 256,
                "bf16"),
               ("gemm/gemm_fp8_gfx942.mlir", "gemm_abt_fp8_interleave", 4,
                128, "fp8"),
               ("gemm/gemm_fp8_gfx942.mlir", "gemm_abt_fp8_pingpong", 8,
                256, "fp8")],
    "gfx950": [("gemm/gemm_pingpong_gfx950.mlir", "gemm_pingpong_k64", 8,
                256, "bf16"),
               ("gemm/gemm_pingpong_k32_gfx950.mlir", "gemm_pingpong_k32_s4",
                8, 256, "bf16"),
               ("gemm/gemm_fp8_gfx950.mlir", "gemm_abt_fp8_interleave", 4,
                128, "fp8"),
               ("gemm/gemm_fp8_gfx950.mlir", "gemm_abt_fp8_pingpong", 8,
                256, "fp8"),
               ("gemm/gemm_fp8_gfx950.mlir", "gemm_abt_fp8_pingpong_k64_s4",
                8, 256, "fp8")],
}

# (example, kernel, head dimension, waves, query rows per block, causal)
ATTENTION = [
    ("attention/attention.mlir", "attention_fwd", 64, 4, 64, False),
    ("attention/attention.mlir", "attention_fwd_pingpong", 64, 8, 128, False),
    ("attention/attention.mlir", "attention_fwd_interleave", 64, 4, 64, False),
    ("attention/attention.mlir", "attention_causal", 64, 4, 64, True),
    ("attention/attention.mlir", "attention_causal_interleave", 64, 4, 64,
     True),
    ("attention/attention.mlir", "attention_causal_pingpong", 64, 8, 128,
     True),
    ("attention/attention_d128.mlir", "attention_fwd_d128", 128, 4, 64,
     False),
    ("attention/attention_gfx950.mlir", "attention_fwd_interleave_gfx950", 64,
     4, 64, False),
    ("attention/attention_gfx950.mlir", "attention_causal_interleave_gfx950",
     64, 4, 64, True),
    ("attention/attention_gfx942.mlir", "attention_fwd_interleave_gfx942", 64,
     4, 64, False),
    ("attention/attention_gfx942.mlir", "attention_causal_interleave_gfx942",
     64, 4, 64, True),
    ("attention/attention_d128_gfx942.mlir",
     "attention_fwd_d128_interleave_gfx942", 128, 4, 64, False),
    ("attention/attention_d128_gfx942.mlir",
     "attention_causal_d128_interleave_gfx942", 128, 4, 64, True),
    ("attention/attention_d128_gfx942.mlir",
     "attention_fwd_d128_pingpong_gfx942", 128, 8, 128, False),
    ("attention/attention_d128_gfx942.mlir",
     "attention_causal_d128_pingpong_gfx942", 128, 8, 128, True),
    ("attention/attention_d128_gfx950.mlir", "attention_fwd_d128_interleave",
     128, 4, 64, False),
    ("attention/attention_d128_gfx950.mlir",
     "attention_causal_d128_interleave", 128, 4, 64, True),
    ("attention/attention_d128_gfx950.mlir", "attention_fwd_d128_pingpong",
     128, 8, 128, False),
    ("attention/attention_d128_gfx950.mlir",
     "attention_causal_d128_pingpong", 128, 8, 128, True),
]


def example_chip(example):
    """The chip an example's module targets (`hk.target`), or None when it
    runs on both."""
    with open(os.path.join(ROOT, "examples", example)) as f:
        m = re.search(r'#hk\.target<"(gfx[0-9a-f]+)">', f.read())
    return m.group(1) if m else None


# (example, kernel, head dimension, causal) of the fused backward.
ATTENTION_BWD = [
    ("attention/attention_bwd.mlir", "attention_bwd", 64, False),
    ("attention/attention_bwd_d128.mlir", "attention_bwd_d128", 128, False),
]
# HipKittens' attention benchmark heads: (batch, query heads, KV heads).
HEADS = {"gqa": (16, 64, 8), "mha": (16, 16, 16)}


def gemm_case(runner, device, example, kernel, waves, tile, dtype, n):
    hsaco = runner.compile(example, CHIP[device])
    tiles = cdiv(n, tile)
    # A (n x n), B (n x n, transposed), C; their sizes, then row strides.
    args = [buf(dtype, n * n), buf(dtype, n * n), buf("bf16", n * n),
            *i32(*[n] * 9)]
    t = runner.predict(hsaco, kernel, (tiles, tiles), 64 * waves, args,
                       device)
    return t, 2.0 * n * n * n


def attention_case(runner, device, example, kernel, d, waves, rows, causal,
                   heads, n):
    hsaco = runner.compile(example, CHIP[device])
    batch, hq, hkv = HEADS[heads]
    bh, kvh = batch * hq, batch * hkv
    # Q (bh x n x d), K and V (kvh x n x d), O; sizes (heads, rows) per
    # view, then strides (head, row) per view.
    args = [buf("bf16", bh * n * d), buf("bf16", kvh * n * d),
            buf("bf16", kvh * n * d), buf("bf16", bh * n * d),
            *i32(bh, n, kvh, n, kvh, n, bh, n),
            *i32(*[n * d, d] * 4)]
    t = runner.predict(hsaco, kernel, (cdiv(n, rows), bh), 64 * waves, args,
                       device)
    flops = 4.0 * bh * n * n * d / (2 if causal else 1)
    return t, flops


def attention_bwd_case(runner, device, example, kernel, d, causal, heads, n):
    hsaco = runner.compile(example, CHIP[device])
    batch, hq, hkv = HEADS[heads]
    bh, kvh = batch * hq, batch * hkv
    # Q, K, V, dO (bf16), L, Delta (f32, heads x rows), dQ (f32), dK, dV
    # (bf16); sizes (heads, rows) per view, strides per view (the vectors'
    # row stride only), then the causal flag. dQ starts at zero.
    args = [buf("bf16", bh * n * d), buf("bf16", kvh * n * d),
            buf("bf16", kvh * n * d), buf("bf16", bh * n * d),
            buf("f32", bh * n), buf("f32", bh * n), buf("f32", bh * n * d),
            buf("bf16", kvh * n * d), buf("bf16", kvh * n * d),
            *i32(bh, n, kvh, n, kvh, n, bh, n, bh, n, bh, n, bh, n, kvh, n,
                 kvh, n),
            *i32(*[n * d, d] * 4, n, n, *[n * d, d] * 3),
            *i32(1 if causal else 0)]
    # A block per 64 keys of a KV head.
    t = runner.predict(hsaco, kernel, (cdiv(n, 64), kvh), 256, args, device)
    flops = 10.0 * bh * n * n * d / (2 if causal else 1)
    return t, flops


def row(kernel, shape, t, rate, unit, peak, markdown):
    """One line of the table."""
    time = t["seconds"]
    time_text = (f"{time * 1e3:.4g} ms" if time >= 1e-3
                 else f"{time * 1e6:.3g} us")
    stall = main_loop_stall(t)
    clock = f"{t['clock_mhz']:.0f}"
    if markdown:
        return (f"| {t['device']} | {kernel} | {shape} | {time_text} | "
                f"{rate:.1f} {unit} | {peak:.1f}% | {clock} | {stall} |")
    return (f"{kernel:<26} {shape:<24} {t['device']:<7} {time_text:>11} "
            f"{rate:>9.1f} {unit:<7} {peak:>6.1f}% {clock:>6}  {stall:<18} "
            f"{t['cpu_seconds']:>8.1f}")


def attention_row(kernel, d, causal, heads, n, timing, flops, markdown):
    """An attention kernel's row (forward or backward): its TFLOP/s and
    percent of the bf16 peak."""
    tflops = flops / timing["seconds"] / 1e12
    shape = f"{heads.upper()} d{d} N={n}" + (" causal" if causal else "")
    return row(kernel, shape, timing, tflops, "TFLOP/s",
               100 * tflops / timing["peak_tflops"], markdown)


def parse():
    p = argparse.ArgumentParser(
        description="Timing-model predictions of the example kernels "
        "(predictions, not measurements)")
    p.add_argument("build", nargs="?", default="build")
    p.add_argument("sizes", nargs="*", type=int,
                   help="GEMM sizes (the same as --gemm)")
    p.add_argument("--devices", default=",".join(DEVICES))
    p.add_argument("--gemm", default="", help="GEMM sizes M = N = K")
    p.add_argument("--attn", default="1024", help="attention lengths N")
    p.add_argument("--heads", default="gqa", help="gqa, mha or both")
    p.add_argument("--families", default="gemm,attention,memory",
                   help="any of gemm, attention, memory, backward")
    p.add_argument("--only", default="", help="kernel names")
    p.add_argument("--markdown", action="store_true",
                   help="rows of a Markdown table")
    args = p.parse_args()

    def numbers(option, text):
        try:
            values = [int(x) for x in text.split(",") if x]
        except ValueError:
            p.error(f"{option} takes sizes like 1024,8192, not '{text}'")
        if any(v <= 0 for v in values):
            p.error(f"{option}: sizes must be positive, got '{text}'")
        return values

    def names(option, text, known):
        values = [x.lower() for x in text.split(",") if x]
        for x in values:
            if x not in known:
                p.error(f"{option}: unknown '{x}' (known: "
                        f"{', '.join(known)})")
        return values

    args.devices = names("--devices", args.devices, DEVICES)
    args.gemm = args.sizes + numbers("--gemm", args.gemm) or [8192]
    if any(v <= 0 for v in args.gemm):
        p.error("GEMM sizes must be positive")
    args.attn = numbers("--attn", args.attn)
    args.heads = names("--heads", args.heads, list(HEADS))
    args.families = set(names("--families", args.families,
                              ["gemm", "attention", "memory", "backward"]))
    kernels = sorted({k for chip in GEMMS.values() for _, k, *_ in chip} |
                     {k for _, k, *_ in ATTENTION} |
                     {k for _, k, *_ in ATTENTION_BWD} |
                     {k for _, k, *_ in memory_bound_table("")})
    args.only = set(names("--only", args.only, kernels))
    return args


def main():
    args = parse()
    wanted = lambda kernel: not args.only or kernel in args.only
    if args.markdown:
        print("| device | kernel | shape | predicted time | predicted rate "
              "| % of peak | clock MHz | main loop's largest stall |")
        print("|---|---|---|---|---|---|---|---|")
    else:
        print(f"{'kernel':<26} {'shape':<24} {'device':<7} {'time':>11} "
              f"{'rate':>17} {'% peak':>7} {'MHz':>6}  {'main loop stall':<18} "
              f"{'CPU s':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner(args.build, tmp)
        for device in args.devices:
            chip = CHIP[device]
            if "gemm" in args.families:
                for example, kernel, waves, tile, dtype in GEMMS[chip]:
                    if not wanted(kernel):
                        continue
                    for n in args.gemm:
                        t, flops = gemm_case(runner, device, example, kernel,
                                             waves, tile, dtype, n)
                        print(row(kernel, f"{dtype} {n}^3", t,
                                  flops / t["seconds"] / 1e12, "TFLOP/s",
                                  t["percent_of_peak"], args.markdown),
                              flush=True)
            if "attention" in args.families:
                for example, kernel, d, waves, rows, causal in ATTENTION:
                    if not wanted(kernel) or example_chip(example) not in (
                            None, CHIP[device]):
                        continue
                    for heads in args.heads:
                        for n in args.attn:
                            t, flops = attention_case(
                                runner, device, example, kernel, d, waves,
                                rows, causal, heads, n)
                            print(attention_row(kernel, d, causal, heads, n,
                                                t, flops, args.markdown),
                                  flush=True)
            if "backward" in args.families:
                for example, kernel, d, causal in ATTENTION_BWD:
                    if not wanted(kernel):
                        continue
                    for heads in args.heads:
                        for n in args.attn:
                            t, flops = attention_bwd_case(
                                runner, device, example, kernel, d, causal,
                                heads, n)
                            print(attention_row(kernel, d, causal, heads, n,
                                                t, flops, args.markdown),
                                  flush=True)
            if "memory" in args.families:
                for example, kernel, make_args, shapes in \
                        memory_bound_table(tmp):
                    if not wanted(kernel):
                        continue
                    for shape in shapes:
                        t, nbytes = predict_memory_bound(
                            runner, device, example, kernel, make_args, shape)
                        gbps = nbytes / t["seconds"] / 1e9
                        print(row(kernel, "x".join(map(str, shape)), t, gbps,
                                  "GB/s", 100 * gbps / t["peak_gbps"],
                                  args.markdown), flush=True)


if __name__ == "__main__":
    main()
