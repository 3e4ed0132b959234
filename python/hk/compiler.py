"""Compiling hk source to a code object, in process.

:func:`compile` runs the whole ``hk-opt --hk-pipeline=chip=X |
hk-translate`` flow on source text and returns a :class:`Module`: the code
object (hsaco) and each kernel's signature, from which launches check and
pack their arguments (see "Kernel ABI" in the README).
"""

import os
import warnings
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Optional

import numpy as np

from . import _hk
from . import emulator
from .dtypes import numpy_dtype


class CompileError(RuntimeError):
    """hk source that does not parse, verify or lower for the chip.

    The message (and ``diagnostics``) holds the compiler's diagnostics,
    ``name:line:col: error: ...``, one per line.
    """

    def __init__(self, message):
        super().__init__(message)
        self.diagnostics = message


@dataclass(frozen=True)
class Param:
    """One kernel parameter.

    ``kind`` is "view" (an ``!hk.gl`` global view: pass a numpy array),
    "i32" or "f32" (pass a Python number). For views, ``dtype`` is the
    element type ("bf16", "f32", "f8E4M3FN"...) and ``shape`` the declared
    sizes, ``None`` for runtime (``?``) ones.
    """

    kind: str
    dtype: Optional[str] = None
    shape: Optional[tuple] = None
    element_bytes: int = 0

    @property
    def rank(self):
        """Number of dimensions of a view, 0 for a scalar."""
        return len(self.shape) if self.shape is not None else 0

    @property
    def numpy_dtype(self):
        """The numpy dtype a view's array must have (None for scalars)."""
        return numpy_dtype(self.dtype) if self.kind == "view" else None

    def __str__(self):
        if self.kind != "view":
            return self.kind
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        return f"!hk.gl<{dims}x{self.dtype}>"


@dataclass(frozen=True)
class Kernel:
    """One ``hk.kernel`` of a module: its name and signature.

    ``block`` is the number of work-items per block (64 per wave);
    ``resources`` holds what the code object reports: ``vgprs``
    (architectural VGPRs) and ``agprs`` (accumulation VGPRs), which
    together take ``unified_vgprs`` of the register file, ``sgprs``,
    ``lds_bytes``, ``scratch_bytes``, ``vgpr_spills``, ``sgpr_spills``,
    ``spills`` (whether any of those three is non-zero: the predicate
    hk-run and the unswitching fallback use), and ``waves_per_simd`` (the
    occupancy those allow). ``grid_rule`` says
    which grid covers the kernel's outputs, per grid dimension a tuple of
    (parameter index, dimension, elements per block) whose block counts
    the grid takes the largest of (empty: one block), or None when the
    kernel's stores do not fix it.
    """

    name: str
    waves: int
    block: int
    params: tuple
    resources: dict = field(default_factory=dict, compare=False)
    grid_rule: Optional[tuple] = None

    def __str__(self):
        return f"{self.name}({', '.join(map(str, self.params))})"


