"""Register vectors stored to a one-dimensional global view in runs (one
store per run of elements a lane holds, up to 16 bytes) against numpy:
views whose end falls on a run, inside one, or inside a dword (an odd
length of 2-byte elements, whose last element the range check would drop
with the dword), and a block wholly past the view, whose stores are
dropped. One-byte elements are stored one by one and checked the same
way. The stores round f32 to the view's type to nearest, ties to even, as
numpy and hk.to_bf16 / hk.to_fp8 do: every result is exact."""

import numpy as np
import pytest

import hk
from conftest import CHIPS

KERNEL = """
hk.kernel @vstore(%x: !hk.gl<?xf32>, %out: !hk.gl<?x{T}>) waves(1) {{
  %j = hk.block_id x
  %v = hk.load %x[%j] : !hk.gl<?xf32> -> !hk.rv<128xf32, #hk.vec<cols, {L}>>
  hk.store %v, %out[%j] : !hk.rv<128xf32, #hk.vec<cols, {L}>> -> !hk.gl<?x{T}>
  hk.return
}}
"""

# (element type, layout): runs of 8 bf16 (16 bytes), 4 f32 (16 bytes),
# 4 f16 (8 bytes) and fp8 (element by element).
CASES = [("bf16", "#hk.mfma<a, 16x16x32>"), ("f32", "row"), ("f16", "row"),
         ("fp8", "#hk.mfma<a, 16x16x32>")]

FP8 = {"gfx942": "f8E4M3FNUZ", "gfx950": "f8E4M3FN"}


def encode(type_name, chip, values):
    """The view's array type and the bits `values` round to."""
    if type_name == "f32":
        return np.float32, values
    if type_name == "f16":
        return np.float16, values.astype(np.float16)
    if type_name == "bf16":
        return np.uint16, hk.to_bf16(values)
    return np.uint8, hk.to_fp8(values, FP8[chip])


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("length", [1, 2, 3, 127, 128, 129, 255, 258])
def test_vector_store(chip, case, length, device):
    type_name, layout = CASES[case]
    view_type = FP8[chip] if type_name == "fp8" else type_name
    mod = hk.compile(KERNEL.format(T=view_type, L=layout), chip)
    # One block more than the view holds: its stores fall past the end.
    blocks = (length + 127) // 128 + 1
    x = np.random.default_rng(length).uniform(-4, 4, blocks * 128)
    x = x.astype(np.float32)
    dtype, want = encode(type_name, chip, x[:length])
    sentinel = 0x7f if type_name == "fp8" else 1
    out = np.full(length, sentinel, dtype)
    res = mod.launch(device(chip), "vstore", grid=blocks, args=[x, out])
    assert res.ok and res.reports == ()
    np.testing.assert_array_equal(out.view(np.uint8), want.view(np.uint8))
