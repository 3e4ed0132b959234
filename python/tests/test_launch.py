"""Examples compiled for both chips, run in the emulator on seeded random
inputs and compared with the launch library's references in float64
(hk.references: the same references and error bounds hk-run uses, each
bound derived from the element types and the order-independent error of
f32 arithmetic).
"""

import numpy as np
import pytest

import hk
from conftest import CHIPS, ceil_div

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

    ref, bound, _ = hk.references.scale_add(x, b, alpha)
    check_within(y, ref, bound)
    assert res.ok and res.reports == ()
    assert res.workgroups_run == grid[0] * grid[1]
    # Edge tiles store through masked lanes, which the counters include.
    assert res.counters["bytes"]["global_write"] >= y.nbytes


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

    ref, bound, _ = hk.references.gemm(hk.from_bf16(a), hk.from_bf16(b),
                                       "bf16", transpose_b=True)
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

    ref, bound, _ = hk.references.gemm(a, b, "f32", transpose_b=True)
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
    check_within(y, *hk.references.scale_add(x, b, 2.0)[:2])
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

    ref, bound, _ = hk.references.gemm(hk.from_bf16(a), hk.from_bf16(b),
                                       "f32")
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
    check_within(y, *hk.references.scale_add(before, b, -0.5)[:2])


def test_grid_from_the_kernel(example, device):
    """Without a grid, the one the kernel's output stores need."""
    mod = example("gemm/gemm_abt.mlir", "gfx950")
    rng = np.random.default_rng(21)
    a = hk.to_bf16(random_matrix(rng, 200, 64))
    b = hk.to_bf16(random_matrix(rng, 300, 64))
    c = np.full((200, 300), 0xFFFF, np.uint16)
    res = mod.launch(device("gfx950"), "gemm_abt_bf16", args=[a, b, c])
    assert res.grid == (2, 3, 1) and res.workgroups_run == 6
    check_within(hk.from_bf16(c), *hk.references.gemm(
        hk.from_bf16(a), hk.from_bf16(b), "bf16", transpose_b=True)[:2])


def test_watchdog_stops_a_long_kernel(example, device):
    mod = example("gemm/gemm_abt.mlir", "gfx942")
    a = np.zeros((128, 4096), np.uint16)
    c = np.zeros((128, 128), np.uint16)
    with pytest.raises(hk.LaunchError, match="watchdog: the workgroup "
                                             "executed more than 1000 "):
        mod.launch(device("gfx942"), "gemm_abt_bf16", args=[a, a, c],
                   watchdog=1000)
    with pytest.raises(ValueError, match="watchdog must be at least 1"):
        mod.launch(device("gfx942"), "gemm_abt_bf16", args=[a, a, c],
                   watchdog=0)


class HostTensor:
    """Host memory offered only through DLPack, as torch or jax tensors on
    the CPU offer theirs."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, stream=None):
        return self._array.__dlpack__()

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


def test_dlpack_arguments(example, device):
    mod = example("elementwise/scale_add.mlir", "gfx950")
    rng = np.random.default_rng(9)
    x = random_matrix(rng, 70, 90).astype(np.float32)
    b = random_matrix(rng, 70, 90).astype(np.float32)
    y = np.full_like(x, np.nan)
    mod.launch(device("gfx950"), "scale_add",
               args=[HostTensor(x), HostTensor(b), HostTensor(y), 0.5])
    # The output landed in the producer's memory.
    check_within(y, *hk.references.scale_add(x, b, 0.5)[:2])
    with pytest.raises(TypeError, match="takes float32 arrays, got float64"):
        mod.launch(device("gfx950"), "scale_add",
                   args=[HostTensor(x.astype(np.float64)), b, y, 0.5])
    with pytest.raises(ValueError, match="DLPack argument must be "
                                         "C-contiguous"):
        mod.launch(device("gfx950"), "scale_add",
                   args=[HostTensor(x.T), b, y, 0.5])
    with pytest.raises(TypeError, match="numpy array or an object with "
                                        "__dlpack__, got list"):
        mod.launch(device("gfx950"), "scale_add",
                   args=[x.tolist(), b, y, 0.5])
