"""Launch errors: arguments that do not fit the signature and a kernel the
sanitizers catch."""

import numpy as np
import pytest

import hk
from conftest import CHIPS

# Each of two waves stores its rows of x to a shared tile and loads the other
# wave's rows back. Without a barrier in between, the emulator's LDS race
# sanitizer reports the read of memory another wave writes; with the barrier
# the kernel swaps the halves of x into y. (%n is unused: an i32 parameter.)
RACY = """
module {
  hk.kernel @swap_halves(%x: !hk.gl<32x64xf32>, %y: !hk.gl<32x64xf32>,
                         %n: i32) waves(2) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %w = hk.wave_id
    %other = arith.subi %c1, %w : index
    %s = hk.alloc : !hk.st<32x64xf32>
    %t = hk.load %x[%w, %c0] : !hk.gl<32x64xf32> -> !hk.rt<16x64xf32, row>
    hk.store %t, %s[%w, %c0] : !hk.rt<16x64xf32, row> -> !hk.st<32x64xf32>
    BARRIER
    %u = hk.load %s[%other, %c0] : !hk.st<32x64xf32> -> !hk.rt<16x64xf32, row>
    hk.store %u, %y[%w, %c0] : !hk.rt<16x64xf32, row> -> !hk.gl<32x64xf32>
    hk.return
  }
}
"""


@pytest.fixture(scope="module")
def racy():
    return hk.compile(RACY.replace("BARRIER", ""), "gfx942")


@pytest.fixture(scope="module")
def scale_add(example):
    return example("elementwise/scale_add.mlir", "gfx950")


def arrays(shape=(32, 64), dtype=np.float32):
    x = np.arange(np.prod(shape), dtype=dtype).reshape(shape)
    return x, np.zeros_like(x)


def test_lds_race_raises_launch_error_with_reports(racy, device):
    x, y = arrays()
    with pytest.raises(hk.LaunchError) as info:
        racy.launch(device("gfx942"), "swap_halves", grid=1, args=[x, y, 0])
    error = info.value
    assert error.reports and error.result.total_reports >= len(error.reports)
    assert {r.kind for r in error.reports} == {"lds-race"}
    assert "no s_barrier between them" in str(error)
    assert y.any()  # copied back even though the sanitizers reported


def test_unchecked_launch_returns_reports(racy, device):
    x, y = arrays()
    res = racy.launch(device("gfx942"), "swap_halves", grid=1, args=[x, y, 0],
                      check=False)
    assert not res.ok and res.reports[0].kind == "lds-race"
    assert res.reports[0].kernel == "swap_halves"
    quiet = racy.launch(device("gfx942"), "swap_halves", grid=1,
                        args=[x, y, 0], sanitizers=False)
    assert quiet.ok


@pytest.mark.parametrize("chip", CHIPS)
def test_with_barrier_the_kernel_is_clean(device, chip):
    fixed = hk.compile(RACY.replace("BARRIER", "hk.barrier"), chip)
    x, y = arrays()
    res = fixed.launch(device(chip), "swap_halves", grid=1, args=[x, y, 5])
    assert res.ok
    assert np.array_equal(y, np.concatenate([x[16:], x[:16]]))


@pytest.mark.parametrize("args, error, message", [
    (lambda x, y: [x, y], TypeError, "takes 3 arguments, got 2"),
    (lambda x, y: [x, y, 0, 1], TypeError, "takes 3 arguments, got 4"),
    (lambda x, y: [x, y.astype(np.float64), 0], TypeError,
     "argument 1 .* takes float32 arrays, got float64"),
    (lambda x, y: [x, y.view(np.int32), 0], TypeError,
     "takes float32 arrays, got int32"),
    (lambda x, y: [x.tolist(), y, 0], TypeError, "takes a numpy array"),
    (lambda x, y: [x, y.reshape(-1), 0], ValueError, "takes 2-D arrays"),
    (lambda x, y: [x[:16], y, 0], ValueError,
     "dimension 0 is static 32, got 16"),
    (lambda x, y: [x, y, 1.5], TypeError, "argument 2 .* must be an int"),
    (lambda x, y: [x, y, True], TypeError, "must be an int"),
    (lambda x, y: [x, y, 2**31], ValueError, "does not fit in i32"),
    (lambda x, y: [x, y, np.int64(7)], None, None),
])
def test_arguments_checked_against_signature(racy, device, args, error,
                                             message):
    x, y = arrays()
    launch_args = args(x, y)
    if error is None:
        racy.launch(device("gfx942"), "swap_halves", grid=1, args=launch_args,
                    sanitizers=False)
        return
    with pytest.raises(error, match=message):
        racy.launch(device("gfx942"), "swap_halves", grid=1, args=launch_args)


def test_bf16_view_rejects_float_arrays_with_a_hint(example, device):
    mod = example("gemm/gemm_abt.mlir", "gfx950")
    a = np.zeros((16, 16), np.float32)
    with pytest.raises(TypeError, match="hk.to_bf16"):
        mod.launch(device("gfx950"), "gemm_abt_bf16", grid=1, args=[a, a, a])
    half = np.zeros((16, 16), np.float16)  # right size, wrong type
    with pytest.raises(TypeError, match="takes uint16 arrays, got float16"):
        mod.launch(device("gfx950"), "gemm_abt_bf16", grid=1,
                   args=[half, half, half])


def test_launch_level_errors(scale_add, device):
    x, y = arrays((64, 64))
    dev = device("gfx950")
    with pytest.raises(ValueError, match="no kernel 'nope'.*scale_add"):
        scale_add.launch(dev, "nope", grid=1, args=[])
    with pytest.raises(ValueError, match="compiled for gfx950, the device "
                       "is a gfx942"):
        scale_add.launch(device("gfx942"), "scale_add", grid=1,
                         args=[x, x, y, 1.0])
    with pytest.raises(ValueError, match="grid dimensions"):
        scale_add.launch(dev, "scale_add", grid=(0, 1), args=[x, x, y, 1.0])
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        scale_add.launch(dev, "scale_add", grid=(1, 1, 1, 1),
                         args=[x, x, y, 1.0])
    with pytest.raises(TypeError, match="real number"):
        scale_add.launch(dev, "scale_add", grid=1, args=[x, x, y, "1.0"])
    with pytest.raises(TypeError, match="hk.Device"):
        scale_add.launch("gfx950", "scale_add", grid=1, args=[x, x, y, 1.0])


def test_native_layer_guards_memory_without_python_checks(racy, device):
    """hk._hk repeats the checks that keep a call inside its arrays."""
    from hk import _hk

    native, dev = racy._native, device("gfx942")._native
    x, y = arrays()

    def launch(args, grid=(1, 1, 1)):
        return _hk.launch(native, dev, "swap_halves", grid, args, True, 0, 8,
                          None, [])

    with pytest.raises(TypeError, match="4-byte elements"):
        launch([x, y.astype(np.float64), 0])
    with pytest.raises(ValueError, match="C-contiguous"):
        launch([x, np.asfortranarray(y), 0])
    with pytest.raises(ValueError, match="2 dimensions"):
        launch([x, y.reshape(-1), 0])
    with pytest.raises(TypeError, match="takes 3 arguments"):
        launch([x, y])
    with pytest.raises(TypeError, match="must be a Python int"):
        launch([x, y, 1.5])
    with pytest.raises(ValueError, match="does not fit in i32"):
        launch([x, y, -2**31 - 1])
    with pytest.raises(_hk.LaunchError, match="at least 1"):
        launch([x, y, 0], grid=(0, 1, 1))
