//===- Vop1Test.cpp - VOP1 instructions -----------------------------------===//
//
// One-source vector ALU instructions, every lane checked against an
// independent reference:
// - integer and bit operations: host arithmetic written from AMD's
//   CDNA3/CDNA4 ISA reference (and its functional examples);
// - rounding, fract and frexp: LLVM's APFloat (roundToIntegral, frexp);
// - transcendentals: a long-double reference within the bound AMD
//   documents for each ("1ULP accuracy" for v_exp/log/rcp/rsq/sqrt_f32 and
//   the f16 forms, 2^29 ulp for v_rcp/rsq/sqrt_f64); AMD documents no bound
//   for v_sin/cos_f32: they are held to 1 ulp (or 2^-24 absolute, near the
//   zeros of the result) of sin/cos(2*pi*x) with x reduced exactly. The f32
//   exp, log, rcp, rsq and sqrt flush denormal inputs and, except rcp,
//   results ("denormals are flushed"; v_rcp_f32 keeps a denormal result,
//   which LLVM's correctly rounded f32 division sequence relies on for
//   denominators near the largest float, see Vop3Test's division cases);
//   their functional examples are checked bit for bit;
// - conversions: APFloat conversions with round to nearest even, integer
//   results truncated toward zero and saturated, NaN converted to 0
//   ("out-of-range floating point values (including infinity) saturate. NAN
//   is converted to 0").
// f16 results zero the high half of the register on GFX9, as LLVM's
// GCNSubtarget::zeroesHigh16BitsOfDest records.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include "hk/ISA/Assembler.h"

#include "llvm/ADT/APSInt.h"

#include <cmath>
#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;
using llvm::APFloat;

namespace {

// Integer and bit operations -------------------------------------------------

using IntRef = uint64_t (*)(uint64_t a);

uint64_t leadingZeros32(uint64_t a) {
  for (unsigned i = 0; i < 32; ++i)
    if ((a >> (31 - i)) & 1)
      return i;
  return 0xffffffffu;
}

const std::map<std::string, IntRef> &intOps() {
  static const std::map<std::string, IntRef> ops = {
      {"v_mov_b32", [](uint64_t a) { return a; }},
      {"v_not_b32", [](uint64_t a) { return uint64_t(uint32_t(~a)); }},
      {"v_bfrev_b32",
       [](uint64_t a) {
         uint64_t r = 0;
         for (unsigned i = 0; i < 32; ++i)
           r |= ((a >> i) & 1) << (31 - i);
         return r;
       }},
      {"v_ffbh_u32", leadingZeros32},
      {"v_ffbl_b32",
       [](uint64_t a) {
         for (unsigned i = 0; i < 32; ++i)
           if ((a >> i) & 1)
             return uint64_t(i);
         return uint64_t(0xffffffffu);
       }},
      // The first bit, from bit 30 down, that differs from the sign bit.
      {"v_ffbh_i32",
       [](uint64_t a) {
         for (unsigned i = 1; i < 32; ++i)
           if (((a >> (31 - i)) & 1) != ((a >> 31) & 1))
             return uint64_t(i);
         return uint64_t(0xffffffffu);
       }},
  };
  return ops;
}

void testIntOp(SingleWave &sw, const char *mnemonic) {
  IntRef ref = intOps().at(mnemonic);
  for (const char *suffix : {"", "_e64"}) {
    LaneSpec spec;
    spec.text = std::string(mnemonic) + suffix + " v0, v2";
    spec.numSrcs = 1;
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      return intInput(i, op);
    };
    spec.rounds = 2;
    spec.ref = [ref](const uint64_t *s, uint64_t) {
      return Expect::exact(ref(s[0]));
    };
    checkLanes(sw, spec);
  }
}

/// AMD's functional examples of the bit scans.
TEST(Vop1Examples, BitScans) {
  SingleWave sw(*ChipInfo::lookup("gfx942"));
  Wave &w = sw.wave();
  struct Example {
    const char *mnemonic;
    uint32_t in, out;
  } examples[] = {
      {"v_ffbh_u32", 0x00000000, ~0u}, {"v_ffbh_u32", 0x800000ff, 0},
      {"v_ffbh_u32", 0x100000ff, 3},   {"v_ffbh_u32", 0x0000ffff, 16},
      {"v_ffbh_u32", 0x00000001, 31},  {"v_ffbl_b32", 0x00000000, ~0u},
      {"v_ffbl_b32", 0xff000001, 0},   {"v_ffbl_b32", 0xff000008, 3},
      {"v_ffbl_b32", 0xffff0000, 16},  {"v_ffbl_b32", 0x80000000, 31},
      {"v_ffbh_i32", 0x00000000, ~0u}, {"v_ffbh_i32", 0x40000000, 1},
      {"v_ffbh_i32", 0x80000000, 1},   {"v_ffbh_i32", 0x0fffffff, 4},
      {"v_ffbh_i32", 0xffff0000, 16},  {"v_ffbh_i32", 0xfffffffe, 31},
      {"v_ffbh_i32", 0xffffffff, ~0u}};
  for (const Example &e : examples) {
    w.v[2][5] = e.in;
    runOrFail(sw, std::string(e.mnemonic) + " v0, v2");
    EXPECT_EQ(w.v[0][5], e.out) << e.mnemonic << "(" << hex(e.in) << ")";
  }
}

