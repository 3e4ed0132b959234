"""Transposing group loads: a global tile lands in LDS transposed, for
every element width, with tiles that reach past the matrix edge (those
elements arrive as zero). The result is exact data movement, so it is
compared bit for bit with numpy's transpose."""

import numpy as np
import pytest

import hk
from conftest import CHIPS

SOURCE = """
hk.kernel @transpose(%x: !hk.gl<?x?x{T}>, %y: !hk.gl<?x?x{T}>) waves(2) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x32x{T}>
  // The (1, 0) tile of x, 32x64, lands as its 64x32 transpose.
  hk.group_load %x[%c1, %c0], %s transpose
      : !hk.gl<?x?x{T}>, !hk.st<64x32x{T}>
  hk.barrier
  %w = hk.wave_id
  %t = hk.load %s[%w, %c0] : !hk.st<64x32x{T}> -> !hk.rt<32x32x{T}, row>
  hk.store %t, %y[%w, %c0] : !hk.rt<32x32x{T}, row> -> !hk.gl<?x?x{T}>
  hk.return
}}
"""

DTYPES = {"f32": np.float32, "f16": np.float16}


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("rows,cols", [(64, 64), (50, 40)])
def test_transposing_group_load(chip, dtype, rows, cols):
    mod = hk.compile(SOURCE.format(T=dtype), chip)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((rows, cols)).astype(DTYPES[dtype])
    y = np.full((64, 32), np.nan, DTYPES[dtype])
    res = mod.launch(hk.Device(chip), "transpose", grid=(1,), args=[x, y])
    assert res.ok and res.reports == ()
    tile = np.zeros((32, 64), DTYPES[dtype])
    part = x[32:64, 0:64]
    tile[:part.shape[0], :part.shape[1]] = part
    np.testing.assert_array_equal(y, tile.T)
