"""HK-MLIR from Python: compile hk kernels and run them in the emulator.

Compile hk source for gfx942 or gfx950, then launch a kernel on numpy arrays
in the project's CPU emulator of the chip::

    import numpy as np
    import hk

    mod = hk.compile_file("examples/elementwise/scale_add.mlir", "gfx950")
    x = np.random.default_rng(0).random((100, 70), np.float32)
    b = np.ones_like(x)
    y = np.zeros_like(x)
    res = mod.launch(hk.Device("gfx950"), "scale_add",
                     grid=(2, 2), args=[x, b, y, 1.5])   # 64x64 per block
    assert np.allclose(y, 1.5 * x + b)
    print(res.counters["wave_instructions"])

``mod.hsaco`` is the code object and ``mod.kernels`` maps each kernel's
name to its signature. bf16 and fp8 arrays hold raw bits: see
:func:`to_bf16` and :func:`to_fp8`. Errors are exceptions:
:class:`CompileError` (with the compiler's diagnostics), :class:`LaunchError`
(sanitizer findings or an emulator stop), TypeError/ValueError for
arguments that do not fit.
"""

from .compiler import (CompileError, Kernel, Module, Param, SpillWarning,
                       chip_info, chips, compile, compile_file,
                       compile_options)
from .dtypes import from_bf16, from_fp8, numpy_dtype, to_bf16, to_fp8
from .emulator import Device, LaunchError, LaunchResult, SanitizerReport
from . import references

__all__ = [
    "CompileError",
    "Device",
    "Kernel",
    "LaunchError",
    "LaunchResult",
    "Module",
    "Param",
    "SanitizerReport",
    "SpillWarning",
    "chip_info",
    "chips",
    "compile",
    "compile_file",
    "compile_options",
    "from_bf16",
    "from_fp8",
    "numpy_dtype",
    "references",
    "to_bf16",
    "to_fp8",
]