void testMovB64(SingleWave &sw, const char *) {
  LaneSpec spec;
  spec.text = "v_mov_b64 v[0:1], v[2:3]";
  spec.numSrcs = 1;
  spec.srcRegs[0] = 2;
  spec.dst = Fmt::B64;
  spec.input = [](unsigned i, unsigned op) { return int64Input(i, op); };
  spec.rounds = 2;
  spec.ref = [](const uint64_t *s, uint64_t) { return Expect::exact(s[0]); };
  checkLanes(sw, spec);
  // The 64-bit inline constant -1.0 and an SGPR pair.
  Wave &w = sw.wave();
  runOrFail(sw, "v_mov_b64 v[0:1], -1.0");
  EXPECT_EQ(uint64_t(w.v[0][7]) | (uint64_t(w.v[1][7]) << 32),
            0xbff0000000000000ull);
  w.setSgpr64(10, 0x0123456789abcdefull);
  runOrFail(sw, "v_mov_b64 v[0:1], s[10:11]");
  EXPECT_EQ(uint64_t(w.v[0][9]) | (uint64_t(w.v[1][9]) << 32),
            0x0123456789abcdefull);
}

/// v_readfirstlane_b32: the lowest active lane's value; lane 0 when EXEC
/// is zero.
void testReadfirstlane(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  for (unsigned l = 0; l < 64; ++l)
    w.v[2][l] = intInput(l, 0) ^ l;
  for (uint64_t exec : {~0ull, 0xffff000000000000ull, 1ull << 63,
                        0x0000000000f00000ull, 0ull}) {
    w.setExec(exec);
    w.s[20] = 0xabcd;
    runOrFail(sw, "v_readfirstlane_b32 s20, v2");
    unsigned lane = exec ? __builtin_ctzll(exec) : 0;
    EXPECT_EQ(w.s[20], w.v[2][lane]) << "exec " << hex(exec);
  }
  w.setExec(~0ull);
}

/// v_swap_b32: both registers exchanged in active lanes only.
void testSwap(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  uint64_t exec = 0x00ff00ff12345678ull;
  for (unsigned l = 0; l < 64; ++l) {
    w.v[1][l] = intInput(l, 0);
    w.v[2][l] = intInput(l, 1) + 1;
  }
  w.setExec(exec);
  runOrFail(sw, "v_swap_b32 v1, v2");
  w.setExec(~0ull);
  for (unsigned l = 0; l < 64; ++l) {
    bool active = (exec >> l) & 1;
    EXPECT_EQ(w.v[1][l], active ? intInput(l, 1) + 1 : intInput(l, 0))
        << "lane " << l;
    EXPECT_EQ(w.v[2][l], active ? intInput(l, 0) : intInput(l, 1) + 1)
        << "lane " << l;
  }
}

/// gfx950 v_permlane16/32_swap_b32 vdst, vsrc (AMD CDNA4 ISA pseudocode):
/// the 16 swap exchanges src lanes 32p+l with vdst lanes 32p+l+16 (l <
/// 16, p = 0, 1); the 32 swap exchanges src lanes l with vdst lanes l+32
/// (l < 32).
void testPermlaneSwap(SingleWave &sw, const char *mnemonic) {
  bool rows16 = llvm::StringRef(mnemonic).contains("16");
  Wave &w = sw.wave();
  uint32_t dst[64], src[64];
  for (unsigned l = 0; l < 64; ++l) {
    dst[l] = w.v[1][l] = 0x1000 + l;
    src[l] = w.v[2][l] = 0x2000 + l;
  }
  runOrFail(sw, std::string(mnemonic) + " v1, v2");
  for (unsigned l = 0; l < 64; ++l) {
    uint32_t wantDst = dst[l], wantSrc = src[l];
    if (rows16) {
      if (l % 32 >= 16)
        wantDst = src[l - 16];
      else
        wantSrc = dst[l + 16];
    } else {
      if (l >= 32)
        wantDst = src[l - 32];
      else
        wantSrc = dst[l + 32];
    }
    EXPECT_EQ(w.v[1][l], wantDst) << mnemonic << " vdst lane " << l;
    EXPECT_EQ(w.v[2][l], wantSrc) << mnemonic << " src lane " << l;
  }
  EXPECT_FALSE(bool(isa::assemble(*ChipInfo::lookup("gfx942"),
                                  std::string(mnemonic) + " v1, v2")))
      << mnemonic << " is a gfx950 instruction";
}

void testAccvgprMov(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  for (unsigned l = 0; l < 64; ++l) {
    w.v[isa::kAgprBase + 2][l] = intInput(l, 0);
    w.v[isa::kAgprBase + 1][l] = 7;
  }
  w.setExec(0xf0f0f0f0f0f0f0f0ull);
  runOrFail(sw, "v_accvgpr_mov_b32 a1, a2");
  w.setExec(~0ull);
  for (unsigned l = 0; l < 64; ++l)
    EXPECT_EQ(w.v[isa::kAgprBase + 1][l], (l / 4) % 2 ? intInput(l, 0) : 7u)
        << "lane " << l;
}

void testNop(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  for (unsigned r = 0; r < 8; ++r)
    for (unsigned l = 0; l < 64; ++l)
      w.v[r][l] = intInput(l, r);
  runOrFail(sw, "v_nop");
  for (unsigned r = 0; r < 8; ++r)
    for (unsigned l = 0; l < 64; ++l)
      ASSERT_EQ(w.v[r][l], intInput(l, r));
}

// Rounding, fract, frexp -----------------------------------------------------

Expect roundTo(Fmt fmt, uint64_t a, APFloat::roundingMode mode) {
  APFloat v = toAPFloat(fmt, a);
  v.roundToIntegral(mode);
  return ieee(v);
}

