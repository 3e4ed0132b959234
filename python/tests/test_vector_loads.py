"""Register vectors loaded from global memory in runs (one load per run of
elements a lane holds, up to 16 bytes) against numpy: vectors of a 1-D
view whose end falls on a run, inside one, or inside a dword (an odd
length of 2-byte elements, whose last element the range check would zero
with the dword), and rows of a matrix with aligned and misaligned
strides; blocks and rows past the view read zero. Loads move bits, so
every result is exact."""

import numpy as np
import pytest

import hk
from conftest import CHIPS

VECTOR = """
hk.kernel @vload(%x: !hk.gl<?x{T}>, %out: !hk.gl<?x?xf32>) waves(1) {{
  %c0 = arith.constant 0 : index
  %j = hk.block_id x
  %v = hk.load %x[%j] : !hk.gl<?x{T}> -> !hk.rv<128xf32, #hk.vec<cols, {L}>>
  hk.store %v, %out[%j, %c0] : !hk.rv<128xf32, #hk.vec<cols, {L}>> -> !hk.gl<?x?xf32>
  hk.return
}}
"""

ROWS = """
hk.kernel @vload(%x: !hk.gl<?x?x{T}>, %out: !hk.gl<?x?x?xf32>) waves(1) {{
  %c0 = arith.constant 0 : index
  %r = hk.block_id x
  %j = hk.block_id y
  %v = hk.load %x[%r, %j] : !hk.gl<?x?x{T}> -> !hk.rv<128xf32, #hk.vec<cols, {L}>>
  hk.store %v, %out[%r, %j, %c0] : !hk.rv<128xf32, #hk.vec<cols, {L}>> -> !hk.gl<?x?x?xf32>
  hk.return
}}
"""

# (element type, layout): runs of 8 bf16 (16 bytes), 4 f32 (16 bytes) and
# 4 bf16 (8 bytes).
CASES = [("bf16", "#hk.mfma<a, 16x16x32>"), ("f32", "row"), ("bf16", "row")]


def random_values(type_name, shape):
    """The array to pass and the values it holds, as float32."""
    values = np.random.default_rng(7).uniform(-4, 4, shape).astype(np.float32)
    if type_name == "f32":
        return values, values
    bits = hk.to_bf16(values)
    return bits, hk.from_bf16(bits)


def blocks_of(values, count):
    """`values` cut into `count` blocks of 128, zero past its end."""
    padded = np.zeros(count * 128, np.float32)
    padded[:len(values)] = values
    return padded.reshape(count, 128)


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("length", [1, 2, 127, 128, 129, 255, 258])
def test_vector(chip, case, length, device):
    type_name, layout = CASES[case]
    mod = hk.compile(VECTOR.format(T=type_name, L=layout), chip)
    x, values = random_values(type_name, length)
    # One block past the view's end, which reads zero.
    blocks = (length + 127) // 128 + 1
    out = np.full((blocks, 128), np.nan, np.float32)
    res = mod.launch(device(chip), "vload", grid=blocks, args=[x, out])
    assert res.ok and res.reports == ()
    np.testing.assert_array_equal(out, blocks_of(values, blocks))


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("case", range(len(CASES)))
# Rows of a multiple of the runs (aligned), a row ending inside a block on
# a dword, and an odd row length (every row but the first misaligned).
@pytest.mark.parametrize("shape", [(3, 256), (3, 136), (4, 131)])
def test_matrix_rows(chip, case, shape, device):
    type_name, layout = CASES[case]
    rows, cols = shape
    mod = hk.compile(ROWS.format(T=type_name, L=layout), chip)
    x, values = random_values(type_name, shape)
    # One row and one block past the view, which read zero.
    blocks = (cols + 127) // 128 + 1
    out = np.full((rows + 1, blocks, 128), np.nan, np.float32)
    res = mod.launch(device(chip), "vload", grid=(rows + 1, blocks),
                     args=[x, out])
    assert res.ok and res.reports == ()
    want = np.zeros_like(out)
    for r in range(rows):
        want[r] = blocks_of(values[r], blocks)
    np.testing.assert_array_equal(out, want)