class Module:
    """A compiled hk module for one chip (returned by :func:`compile`)."""

    def __init__(self, native):
        self._native = native
        wave_size = _hk.chip_info(native.chip)["wave_size"]
        self._kernels = MappingProxyType({
            k["name"]: Kernel(name=k["name"], waves=k["waves"],
                              block=k["waves"] * wave_size,
                              params=tuple(Param(**p) for p in k["params"]),
                              resources=MappingProxyType(k["resources"]),
                              grid_rule=k["grid_rule"])
            for k in native.kernels
        })

    @property
    def chip(self):
        """The chip the code object is for, e.g. "gfx950"."""
        return self._native.chip

    @property
    def hsaco(self):
        """The code object (bytes), loadable with ``hipModuleLoadData``."""
        return self._native.hsaco

    @property
    def kernels(self):
        """Read-only dict from kernel name to :class:`Kernel`, in source
        order."""
        return self._kernels

    @property
    def compile_seconds(self):
        """Wall time from source text to code object."""
        return self._native.seconds

    @property
    def unswitch_spilled(self):
        """Names of the kernels that spilled registers with their main
        loops unswitched (``unswitch=True``, the default): the code object
        is then the module compiled again without unswitching. Empty
        otherwise."""
        return tuple(self._native.unswitch_spilled)

    def launch(self, device, kernel, grid=None, args=None, *,
               sanitizers=True, check=True, threads=0, max_reports=64,
               watchdog=None, timing=False, clock=None):
        """Runs ``kernel`` over ``grid`` blocks on ``device``.

        ``args`` has one entry per kernel parameter, in order: an array for
        each global view (a numpy array, or any object exporting host
        memory through DLPack, ``__dlpack__``; its dtype must be the
        view's, see ``Param.numpy_dtype``; its shape gives the view's
        sizes) and a Python number for each i32/f32 scalar. Arrays are
        copied to the device before the run and copied back after it, so
        outputs land in the arrays passed (read-only numpy arrays are not
        written; DLPack memory is); an array passed twice is one device
        buffer, as one pointer would be. ``grid`` is an int or a tuple of
        up to three ints, or None for the grid the kernel's output stores
        need (``Kernel.grid_rule``); blocks have ``Kernel.block``
        work-items.

        On an emulated device, with ``sanitizers`` the emulator checks
        every access and wait; a finding raises :class:`hk.LaunchError`
        unless ``check`` is False, in which case it is only listed in the
        result. ``threads`` is the number of host threads (0: one per
        core); ``watchdog`` the wave-instructions one workgroup may execute
        before the launch is stopped as a hang (default 200 million). On a
        HIP device (``hk.Device("hip")``) the kernel runs on the GPU and
        the result holds no counters. ``timing=True`` (or a device name,
        ``"mi300x"``, ``"mi325x"``, ``"mi350x"``, ``"mi355x"``, of the
        module's chip) adds the timing model's prediction of the launch's
        time on that device (default MI300X for gfx942, MI355X for gfx950)
        as ``LaunchResult.timing``: a prediction, not a measurement. The
        model runs the device at the clock the launch's matrix load
        sustains; ``clock`` (MHz, with ``timing``) fixes it instead, as a
        frequency cap would.

        Returns a :class:`hk.LaunchResult`. Raises TypeError or ValueError
        for arguments that do not fit the signature (count, dtype, rank,
        static sizes, alignment, 32-bit ABI limits) and
        :class:`hk.LaunchError` when the device cannot run the kernel.
        """
        return emulator.launch(self, device, kernel, grid, args,
                               sanitizers=sanitizers, check=check,
                               threads=threads, max_reports=max_reports,
                               watchdog=watchdog, timing=timing,
                               clock=clock)

    def __repr__(self):
        return (f"<hk.Module for {self.chip}: "
                f"{', '.join(self._kernels) or 'no kernels'}>")


class SpillWarning(UserWarning):
    """A compiled kernel spills registers to scratch memory (slow on a GPU:
    each spill is a memory round trip)."""


def _check_spills(module, spills):
    spilling = []
    for kernel in module.kernels.values():
        r = kernel.resources
        if r.get("spills"):
            spilling.append(
                f"kernel '{kernel.name}' spills {r['vgpr_spills']} VGPRs and "
                f"{r['sgpr_spills']} SGPRs ({r['scratch_bytes']} bytes of "
                f"scratch per lane; {r['vgprs']} VGPRs + {r['agprs']} AGPRs "
                f"in use)")
    if not spilling or spills == "ignore":
        return
    message = "; ".join(spilling)
    if spills == "error":
        raise CompileError(message)
    warnings.warn(message, SpillWarning, stacklevel=3)