/// v_rndne: IEEE round half to even. AMD's pseudocode (floor(x + 0.5),
/// then -1 on an even tie) gives +0 where IEEE keeps the sign of a zero
/// result; either zero is accepted.
Expect roundNearestEven(Fmt fmt, uint64_t a) {
  Expect e = roundTo(fmt, a, APFloat::rmNearestTiesToEven);
  if (e.kind == Expect::Exact && (e.bits & ~signBit(fmt)) == 0 &&
      !isNaNBits(fmt, a))
    e.kind = Expect::ZeroAny;
  return e;
}

/// v_fract: S0 + -floor(S0), at most the largest value below 1.0
/// (0x3bff, 0x3f7fffff, 0x3fefffffffffffff); infinities give NaN.
Expect fract(Fmt fmt, uint64_t a) {
  APFloat v = toAPFloat(fmt, a);
  if (v.isNaN() || v.isInfinity())
    return Expect::anyNaN();
  APFloat floor = v;
  floor.roundToIntegral(APFloat::rmTowardNegative);
  APFloat r = v;
  r.subtract(floor, APFloat::rmNearestTiesToEven);
  APFloat below1(semanticsOf(fmt), "1");
  below1.next(/*nextDown=*/true);
  if (r.compare(below1) == APFloat::cmpGreaterThan)
    r = below1;
  return ieee(r);
}

/// v_frexp_mant: the significand in [0.5, 1) with the sign of S0; S0 itself
/// for infinities and quiet NaNs (bit for bit, as the pseudocode's "D0 =
/// S0"); a signalling NaN gives a NaN (whether quieted is not said).
/// Zero gives a zero of its sign. Denormals are normalised, as C frexp and
/// LLVM's constant folding of llvm.amdgcn.frexp.mant do.
Expect frexpMant(Fmt fmt, uint64_t a) {
  APFloat v = toAPFloat(fmt, a);
  if (isSignalingBits(fmt, a))
    return Expect::within(NAN, 0);
  if (v.isNaN() || v.isInfinity())
    return Expect::exact(a);
  int exp;
  return Expect::exact(
      fromAPFloat(llvm::frexp(v, exp, APFloat::rmNearestTiesToEven)));
}

/// v_frexp_exp_i32: the exponent e with S0 = mant * 2^e; 0 for infinities,
/// NaNs and zeros (C frexp; LLVM folds llvm.amdgcn.frexp.exp the same way).
Expect frexpExp(Fmt fmt, uint64_t a) {
  APFloat v = toAPFloat(fmt, a);
  if (v.isNaN() || v.isInfinity() || v.isZero())
    return Expect::exact(0);
  int exp;
  llvm::frexp(v, exp, APFloat::rmNearestTiesToEven);
  return Expect::exact(uint32_t(exp));
}

// Transcendentals ------------------------------------------------------------

constexpr long double kTwoPi = 6.283185307179586476925286766559L;

enum class Trans { Exp, Log, Rcp, Rsq, Sqrt, Sin, Cos };

/// The exact-ish result of `op` on `x` (long double).
long double transcendental(Trans op, long double x) {
  switch (op) {
  case Trans::Exp:
    return std::exp2(x);
  case Trans::Log:
    return x == 0 ? -INFINITY : std::log2(x);
  case Trans::Rcp:
    return 1.0L / x;
  case Trans::Rsq:
    return 1.0L / std::sqrt(x);
  case Trans::Sqrt:
    return std::sqrt(x);
  case Trans::Sin:
  case Trans::Cos: {
    // The input is in revolutions: reduce it exactly first.
    long double r = x - std::nearbyint(x);
    return op == Trans::Sin ? std::sin(kTwoPi * r) : std::cos(kTwoPi * r);
  }
  }
  return 0;
}

/// The expected result of a transcendental on `a` in `fmt`, within
/// `ulps`; `flush` flushes denormal inputs and results to zero (inputs
/// only for v_rcp_f32).
Expect transRef(Trans op, Fmt fmt, uint64_t a, double ulps, bool flush) {
  bool flushResult = flush && !(op == Trans::Rcp && fmt == Fmt::F32);
  if (isNaNBits(fmt, a))
    return Expect::anyNaN();
  double x = toDouble(fmt, a);
  double minNormal = toDouble(
      fmt, fromAPFloat(APFloat::getSmallestNormalized(semanticsOf(fmt))));
  if (flush && x != 0 && std::fabs(x) < minNormal)
    x = std::signbit(x) ? -0.0 : 0.0;
  if ((op == Trans::Sin || op == Trans::Cos) && std::isinf(x))
    return Expect::anyNaN();
  if (op == Trans::Sin && x == 0)
    return Expect::exact(a & signBit(fmt)); // sin(-0) = -0.
  long double r = transcendental(op, x);
  if (op == Trans::Sqrt && x == 0)
    r = x; // sqrt(-0) = -0.
  if (std::isnan(r))
    return Expect::anyNaN();
  if (std::isinf(r))
    return Expect::exact(
        fromAPFloat(APFloat::getInf(semanticsOf(fmt), std::signbit(r))));
  if (flushResult && std::fabs(r) < minNormal) {
    // Results that round to the smallest normal may come out as it.
    if (std::fabs(r) >= minNormal * (1 - 0x1p-22))
      return Expect::skip();
    return Expect::exact(std::signbit(r) ? signBit(fmt) : 0);
  }
  // Near the zeros of sin and cos the relative error of any float
  // reduction of 2*pi*x explodes: an absolute bound of 2^-24 there too.
  bool periodic = op == Trans::Sin || op == Trans::Cos;
  return Expect::within(double(r), ulps, periodic ? 0x1p-24 : 0);
}

