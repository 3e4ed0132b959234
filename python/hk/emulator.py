"""Running compiled kernels in the CDNA3/CDNA4 emulator.

A :class:`Device` is an emulated gfx942 or gfx950 with its own global
memory. :meth:`hk.Module.launch` copies numpy arrays to it, runs the whole
grid with the sanitizers on, copies the arrays back and returns a
:class:`LaunchResult` with the emulator's counters.
"""

import json
import numbers
from dataclasses import dataclass

import numpy as np

from . import _hk
from .dtypes import dtype_hint


class LaunchError(RuntimeError):
    """A launch that went wrong in the emulator.

    Either the emulator could not run the kernel (an instruction it does
    not implement, a watchdog stop, too much LDS...): ``result`` is None
    and the message says why; or the kernel ran and a sanitizer reported
    (out-of-bounds access, read before wait, LDS race, barrier imbalance):
    ``result`` is the :class:`LaunchResult` and ``reports`` its findings.
    The arrays were copied back in the second case.
    """

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result
        self.reports = result.reports if result is not None else ()


@dataclass(frozen=True)
class SanitizerReport:
    """One finding of the emulator's sanitizers.

    ``kind`` is one of "global-out-of-bounds", "lds-out-of-bounds",
    "scratch-out-of-bounds", "read-before-wait", "lds-race",
    "barrier-imbalance"; ``pc`` is the code address of the instruction,
    ``workgroup`` the linear block id, ``lane`` -1 for a whole-wave finding.
    """

    kind: str
    kernel: str
    pc: int
    workgroup: int
    wave: int
    lane: int
    address: int
    message: str

    def __str__(self):
        return self.message


@dataclass(frozen=True)
class LaunchResult:
    """What one launch counted and what its sanitizers found.

    ``counters`` is a dict: ``wave_instructions``, ``mix`` (wave-
    instructions per class: salu, valu, mfma, lds, vmem...), ``bytes``
    (global, scalar, LDS and direct-to-LDS traffic), ``mfma`` (count and
    flops), ``lds_bank_conflict_cycles`` and ``lds_instructions`` (per ds_*
    instruction). ``reports`` holds one finding per instruction and kind,
    at most ``max_reports``; ``total_reports`` counts every finding.
    ``seconds`` is the emulator's host time, not a GPU's.
    """

    kernel: str
    grid: tuple
    counters: dict
    reports: tuple = ()
    total_reports: int = 0
    workgroups_run: int = 0
    seconds: float = 0.0

    @property
    def ok(self):
        """True when no sanitizer reported."""
        return self.total_reports == 0


class Device:
    """An emulated AMD Instinct GPU: ``Device("gfx942")`` or ``"gfx950"``.

    Raises ValueError for a chip name that is not in ``hk.chips()``.
    """

    def __init__(self, chip):
        self._native = _hk.Device(chip)

    @property
    def chip(self):
        """The chip name, e.g. "gfx950"."""
        return self._native.chip

    def __repr__(self):
        return f"hk.Device({self.chip!r})"


def _grid3(grid):
    dims = (grid,) if isinstance(grid, numbers.Integral) else tuple(grid)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"grid must have 1 to 3 dimensions, got {grid!r}")
    dims = tuple(_integer("grid dimension", d) for d in dims)
    if any(not 1 <= d < 2**32 for d in dims):
        raise ValueError(f"grid dimensions must be in [1, 2^32), got {grid!r}")
    return dims + (1,) * (3 - len(dims))


def _integer(where, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, numbers.Integral):
        raise TypeError(f"{where} must be an int, got {type(value).__name__}")
    return int(value)


def _stage_view(where, param, arg):
    if not isinstance(arg, np.ndarray):
        raise TypeError(f"{where} takes a numpy array, got "
                        f"{type(arg).__name__}")
    if arg.dtype != param.numpy_dtype:
        hint = dtype_hint(param.dtype)
        raise TypeError(f"{where} takes {param.numpy_dtype} arrays, got "
                        f"{arg.dtype}" + (f" ({hint})" if hint else ""))
    if arg.ndim != param.rank:
        raise ValueError(f"{where} takes {param.rank}-D arrays, got "
                         f"{arg.ndim}-D")
    return np.ascontiguousarray(arg)


def _stage_scalar(where, param, arg):
    if param.kind == "i32":
        value = _integer(where, arg)
        if not -2**31 <= value < 2**31:
            raise ValueError(f"{where} does not fit in i32: {value}")
        return value
    if isinstance(arg, (bool, np.bool_)) or not isinstance(arg, numbers.Real):
        raise TypeError(f"{where} must be a real number, got "
                        f"{type(arg).__name__}")
    return float(arg)


def _stage_args(kernel, args):
    args = list(args)
    if len(args) != len(kernel.params):
        raise TypeError(f"{kernel} takes {len(kernel.params)} arguments, "
                        f"got {len(args)}")
    staged = []
    copies = {}  # An array passed twice stays one array (one device buffer).
    for index, (param, arg) in enumerate(zip(kernel.params, args)):
        where = f"kernel '{kernel.name}' argument {index} ({param})"
        if param.kind == "view":
            if id(arg) not in copies:
                copies[id(arg)] = _stage_view(where, param, arg)
            staged.append(copies[id(arg)])
        else:
            staged.append(_stage_scalar(where, param, arg))
    return args, staged


def launch(module, device, kernel, grid, args, *, sanitizers=True, check=True,
           threads=0, max_reports=64):
    """Runs ``kernel`` of ``module`` on ``device``; see hk.Module.launch."""
    if not isinstance(device, Device):
        raise TypeError(f"expected an hk.Device, got {type(device).__name__}")
    if device.chip != module.chip:
        raise ValueError(f"the module was compiled for {module.chip}, the "
                         f"device is a {device.chip}")
    if kernel not in module.kernels:
        raise ValueError(f"no kernel '{kernel}' in the module; kernels: "
                         + ", ".join(module.kernels))
    signature = module.kernels[kernel]
    grid = _grid3(grid)
    originals, staged = _stage_args(signature, args)
    try:
        raw = _hk.launch(module._native, device._native, kernel, grid, staged,
                         bool(sanitizers), _integer("threads", threads),
                         _integer("max_reports", max_reports))
    except _hk.LaunchError as error:
        raise LaunchError(f"{kernel}: {error}") from None
    # Arrays that had to be made contiguous go back where they came from.
    for original, copy in zip(originals, staged):
        if (isinstance(original, np.ndarray) and copy is not original
                and original.flags.writeable):
            np.copyto(original, copy)
    result = LaunchResult(
        kernel=kernel, grid=grid, counters=json.loads(raw["counters_json"]),
        reports=tuple(SanitizerReport(**r) for r in raw["reports"]),
        total_reports=raw["total_reports"],
        workgroups_run=raw["workgroups_run"], seconds=raw["seconds"])
    if check and not result.ok:
        shown = "\n".join(f"  {r}" for r in result.reports[:8])
        raise LaunchError(
            f"{kernel}: {result.total_reports} sanitizer report(s):\n{shown}",
            result)
    return result
