"""Timing-model predictions of the memory-bound example kernels at the
shapes HipKittens and AITER benchmark them at. Prints a table; it is not a
test. Run by scripts/bench-kernels.sh.

Each kernel is compiled for the device's chip and run by hk-emu with
--timing --workgroups=sample: only the workgroups the model simulates
(XCD 0's first three dispatch waves, and a partial last one) are emulated, on
zero-filled buffers (the model's time does not depend on values), except
RoPE's position ids, which are 0..S-1 so that the gathered cache rows are
those a prefill reads. GB/s is the kernel's bytes (every input read once,
every output written once) over the predicted time. Every time and GB/s
is a PREDICTION of the model, not a measurement.

    scripts/bench-kernels.sh [BUILD_DIR] [DEVICE ...] [--only=KERNEL ...]
"""

import os
import sys
import tempfile

import numpy as np

from bench_common import CHIP, Runner, buf, cdiv, i32


def gated(m, n):
    # xv: a 2 x M x N view of M x 2N; y: M x N.
    return ((cdiv(m, 64), cdiv(n, 128)),
            [buf("bf16", 2 * m * n), buf("bf16", m * n),
             *i32(m, n, m, n, n, 2 * n, n)],
            2 * (3 * m * n))


def rmsnorm(m, n):
    # x, gamma, y; eps.
    return ((cdiv(m, 64),),
            [buf("bf16", m * n), buf("bf16", n), buf("bf16", m * n),
             *i32(m, n, n, m, n, n, n), "--arg=f32:1e-6"],
            2 * (2 * m * n + n))


def add_norm(beta):
    def args(m, n):
        views = [buf("bf16", m * n), buf("bf16", m * n), buf("bf16", n)]
        sizes = [m, n, m, n, n]
        if beta:
            views.append(buf("bf16", n))
            sizes.append(n)
        views += [buf("bf16", m * n), buf("bf16", m * n)]
        sizes += [m, n, m, n]
        # Row strides of x, res, y, res_out (the vectors have none).
        return ((cdiv(m, 64),),
                views + i32(*sizes, n, n, n, n) + ["--arg=f32:1e-6"],
                2 * (4 * m * n + (2 if beta else 1) * n))
    return args


def softmax(m, n):
    return ((cdiv(m, 64),),
            [buf("bf16", m * n), buf("bf16", m * n), *i32(m, n, m, n, n, n)],
            2 * (2 * m * n))


def rope(tmp):
    def args(b, h, s, d):
        pos = os.path.join(tmp, f"pos_{b}_{s}.npy")
        np.save(pos, np.tile(np.arange(s, dtype=np.int32), (b, 1)))
        return ((cdiv(s, 64), b),
                [buf("bf16", b * h * s * d), f"--arg=buf:{pos}",
                 buf("bf16", s * d), buf("bf16", b * h * s * d),
                 # sizes: x (B, H, S), pos (B, S), cos_sin (S), y (B, H, S);
                 # strides: x, pos, cos_sin, y.
                 *i32(b, h, s, b, s, s, b, h, s,
                      h * s * d, s * d, d, s, d, h * s * d, s * d, d)],
                2 * (2 * b * h * s * d + s * d) + 4 * b * s)
    return args


def memory_bound_table(tmp):
    """(example, kernel, args(shape) -> (grid, hk-emu args, bytes), shapes)
    of every memory-bound example at its benchmark shapes."""
    rmsnorm_shapes = [(m, 128) for m in (4096, 8192, 16384, 32768, 65536)]
    return [
        ("normalization/layernorm.mlir", "rmsnorm_bf16", rmsnorm,
         rmsnorm_shapes),
        ("normalization/fused_add_norm.mlir", "add_rmsnorm_bf16",
         add_norm(False), rmsnorm_shapes),
        ("normalization/fused_add_norm.mlir", "add_layernorm_bf16",
         add_norm(True), rmsnorm_shapes),
        ("activation/activation.mlir", "silu_and_mul", gated,
         [(4096, n) for n in (256, 1024, 4096, 16384)]),
        ("activation/activation.mlir", "gelu_and_mul", gated,
         [(4096, n) for n in (256, 16384)]),
        ("rope/rope.mlir", "rope_bf16", rope(tmp), [(16, 32, 4096, 128)]),
        ("softmax/softmax.mlir", "softmax_bf16", softmax,
         [(4096, 4096), (16384, 1024)]),
    ]


def predict_memory_bound(runner, device, example, kernel, make_args, shape):
    """The prediction of one kernel at one shape, and the kernel's bytes."""
    grid, args, nbytes = make_args(*shape)
    hsaco = runner.compile(example, CHIP[device])
    return runner.predict(hsaco, kernel, grid, 256, args, device), nbytes


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    devices = [d for d in sys.argv[2:] if not d.startswith("--only=")]
    only = [d[7:] for d in sys.argv[2:] if d.startswith("--only=")]
    for device in devices:
        if device not in CHIP:
            sys.exit(f"bench-kernels: unknown device '{device}' (known: "
                     f"{', '.join(CHIP)})")
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner(build, tmp)
        print(f"{'kernel':<20} {'device':<7} {'shape':<16} {'time (us)':>10} "
              f"{'GB/s':>8} {'MB':>8} {'occupancy':>10} {'model s':>8}")
        for device in devices or ["mi355x"]:
            for example, kernel, make_args, shapes in memory_bound_table(tmp):
                if only and kernel not in only:
                    continue
                for shape in shapes:
                    t, nbytes = predict_memory_bound(runner, device, example,
                                                     kernel, make_args, shape)
                    waves = t["sample"].get("waves_per_simd", "?")
                    print(f"{kernel:<20} {t['device']:<7} "
                          f"{'x'.join(map(str, shape)):<16} "
                          f"{t['seconds'] * 1e6:>10.2f} "
                          f"{nbytes / t['seconds'] / 1e9:>8.0f} "
                          f"{nbytes / 1e6:>8.1f} {str(waves) + ' w/SIMD':>10} "
                          f"{t['model_seconds']:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
