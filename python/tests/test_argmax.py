"""Row and column argmax/argmin on both chips in the emulator, in every
layout family, against numpy: ties (first index wins, -0.0 equals +0.0),
NaNs (the first NaN wins, as numpy's argmax and argmin), and the top-k
recipe the ops document (k rounds of argmax and masking), against a stable
descending sort. Indices are exact.
"""

import warnings

import numpy as np
import pytest

import hk
from conftest import CHIPS

LAYOUTS = {
    "row": "row",
    "col": "col",
    "acc16": "#hk.mfma<acc, 16x16x16>",
    "acc32": "#hk.mfma<acc, 32x32x8>",
}

# One op per kernel: each reduction of a 32x64 tile fits the registers;
# four at once in one kernel spill SGPRs (their compare masks).
SOURCE = """
hk.kernel @arg(%x: !hk.gl<?x?xf32>, %out: !hk.gl<?xi32>) waves(1) {{
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<32x64xf32, {L}>
  %a = hk.{OP} %t : !hk.rt<32x64xf32, {L}> -> !hk.rv<{N}xi32>
  hk.store %a, %out[%c0] : !hk.rv<{N}xi32> -> !hk.gl<?xi32>
  hk.return
}}
"""

OPS = {
    "row_argmax": (np.argmax, 1),
    "row_argmin": (np.argmin, 1),
    "col_argmax": (np.argmax, 0),
    "col_argmin": (np.argmin, 0),
}


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("op", sorted(OPS))
def test_argmax_argmin(chip, layout, op):
    fn, axis = OPS[op]
    n = 32 if axis == 1 else 64
    with warnings.catch_warnings():
        warnings.simplefilter("error", hk.SpillWarning)
        mod = hk.compile(SOURCE.format(L=LAYOUTS[layout], OP=op, N=n), chip)
    rng = np.random.default_rng(5)
    # Few distinct values: every row and column has ties.
    x = rng.integers(-3, 4, (32, 64)).astype(np.float32)
    x[x == 0] = rng.choice([0.0, -0.0], size=int((x == 0).sum()))
    # NaNs: two in row 4 and column 9, one elsewhere.
    for r, c in [(4, 50), (4, 7), (20, 9), (30, 9), (11, 63)]:
        x[r, c] = np.nan
    out = np.full(n, -1, np.int32)
    res = mod.launch(hk.Device(chip), "arg", grid=(1,), args=[x, out])
    assert res.ok and res.reports == ()
    np.testing.assert_array_equal(out, fn(x, axis=axis))


TOPK_SOURCE = """
hk.kernel @topk(%x: !hk.gl<?x?xf32>, %out: !hk.gl<?x?xi32>) waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<32x64xf32, row>
  %cols = hk.iota cols : !hk.rt<32x64xf32, row>
  %neg = hk.fill %ninf : f32 -> !hk.rt<32x64xf32, row>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%cur = %t)
      -> (!hk.rt<32x64xf32, row>) {
    %i = hk.row_argmax %cur : !hk.rt<32x64xf32, row> -> !hk.rv<32xi32>
    // Column k of the (32 x 16) output holds the k-th index of each row.
    %it = hk.fill %zero : f32 -> !hk.rt<32x16xf32, row>
    %if = hk.convert %i : !hk.rv<32xi32> -> !hk.rv<32xf32>
    %col = hk.add_row %it, %if : !hk.rt<32x16xf32, row>, !hk.rv<32xf32>
    %ci = hk.convert %col : !hk.rt<32x16xf32, row> -> !hk.rt<32x16xi32, row>
    %kk = arith.index_cast %k : index to i32
    %kc = hk.iota cols : !hk.rt<32x16xi32, row>
    %here = hk.cmpi eq, %kc, %kk : !hk.rt<32x16xi32, row>, i32
    %old = hk.load %out[%c0, %c0] : !hk.gl<?x?xi32> -> !hk.rt<32x16xi32, row>
    %new = hk.select %here, %ci, %old : !hk.rt<32x16xi1, row>, !hk.rt<32x16xi32, row>
    hk.store %new, %out[%c0, %c0] : !hk.rt<32x16xi32, row> -> !hk.gl<?x?xi32>
    // Mask the chosen element for the next round.
    %d = hk.sub_row %cols, %if : !hk.rt<32x64xf32, row>, !hk.rv<32xf32>
    %hit = hk.cmpf oeq, %d, %zero : !hk.rt<32x64xf32, row>, f32
    %next = hk.select %hit, %neg, %cur : !hk.rt<32x64xi1, row>, !hk.rt<32x64xf32, row>
    scf.yield %next : !hk.rt<32x64xf32, row>
  }
  hk.return
}
"""


@pytest.mark.parametrize("chip", CHIPS)
def test_documented_top_k(chip):
    mod = hk.compile(TOPK_SOURCE, chip)
    rng = np.random.default_rng(9)
    x = rng.integers(-20, 20, (32, 64)).astype(np.float32)  # with ties
    out = np.zeros((32, 16), np.int32)
    res = mod.launch(hk.Device(chip), "topk", grid=(1,), args=[x, out])
    assert res.ok and res.reports == ()
    want = np.argsort(-x, axis=1, kind="stable")[:, :4]
    np.testing.assert_array_equal(out[:, :4], want)