struct UnaryFloat {
  Fmt fmt;
  std::function<Expect(uint64_t)> ref;
  LaneSpec::High16 high16 = LaneSpec::Zeroed;
};

/// Every float unary instruction with its reference.
const std::map<std::string, UnaryFloat> &unaryFloatOps() {
  using R = APFloat::roundingMode;
  static const std::map<std::string, UnaryFloat> ops = [] {
    std::map<std::string, UnaryFloat> m;
    struct Trunc {
      const char *name;
      R mode;
    } rounding[] = {{"trunc", APFloat::rmTowardZero},
                    {"ceil", APFloat::rmTowardPositive},
                    {"floor", APFloat::rmTowardNegative}};
    for (Fmt fmt : {Fmt::F32, Fmt::F16, Fmt::F64}) {
      std::string suffix = fmt == Fmt::F32   ? "_f32"
                           : fmt == Fmt::F16 ? "_f16"
                                             : "_f64";
      for (const Trunc &t : rounding)
        m["v_" + std::string(t.name) + suffix] = {
            fmt,
            [fmt, mode = t.mode](uint64_t a) { return roundTo(fmt, a, mode); }};
      m["v_rndne" + suffix] = {
          fmt, [fmt](uint64_t a) { return roundNearestEven(fmt, a); }};
    }
    for (Fmt fmt : {Fmt::F32, Fmt::F16, Fmt::F64})
      m[fmt == Fmt::F32   ? "v_fract_f32"
        : fmt == Fmt::F16 ? "v_fract_f16"
                          : "v_fract_f64"] = {
          fmt, [fmt](uint64_t a) { return fract(fmt, a); }};
    for (Fmt fmt : {Fmt::F32, Fmt::F16, Fmt::F64})
      m[fmt == Fmt::F32   ? "v_frexp_mant_f32"
        : fmt == Fmt::F16 ? "v_frexp_mant_f16"
                          : "v_frexp_mant_f64"] = {
          fmt, [fmt](uint64_t a) { return frexpMant(fmt, a); }};
    // f32: "1ULP accuracy, denormals are flushed".
    struct T {
      const char *name;
      Trans op;
    } f32Trans[] = {{"v_exp_f32", Trans::Exp}, {"v_log_f32", Trans::Log},
                    {"v_rcp_f32", Trans::Rcp}, {"v_rcp_iflag_f32", Trans::Rcp},
                    {"v_rsq_f32", Trans::Rsq}, {"v_sqrt_f32", Trans::Sqrt},
                    {"v_sin_f32", Trans::Sin}, {"v_cos_f32", Trans::Cos}};
    for (const T &t : f32Trans) {
      bool flush = t.op != Trans::Sin && t.op != Trans::Cos;
      m[t.name] = {Fmt::F32, [op = t.op, flush](uint64_t a) {
                     return transRef(op, Fmt::F32, a, 1, flush);
                   }};
    }
    // f16: "1ULP accuracy", denormals supported.
    T f16Trans[] = {{"v_exp_f16", Trans::Exp},   {"v_log_f16", Trans::Log},
                    {"v_rcp_f16", Trans::Rcp},   {"v_rsq_f16", Trans::Rsq},
                    {"v_sqrt_f16", Trans::Sqrt}, {"v_sin_f16", Trans::Sin},
                    {"v_cos_f16", Trans::Cos}};
    for (const T &t : f16Trans)
      m[t.name] = {Fmt::F16, [op = t.op](uint64_t a) {
                     return transRef(op, Fmt::F16, a, 1, false);
                   }};
    // f64: "(2**29)ULP accuracy and supports denormals".
    T f64Trans[] = {{"v_rcp_f64", Trans::Rcp},
                    {"v_rsq_f64", Trans::Rsq},
                    {"v_sqrt_f64", Trans::Sqrt}};
    for (const T &t : f64Trans)
      m[t.name] = {Fmt::F64, [op = t.op](uint64_t a) {
                     return transRef(op, Fmt::F64, a, 0x1p29, false);
                   }};
    return m;
  }();
  return ops;
}

void testUnaryFloat(SingleWave &sw, const char *mnemonic) {
  const UnaryFloat &u = unaryFloatOps().at(mnemonic);
  FloatOp op;
  op.mnemonic = mnemonic;
  op.numSrcs = 1;
  op.src[0] = u.fmt;
  op.dst = u.fmt;
  op.rounds = floatRounds(u.fmt, 3);
  op.high16 = u.high16;
  op.ref = [&u](const uint64_t *s) { return u.ref(s[0]); };
  checkFloatOp(sw, op);
}

/// v_frexp_exp_i32_f32, v_frexp_exp_i32_f64 and v_frexp_exp_i16_f16 (an
/// i16 result).
void testFrexpExp(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  Fmt src = name.ends_with("f64")   ? Fmt::F64
            : name.ends_with("f16") ? Fmt::F16
                                    : Fmt::F32;
  FloatOp op;
  op.mnemonic = mnemonic;
  op.numSrcs = 1;
  op.src[0] = src;
  op.dst = src == Fmt::F16 ? Fmt::B16 : Fmt::B32;
  op.outputMods = false;
  op.rounds = floatRounds(src, 3);
  op.ref = [src](const uint64_t *s) {
    Expect e = frexpExp(src, s[0]);
    if (src == Fmt::F16)
      e.bits &= 0xffff;
    return e;
  };
  checkFloatOp(sw, op);
}

