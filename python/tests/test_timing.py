"""launch(..., timing=...) adds the timing model's prediction to the result:
the same object hk-emu --timing --json prints under "timing"."""

import numpy as np
import pytest

import hk


def test_timing_predicts_on_the_default_and_a_named_device(example, device):
    mod = example("gemm/gemm_abt.mlir", "gfx942")
    a = np.zeros((256, 128), np.uint16)
    c = np.zeros((256, 256), np.uint16)
    res = mod.launch(device("gfx942"), "gemm_abt_bf16", args=[a, a, c])
    assert res.timing is None
    res = mod.launch(device("gfx942"), "gemm_abt_bf16", args=[a, a, c],
                     timing=True)
    t = res.timing
    assert t["device"] == "MI300X" and t["chip"] == "gfx942"
    assert t["cycles"] > 0 and t["seconds"] > 0
    # Four blocks of 128x128x128 MFMA work.
    assert t["flops"] == 2 * 256 * 256 * 128
    assert 0 < t["tflops"] < t["peak_tflops"]
    # One small launch barely loads the matrix pipes: near the peak clock.
    assert t["peak_clock_mhz"] == 2100
    assert 2000 < t["clock_mhz"] <= 2100
    assert t["seconds"] == pytest.approx(t["cycles"] / (t["clock_mhz"] * 1e6))
    assert t["sample"]["workgroups"] == 1  # XCD 0's share of four
    # Near the peak clock the memory side runs at it, simulated once.
    assert t["memory_clock_mhz"] == 2100 and t["simulations"] == 1
    assert t["loops"] and "largest_stall" in t["loops"][0]
    # The launch computed what an untimed one computes.
    assert res.counters["mfma"]["count"] > 0
    res = mod.launch(device("gfx942"), "gemm_abt_bf16", args=[a, a, c],
                     timing="mi325x")
    assert res.timing["device"] == "MI325X"
    # A given clock: the time the cycles take at 1050 MHz. HBM keeps its
    # nanoseconds, so this launch, which waits on its loads, takes fewer
    # cycles at half the clock.
    fixed = mod.launch(device("gfx942"), "gemm_abt_bf16", args=[a, a, c],
                       timing="mi325x", clock=1050)
    t = fixed.timing
    assert t["clock_mhz"] == 1050 and t["clock_basis"] == "given"
    assert t["memory_clock_mhz"] == 1050
    assert t["cycles"] < res.timing["cycles"]
    assert t["seconds"] == pytest.approx(t["cycles"] / 1050e6)


def test_timing_errors(example, device):
    mod = example("gemm/gemm_abt.mlir", "gfx942")
    a = np.zeros((128, 64), np.uint16)
    c = np.zeros((128, 128), np.uint16)
    args = [a, a, c]
    with pytest.raises(ValueError, match="unknown device 'h100' "
                                         r"\(known: mi300x, mi325x"):
        mod.launch(device("gfx942"), "gemm_abt_bf16", args=args,
                   timing="h100")
    with pytest.raises(ValueError, match="MI355X is a gfx950 device; the "
                                         "module is for gfx942"):
        mod.launch(device("gfx942"), "gemm_abt_bf16", args=args,
                   timing="mi355x")
    with pytest.raises(TypeError, match="timing must be a bool or a device "
                                        "name, got int"):
        mod.launch(device("gfx942"), "gemm_abt_bf16", args=args, timing=3)
    with pytest.raises(ValueError, match="clock= sets the timing model's "
                                         "clock; it needs timing="):
        mod.launch(device("gfx942"), "gemm_abt_bf16", args=args, clock=1000)
    with pytest.raises(ValueError, match="clock must be a positive number"):
        mod.launch(device("gfx942"), "gemm_abt_bf16", args=args, timing=True,
                   clock=0)
    with pytest.raises(hk.LaunchError, match="a clock of 2500 MHz is above "
                                             "MI300X's peak engine clock"):
        mod.launch(device("gfx942"), "gemm_abt_bf16", args=args, timing=True,
                   clock=2500)
