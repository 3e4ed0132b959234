"""Element types of kernel arguments and the bf16/fp8 conversions.

Global views (``!hk.gl``) of f32, f16, i8 and i32 take numpy arrays of the
matching dtype. bf16 and the fp8 types have no numpy dtype: their arrays hold
the raw bits (``uint16`` for bf16, ``uint8`` for fp8), which :func:`to_bf16`,
:func:`from_bf16`, :func:`to_fp8` and :func:`from_fp8` produce and read with
the emulator's own conversions (round to nearest, ties to even).
"""

import numpy as np

from . import _hk

#: The numpy dtype of the arrays a view of each element type takes.
NUMPY_DTYPES = {
    "f32": np.dtype(np.float32),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(np.uint16),
    "f8E4M3FNUZ": np.dtype(np.uint8),
    "f8E5M2FNUZ": np.dtype(np.uint8),
    "f8E4M3FN": np.dtype(np.uint8),
    "f8E5M2": np.dtype(np.uint8),
    "i8": np.dtype(np.int8),
    "i32": np.dtype(np.int32),
}


def numpy_dtype(element_type):
    """The numpy dtype of arrays for views of ``element_type`` ("bf16"...)."""
    try:
        return NUMPY_DTYPES[element_type]
    except KeyError:
        raise TypeError(
            f"no numpy dtype for element type '{element_type}'") from None


def dtype_hint(element_type):
    """How to build arrays of ``element_type`` when numpy has no such dtype."""
    if element_type == "bf16":
        return "bf16 arrays hold the bits as uint16: see hk.to_bf16"
    if element_type.startswith("f8"):
        return (f"{element_type} arrays hold the bits as uint8: see "
                f"hk.to_fp8(values, '{element_type}')")
    return ""


def _require(bits, dtype, what):
    bits = np.asarray(bits)
    if bits.dtype != dtype:
        raise TypeError(f"{what} takes {dtype} bits, got {bits.dtype}")
    return bits


def to_bf16(values):
    """Rounds ``values`` to bf16 and returns the bits as a ``uint16`` array.

    The values are first converted to float32 (as a kernel's f32 values
    would be), then rounded to nearest, ties to even. Infinities are kept
    and NaNs stay NaN (quieted, with their sign). The shape is kept.

    >>> hk.to_bf16([1.0, -2.5])
    array([16256, 49184], dtype=uint16)
    """
    return _hk.encode_bf16(np.asarray(values, dtype=np.float32))


def from_bf16(bits):
    """The float32 values of the bf16 ``bits`` (a ``uint16`` array); exact."""
    return _hk.decode_bf16(_require(bits, np.uint16, "from_bf16"))


def to_fp8(values, dtype, saturate=False):
    """Rounds ``values`` to the fp8 type ``dtype`` and returns ``uint8`` bits.

    ``dtype`` is the MLIR name a kernel signature gives: ``"f8E4M3FNUZ"`` or
    ``"f8E5M2FNUZ"`` (gfx942's FNUZ formats), ``"f8E4M3FN"`` or ``"f8E5M2"``
    (OCP, gfx950). Rounding is to nearest, ties to even. Values beyond the
    largest finite number become infinity or NaN where the format has them,
    or the largest finite number when ``saturate`` is set (formats without
    infinities or NaNs always saturate).
    """
    return _hk.encode_fp8(np.asarray(values, dtype=np.float64), dtype,
                          bool(saturate))


def from_fp8(bits, dtype):
    """The float32 values of fp8 ``bits`` (a ``uint8`` array) of ``dtype``."""
    return _hk.decode_fp8(_require(bits, np.uint8, "from_fp8"), dtype)