/// AMD's functional examples, bit for bit (the NaN these instructions
/// create is 0xffc00000 / 0xfe00).
TEST(Vop1Examples, Transcendentals) {
  struct Example {
    const char *mnemonic;
    uint32_t in, out;
  } examples[] = {
      {"v_exp_f32", 0xff800000, 0x00000000},
      {"v_exp_f32", 0x80000000, 0x3f800000},
      {"v_exp_f32", 0x7f800000, 0x7f800000},
      {"v_log_f32", 0xff800000, 0xffc00000},
      {"v_log_f32", 0xbf800000, 0xffc00000},
      {"v_log_f32", 0x80000000, 0xff800000},
      {"v_log_f32", 0x00000000, 0xff800000},
      {"v_log_f32", 0x3f800000, 0x00000000},
      {"v_log_f32", 0x7f800000, 0x7f800000},
      {"v_rcp_f32", 0xff800000, 0x80000000},
      {"v_rcp_f32", 0xc0000000, 0xbf000000},
      {"v_rcp_f32", 0x80000000, 0xff800000},
      {"v_rcp_f32", 0x00000000, 0x7f800000},
      {"v_rcp_f32", 0x7f800000, 0x00000000},
      {"v_rsq_f32", 0xff800000, 0xffc00000},
      {"v_rsq_f32", 0x80000000, 0xff800000},
      {"v_rsq_f32", 0x00000000, 0x7f800000},
      {"v_rsq_f32", 0x40800000, 0x3f000000},
      {"v_rsq_f32", 0x7f800000, 0x00000000},
      {"v_sqrt_f32", 0xff800000, 0xffc00000},
      {"v_sqrt_f32", 0x80000000, 0x80000000},
      {"v_sqrt_f32", 0x00000000, 0x00000000},
      {"v_sqrt_f32", 0x40800000, 0x40000000},
      {"v_sqrt_f32", 0x7f800000, 0x7f800000},
      {"v_sin_f32", 0xff800000, 0xffc00000},
      {"v_sin_f32", 0xff7fffff, 0x00000000},
      {"v_sin_f32", 0x80000000, 0x80000000},
      {"v_sin_f32", 0x3e800000, 0x3f800000},
      {"v_sin_f32", 0x7f800000, 0xffc00000},
      {"v_cos_f32", 0xff800000, 0xffc00000},
      {"v_cos_f32", 0xff7fffff, 0x3f800000},
      {"v_cos_f32", 0x80000000, 0x3f800000},
      {"v_cos_f32", 0x3e800000, 0x00000000},
      {"v_cos_f32", 0x7f800000, 0xffc00000},
      {"v_rcp_f16", 0xfc00, 0x8000},
      {"v_rcp_f16", 0xc000, 0xb800},
      {"v_rcp_f16", 0x8000, 0xfc00},
      {"v_rcp_f16", 0x0000, 0x7c00},
      {"v_rcp_f16", 0x7c00, 0x0000},
      {"v_sqrt_f16", 0xfc00, 0xfe00},
      {"v_sqrt_f16", 0x8000, 0x8000},
      {"v_sqrt_f16", 0x0000, 0x0000},
      {"v_sqrt_f16", 0x4400, 0x4000},
      {"v_sqrt_f16", 0x7c00, 0x7c00},
      {"v_rsq_f16", 0xfc00, 0xfe00},
      {"v_rsq_f16", 0x8000, 0xfc00},
      {"v_rsq_f16", 0x0000, 0x7c00},
      {"v_rsq_f16", 0x4400, 0x3800},
      {"v_rsq_f16", 0x7c00, 0x0000},
      {"v_log_f16", 0xfc00, 0xfe00},
      {"v_log_f16", 0xbc00, 0xfe00},
      {"v_log_f16", 0x8000, 0xfc00},
      {"v_log_f16", 0x0000, 0xfc00},
      {"v_log_f16", 0x3c00, 0x0000},
      {"v_log_f16", 0x7c00, 0x7c00},
      {"v_exp_f16", 0xfc00, 0x0000},
      {"v_exp_f16", 0x8000, 0x3c00},
      {"v_exp_f16", 0x7c00, 0x7c00},
  };
  for (const char *chip : {"gfx942", "gfx950"}) {
    SingleWave sw(*ChipInfo::lookup(chip));
    Wave &w = sw.wave();
    for (const Example &e : examples) {
      w.v[2][3] = e.in;
      runOrFail(sw, std::string(e.mnemonic) + " v0, v2");
      EXPECT_EQ(w.v[0][3], e.out)
          << chip << " " << e.mnemonic << "(" << hex(e.in) << ")";
    }
  }
}

// Conversions ----------------------------------------------------------------

/// A float to integer conversion: truncation toward zero, saturation to the
/// integer's range, NaN to 0.
uint64_t toInt(Fmt fmt, uint64_t a, unsigned bits, bool isSigned,
               APFloat::roundingMode mode = APFloat::rmTowardZero) {
  APFloat v = toAPFloat(fmt, a);
  if (v.isNaN())
    return 0;
  llvm::APSInt result(bits, !isSigned);
  bool exact;
  v.convertToInteger(result, mode, &exact); // Saturates.
  return result.getZExtValue() & (bits == 32 ? 0xffffffffull : 0xffffull);
}

Expect fromInt(Fmt fmt, uint64_t a, unsigned bits, bool isSigned) {
  APFloat r(semanticsOf(fmt));
  r.convertFromAPInt(llvm::APInt(bits, a), isSigned,
                     APFloat::rmNearestTiesToEven);
  return Expect::exact(fromAPFloat(r));
}

