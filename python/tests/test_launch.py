"""Examples compiled for both chips, run in the emulator on seeded random
inputs and compared with numpy references in float64.

Tolerances, per element:

* scale_add (f32): y = alpha*x + b costs at most two f32 roundings (one if
  fused), each within 2^-24 of its result, so |y - ref| <= 2^-23 *
  (|alpha*x| + |b|): about two ulp of the larger term.
* GEMMs: the products of bf16/f16 inputs are exact in f32; accumulating K
  of them in f32 in any order is within (K-1) * 2^-24 * sum|a*b|, and we
  allow K * 2^-23 * sum|a*b| (twice that) for the MFMA's internal order. A
  bf16 output adds one rounding, 2^-8 * |result|, and f16 one of 2^-11.
"""

import numpy as np
import pytest

import hk
from conftest import CHIPS, ceil_div

U_F32 = 2.0**-24


def random_matrix(rng, rows, cols):
    return rng.uniform(-1.0, 1.0, (rows, cols))


def check_within(got, ref, bound):
    err = np.abs(got.astype(np.float64) - ref)
    worst = np.unravel_index(np.argmax(err - bound), err.shape)
    assert np.all(np.isfinite(got)), "unwritten or non-finite outputs"
    assert np.all(err <= bound), (
        f"element {worst}: got {got[worst]}, expected {ref[worst]}, "
        f"bound {bound[worst]}")


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("shape", [(128, 128), (100, 70), (1, 17)])
def test_scale_add(example, device, chip, shape):
    mod = example("elementwise/scale_add.mlir", chip)
    rng = np.random.default_rng(7)
    x = random_matrix(rng, *shape).astype(np.float32)
    b = random_matrix(rng, *shape).astype(np.float32)
    y = np.full(shape, np.nan, np.float32)
    alpha = 1.5
    grid = (ceil_div(shape[0], 64), ceil_div(shape[1], 64))
    res = mod.launch(device(chip), "scale_add", grid=grid,
                     args=[x, b, y, alpha])

    ax = alpha * x.astype(np.float64)
    ref = ax + b
    check_within(y, ref, 2 * U_F32 * (np.abs(ax) + np.abs(b)))
    assert res.ok and res.reports == ()
    assert res.workgroups_run == grid[0] * grid[1]
    # Edge tiles store through masked lanes, which the counters include.
    assert res.counters["bytes"]["global_write"] >= y.nbytes


def gemm_reference(a, b, out_unit_roundoff):
    """A @ b.T in float64 and its per-element error bound."""
    k = a.shape[1]
    ref = a @ b.T
    magnitude = np.abs(a) @ np.abs(b).T
    accumulation = k * 2 * U_F32 * magnitude
    return ref, (out_unit_roundoff * np.abs(ref) +
                 (1 + out_unit_roundoff) * accumulation)


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("mnk", [(128, 128, 64), (130, 70, 72)])
def test_gemm_abt_bf16(example, device, chip, mnk):
    m, n, k = mnk
    mod = example("gemm/gemm_abt.mlir", chip)
    rng = np.random.default_rng(11)
    a = hk.to_bf16(random_matrix(rng, m, k))
    b = hk.to_bf16(random_matrix(rng, n, k))
    c = np.full((m, n), 0xFFFF, np.uint16)  # NaN until written
    res = mod.launch(device(chip), "gemm_abt_bf16",
                     grid=(ceil_div(m, 128), ceil_div(n, 128)), args=[a, b, c])

    ref, bound = gemm_reference(hk.from_bf16(a).astype(np.float64),
                                hk.from_bf16(b).astype(np.float64), 2.0**-8)
    check_within(hk.from_bf16(c), ref, bound)
    assert res.counters["mfma"]["flops"] > 0


@pytest.mark.parametrize("chip", CHIPS)
def test_gemm_abt_f16_f32(example, device, chip):
    m, n, k = 70, 130, 100
    mod = example("gemm/gemm_abt.mlir", chip)
    rng = np.random.default_rng(12)
    a = random_matrix(rng, m, k).astype(np.float16)
    b = random_matrix(rng, n, k).astype(np.float16)
    c = np.full((m, n), np.nan, np.float32)
    mod.launch(device(chip), "gemm_abt_f16_f32",
               grid=(ceil_div(m, 128), ceil_div(n, 128)), args=[a, b, c])

    ref, bound = gemm_reference(a.astype(np.float64), b.astype(np.float64),
                                0.0)
    check_within(c, ref, bound)


def test_non_contiguous_output_is_written_back(example, device):
    mod = example("elementwise/scale_add.mlir", "gfx942")
    rng = np.random.default_rng(3)
    x = random_matrix(rng, 40, 30).astype(np.float32)
    b = np.asfortranarray(random_matrix(rng, 40, 30).astype(np.float32))
    storage = np.zeros((40, 64), np.float32)
    y = storage[:, :30]  # a strided view: staged and copied back
    x.setflags(write=False)  # inputs may be read-only
    mod.launch(device("gfx942"), "scale_add", grid=1, args=[x, b, y, 2.0])
    check_within(y, 2.0 * x + b.astype(np.float64),
                 2 * U_F32 * (np.abs(2.0 * x) + np.abs(b)))
    assert np.all(storage[:, 30:] == 0)


@pytest.mark.parametrize("chip", CHIPS)
def test_gemm_ab_bf16_f32(example, device, chip):
    m, n, k = 77, 129, 65
    mod = example("gemm/gemm_ab.mlir", chip)
    rng = np.random.default_rng(13)
    a = hk.to_bf16(random_matrix(rng, m, k))
    b = hk.to_bf16(random_matrix(rng, k, n))  # B is K x N here
    c = np.full((m, n), np.nan, np.float32)
    mod.launch(device(chip), "gemm_ab_bf16_f32",
               grid=(ceil_div(m, 128), ceil_div(n, 128)), args=[a, b, c])

    ref, bound = gemm_reference(hk.from_bf16(a).astype(np.float64),
                                hk.from_bf16(b).astype(np.float64).T, 0.0)
    check_within(c, ref, bound)


@pytest.mark.parametrize("layout", ["C", "F"])
def test_array_passed_twice_is_one_buffer(example, device, layout):
    # y = alpha * y + b in place: y is both an input and the output.
    mod = example("elementwise/scale_add.mlir", "gfx950")
    rng = np.random.default_rng(4)
    y = np.asarray(random_matrix(rng, 50, 20), np.float32, order=layout)
    b = random_matrix(rng, 50, 20).astype(np.float32)
    before = y.astype(np.float64)
    mod.launch(device("gfx950"), "scale_add", grid=1, args=[y, b, y, -0.5])
    check_within(y, -0.5 * before + b,
                 2 * U_F32 * (np.abs(0.5 * before) + np.abs(b)))
