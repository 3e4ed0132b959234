"""Slices and concatenation of register tiles and vectors in every layout
family, and row slices of shared tiles (views of one allocation, written
separately and read whole), on both chips against numpy. Slices move no
data, so every result is exact.
"""

import numpy as np
import pytest

import hk
from conftest import CHIPS

LAYOUTS = {
    "row": "row",
    "col": "col",
    "acc16": "#hk.mfma<acc, 16x16x16>",
    "acc32": "#hk.mfma<acc, 32x32x8>",
    "a16": "#hk.mfma<a, 16x16x32>",
}

SOURCE = """
hk.kernel @slices(%x: !hk.gl<?x?xf32>, %parts: !hk.gl<?x?x?xf32>,
                  %joined: !hk.gl<?x?xf32>, %sums: !hk.gl<?xf32>,
                  %vparts: !hk.gl<?xf32>) waves(1) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<64x64xf32, {L}>
  // The four 32x32 quarters, in a 4 x 32 x 32 view.
  %q0 = hk.slice %t [0, 0] : !hk.rt<64x64xf32, {L}> -> !hk.rt<32x32xf32, {L}>
  %q1 = hk.slice %t [0, 32] : !hk.rt<64x64xf32, {L}> -> !hk.rt<32x32xf32, {L}>
  %q2 = hk.slice %t [32, 0] : !hk.rt<64x64xf32, {L}> -> !hk.rt<32x32xf32, {L}>
  %q3 = hk.slice %t [32, 32] : !hk.rt<64x64xf32, {L}> -> !hk.rt<32x32xf32, {L}>
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  hk.store %q0, %parts[%c0, %c0, %c0] : !hk.rt<32x32xf32, {L}> -> !hk.gl<?x?x?xf32>
  hk.store %q1, %parts[%c1, %c0, %c0] : !hk.rt<32x32xf32, {L}> -> !hk.gl<?x?x?xf32>
  hk.store %q2, %parts[%c2, %c0, %c0] : !hk.rt<32x32xf32, {L}> -> !hk.gl<?x?x?xf32>
  hk.store %q3, %parts[%c3, %c0, %c0] : !hk.rt<32x32xf32, {L}> -> !hk.gl<?x?x?xf32>
  // Put back together swapped: [[q3, q2], [q1, q0]].
  %top = hk.concat cols %q3, %q2 : !hk.rt<32x32xf32, {L}>, !hk.rt<32x32xf32, {L}> -> !hk.rt<32x64xf32, {L}>
  %bot = hk.concat cols %q1, %q0 : !hk.rt<32x32xf32, {L}>, !hk.rt<32x32xf32, {L}> -> !hk.rt<32x64xf32, {L}>
  %all = hk.concat rows %top, %bot : !hk.rt<32x64xf32, {L}>, !hk.rt<32x64xf32, {L}> -> !hk.rt<64x64xf32, {L}>
  hk.store %all, %joined[%c0, %c0] : !hk.rt<64x64xf32, {L}> -> !hk.gl<?x?xf32>
  // Vectors: the row sums, their halves swapped.
  %s = hk.row_sum %t : !hk.rt<64x64xf32, {L}> -> !hk.rv<64xf32>
  hk.store %s, %sums[%c0] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  %lo = hk.slice %s [0] : !hk.rv<64xf32> -> !hk.rv<32xf32>
  %hi = hk.slice %s [32] : !hk.rv<64xf32> -> !hk.rv<32xf32>
  %sw = hk.concat %hi, %lo : !hk.rv<32xf32>, !hk.rv<32xf32> -> !hk.rv<64xf32>
  hk.store %sw, %vparts[%c0] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  hk.return
}}
"""


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_register_slices(chip, layout):
    mod = hk.compile(SOURCE.format(L=LAYOUTS[layout]), chip)
    rng = np.random.default_rng(13)
    x = rng.integers(-1000, 1000, (64, 64)).astype(np.float32)
    parts = np.full((4, 32, 32), np.nan, np.float32)
    joined = np.full((64, 64), np.nan, np.float32)
    sums = np.full(64, np.nan, np.float32)
    vparts = np.full(64, np.nan, np.float32)
    res = mod.launch(hk.Device(chip), "slices", grid=(1,),
                     args=[x, parts, joined, sums, vparts])
    assert res.ok and res.reports == ()
    q = [x[:32, :32], x[:32, 32:], x[32:, :32], x[32:, 32:]]
    np.testing.assert_array_equal(parts, np.stack(q))
    np.testing.assert_array_equal(joined, np.block([[q[3], q[2]],
                                                    [q[1], q[0]]]))
    # Integer-valued sums are exact in any order.
    np.testing.assert_array_equal(sums, x.sum(axis=1))
    np.testing.assert_array_equal(vparts, np.concatenate([sums[32:],
                                                          sums[:32]]))


SHARED_SOURCE = """
hk.kernel @shared(%x: !hk.gl<?x?xbf16>, %y: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = hk.wave_id
  %s = hk.alloc : !hk.st<128x64xbf16>
  // Each wave writes one 32-row slice of the shared tile from the rows of
  // the input that belong to the slice after it (a rotation).
  %c32 = arith.constant 32 : index
  %c4 = arith.constant 4 : index
  %next = arith.addi %w, %c1 : index
  %src = arith.remui %next, %c4 : index
  %t = hk.load %x[%src, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<32x64xbf16, row>
  %s0 = hk.slice %s [0, 0] : !hk.st<128x64xbf16> -> !hk.st<32x64xbf16>
  %s1 = hk.slice %s [32, 0] : !hk.st<128x64xbf16> -> !hk.st<32x64xbf16>
  %s2 = hk.slice %s [64, 0] : !hk.st<128x64xbf16> -> !hk.st<32x64xbf16>
  %s3 = hk.slice %s [96, 0] : !hk.st<128x64xbf16> -> !hk.st<32x64xbf16>
  %is0 = arith.cmpi eq, %w, %c0 : index
  %is1 = arith.cmpi eq, %w, %c1 : index
  %c2 = arith.constant 2 : index
  %is2 = arith.cmpi eq, %w, %c2 : index
  %p01 = arith.select %is1, %s1, %s3 : !hk.st<32x64xbf16>
  %p012 = arith.select %is2, %s2, %p01 : !hk.st<32x64xbf16>
  %mine = arith.select %is0, %s0, %p012 : !hk.st<32x64xbf16>
  hk.store %t, %mine : !hk.rt<32x64xbf16, row> -> !hk.st<32x64xbf16>
  hk.barrier
  // Wave 0 reads the whole tile back; its 64x64 halves go out in turn.
  %zero = arith.cmpi eq, %w, %c0 : index
  scf.if %zero {
    %a = hk.load %s[%c0, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
    %b = hk.load %s[%c1, %c0] : !hk.st<128x64xbf16> -> !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>>
    hk.store %a, %y[%c0, %c0] : !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?xbf16>
    hk.store %b, %y[%c1, %c0] : !hk.rt<64x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?xbf16>
  }
  hk.return
}
"""


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("swizzle", [True, False])
def test_shared_row_slices(chip, swizzle):
    mod = hk.compile(SHARED_SOURCE, chip, lds_swizzle=swizzle)
    rng = np.random.default_rng(14)
    x = hk.to_bf16(rng.standard_normal((128, 64)))
    y = np.zeros((128, 64), np.uint16)
    res = mod.launch(hk.Device(chip), "shared", grid=(1,), args=[x, y])
    assert res.ok and res.reports == ()
    np.testing.assert_array_equal(y, np.roll(x, -32, axis=0))