struct Conversion {
  Conversion() = default;
  Conversion(Fmt src, Fmt dst, std::function<Expect(uint64_t)> ref,
             bool inputMods, bool outputMods,
             LaneSpec::High16 high16 = LaneSpec::Zeroed,
             std::function<uint64_t(unsigned, unsigned)> input = nullptr)
      : src(src), dst(dst), ref(std::move(ref)), inputMods(inputMods),
        outputMods(outputMods), high16(high16), input(std::move(input)) {}
  Fmt src = Fmt::F32, dst = Fmt::F32;
  std::function<Expect(uint64_t)> ref;
  bool inputMods = true, outputMods = true;
  LaneSpec::High16 high16 = LaneSpec::Zeroed;
  std::function<uint64_t(unsigned, unsigned)> input;
};

std::function<uint64_t(unsigned, unsigned)> intInputs() {
  return [](unsigned i, unsigned op) -> uint64_t { return intInput(i, op); };
}

const std::map<std::string, Conversion> &conversions() {
  static const std::map<std::string, Conversion> ops = [] {
    std::map<std::string, Conversion> m;
    m["v_cvt_f32_i32"] = Conversion(
        Fmt::B32, Fmt::F32,
        [](uint64_t a) { return fromInt(Fmt::F32, a, 32, true); }, false, true,
        LaneSpec::Zeroed, intInputs());
    m["v_cvt_f32_u32"] = Conversion(
        Fmt::B32, Fmt::F32,
        [](uint64_t a) { return fromInt(Fmt::F32, a, 32, false); }, false, true,
        LaneSpec::Zeroed, intInputs());
    m["v_cvt_i32_f32"] = Conversion(
        Fmt::F32, Fmt::B32,
        [](uint64_t a) { return Expect::exact(toInt(Fmt::F32, a, 32, true)); },
        true, false);
    m["v_cvt_u32_f32"] = Conversion(
        Fmt::F32, Fmt::B32,
        [](uint64_t a) { return Expect::exact(toInt(Fmt::F32, a, 32, false)); },
        true, false);
    // floor(S0 + 0.5): where the f32 sum is inexact, AMD's pseudocode
    // (an f32 addition) and the exact sum may differ: not checked there.
    m["v_cvt_rpi_i32_f32"] = Conversion(
        Fmt::F32, Fmt::B32,
        [](uint64_t a) {
          APFloat sum = toAPFloat(Fmt::F32, a);
          if (sum.add(APFloat(0.5f), APFloat::rmNearestTiesToEven) &
              APFloat::opInexact)
            return Expect::skip();
          return Expect::exact(toInt(Fmt::F32, fromAPFloat(sum), 32, true,
                                     APFloat::rmTowardNegative));
        },
        true, false);
    m["v_cvt_flr_i32_f32"] = Conversion(
        Fmt::F32, Fmt::B32,
        [](uint64_t a) {
          return Expect::exact(
              toInt(Fmt::F32, a, 32, true, APFloat::rmTowardNegative));
        },
        true, false);
    m["v_cvt_f16_f32"] = Conversion(
        Fmt::F32, Fmt::F16,
        [](uint64_t a) {
          return ieee(apConvert(toAPFloat(Fmt::F32, a), Fmt::F16));
        },
        true, true);
    m["v_cvt_f32_f16"] = Conversion(
        Fmt::F16, Fmt::F32,
        [](uint64_t a) {
          return ieee(apConvert(toAPFloat(Fmt::F16, a), Fmt::F32));
        },
        true, true);
    // { S0.b16, 16'0 }: the bits move, NaNs included.
    m["v_cvt_f32_bf16"] = Conversion(
        Fmt::BF16, Fmt::F32, [](uint64_t a) { return Expect::exact(a << 16); },
        true, false);
    m["v_cvt_f16_u16"] = Conversion(
        Fmt::B16, Fmt::F16,
        [](uint64_t a) { return fromInt(Fmt::F16, a & 0xffff, 16, false); },
        false, true, LaneSpec::Zeroed, intInputs());
    m["v_cvt_f16_i16"] = Conversion(
        Fmt::B16, Fmt::F16,
        [](uint64_t a) { return fromInt(Fmt::F16, a & 0xffff, 16, true); },
        false, true, LaneSpec::Zeroed, intInputs());
    // "Conversion is done with truncation."
    m["v_cvt_u16_f16"] = Conversion(
        Fmt::F16, Fmt::B16,
        [](uint64_t a) { return Expect::exact(toInt(Fmt::F16, a, 16, false)); },
        true, false, LaneSpec::AnyHigh);
    m["v_cvt_i16_f16"] = Conversion(
        Fmt::F16, Fmt::B16,
        [](uint64_t a) { return Expect::exact(toInt(Fmt::F16, a, 16, true)); },
        true, false, LaneSpec::AnyHigh);
    for (unsigned byte = 0; byte < 4; ++byte)
      m["v_cvt_f32_ubyte" + std::to_string(byte)] = Conversion(
          Fmt::B32, Fmt::F32,
          [byte](uint64_t a) {
            return fromInt(Fmt::F32, (a >> (8 * byte)) & 0xff, 32, false);
          },
          false, false, LaneSpec::Zeroed, intInputs());
    m["v_cvt_f32_f64"] = Conversion(
        Fmt::F64, Fmt::F32,
        [](uint64_t a) {
          return ieee(apConvert(toAPFloat(Fmt::F64, a), Fmt::F32));
        },
        true, true);
    m["v_cvt_i32_f64"] = Conversion(
        Fmt::F64, Fmt::B32,
        [](uint64_t a) { return Expect::exact(toInt(Fmt::F64, a, 32, true)); },
        true, false);
    m["v_cvt_u32_f64"] = Conversion(
        Fmt::F64, Fmt::B32,
        [](uint64_t a) { return Expect::exact(toInt(Fmt::F64, a, 32, false)); },
        true, false);
    m["v_cvt_f64_f32"] = Conversion(
        Fmt::F32, Fmt::F64,
        [](uint64_t a) {
          return ieee(apConvert(toAPFloat(Fmt::F32, a), Fmt::F64));
        },
        true, true);
    m["v_cvt_f64_i32"] = Conversion(
        Fmt::B32, Fmt::F64,
        [](uint64_t a) { return fromInt(Fmt::F64, a, 32, true); }, false, false,
        LaneSpec::Zeroed, intInputs());
    m["v_cvt_f64_u32"] = Conversion(
        Fmt::B32, Fmt::F64,
        [](uint64_t a) { return fromInt(Fmt::F64, a, 32, false); }, false,
        false, LaneSpec::Zeroed, intInputs());
    return m;
  }();
  return ops;
}

