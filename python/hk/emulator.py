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
    ``seconds`` is the emulator's host time, not a GPU's. ``timing``,
    when the launch asked for it, is the timing model's prediction for
    the launch as a dict (``seconds``, ``cycles``, ``tflops``, ``gbps``,
    ``device``, ``sample``, ``extrapolation``, ``loops``...): a prediction
    of the model, not a measurement; otherwise None.
    """

    kernel: str
    grid: tuple
    counters: dict
    reports: tuple = ()
    total_reports: int = 0
    workgroups_run: int = 0
    seconds: float = 0.0
    timing: dict = None

    @property
    def ok(self):
        """True when no sanitizer reported."""
        return self.total_reports == 0


class Device:
    """Where kernels run: an emulated AMD Instinct GPU, ``Device("gfx942")``
    or ``Device("gfx950")``, or device 0 of a HIP runtime, ``Device("hip")``.

    A HIP device needs a HIP runtime library, ``libamdhip64`` or the one
    ``library`` (or the ``HK_HIP_LIBRARY`` environment variable) names,
    and a gfx942 or gfx950 GPU behind it; without either, creating it
    raises :class:`hk.LaunchError` saying which is missing. Its ``chip`` is
    the GPU's; launches on it copy the arrays to the GPU and back and
    return no emulator counters.

    Raises ValueError for a name that is neither ``"hip"`` nor in
    ``hk.chips()``.
    """

    def __init__(self, chip, *, library=None):
        if chip == "hip":
            try:
                self._native = _hk.HipDevice(library or "")
            except _hk.LaunchError as error:
                raise LaunchError(str(error)) from None
            self._hip = True
        else:
            if library is not None:
                raise ValueError("library= applies to Device('hip') only")
            self._native = _hk.Device(chip)
            self._hip = False

    @property
    def chip(self):
        """The chip name, e.g. "gfx950"."""
        return self._native.chip

    @property
    def kind(self):
        """"hip" for a GPU through a HIP runtime, "emulator" otherwise."""
        return "hip" if self._hip else "emulator"

    @property
    def name(self):
        """The GPU's name (HIP), or the emulated chip's products."""
        if self._hip:
            return self._native.name
        return f"emulated {_hk.chip_info(self.chip)['products']}"

    def __repr__(self):
        if self._hip:
            return f"<hk.Device hip: {self.name} ({self.chip})>"
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


def _as_array(where, arg):
    """A numpy array for ``arg``: itself, or what its DLPack export shares
    (host memory only)."""
    if isinstance(arg, np.ndarray):
        return arg
    if hasattr(arg, "__dlpack__"):
        try:
            return np.from_dlpack(arg)
        except (BufferError, RuntimeError, TypeError, ValueError) as error:
            raise TypeError(f"{where}: cannot take its DLPack export as a "
                            f"host array ({error})") from None
    raise TypeError(f"{where} takes a numpy array or an object with "
                    f"__dlpack__, got {type(arg).__name__}")


def _stage_view(where, param, arg):
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
    shared = []  # Indices of arrays shared through DLPack: written in place.
    copies = {}  # An array passed twice stays one array (one device buffer).
    for index, (param, arg) in enumerate(zip(kernel.params, args)):
        where = f"kernel '{kernel.name}' argument {index} ({param})"
        if param.kind != "view":
            staged.append(_stage_scalar(where, param, arg))
            continue
        if id(arg) not in copies:
            array = _as_array(where, arg)
            if array is not arg:
                # numpy marks what it takes through DLPack read-only, but
                # the memory is the producer's to write: outputs land in
                # it directly, so it must be laid out as the kernel sees it.
                if not array.flags.c_contiguous:
                    raise ValueError(f"{where}: a DLPack argument must be "
                                     f"C-contiguous")
                args[index] = array
            copies[id(arg)] = _stage_view(where, param, array)
        staged.append(copies[id(arg)])
        if not isinstance(arg, np.ndarray):
            shared.append(index)
    return args, staged, shared


def launch(module, device, kernel, grid, args, *, sanitizers=True, check=True,
           threads=0, max_reports=64, watchdog=None, timing=False,
           clock=None):
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
    if args is None:
        raise TypeError("launch needs args: one per kernel parameter")
    grid = None if grid is None else _grid3(grid)
    if watchdog is not None:
        watchdog = _integer("watchdog", watchdog)
        if watchdog < 1:
            raise ValueError(f"watchdog must be at least 1 wave-instruction, "
                             f"got {watchdog}")
    if timing is True:
        timing = ""  # the chip's default device
    elif timing is False or timing is None:
        timing = None
    elif not isinstance(timing, str):
        raise TypeError(f"timing must be a bool or a device name, got "
                        f"{type(timing).__name__}")
    if clock is not None:
        if timing is None:
            raise ValueError("clock= sets the timing model's clock; it needs "
                             "timing=")
        if isinstance(clock, bool) or not isinstance(clock, (int, float)) \
                or not clock > 0:
            raise ValueError(f"clock must be a positive number of MHz, got "
                             f"{clock!r}")
    if timing is not None and device.kind == "hip":
        raise ValueError("timing= predicts with the emulator's timing model; "
                         "a HIP device runs the kernel itself")
    originals, staged, shared = _stage_args(signature, args)
    try:
        if device.kind == "hip":
            if watchdog is not None:
                raise ValueError("watchdog= applies to the emulator; a HIP "
                                 "device has none")
            raw = _hk.launch_hip(module._native, device._native, kernel, grid,
                                 staged, shared)
            raw.update(counters_json="{}", reports=[], total_reports=0,
                       workgroups_run=raw["grid"][0] * raw["grid"][1] *
                       raw["grid"][2])
        else:
            raw = _hk.launch(module._native, device._native, kernel, grid,
                             staged, bool(sanitizers),
                             _integer("threads", threads),
                             _integer("max_reports", max_reports), watchdog,
                             shared, timing,
                             0.0 if clock is None else float(clock))
    except _hk.LaunchError as error:
        raise LaunchError(f"{kernel}: {error}") from None
    # Arrays that had to be made contiguous go back where they came from.
    for original, copy in zip(originals, staged):
        if (isinstance(original, np.ndarray) and copy is not original
                and original.flags.writeable):
            np.copyto(original, copy)
    result = LaunchResult(
        kernel=kernel, grid=tuple(raw["grid"]),
        counters=json.loads(raw["counters_json"]),
        reports=tuple(SanitizerReport(**r) for r in raw["reports"]),
        total_reports=raw["total_reports"],
        workgroups_run=raw["workgroups_run"], seconds=raw["seconds"],
        timing=(json.loads(raw["timing_json"]) if "timing_json" in raw
                else None))
    if check and not result.ok:
        shown = "\n".join(f"  {r}" for r in result.reports[:8])
        raise LaunchError(
            f"{kernel}: {result.total_reports} sanitizer report(s):\n{shown}",
            result)
    return result
