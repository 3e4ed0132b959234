"""hk.Device("hip"): a GPU through a HIP runtime library.

With the project's libhkhip (HIP's API over the emulator) standing in for
a GPU, launches take the HIP path: hipMalloc, hipMemcpy, hipModuleLoadData,
hipModuleLaunchKernel. Without a runtime or a device, creating the device
says which is missing.
"""

import ctypes.util
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import hk
from conftest import ceil_div

HKHIP = pathlib.Path(hk.__file__).resolve().parents[2] / "lib" / "libhkhip.so"
needs_hkhip = pytest.mark.skipif(not HKHIP.exists(),
                                 reason="libhkhip was not built")


@pytest.fixture
def emulated_gpu(monkeypatch):
    """The chip libhkhip emulates behind HIP's API."""
    monkeypatch.setenv("HK_HIP_CHIP", "gfx942")
    return hk.Device("hip", library=str(HKHIP))


@needs_hkhip
def test_hip_device_runs_a_kernel(example, emulated_gpu):
    dev = emulated_gpu
    assert dev.kind == "hip" and dev.chip == "gfx942"
    assert dev.name == "AMD Instinct MI300X/MI325X (hk-emu gfx942)"
    mod = example("elementwise/scale_add.mlir", dev.chip)
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (100, 70)).astype(np.float32)
    b = rng.uniform(-1, 1, (100, 70)).astype(np.float32)
    y = np.full_like(x, np.nan)
    res = mod.launch(dev, "scale_add", args=[x, b, y, 1.5])
    ref, bound, _ = hk.references.scale_add(x, b, 1.5)
    assert np.all(np.abs(y - ref) <= bound)
    assert res.grid == (2, 2, 1) and res.counters == {} and res.ok


@needs_hkhip
def test_hip_device_reports_what_the_runtime_says(example, emulated_gpu):
    # A code object for another chip does not load on this one.
    mod = example("elementwise/scale_add.mlir", "gfx950")
    x = np.zeros((64, 64), np.float32)
    with pytest.raises(ValueError, match="compiled for gfx950, the device is "
                                         "a gfx942"):
        mod.launch(emulated_gpu, "scale_add", args=[x, x, x, 1.0])
    mod = example("elementwise/scale_add.mlir", "gfx942")
    with pytest.raises(ValueError, match="watchdog= applies to the emulator"):
        mod.launch(emulated_gpu, "scale_add", args=[x, x, x, 1.0],
                   watchdog=10)


def test_missing_runtime_is_a_clear_error():
    with pytest.raises(hk.LaunchError,
                       match="no HIP runtime: cannot load /nonexistent/"
                             "libamdhip64.so"):
        hk.Device("hip", library="/nonexistent/libamdhip64.so")


def test_library_that_is_not_hip_is_a_clear_error():
    libm = ctypes.util.find_library("m")
    with pytest.raises(hk.LaunchError, match="is not a HIP runtime: it lacks "
                                             "hipGetDeviceCount"):
        hk.Device("hip", library=libm)


@needs_hkhip
def test_no_device_is_a_clear_error():
    # A runtime reads its environment once per process: a fresh one.
    env = dict(os.environ, HK_HIP_CHIP="gfx900", HK_HIP_QUIET="1",
               PYTHONPATH=os.pathsep.join(sys.path))
    script = (f"import hk\n"
              f"try:\n"
              f"    hk.Device('hip', library={str(HKHIP)!r})\n"
              f"except hk.LaunchError as error:\n"
              f"    print(error)\n")
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.startswith("no HIP device: hipGetDeviceCount says "
                          "hipErrorNoDevice"), out


@pytest.mark.skipif(ctypes.util.find_library("amdhip64") is None
                    or os.path.exists("/dev/kfd"),
                    reason="needs HIP's runtime and no AMD GPU")
def test_real_runtime_without_gpu_says_so(monkeypatch):
    monkeypatch.delenv("HK_HIP_LIBRARY", raising=False)
    with pytest.raises(hk.LaunchError, match="no HIP device"):
        hk.Device("hip")


def test_device_names():
    with pytest.raises(ValueError, match="unknown chip 'gfx90a'"):
        hk.Device("gfx90a")
    with pytest.raises(ValueError, match="library= applies to Device"):
        hk.Device("gfx950", library="x")
    dev = hk.Device("gfx950")
    assert dev.kind == "emulator" and "MI355X" in dev.name
