"""Checks that the timing model's predictions move the right way when a
kernel is changed in a way whose effect is known without the model.

    check_sensitivity.py CHECK --bin=DIR --examples=DIR --hsaco=PATH
                         [--micro=PATH] --chip=gfx942|gfx950 --workdir=DIR

Each check compiles or runs two variants of one kernel (the example GEMMs
through hk-opt --hk-pipeline with one option changed, or sensitivity.hip's
microkernels) and compares the two predictions; it prints both figures and
ends each line in PASS or FAIL. Only the workgroups the model simulates
are emulated (--workgroups=sample), on zero buffers: the model's time does
not depend on the values.
"""
import argparse
import filecmp
import json
import os

from tools import run

# The device each chip's checks predict for.
DEVICE = {"gfx942": "mi300x", "gfx950": "mi355x"}
# Compute units and LDS bytes per CU of those devices (data sheets, CDNA3
# and CDNA4 white papers; lib/Timing/DeviceModel.cpp).
CUS = {"gfx942": 304, "gfx950": 256}
LDS_PER_CU = {"gfx942": 64 * 1024, "gfx950": 160 * 1024}


def verdict(ok):
    return "PASS" if ok else "FAIL"


def compile_example(args, example, options=""):
    """The code object of examples/`example` for args.chip, compiled with
    --hk-pipeline's `options`."""
    name = "%s.%s.%s.hsaco" % (os.path.basename(example), args.chip,
                                options.replace(" ", "_").replace("=", "-"))
    hsaco = os.path.join(args.workdir, name)
    lowered = run([os.path.join(args.bin, "hk-opt"),
                   "--hk-pipeline=chip=%s %s" % (args.chip, options),
                   os.path.join(args.examples, example)])
    run([os.path.join(args.bin, "hk-translate"), "--chip=" + args.chip, "-o",
         hsaco], stdin=lowered)
    return hsaco


def emulate(args, hsaco, kernel, grid, block, kernel_args, more=()):
    """hk-emu's JSON for one timed launch of the sample."""
    cmd = [os.path.join(args.bin, "hk-emu"), hsaco, "--kernel=" + kernel,
           "--grid=" + ",".join(map(str, grid)), "--block=%d" % block]
    cmd += list(kernel_args) + ["--sanitize=none", "--timing",
                                "--device=" + DEVICE[args.chip],
                                "--workgroups=sample", "--json", "--print=0"]
    return json.loads(run(cmd + list(more)))