def compile_options():
    """The compile options ``hk.compile`` takes, those of ``hk-opt
    --hk-pipeline`` (one list in the C++ code serves both): a dict from the
    keyword name ("exact_waits") to a dict with the option's ``name``
    ("exact-waits"), ``kind`` ("bool", "unsigned", "int" or "enum"),
    ``default``,
    ``description`` and, for enums, ``values``."""
    return {o["name"].replace("-", "_"): o for o in _hk.compile_options()}


def _option_text(options):
    """``options`` as --hk-pipeline option text, which the pipeline's own
    parser then checks."""
    known = compile_options()
    words = []
    for key, value in options.items():
        if key not in known:
            raise TypeError(f"unknown compile option {key!r}; known: "
                            f"{', '.join(known)}")
        kind = known[key]["kind"]
        if kind == "bool":
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"compile option {key} takes a bool, got "
                                f"{type(value).__name__}")
            text = "true" if value else "false"
        elif kind in ("unsigned", "int"):
            value = emulator._integer(f"compile option {key}", value)
            least = 0 if kind == "unsigned" else -1
            if value < least:
                raise ValueError(f"compile option {key} must be at least "
                                 f"{least}, got {value}")
            text = str(value)
        elif (isinstance(value, (bool, np.bool_)) and
              {"true", "false"} <= set(known[key]["values"])):
            # An enum with an on/off pair (setprio: auto, true, false).
            text = "true" if value else "false"
        else:
            if not isinstance(value, str):
                raise TypeError(f"compile option {key} takes one of "
                                f"{', '.join(known[key]['values'])}, got "
                                f"{type(value).__name__}")
            text = value
        words.append(f"{known[key]['name']}={text}")
    return " ".join(words)


def compile(source, chip, *, name="<source>", spills="warn", **options):
    """Compiles hk source text for ``chip`` ("gfx942" or "gfx950").

    ``name`` is the file name diagnostics quote. The keyword ``options``
    are those of ``hk-opt --hk-pipeline``, with underscores:
    ``direct`` ("auto", "always" or "never": direct-to-LDS group loads),
    ``exact_waits``, ``unswitch`` (the main loop versioned on its
    loop-invariant branches; see :attr:`Module.unswitch_spilled`),
    ``peel_zero_start`` (a loop whose MFMA accumulators start at zero
    runs its first iteration on its own), ``lds_swizzle``, ``grid_chunk``
    and ``grid_group``
    (hk-grid-swizzle), ``setprio`` (the schedules' raised priority:
    "auto", the default, where the cost function predicts it pays, or
    True/False), ``mfma_per_group``, ``ds_reads_per_group`` and
    ``vmem_per_group`` (the interleave schedule's groups);
    :func:`compile_options` lists them with their defaults.

    A kernel that spills registers to scratch is reported when
    ``spills`` is "warn" (the default: a :class:`hk.SpillWarning`), makes
    the compilation fail when it is "error", and passes silently when it
    is "ignore".

    Returns a :class:`Module`. Raises TypeError for an unknown option,
    ValueError for an unknown chip or option value and
    :class:`hk.CompileError` with the compiler's diagnostics when the
    source does not compile.
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got {type(source).__name__}")
    if spills not in ("warn", "error", "ignore"):
        raise ValueError(f"spills must be 'warn', 'error' or 'ignore', got "
                         f"{spills!r}")
    try:
        native = _hk.compile(source, str(name), chip, _option_text(options))
    except _hk.CompileError as error:
        raise CompileError(str(error)) from None
    module = Module(native)
    _check_spills(module, spills)
    return module


def compile_file(path, chip, **options):
    """Compiles the hk source file ``path``; see :func:`compile`."""
    with open(path, encoding="utf-8") as file:
        source = file.read()
    options.setdefault("name", os.fspath(path))
    return compile(source, chip, **options)


def chips():
    """Names of the chips the compiler and the emulator know."""
    return tuple(_hk.chips())


def chip_info(name):
    """A dict of facts about chip ``name``: products, generation,
    compute_units, xcds, lds_bytes (per workgroup), wave_size."""
    return _hk.chip_info(name)
