"""Compares, masks, selects, index tiles, i32 arithmetic, conversions, bit
casts and the NaN behaviour of max/min and of the reductions, on both chips
in the emulator, against numpy. Every result here is exact: integer
arithmetic wraps as numpy's int32 does, conversions round once, and
maximum/minimum pick one of their operands.
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
    "b32": "#hk.mfma<b, 32x32x16>",
}

INDEX_SOURCE = """
hk.kernel @index(%r: !hk.gl<?x?xi32>, %c: !hk.gl<?x?xf32>,
                 %v: !hk.gl<?xi32>, %t: !hk.gl<?x?xf32>) waves(1) {{
  %c0 = arith.constant 0 : index
  %rows = hk.iota rows : !hk.rt<32x64xi32, {L}>
  %cols = hk.iota cols : !hk.rt<32x64xf32, {L}>
  %i = hk.iota : !hk.rv<64xi32>
  hk.store %rows, %r[%c0, %c0] : !hk.rt<32x64xi32, {L}> -> !hk.gl<?x?xi32>
  hk.store %cols, %c[%c0, %c0] : !hk.rt<32x64xf32, {L}> -> !hk.gl<?x?xf32>
  hk.store %i, %v[%c0] : !hk.rv<64xi32> -> !hk.gl<?xi32>
  // A lower triangle (diagonal included) from two index tiles.
  %ci = hk.iota cols : !hk.rt<32x64xi32, {L}>
  %low = hk.cmpi sge, %rows, %ci : !hk.rt<32x64xi32, {L}>
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %ones = hk.fill %one : f32 -> !hk.rt<32x64xf32, {L}>
  %zeros = hk.fill %zero : f32 -> !hk.rt<32x64xf32, {L}>
  %tri = hk.select %low, %ones, %zeros
      : !hk.rt<32x64xi1, {L}>, !hk.rt<32x64xf32, {L}>
  hk.store %tri, %t[%c0, %c0] : !hk.rt<32x64xf32, {L}> -> !hk.gl<?x?xf32>
  hk.return
}}
"""


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_iota_and_masks(chip, layout):
    mod = hk.compile(INDEX_SOURCE.format(L=LAYOUTS[layout]), chip)
    r = np.full((32, 64), -1, np.int32)
    c = np.full((32, 64), np.nan, np.float32)
    v = np.full(64, -1, np.int32)
    t = np.full((32, 64), np.nan, np.float32)
    res = mod.launch(hk.Device(chip), "index", grid=(1,), args=[r, c, v, t])
    assert res.ok and res.reports == ()
    rows, cols = np.indices((32, 64))
    np.testing.assert_array_equal(r, rows)
    np.testing.assert_array_equal(c, cols.astype(np.float32))
    np.testing.assert_array_equal(v, np.arange(64))
    np.testing.assert_array_equal(t, (rows >= cols).astype(np.float32))


COMPARE_SOURCE = """
hk.kernel @compare(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>,
                   %out: !hk.gl<?x?x?xi32>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  %b = hk.load %y[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  %ai = hk.bitcast %a : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi32, row>
  %bi = hk.bitcast %b : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi32, row>
{cases}
  hk.return
}
"""

FLOAT_PREDICATES = {
    "oeq": lambda a, b: a == b, "one": lambda a, b: (a < b) | (a > b),
    "olt": lambda a, b: a < b, "ole": lambda a, b: a <= b,
    "ogt": lambda a, b: a > b, "oge": lambda a, b: a >= b,
    "ord": lambda a, b: ~np.isnan(a) & ~np.isnan(b),
    "ueq": lambda a, b: ~((a < b) | (a > b)), "une": lambda a, b: a != b,
    "ult": lambda a, b: ~(a >= b), "ule": lambda a, b: ~(a > b),
    "ugt": lambda a, b: ~(a <= b), "uge": lambda a, b: ~(a < b),
    "uno": lambda a, b: np.isnan(a) | np.isnan(b),
}

INT_PREDICATES = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b, "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b, "sge": lambda a, b: a >= b,
    "ult": lambda a, b: a.view(np.uint32) < b.view(np.uint32),
    "ule": lambda a, b: a.view(np.uint32) <= b.view(np.uint32),
    "ugt": lambda a, b: a.view(np.uint32) > b.view(np.uint32),
    "uge": lambda a, b: a.view(np.uint32) >= b.view(np.uint32),
}


def compare_case(index, op, pred, lhs, rhs):
    return f"""
  %m{index} = hk.{op} {pred}, {lhs}, {rhs} : !hk.rt<16x64x{"f32" if op == "cmpf" else "i32"}, row>
  %v{index} = hk.convert %m{index} : !hk.rt<16x64xi1, row> -> !hk.rt<16x64xi32, row>
  %k{index} = arith.constant {index} : index
  hk.store %v{index}, %out[%k{index}, %c0, %c0] : !hk.rt<16x64xi32, row> -> !hk.gl<?x?x?xi32>"""


@pytest.mark.parametrize("chip", CHIPS)
def test_compare(chip):
    cases = [("cmpf", p, "%a", "%b") for p in FLOAT_PREDICATES]
    cases += [("cmpi", p, "%ai", "%bi") for p in INT_PREDICATES]
    body = "".join(compare_case(i, *case) for i, case in enumerate(cases))
    mod = hk.compile(COMPARE_SOURCE.replace("{cases}", body), chip)
    rng = np.random.default_rng(5)
    # Few distinct values so that equal pairs occur, NaNs, signed zeros and
    # negative numbers (whose bits are large unsigned integers).
    pool = np.array([-2.0, -1.0, -0.0, 0.0, 1.0, 2.0, np.inf, -np.inf,
                     np.nan], np.float32)
    x = rng.choice(pool, (16, 64))
    y = rng.choice(pool, (16, 64))
    out = np.full((len(cases), 16, 64), -1, np.int32)
    res = mod.launch(hk.Device(chip), "compare", grid=(1,), args=[x, y, out])
    assert res.ok and res.reports == ()
    with np.errstate(invalid="ignore"):
        for i, (op, pred, _, _) in enumerate(cases):
            if op == "cmpf":
                want = FLOAT_PREDICATES[pred](x, y)
            else:
                want = INT_PREDICATES[pred](x.view(np.int32), y.view(np.int32))
            np.testing.assert_array_equal(out[i], want.astype(np.int32),
                                          err_msg=f"{op} {pred}")


INTEGER_SOURCE = """
hk.kernel @integers(%x: !hk.gl<?x?xi32>, %y: !hk.gl<?x?xi32>,
                    %out: !hk.gl<?x?x?xi32>, %s: i32) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %x[%c0, %c0] : !hk.gl<?x?xi32> -> !hk.rt<16x64xi32, row>
  %b = hk.load %y[%c0, %c0] : !hk.gl<?x?xi32> -> !hk.rt<16x64xi32, row>
{cases}
  hk.return
}
"""

U32 = np.uint32


def shift_count(b):
    return (b & 31).astype(U32)


INTEGER_OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b, "max": np.maximum, "min": np.minimum,
    "and": lambda a, b: a & b, "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "shl": lambda a, b: (a.view(U32) << shift_count(b)).view(np.int32),
    "shrs": lambda a, b: a >> shift_count(b).astype(np.int32),
    "shru": lambda a, b: (a.view(U32) >> shift_count(b)).view(np.int32),
    "umax": lambda a, b: np.maximum(a.view(U32), b.view(U32)).view(np.int32),
    "umin": lambda a, b: np.minimum(a.view(U32), b.view(U32)).view(np.int32),
}


@pytest.mark.parametrize("chip", CHIPS)
def test_integer_arithmetic(chip):
    cases = []
    for name in INTEGER_OPS:
        cases.append((name, "%b", "!hk.rt<16x64xi32, row>"))
        cases.append((name, "%s", "!hk.rt<16x64xi32, row>, i32"))
    body = ""
    for i, (name, rhs, types) in enumerate(cases):
        body += f"""
  %r{i} = hk.{name} %a, {rhs} : {types}
  %k{i} = arith.constant {i} : index
  hk.store %r{i}, %out[%k{i}, %c0, %c0] : !hk.rt<16x64xi32, row> -> !hk.gl<?x?x?xi32>"""
    mod = hk.compile(INTEGER_SOURCE.replace("{cases}", body), chip)
    rng = np.random.default_rng(6)
    info = np.iinfo(np.int32)
    x = rng.integers(info.min, info.max, (16, 64), dtype=np.int32,
                     endpoint=True)
    y = rng.integers(info.min, info.max, (16, 64), dtype=np.int32,
                     endpoint=True)
    # Small values and shift counts beyond 31 too.
    x[:4] = rng.integers(-40, 40, (4, 64))
    y[:8] = rng.integers(-70, 70, (8, 64))
    s = -37
    out = np.full((len(cases), 16, 64), 7, np.int32)
    res = mod.launch(hk.Device(chip), "integers", grid=(1,),
                     args=[x, y, out, s])
    assert res.ok and res.reports == ()
    with np.errstate(over="ignore"):
        for i, (name, rhs, _) in enumerate(cases):
            b = y if rhs == "%b" else np.full_like(y, s)
            np.testing.assert_array_equal(out[i], INTEGER_OPS[name](x, b),
                                          err_msg=f"{name} {rhs}")


CONVERT_SOURCE = """
hk.kernel @convert(%x: !hk.gl<?x?xf32>, %i: !hk.gl<?x?xi32>,
                   %fi: !hk.gl<?x?xi32>, %if: !hk.gl<?x?xf32>,
                   %i8: !hk.gl<?x?xi8>, %f8: !hk.gl<?x?xi8>,
                   %i8w: !hk.gl<?x?xi32>, %bits: !hk.gl<?x?xi32>,
                   %back: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, row>
  %n = hk.load %i[%c0, %c0] : !hk.gl<?x?xi32> -> !hk.rt<16x64xi32, row>
  %ai = hk.convert %a : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi32, row>
  hk.store %ai, %fi[%c0, %c0] : !hk.rt<16x64xi32, row> -> !hk.gl<?x?xi32>
  %nf = hk.convert %n : !hk.rt<16x64xi32, row> -> !hk.rt<16x64xf32, row>
  hk.store %nf, %if[%c0, %c0] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?xf32>
  %n8 = hk.convert %n : !hk.rt<16x64xi32, row> -> !hk.rt<16x64xi8, row>
  hk.store %n8, %i8[%c0, %c0] : !hk.rt<16x64xi8, row> -> !hk.gl<?x?xi8>
  %a8 = hk.convert %a : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi8, row>
  hk.store %a8, %f8[%c0, %c0] : !hk.rt<16x64xi8, row> -> !hk.gl<?x?xi8>
  %w = hk.convert %a8 : !hk.rt<16x64xi8, row> -> !hk.rt<16x64xi32, row>
  hk.store %w, %i8w[%c0, %c0] : !hk.rt<16x64xi32, row> -> !hk.gl<?x?xi32>
  %b = hk.bitcast %a : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi32, row>
  hk.store %b, %bits[%c0, %c0] : !hk.rt<16x64xi32, row> -> !hk.gl<?x?xi32>
  %f = hk.bitcast %b : !hk.rt<16x64xi32, row> -> !hk.rt<16x64xf32, row>
  hk.store %f, %back[%c0, %c0] : !hk.rt<16x64xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}