void testConversion(SingleWave &sw, const char *mnemonic) {
  const Conversion &c = conversions().at(mnemonic);
  FloatOp op;
  op.mnemonic = mnemonic;
  op.numSrcs = 1;
  op.src[0] = c.src;
  op.dst = c.dst;
  op.inputMods = c.inputMods;
  op.outputMods = c.outputMods;
  op.high16 = c.high16;
  op.input = c.input;
  op.rounds = c.input ? 3 : floatRounds(c.src, 3);
  op.ref = [&c](const uint64_t *s) { return c.ref(s[0]); };
  checkFloatOp(sw, op);
}

// fp8 conversions ------------------------------------------------------------

/// The chip's fp8 (E4M3) or bf8 (E5M2) format: FNUZ on gfx942, OCP on
/// gfx950 (AMD CDNA3 and CDNA4 ISA references).
const llvm::fltSemantics &fp8Semantics(SingleWave &sw, bool bf8) {
  if (isGfx950(sw))
    return bf8 ? APFloat::Float8E5M2() : APFloat::Float8E4M3FN();
  return bf8 ? APFloat::Float8E5M2FNUZ() : APFloat::Float8E4M3FNUZ();
}

Expect fp8ToF32(const llvm::fltSemantics &sem, uint64_t byte) {
  APFloat v(sem, llvm::APInt(8, byte & 0xff));
  return ieee(apConvert(v, Fmt::F32));
}

/// v_cvt_f32_{fp8,bf8}: the byte SDWA's src0_sel (or VOP3 op_sel on
/// gfx950) names, every byte value in every byte position.
void testCvtF32Fp8(SingleWave &sw, const char *mnemonic) {
  bool bf8 = llvm::StringRef(mnemonic).contains("bf8");
  const llvm::fltSemantics &sem = fp8Semantics(sw, bf8);
  for (unsigned byte = 0; byte < 4; ++byte) {
    std::vector<std::string> texts = {std::string(mnemonic) +
                                      "_sdwa v0, v2 src0_sel:BYTE_" +
                                      std::to_string(byte)};
    if (byte == 0)
      texts.push_back(std::string(mnemonic) + " v0, v2");
    for (const std::string &text : texts) {
      LaneSpec spec;
      spec.text = text;
      spec.numSrcs = 1;
      spec.dst = Fmt::F32;
      spec.rounds = 4;
      // Every byte value in the selected byte over the rounds, random
      // bytes around it.
      spec.input = [byte](unsigned i, unsigned) -> uint64_t {
        uint64_t other = uint32_t(mixBits(i)) & ~(0xffu << (8 * byte));
        return other | uint64_t(i & 0xff) << (8 * byte);
      };
      spec.ref = [&sem, byte](const uint64_t *s, uint64_t) {
        return fp8ToF32(sem, s[0] >> (8 * byte));
      };
      checkLanes(sw, spec);
    }
  }
}

/// v_cvt_pk_f32_{fp8,bf8}: the two bytes of word 0 (or word 1 with
/// src0_sel:WORD_1) to v[0:1].
void testCvtPkF32Fp8(SingleWave &sw, const char *mnemonic) {
  bool bf8 = llvm::StringRef(mnemonic).contains("bf8");
  const llvm::fltSemantics &sem = fp8Semantics(sw, bf8);
  Wave &w = sw.wave();
  for (unsigned word = 0; word < 2; ++word) {
    std::string text =
        std::string(mnemonic) +
        (word ? "_sdwa v[0:1], v2 src0_sel:WORD_1" : " v[0:1], v2");
    for (unsigned round = 0; round < 4; ++round) {
      for (unsigned l = 0; l < 64; ++l) {
        uint32_t bytes = (round * 64 + l) & 0xff;
        uint32_t pair = bytes | (((bytes * 37 + 11) & 0xff) << 8);
        uint32_t other = uint32_t(mixBits(l + round * 64)) & 0xffff;
        w.v[2][l] = word ? (pair << 16) | other : (other << 16) | pair;
      }
      runOrFail(sw, text);
      Mismatches bad(text);
      for (unsigned l = 0; l < 64; ++l) {
        uint32_t pair = w.v[2][l] >> (16 * word);
        for (unsigned h = 0; h < 2; ++h) {
          std::string why;
          if (!matches(Fmt::F32, w.v[h][l], fp8ToF32(sem, pair >> (8 * h)),
                       why))
            bad.add("lane " + std::to_string(l) + " byte " +
                    hex((pair >> (8 * h)) & 0xff) + ": got " + hex(w.v[h][l]) +
                    ", " + why);
        }
      }
    }
  }
}