def gemm(args, hsaco, kernel, m, n, k, tile, waves, dtype="bf16"):
    """C = A B^T (A: m x k, B: n x k, C: m x n bf16), the example GEMMs'
    arguments: views A, B, C, their sizes, then their row strides."""
    sizes = (m, k, n, k, m, n, k, k, n)
    return emulate(args, hsaco, kernel, (-(-m // tile), -(-n // tile)),
                   64 * waves,
                   ["--arg=out:%s:%d" % (dtype, m * k),
                    "--arg=out:%s:%d" % (dtype, n * k),
                    "--arg=out:bf16:%d" % (m * n)] +
                   ["--arg=i32:%d" % s for s in sizes])


def main_loop(result):
    """The loop of the kernel that took the most cycles."""
    loops = [l for l in result["timing"]["loops"] if "start_pc" in l]
    return max(loops, key=lambda l: l["simd_cycles"])


def per_iteration(args, kernel, low=20, high=60):
    """Predicted cycles of one iteration of a sensitivity.hip kernel with
    (out, iters) arguments, one eight-wave workgroup: the difference of
    two iteration counts cancels launch, prologue and write-back."""
    def cycles(iters):
        return emulate(args, args.hsaco, kernel, (1,), 512,
                       ["--arg=out:f32:512", "--arg=i32:%d" % iters]
                       )["timing"]["cycles"]
    return (cycles(high) - cycles(low)) / (high - low)


def check_setprio(args, tag):
    # The ping-pong GEMM with and without the s_setprio hk-ping-pong puts
    # around each compute cluster. Its groups are kept in step by the
    # barrier closing every cluster, and the memory clusters issue almost
    # nothing through the vector ALU port the MFMAs use (their LDS reads and
    # buffer loads have ports of their own), so in the main loop the
    # priority decides almost no arbitration and the model predicts a
    # K-step about as long either way. What removing the instructions does
    # save is their issue slots: both s_setprio of a compute cluster lie on
    # its critical path (before the first MFMA; between the last one and
    # the closing barrier, whose latency outlasts the matrix pipe's drain),
    # 2 x 4 cycles per compute cluster, and the two groups' compute clusters
    # run one after the other. "Not faster" per K-step allows exactly that.
    # A K-step's cycles are the difference of two K over the difference of
    # their K-steps, free of the prologue and of the tail, where group 1's
    # last compute cluster runs beside group 0's epilogue (a VALU stream the
    # priority makes wait for the MFMAs, which can go either way).
    if args.chip == "gfx950":
        example, kernel, kstep, clusters = ("gemm/gemm_pingpong_gfx950.mlir",
                                            "gemm_pingpong_k64", 64, 2)
    else:
        example, kernel, kstep, clusters = ("gemm/gemm_pingpong.mlir",
                                            "gemm_pingpong_k32", 32, 1)
    m = n = 1024
    low, high = 512, 1024
    chosen = compile_example(args, example)
    on = compile_example(args, example, "setprio=true")
    off = compile_example(args, example, "setprio=false")

    def cycles(hsaco, k):
        return gemm(args, hsaco, kernel, m, n, k, 256, 8)["timing"]["cycles"]

    a_low, a, b_low, b = (cycles(on, low), cycles(on, high),
                          cycles(off, low), cycles(off, high))
    steps = (high - low) // kstep
    step_on, step_off = (a - a_low) / steps, (b - b_low) / steps
    slots = clusters * 2 * 2 * 4
    print("%s %s %dx%dx%d: with s_setprio %d cycles, without %d (%+.2f%%)" %
          (tag, kernel, m, n, high, a, b, 100.0 * (b - a) / a))
    print("%s a K-step: with s_setprio %.1f cycles, without %.1f; not faster "
          "by more than the %d cycles of the removed instructions' issue "
          "slots %s" % (tag, step_on, step_off, slots,
                        verdict(step_off >= step_on - slots)))
    # hk-ping-pong's cost function (setprio=auto) finds nothing for the
    # priority to win here (the memory clusters only read LDS): its choice
    # must be the code without s_setprio, which the model predicts no
    # slower.
    chose_off = filecmp.cmp(chosen, off, shallow=False)
    print("%s the cost function's choice: %s; the model's K-step without "
          "s_setprio no longer %s" %
          (tag, "without" if chose_off else "with",
           verdict(chose_off and step_off <= step_on)))
    # The ping-pong attention's compute clusters share the LDS port with
    # the other group's memory clusters (the scores' layout round trip),
    # and its memory clusters bound their intervals in the cost function:
    # the priority wins nothing there that the count sees, a tie, which
    # keeps the wave's priority. Whichever the cost function chose, the
    # model must predict an iteration with it no slower than with the
    # other.
    chosen = compile_example(args, "attention/attention.mlir")
    on = compile_example(args, "attention/attention.mlir", "setprio=true")
    off = compile_example(args, "attention/attention.mlir", "setprio=false")
    keys_low, keys_high = 1024, 2048
    iters = (keys_high - keys_low) // 64

    def attention_cycles(hsaco, keys):
        # 128 query rows (one block) of 8 heads against `keys` keys, d 64.
        heads, rows, d = 8, 128, 64
        views = ["--arg=out:bf16:%d" % (heads * rows * d)] + \
            ["--arg=out:bf16:%d" % (heads * keys * d)] * 2 + \
            ["--arg=out:bf16:%d" % (heads * rows * d)]
        sizes = (heads, rows, heads, keys, heads, keys, heads, rows)
        strides = (rows * d, d, keys * d, d, keys * d, d, rows * d, d)
        return emulate(args, hsaco, "attention_fwd_pingpong", (1, heads),
                       512, views + ["--arg=i32:%d" % v
                                     for v in sizes + strides]
                       )["timing"]["cycles"]

    def per_key_tile(hsaco):
        return (attention_cycles(hsaco, keys_high) -
                attention_cycles(hsaco, keys_low)) / iters

    it_on, it_off = per_key_tile(on), per_key_tile(off)
    chose_on = filecmp.cmp(chosen, on, shallow=False)
    print("%s attention_fwd_pingpong, 64 keys: with s_setprio %.1f cycles, "
          "without %.1f; the cost function's choice: %s, no slower %s" %
          (tag, it_on, it_off, "with" if chose_on else "without",
           verdict(it_on <= it_off if chose_on else it_off <= it_on)))
    # Where the priority does decide arbitration: an MFMA wave sharing its
    # SIMD with an older wave whose VALU stream is always ready. With the
    # priority the two overlap (the VALU takes the three issue slots of
    # four the MFMAs leave, about 171 cycles per iteration), without it they
    # nearly serialize (128 + 128 cycles); at least 25% slower.
    with_prio = per_iteration(args, "mfma_with_setprio")
    without = per_iteration(args, "mfma_without_setprio")
    print("%s MFMA wave beside an older VALU wave: %.1f cycles/iteration "
          "with s_setprio 1, %.1f without: slower by at least 25%% %s" %
          (tag, with_prio, without, verdict(without >= 1.25 * with_prio)))


def check_lds_swizzle(args, tag):
    # The plain GEMM's shared tiles unswizzled (lds-swizzle=false) conflict
    # on its K-contiguous MFMA operand reads (test/e2e/lds-bank-conflicts
    # counts them); the chosen swizzle conflicts not at all. More LDS cycles
    # on the path of every K-step: slower, and the main loop's breakdown
    # shows the conflicts.
    size = 1024
    hsaco = compile_example(args, "gemm/gemm_abt.mlir")
    plain = compile_example(args, "gemm/gemm_abt.mlir", "lds-swizzle=false")
    s = gemm(args, hsaco, "gemm_abt_bf16", size, size, size, 128, 4)
    u = gemm(args, plain, "gemm_abt_bf16", size, size, size, 128, 4)
    cs = s["counters"]["lds_bank_conflict_cycles"]
    cu = u["counters"]["lds_bank_conflict_cycles"]
    stall = main_loop(u)["breakdown"]["lds_bank_conflict"]
    print("%s gemm_abt_bf16 %d^3: bank-conflict cycles swizzled %d, "
          "unswizzled %d; the unswizzled main loop waited %d SIMD-cycles on "
          "them %s" % (tag, size, cs, cu, stall,
                       verdict(cs == 0 and cu > 0 and stall > 0)))
    a, b = s["timing"]["cycles"], u["timing"]["cycles"]
    print("%s swizzled %d cycles, unswizzled %d (%+.1f%%) %s" %
          (tag, a, b, 100.0 * (b - a) / a, verdict(b > a)))


def check_waits(args, tag):
    # The pipelined GEMM waits for tile k's direct-to-LDS loads while tile
    # k+1's are in flight: an exact vmcnt lets the prefetch stay in flight
    # over the MFMAs, a blanket vmcnt(0) drains it every K-step and exposes
    # a memory latency per step. gfx950 loads direct by default; gfx942
    # stages group loads through registers (the wait is vmcnt(0) either
    # way, identical code), so there the loads are made direct.
    direct = "direct=always " if args.chip == "gfx942" else ""
    m = n = 1024
    k = 1024
    exact = gemm(args, compile_example(args, "gemm/gemm_abt_pipelined.mlir",
                                       direct + "exact-waits=true"),
                 "gemm_abt_pipelined", m, n, k, 128, 4)
    blanket = gemm(args, compile_example(args, "gemm/gemm_abt_pipelined.mlir",
                                         direct + "exact-waits=false"),
                   "gemm_abt_pipelined", m, n, k, 128, 4)
    a, b = exact["timing"]["cycles"], blanket["timing"]["cycles"]
    print("%s gemm_abt_pipelined %dx%dx%d%s: exact waits %d cycles, blanket "
          "vmcnt(0) %d (%+.1f%%), main loop's largest stall %s %s" %
          (tag, m, n, k, " (direct loads)" if direct else "", a, b,
           100.0 * (b - a) / a, main_loop(blanket)["largest_stall"],
           verdict(b > a)))


def check_occupancy(args, tag):
    # Four workgroups of four waves per CU, one per SIMD each: the whole
    # grid fits in one dispatch wave. Dynamic LDS of more than a third of
    # the CU's LDS leaves room for two: half the waves, two dispatch waves.
    # load_chain waits one load latency per iteration, which only other
    # waves can hide: each dispatch wave takes about as long as the single
    # one did, so nearly twice the time (at least 1.5 times: the launch,
    # the cold first loads and the write-back do not double).
    cus = CUS[args.chip]
    grid = 4 * cus
    half_lds = "--dynamic-lds=%d" % (LDS_PER_CU[args.chip] * 3 // 8)

    def chain(more):
        return emulate(args, args.hsaco, "load_chain", (grid,), 256,
                       ["--arg=out:u32:%d" % (grid * 256), "--arg=out:u32:256",
                        "--arg=i32:32"], more)["timing"]

    full, half = chain([]), chain([half_lds])
    ratio = half["cycles"] / full["cycles"]
    print("%s load_chain, 4 workgroups per CU: room for %d per CU %d "
          "cycles, room for %d %d (x%.2f), at least x1.5 %s" %
          (tag, full["sample"]["workgroups_per_cu"], full["cycles"],
           half["sample"]["workgroups_per_cu"], half["cycles"], ratio,
           verdict(ratio >= 1.5)))

    # The same halving on the matrix-bound mfma_peak (eight independent
    # accumulators per wave: one wave per SIMD keeps the matrix pipe busy)
    # costs much less: the waves only queue for the same pipe.
    def peak(more):
        return emulate(args, args.micro, "mfma_peak", (grid,), 256,
                       ["--arg=out:f32:%d" % (grid * 256), "--arg=i32:16"],
                       more)["timing"]["cycles"]

    peak_ratio = peak([half_lds]) / peak([])
    print("%s mfma_peak at half occupancy: x%.2f, less than load_chain's %s" %
          (tag, peak_ratio, verdict(peak_ratio < ratio)))


def check_grid_order(args, tag):
    # The ping-pong GEMM at M=2048 (8 block rows of 256), N=8192, K=512.
    # In the hardware order (x fastest) block pid goes to XCD pid mod 8 =
    # its block row: every workgroup of XCD 0 shares A's tile row 0 and
    # reads a B tile row no other workgroup of the XCD reads (1 + 32 tile
    # rows streamed for 32 workgroups). hk-grid-swizzle's XCD remap with
    # grouped order (grid-chunk=8 grid-group=4) gives each XCD a 4x8 patch
    # of the output (4 + 8 tile rows). The sample's HBM traffic must fall
    # and its L2 hit rate rise, and the prediction must not get slower.
    # The kernel is one that asks for no order of its own (the gfx950
    # ping-pong GEMMs do: hk.grid_order, which the options do not override).
    example, kernel = "gemm/gemm_pingpong.mlir", "gemm_pingpong_k32"
    m, n, k = 2048, 8192, 512
    hostile = gemm(args, compile_example(args, example), kernel, m, n, k,
                   256, 8)
    swizzled = gemm(args, compile_example(args, example,
                                          "grid-chunk=8 grid-group=4"),
                    kernel, m, n, k, 256, 8)
    hh, hs = hostile["timing"]["hbm_bytes"], swizzled["timing"]["hbm_bytes"]
    rh, rs = hostile["timing"]["l2_hit_rate"], swizzled["timing"]["l2_hit_rate"]
    print("%s %s %dx%dx%d: HBM traffic hardware order %.1f MB, swizzled "
          "%.1f MB; L2 hit rate %.1f%%, swizzled %.1f%% %s" %
          (tag, kernel, m, n, k, hh / 1e6, hs / 1e6, 100 * rh, 100 * rs,
           verdict(hs < hh and rs > rh)))
    a, b = hostile["timing"]["cycles"], swizzled["timing"]["cycles"]
    print("%s hardware order %d cycles (%.0f TFLOP/s), swizzled %d (%.0f "
          "TFLOP/s) %s" % (tag, a, hostile["timing"]["tflops"], b,
                           swizzled["timing"]["tflops"], verdict(b <= a)))


CHECKS = {
    "setprio": check_setprio,
    "lds_swizzle": check_lds_swizzle,
    "waits": check_waits,
    "occupancy": check_occupancy,
    "grid_order": check_grid_order,
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("check", choices=sorted(CHECKS))
    p.add_argument("--bin", required=True, help="hk-opt, hk-translate, hk-emu")
    p.add_argument("--examples", required=True)
    p.add_argument("--hsaco", required=True, help="sensitivity.hip's")
    p.add_argument("--micro", default="", help="micro.hip's")
    p.add_argument("--chip", required=True, choices=sorted(DEVICE))
    p.add_argument("--workdir", required=True)
    args = p.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    CHECKS[args.check](args, "%s %s:" % (args.check, args.chip))


if __name__ == "__main__":
    main()