"""


def saturate(values, dtype):
    info = np.iinfo(dtype)
    return np.clip(values, info.min, info.max).astype(dtype)


@pytest.mark.parametrize("chip", CHIPS)
def test_conversions(chip):
    mod = hk.compile(CONVERT_SOURCE, chip)
    rng = np.random.default_rng(7)
    x = rng.uniform(-300, 300, (16, 64)).astype(np.float32)
    x[0, :16] = [16.0, 2.5, 3.5, -2.5, -0.5, 0.5, 1.5, np.nan, np.inf,
                 -np.inf, 3e9, -3e9, 2147483520.0, 2147483648.0, -0.0, 127.5]
    n = rng.integers(-2**31, 2**31 - 1, (16, 64), dtype=np.int32)
    n[0, :6] = [0, 1, -1, 16777217, 2**31 - 1, -2**31]
    outs = [np.zeros((16, 64), t) for t in
            (np.int32, np.float32, np.int8, np.int8, np.int32, np.int32,
             np.float32)]
    res = mod.launch(hk.Device(chip), "convert", grid=(1,),
                     args=[x, n, *outs])
    assert res.ok and res.reports == ()
    fi, nf, n8, x8, x8w, bits, back = outs
    # f32 -> integer: round half to even, saturate, NaN -> 0.
    rounded = np.where(np.isnan(x), 0, np.rint(np.nan_to_num(x, nan=0)))
    np.testing.assert_array_equal(fi, saturate(rounded, np.int32))
    np.testing.assert_array_equal(fi[0, :2], [16, 2])
    np.testing.assert_array_equal(x8, saturate(rounded, np.int8))
    np.testing.assert_array_equal(x8w, x8.astype(np.int32))
    # i32 -> f32 rounds to nearest even (numpy does the same); -> i8
    # saturates.
    np.testing.assert_array_equal(nf, n.astype(np.float32))
    np.testing.assert_array_equal(n8, saturate(n, np.int8))
    # Bit casts keep the bits both ways: 16.0 is 0x41800000.
    np.testing.assert_array_equal(bits, x.view(np.int32))
    assert bits[0, 0] == 1098907648
    np.testing.assert_array_equal(back.view(np.int32), x.view(np.int32))


NAN_SOURCE = """
hk.kernel @nans(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>,
                %mx: !hk.gl<?x?xf32>, %mn: !hk.gl<?x?xf32>,
                %rmax: !hk.gl<?xf32>, %rmin: !hk.gl<?xf32>,
                %rsum: !hk.gl<?xf32>, %cmax: !hk.gl<?xf32>,
                %cmin: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>>
  %b = hk.load %y[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>>
  %p = hk.max %a, %b : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>>
  %q = hk.min %a, %b : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>>
  hk.store %p, %mx[%c0, %c0] : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.gl<?x?xf32>
  hk.store %q, %mn[%c0, %c0] : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.gl<?x?xf32>
  %r0 = hk.row_max %a : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.rv<32xf32>
  %r1 = hk.row_min %a : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.rv<32xf32>
  %r2 = hk.row_sum %a : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.rv<32xf32>
  %r3 = hk.col_max %a : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.rv<64xf32>
  %r4 = hk.col_min %a : !hk.rt<32x64xf32, #hk.mfma<acc, 32x32x8>> -> !hk.rv<64xf32>
  hk.store %r0, %rmax[%c0] : !hk.rv<32xf32> -> !hk.gl<?xf32>
  hk.store %r1, %rmin[%c0] : !hk.rv<32xf32> -> !hk.gl<?xf32>
  hk.store %r2, %rsum[%c0] : !hk.rv<32xf32> -> !hk.gl<?xf32>
  hk.store %r3, %cmax[%c0] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  hk.store %r4, %cmin[%c0] : !hk.rv<64xf32> -> !hk.gl<?xf32>
  hk.return
}
"""


@pytest.mark.parametrize("chip", CHIPS)
def test_nan_semantics(chip):
    """hk.max/hk.min are IEEE maximum/minimum: NaN wins as in
    numpy.maximum/minimum, and -0 < +0 (numpy returns either zero); the
    reductions are numpy's max/min/sum (a NaN makes the row or column
    NaN)."""
    mod = hk.compile(NAN_SOURCE, chip)
    rng = np.random.default_rng(8)
    x = rng.uniform(-1, 1, (32, 64)).astype(np.float32)
    y = rng.uniform(-1, 1, (32, 64)).astype(np.float32)
    # NaN in some rows and columns, at several lane positions; signed zeros.
    for r, c in [(0, 0), (3, 17), (17, 63), (31, 32), (9, 40)]:
        x[r, c] = np.nan
    y[5, :8] = np.nan
    x[6, :4], y[6, :4] = -0.0, 0.0
    x[7, :4], y[7, :4] = 0.0, -0.0
    outs = [np.zeros((32, 64), np.float32) for _ in range(2)]
    outs += [np.zeros(n, np.float32) for n in (32, 32, 32, 64, 64)]
    res = mod.launch(hk.Device(chip), "nans", grid=(1,), args=[x, y, *outs])
    assert res.ok and res.reports == ()
    mx, mn, rmax, rmin, rsum, cmax, cmin = outs

    def same(got, want):
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))

    # IEEE 754-2019 maximum/minimum order the zeros, which numpy does not.
    zeros = (x == 0) & (y == 0)
    both_negative = np.signbit(x) & np.signbit(y)
    either_negative = np.signbit(x) | np.signbit(y)
    same(mx, np.where(zeros, np.where(both_negative, -0.0, 0.0),
                      np.maximum(x, y)))
    same(mn, np.where(zeros, np.where(either_negative, -0.0, 0.0),
                      np.minimum(x, y)))
    assert np.signbit(mn[6, :4]).all() and not np.signbit(mx[6, :4]).any()
    same(rmax, x.max(axis=1))
    same(rmin, x.min(axis=1))
    same(cmax, x.max(axis=0))
    same(cmin, x.min(axis=0))
    nan_rows = np.isnan(x).any(axis=1)
    assert np.isnan(rsum[nan_rows]).all()
    assert not np.isnan(rsum[~nan_rows]).any()


SOFTMAX_SOURCE = """
hk.kernel @softmax_nan(%s: !hk.gl<?x?xf32>, %p: !hk.gl<?x?xf32>,
                       %l: !hk.gl<?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %s[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = hk.fill %ninf : f32 -> !hk.rv<16xf32>
  %l0 = hk.fill %zero : f32 -> !hk.rv<16xf32>
  %probs, %m1, %l1, %r = hk.softmax %t, %m0, %l0
      : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>>, !hk.rv<16xf32>
  hk.store %probs, %p[%c0, %c0] : !hk.rt<16x64xf32, #hk.mfma<acc, 16x16x16>> -> !hk.gl<?x?xf32>
  hk.store %l1, %l[%c0] : !hk.rv<16xf32> -> !hk.gl<?xf32>
  hk.return
}
"""


@pytest.mark.parametrize("chip", CHIPS)
def test_softmax_nan_rows(chip):
    """A NaN score makes its row's sum NaN (so the normalised row is NaN);
    the other rows are untouched."""
    mod = hk.compile(SOFTMAX_SOURCE, chip)
    rng = np.random.default_rng(9)
    s = rng.uniform(-2, 2, (16, 64)).astype(np.float32)
    s[3, 10] = np.nan
    s[12, 63] = np.nan
    p = np.zeros((16, 64), np.float32)
    l = np.zeros(16, np.float32)
    res = mod.launch(hk.Device(chip), "softmax_nan", grid=(1,), args=[s, p, l])
    assert res.ok and res.reports == ()
    nan_rows = np.isnan(s).any(axis=1)
    assert np.isnan(l[nan_rows]).all()
    assert np.isfinite(l[~nan_rows]).all() and np.isfinite(p[~nan_rows]).all()
    want = np.exp2(s - s.max(axis=1, keepdims=True))
    ok = ~nan_rows
    np.testing.assert_allclose(p[ok], want[ok], rtol=2**-20, atol=0)