/// v_cvt_off_f32_i4: the signed nibble S0[3:0] over 16 (AMD's table runs
/// from 1000b = -0.5 to 0111b = 0.4375), whatever the higher bits.
void testCvtOff(SingleWave &sw, const char *mnemonic) {
  LaneSpec spec;
  spec.text = std::string(mnemonic) + " v0, v2";
  spec.numSrcs = 1;
  spec.dst = Fmt::F32;
  spec.input = [](unsigned i, unsigned) -> uint64_t {
    return (intInput(i, 0) & ~15u) | (i & 15);
  };
  spec.ref = [](const uint64_t *s, uint64_t) {
    static const float table[16] = {
        0,    0.0625,  0.125,  0.1875,  0.25,  0.3125,  0.375,  0.4375,
        -0.5, -0.4375, -0.375, -0.3125, -0.25, -0.1875, -0.125, -0.0625};
    return Expect::exact(fromAPFloat(APFloat(table[s[0] & 15])));
  };
  checkLanes(sw, spec);
}

/// v_sat_pk_u8_i16: each signed half of S0 clamped to [0, 255], the low
/// half's byte first; D[31:16] zero.
void testSatPk(SingleWave &sw, const char *mnemonic) {
  LaneSpec spec;
  spec.text = std::string(mnemonic) + " v0, v2";
  spec.numSrcs = 1;
  spec.rounds = 3;
  spec.input = [](unsigned i, unsigned) -> uint64_t {
    static const uint16_t edges[] = {0,      1,      255,    256,
                                     0x7fff, 0x8000, 0xffff, 128};
    if (i % 2)
      return edges[i / 2 % 8] | uint32_t(edges[(i / 2 + 3) % 8]) << 16;
    return intInput(i, 0);
  };
  spec.ref = [](const uint64_t *s, uint64_t) {
    uint32_t r = 0;
    for (unsigned h = 0; h < 2; ++h) {
      int v = int16_t(uint16_t(s[0] >> (16 * h)));
      r |= uint32_t(v < 0 ? 0 : v > 255 ? 255 : v) << (8 * h);
    }
    return Expect::exact(r);
  };
  checkLanes(sw, spec);
}

/// v_cvt_norm_{i16,u16}_f16: the f16 clamped to [-1, 1] ([0, 1]), times
/// 32767 (65535), rounded to nearest even, in the low half (high half
/// zero). NaN inputs are not checked: the documents do not say.
void testCvtNormF16(SingleWave &sw, const char *mnemonic) {
  bool isSigned = llvm::StringRef(mnemonic).contains("_i16_");
  LaneSpec spec;
  spec.text = std::string(mnemonic) + " v0, v2";
  spec.numSrcs = 1;
  spec.input = [](unsigned i, unsigned) -> uint64_t { return f16Input(i, 0); };
  spec.rounds = f16Rounds(2);
  spec.ref = [isSigned](const uint64_t *s, uint64_t) {
    if (isNaNBits(Fmt::F16, s[0] & 0xffff))
      return Expect::skip();
    double x = std::clamp(toDouble(Fmt::F16, s[0] & 0xffff),
                          isSigned ? -1.0 : 0.0, 1.0);
    double scaled = std::nearbyint(x * (isSigned ? 32767.0 : 65535.0));
    return Expect::exact(uint32_t(int32_t(scaled)) & 0xffff);
  };
  checkLanes(sw, spec);
}

std::vector<InstructionCase> vop1Cases() {
  std::vector<InstructionCase> cases;
  for (const auto &entry : intOps())
    cases.push_back({entry.first.c_str(), kBothChips, testIntOp});
  for (const auto &entry : unaryFloatOps())
    cases.push_back({entry.first.c_str(), kBothChips, testUnaryFloat});
  for (const auto &entry : conversions())
    cases.push_back({entry.first.c_str(),
                     entry.first == "v_cvt_f32_bf16" ? "gfx950" : kBothChips,
                     testConversion});
  for (const char *name :
       {"v_frexp_exp_i32_f32", "v_frexp_exp_i32_f64", "v_frexp_exp_i16_f16"})
    cases.push_back({name, kBothChips, testFrexpExp});
  cases.push_back({"v_mov_b64", kBothChips, testMovB64});
  cases.push_back({"v_cvt_off_f32_i4", kBothChips, testCvtOff});
  cases.push_back({"v_cvt_norm_i16_f16", kBothChips, testCvtNormF16});
  cases.push_back({"v_cvt_norm_u16_f16", kBothChips, testCvtNormF16});
  cases.push_back({"v_sat_pk_u8_i16", kBothChips, testSatPk});
  cases.push_back({"v_readfirstlane_b32", kBothChips, testReadfirstlane});
  cases.push_back({"v_swap_b32", kBothChips, testSwap});
  cases.push_back({"v_permlane16_swap_b32", "gfx950", testPermlaneSwap});
  cases.push_back({"v_permlane32_swap_b32", "gfx950", testPermlaneSwap});
  cases.push_back({"v_accvgpr_mov_b32", kBothChips, testAccvgprMov});
  cases.push_back({"v_nop", kBothChips, testNop});
  cases.push_back({"v_cvt_f32_fp8", kBothChips, testCvtF32Fp8});
  cases.push_back({"v_cvt_f32_bf8", kBothChips, testCvtF32Fp8});
  cases.push_back({"v_cvt_pk_f32_fp8", kBothChips, testCvtPkF32Fp8});
  cases.push_back({"v_cvt_pk_f32_bf8", kBothChips, testCvtPkF32Fp8});
  return cases;
}

const std::vector<InstructionCase> kVop1Cases = vop1Cases();
HK_INSTRUCTION_CASES(Vop1, kVop1Cases);

} // namespace
