//===- Vector.cpp - Vector ALU instructions
//---------------------------------===//

#include "Valu.h"

#include "llvm/ADT/APInt.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace hk;
using namespace hk::emu;

// Source preparation
// ------------------------------------------------------------

/// The lane a DPP control reads for `lane`, or -1 when out of range.
static int dppSourceLane(uint16_t ctrl, unsigned lane) {
  unsigned row = lane / 16, r = lane % 16;
  if (ctrl <= 0xff)
    return int((lane & ~3u) | ((ctrl >> (2 * (lane & 3))) & 3));
  if (ctrl >= 0x101 && ctrl <= 0x10f) {
    unsigned n = ctrl - 0x100;
    return r + n < 16 ? int(lane + n) : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11f) {
    unsigned n = ctrl - 0x110;
    return r >= n ? int(lane - n) : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12f)
    return int(row * 16 + ((r - (ctrl - 0x120)) & 15));
  if (ctrl >= 0x150 && ctrl <= 0x15f)
    return int(row * 16 + (ctrl - 0x150));
  switch (ctrl) {
  case 0x130:
    return lane < 63 ? int(lane + 1) : -1;
  case 0x134:
    return int((lane + 1) & 63);
  case 0x138:
    return lane > 0 ? int(lane - 1) : -1;
  case 0x13c:
    return int((lane + 63) & 63);
  case 0x140:
    return int(row * 16 + 15 - r);
  case 0x141:
    return int((lane & ~7u) | (7 - (lane & 7)));
  case 0x142:
    return row > 0 ? int(row * 16 - 1) : -1;
  case 0x143:
    return lane >= 32 ? 31 : -1;
  default:
    return -1;
  }
}

static uint32_t sdwaSelect(uint32_t value, uint8_t sel, bool sext) {
  if (sel <= 3) {
    uint32_t byte = (value >> (8 * sel)) & 0xff;
    return sext ? uint32_t(int32_t(int8_t(byte))) : byte;
  }
  if (sel <= 5) {
    uint32_t word = (value >> (16 * (sel - 4))) & 0xffff;
    return sext ? uint32_t(int32_t(int16_t(word))) : word;
  }
  return value;
}

void hk::emu::prepareSources(const Wave &w, const Instr &in, unsigned numSrcs,
                             ValuSources &s) {
  const Operand *o = srcOperands(in);
  uint64_t exec = w.exec();
  s.mask = exec;
  for (unsigned i = 0; i < 3; ++i)
    s.src[i] =
        i < numSrcs ? viewOf(w, o[i], 0, s.tmp[i]) : SrcView{&s.tmp[i], 0};
  if (in.isDpp() && numSrcs > 0) {
    uint64_t allowed = 0;
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      unsigned row = lane / 16, bank = (lane / 4) & 3;
      if (!((in.rowMask >> row) & 1) || !((in.bankMask >> bank) & 1))
        continue;
      int from = dppSourceLane(in.dppCtrl, lane);
      bool valid = from >= 0 && ((exec >> from) & 1);
      if (valid) {
        s.buf[0][lane] = s.src[0][unsigned(from)];
      } else if (in.boundCtrl) {
        s.buf[0][lane] = 0;
      } else {
        continue;
      }
      allowed |= 1ull << lane;
    }
    s.mask &= allowed;
    s.src[0] = {s.buf[0], 1};
  }
  if (in.isSdwa()) {
    for (unsigned i = 0; i < std::min(numSrcs, 2u); ++i) {
      uint8_t sel = i == 0 ? in.src0Sel : in.src1Sel;
      if (sel == 6 && !o[i].sext)
        continue;
      for (unsigned lane = 0; lane < kWaveSize; ++lane)
        s.buf[i][lane] = sdwaSelect(s.src[i][lane], sel, o[i].sext);
      s.src[i] = {s.buf[i], 1};
    }
  }
}

void hk::emu::writeSdwaResult(Wave &w, const Instr &in, unsigned lane,
                              uint32_t value) {
  uint32_t &dst = w.v[vgprIndex(in.ops[0], 0)][lane];
  if (in.dstSel == 6) {
    dst = value;
    return;
  }
  unsigned shift = in.dstSel <= 3 ? 8 * in.dstSel : 16 * (in.dstSel - 4);
  unsigned width = in.dstSel <= 3 ? 8 : 16;
  uint32_t fieldMask = ((1u << width) - 1) << shift;
  uint32_t field = (value << shift) & fieldMask;
  switch (in.dstUnused) {
  case 2: // UNUSED_PRESERVE
    dst = (dst & ~fieldMask) | field;
    return;
  case 1: { // UNUSED_SEXT: bits above the field copy its sign.
    bool sign = (field >> (shift + width - 1)) & 1;
    uint32_t above = shift + width >= 32 ? 0 : ~0u << (shift + width);
    dst = field | (sign ? above : 0);
    return;
  }
  default:
    dst = field;
  }
}

// Helpers
// -------------------------------------------------------------------------

/// Whether `x` is a signalling NaN (its quiet bit, the mantissa's top bit,
/// clear).
template <typename T> static bool isSignalingNaN(T x) {
  if (!std::isnan(x))
    return false;
  if constexpr (sizeof(T) == 8)
    return !((f64ToBits(x) >> 51) & 1);
  else
    return !((f32ToBits(x) >> 22) & 1);
}

/// IEEE maxNum/minNum (IEEE mode on, AMD's pseudocode): a signalling NaN
/// operand yields a quiet NaN, a quiet NaN operand the other one; +0 orders
/// above -0.
template <typename T> static T fmaxIeee(T a, T b) {
  if (isSignalingNaN(a) || isSignalingNaN(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename T> static T fminIeee(T a, T b) {
  if (isSignalingNaN(a) || isSignalingNaN(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
/// IEEE 754-2019 minimum/maximum (gfx950 v_minimum3/v_maximum3): NaN
/// propagates and -0 orders below +0.
static float fminimum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
static float fmaximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
static float fmed3(float a, float b, float c) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c))
    return fminIeee(fminIeee(a, b), c);
  float hi = fmaxIeee(fmaxIeee(a, b), c);
  if (hi == a)
    return fmaxIeee(b, c);
  if (hi == b)
    return fmaxIeee(a, c);
  return fmaxIeee(a, b);
}
template <typename T> static T med3(T a, T b, T c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

/// v_exp/log/rcp/rsq/sqrt_f32 flush denormal inputs and results to zero
/// (AMD CDNA3/CDNA4 ISA: "denormals are flushed"); their f16 forms, which
/// evaluate in f32, never see f32 denormals.
template <typename F> static float flushed(float x, F f) {
  return flushSubnormal(float(f(double(flushSubnormal(x)))));
}
static float exp2Op(float x) {
  return flushed(x, [](double v) { return std::exp2(v); });
}
static float log2Op(float x) {
  return flushed(x, [](double v) {
    return v == 0 ? -std::numeric_limits<double>::infinity() : std::log2(v);
  });
}
/// v_rcp_f32 flushes a denormal input but keeps a denormal result: LLVM's
/// f32 division sequence takes the reciprocal of denominators up to the
/// largest float unscaled (v_div_scale scales only the numerator there)
/// and is correctly rounded only if the reciprocal keeps its denormal.
static float rcpOp(float x) { return float(1.0 / double(flushSubnormal(x))); }
static float rsqOp(float x) {
  return flushed(x, [](double v) { return 1.0 / std::sqrt(v); });
}
static float sqrtOp(float x) {
  return flushed(x, [](double v) { return std::sqrt(v); });
}
/// Sine and cosine take their input in revolutions. Whole quarter
/// revolutions are removed exactly first (x - q/4 is exact in double for
/// any f32 x), so that large inputs keep their period and quarter points are
/// exact: sin(-MaxFloat) = 0, sin(0.25) = 1, cos(0.25) = 0, as AMD's
/// functional examples give.
static float sinCosOp(float x, bool cosine) {
  if (std::isinf(x) || std::isnan(x))
    return x - x;
  if (x == 0)
    return cosine ? 1.0f : x; // sin(-0) = -0.
  double quarters = std::nearbyint(4.0 * double(x));
  double angle = (double(x) - quarters / 4.0) * 2.0 * M_PI;
  unsigned quadrant = unsigned(int64_t(std::fmod(quarters, 4.0)) & 3);
  if (cosine)
    quadrant = (quadrant + 1) & 3;
  double r = quadrant == 0   ? std::sin(angle)
             : quadrant == 1 ? std::cos(angle)
             : quadrant == 2 ? -std::sin(angle)
                             : -std::cos(angle);
  // An exact zero away from x = 0 is +0 (cos(0.25) = 0x00000000).
  return r == 0 ? 0.0f : float(r);
}
static float sinOp(float x) { return sinCosOp(x, false); }
static float cosOp(float x) { return sinCosOp(x, true); }
/// frexp's exponent, 0 for zeros, infinities and NaNs (AMD ISA).
template <typename T> static int32_t frexpExponent(T f) {
  if (std::isnan(f) || std::isinf(f) || f == 0)
    return 0;
  int e;
  std::frexp(f, &e);
  return e;
}
template <typename T> static T frexpMantissa(T f) {
  if (std::isnan(f) || std::isinf(f))
    return f;
  int e;
  return std::frexp(f, &e);
}

/// x - floor(x), at most the largest value below 1 (0x3f7fffff,
/// 0x3fefffffffffffff); infinities and NaNs give NaN.
template <typename T> static T fractOp(T x) {
  const T belowOne = std::nextafter(T(1), T(0));
  T r = x - std::floor(x);
  return r > belowOne ? belowOne : r;
}

/// The v_cmp_class bit of the float with bit pattern `bits` (AMD ISA,
/// V_CMP_CLASS: 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
/// 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf), read from
/// the encoding so that subnormals and NaN kinds are those of the type.
template <unsigned ExpBits, unsigned ManBits>
static uint32_t floatClass(uint64_t bits, const Operand &mods) {
  constexpr uint64_t signBit = 1ull << (ExpBits + ManBits);
  if (mods.abs)
    bits &= ~signBit;
  if (mods.neg)
    bits ^= signBit;
  bool neg = bits & signBit;
  uint64_t exponent = (bits >> ManBits) & ((1ull << ExpBits) - 1);
  uint64_t mantissa = bits & ((1ull << ManBits) - 1);
  if (exponent == (1ull << ExpBits) - 1) {
    if (mantissa == 0)
      return neg ? 1u << 2 : 1u << 9;
    return (mantissa >> (ManBits - 1)) & 1 ? 1u << 1 : 1u << 0;
  }
  if (exponent == 0)
    return mantissa == 0 ? (neg ? 1u << 5 : 1u << 6)
                         : (neg ? 1u << 4 : 1u << 7);
  return neg ? 1u << 3 : 1u << 8;
}

// Compares
// ------------------------------------------------------------------------

enum class CmpPred {
  False,
  Lt,
  Eq,
  Le,
  Gt,
  Lg,
  Ge,
  O,
  U,
  Nge,
  Nlg,
  Ngt,
  Nle,
  Neq,
  Nlt,
  True
};

template <CmpPred P, typename T> static bool compare(T a, T b) {
  bool unordered = false;
  if constexpr (std::is_floating_point_v<T>)
    unordered = std::isnan(a) || std::isnan(b);
  switch (P) {
  case CmpPred::False:
    return false;
  case CmpPred::Lt:
    return !unordered && a < b;
  case CmpPred::Eq:
    return !unordered && a == b;
  case CmpPred::Le:
    return !unordered && a <= b;
  case CmpPred::Gt:
    return !unordered && a > b;
  case CmpPred::Lg:
    return !unordered && a != b;
  case CmpPred::Ge:
    return !unordered && a >= b;
  case CmpPred::O:
    return !unordered;
  case CmpPred::U:
    return unordered;
  case CmpPred::Nge:
    return !(a >= b);
  case CmpPred::Nlg:
    return !(a < b || a > b);
  case CmpPred::Ngt:
    return !(a > b);
  case CmpPred::Nle:
    return !(a <= b);
  case CmpPred::Neq:
    return !(a == b);
  case CmpPred::Nlt:
    return !(a < b);
  case CmpPred::True:
    return true;
  }
  return false;
}

enum class CmpType { F16, F32, F64, I16, U16, I32, U32, I64, U64 };

constexpr bool is64Bit(CmpType t) {
  return t == CmpType::F64 || t == CmpType::I64 || t == CmpType::U64;
}

/// Writes a compare result mask to the destination (vcc or SGPR pair) and,
/// for v_cmpx, to exec as well.
static void writeMask(Wave &w, const Operand &dst, uint64_t result,
                      bool toExec) {
  if (dst.kind == OpKind::Sgpr) {
    writeSgpr(w, dst, 0, uint32_t(result));
    if (dst.count > 1 || dst.reg == kVccLo || dst.reg == kExecLo)
      writeSgpr(w, dst, 1, uint32_t(result >> 32));
  }
  if (toExec)
    w.setExec(result);
}

/// Calls f(lane, a, b) with each active lane's 64-bit sources.
template <typename F> static void forEachLane64(Wave &w, const Instr &in, F f) {
  const Operand *o = srcOperands(in);
  uint32_t t[4] = {0, 0, 0, 0};
  SrcView a0 = viewOf(w, o[0], 0, t[0]), a1 = viewOf(w, o[0], 1, t[1]);
  SrcView b0 = viewOf(w, o[1], 0, t[2]), b1 = viewOf(w, o[1], 1, t[3]);
  forEachLane(w.exec(), [&](unsigned l) {
    f(l, a0[l] | (uint64_t(a1[l]) << 32), b0[l] | (uint64_t(b1[l]) << 32));
  });
}

/// v_cmp[x]_<pred>_<type>.
template <CmpType T, CmpPred P, bool ToExec>
static void vcmp(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  uint64_t result = 0;
  if constexpr (is64Bit(T)) {
    forEachLane64(w, in, [&](unsigned l, uint64_t a, uint64_t b) {
      bool r;
      if constexpr (T == CmpType::F64)
        r = compare<P>(applyFloatMods(bitsToF64(a), o[0]),
                       applyFloatMods(bitsToF64(b), o[1]));
      else if constexpr (T == CmpType::I64)
        r = compare<P>(int64_t(a), int64_t(b));
      else
        r = compare<P>(a, b);
      result |= uint64_t(r) << l;
    });
  } else {
    ValuSources s;
    prepareSources(w, in, 2, s);
    forEachLane(s.mask, [&](unsigned l) {
      uint32_t a = s.src[0][l], b = s.src[1][l];
      bool r;
      if constexpr (T == CmpType::F16)
        r = compare<P>(f16Src(a, in, 0), f16Src(b, in, 1));
      else if constexpr (T == CmpType::F32)
        r = compare<P>(applyFloatMods(bitsToF32(a), o[0]),
                       applyFloatMods(bitsToF32(b), o[1]));
      else if constexpr (T == CmpType::I16)
        r = compare<P>(int16_t(half(a, in, 0)), int16_t(half(b, in, 1)));
      else if constexpr (T == CmpType::U16)
        r = compare<P>(half(a, in, 0), half(b, in, 1));
      else if constexpr (T == CmpType::I32)
        r = compare<P>(int32_t(a), int32_t(b));
      else
        r = compare<P>(a, b);
      result |= uint64_t(r) << l;
    });
  }
  writeMask(w, in.ops[0], result, ToExec);
}

/// v_cmp[x]_class_<type>: S0 tested against the class mask S1.
template <CmpType T, bool ToExec>
static void vcmpClass(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  uint64_t result = 0;
  if constexpr (T == CmpType::F64) {
    forEachLane64(w, in, [&](unsigned l, uint64_t a, uint64_t b) {
      bool r = floatClass<11, 52>(a, o[0]) & uint32_t(b);
      result |= uint64_t(r) << l;
    });
  } else {
    ValuSources s;
    prepareSources(w, in, 2, s);
    forEachLane(s.mask, [&](unsigned l) {
      uint32_t a = s.src[0][l], b = s.src[1][l];
      uint32_t cls = T == CmpType::F16 ? floatClass<5, 10>(half(a, in, 0), o[0])
                                       : floatClass<8, 23>(a, o[0]);
      result |= uint64_t((cls & b) != 0) << l;
    });
  }
  writeMask(w, in.ops[0], result, ToExec);
}

// Lane-crossing and special moves
// ---------------------------------------------------

static void vReadlane(Wave &w, const Instr &in) {
  unsigned lane = readScalar(w, in.ops[2]) & 63;
  writeSgpr(w, in.ops[0], 0, w.v[vgprIndex(in.ops[1], 0)][lane]);
}

static void vReadfirstlane(Wave &w, const Instr &in) {
  uint64_t exec = w.exec();
  unsigned lane = exec ? __builtin_ctzll(exec) : 0;
  uint32_t tmp;
  SrcView v = viewOf(w, in.ops[1], 0, tmp);
  writeSgpr(w, in.ops[0], 0, v[lane]);
}

static void vWritelane(Wave &w, const Instr &in) {
  unsigned lane = readScalar(w, in.ops[2]) & 63;
  w.v[vgprIndex(in.ops[0], 0)][lane] = readScalar(w, in.ops[1]);
}

static void vSwap(Wave &w, const Instr &in) {
  uint32_t *a = w.v[vgprIndex(in.ops[0], 0)];
  uint32_t *b = w.v[vgprIndex(in.ops[1], 0)];
  forEachLane(w.exec(), [&](unsigned l) { std::swap(a[l], b[l]); });
}

static void vMbcntLo(Wave &w, const Instr &in) {
  ValuSources s;
  prepareSources(w, in, 2, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t below = l >= 32 ? ~0u : ((1u << l) - 1);
    dst[l] = __builtin_popcount(s.src[0][l] & below) + s.src[1][l];
  });
}

static void vMbcntHi(Wave &w, const Instr &in) {
  ValuSources s;
  prepareSources(w, in, 2, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t below = l < 32 ? 0 : (l == 32 ? 0 : ((1u << (l - 32)) - 1));
    dst[l] = __builtin_popcount(s.src[0][l] & below) + s.src[1][l];
  });
}

static void vCndmask(Wave &w, const Instr &in) {
  uint64_t select = readScalar64(w, in.ops[3]);
  if (in.ops[3].kind == OpKind::Sgpr && in.ops[3].count == 1 &&
      in.ops[3].reg != kVccLo)
    select = readScalar(w, in.ops[3]);
  const Operand *o = srcOperands(in);
  bool mods = o[0].neg || o[0].abs || o[1].neg || o[1].abs;
  ValuSources s;
  prepareSources(w, in, 2, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t a = s.src[0][l], b = s.src[1][l];
    if (mods) {
      a = f32ToBits(applyFloatMods(bitsToF32(a), o[0]));
      b = f32ToBits(applyFloatMods(bitsToF32(b), o[1]));
    }
    uint32_t r = (select >> l) & 1 ? b : a;
    if (in.isSdwa())
      writeSdwaResult(w, in, l, r);
    else
      dst[l] = r;
  });
}

/// Carry-out adds and subtracts: v_add_co_u32 vdst, sdst, s0, s1 [, cin];
/// with clamp an overflowing result saturates (to 0xffffffff, or 0 for a
/// borrow).
template <bool Subtract, bool Reverse, bool WithCarry>
static void vAddCarry(Wave &w, const Instr &in) {
  constexpr bool subtract = Subtract, reverse = Reverse, withCarry = WithCarry;
  uint64_t carryIn = withCarry ? readScalar64(w, in.ops[4]) : 0;
  ValuSources s;
  prepareSources(w, in, 2, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  uint64_t carryOut = 0;
  forEachLane(s.mask, [&](unsigned l) {
    uint64_t a = s.src[0][l], b = s.src[1][l];
    if (reverse)
      std::swap(a, b);
    uint64_t c = (carryIn >> l) & 1;
    uint64_t r;
    bool carry;
    if (subtract) {
      r = a - b - c;
      carry = b + c > a;
    } else {
      r = a + b + c;
      carry = r >> 32;
    }
    if (carry && in.clamp)
      r = subtract ? 0 : 0xffffffffu;
    dst[l] = uint32_t(r);
    carryOut |= uint64_t(carry) << l;
  });
  writeMask(w, in.ops[1], carryOut, false);
}

/// v_mad_{u64_u32,i64_i32} vdst, sdst, s0, s1, s2: 64-bit multiply-add
/// with a carry-out mask; under clamp an overflowing result saturates to
/// the u64 / i64 range.
template <bool Signed> static void vMad64(Wave &w, const Instr &in) {
  constexpr bool isSigned = Signed;
  const Operand *o = srcOperands(in);
  uint32_t t[4] = {0, 0, 0, 0};
  SrcView a = viewOf(w, o[0], 0, t[0]), b = viewOf(w, o[1], 0, t[1]);
  SrcView c0 = viewOf(w, o[2], 0, t[2]), c1 = viewOf(w, o[2], 1, t[3]);
  unsigned d = in.ops[0].reg;
  uint64_t carryOut = 0;
  forEachLane(w.exec(), [&](unsigned l) {
    uint64_t c = c0[l] | (uint64_t(c1[l]) << 32);
    uint64_t r;
    bool carry;
    if (isSigned) {
      __int128 full = __int128(int64_t(int32_t(a[l]))) * int32_t(b[l]) +
                      __int128(int64_t(c));
      r = uint64_t(full);
      carry = full != __int128(int64_t(r));
      if (carry && in.clamp)
        r = full < 0 ? uint64_t(INT64_MIN) : uint64_t(INT64_MAX);
    } else {
      unsigned __int128 full =
          (unsigned __int128)(uint64_t(a[l]) * uint64_t(b[l])) + c;
      r = uint64_t(full);
      carry = full >> 64;
      if (carry && in.clamp)
        r = UINT64_MAX;
    }
    w.v[d & (kNumVgprs - 1)][l] = uint32_t(r);
    w.v[(d + 1) & (kNumVgprs - 1)][l] = uint32_t(r >> 32);
    carryOut |= uint64_t(carry) << l;
  });
  writeMask(w, in.ops[1], carryOut, false);
}

static int64_t sext24(uint32_t v) { return int32_t(v << 8) >> 8; }

/// v_mad_u32_u24 / v_mad_i32_i24: the product of the sources' low 24 bits
/// (zero- or sign-extended) plus S2, exact, then wrapped to 32 bits or,
/// under clamp, saturated to the u32 / i32 range.
template <bool Signed> static void vMad24(Wave &w, const Instr &in) {
  valuU32<3>(w, in, [&in](uint32_t a, uint32_t b, uint32_t c) {
    int64_t r =
        Signed ? sext24(a) * sext24(b) + int64_t(int32_t(c))
               : int64_t(a & 0xffffff) * int64_t(b & 0xffffff) + int64_t(c);
    if (in.clamp)
      r = Signed ? std::clamp<int64_t>(r, INT32_MIN, INT32_MAX)
                 : std::clamp<int64_t>(r, 0, UINT32_MAX);
    return uint32_t(r);
  });
}

/// v_sad_{u8,u16,u32} d, a, b, c: the absolute differences of the
/// sources' unsigned 8-, 16- or 32-bit fields, summed with S2;
/// v_sad_hi_u8: the byte sum shifted left 16, plus S2. The sum is exact,
/// then wraps to 32 bits, or saturates under clamp.
template <unsigned Bits, bool High> static void vSad(Wave &w, const Instr &in) {
  valuU32<3>(w, in, [&in](uint32_t a, uint32_t b, uint32_t c) {
    uint64_t mask = Bits == 32 ? 0xffffffffull : (1ull << Bits) - 1, sum = 0;
    for (unsigned i = 0; i < 32 / Bits; ++i) {
      uint64_t x = (a >> (i * Bits)) & mask, y = (b >> (i * Bits)) & mask;
      sum += x > y ? x - y : y - x;
    }
    if (High)
      sum <<= 16;
    sum += c;
    if (in.clamp)
      sum = std::min<uint64_t>(sum, UINT32_MAX);
    return uint32_t(sum);
  });
}

/// v_lerp_u8 d, a, b, c: per byte (a + b + the low bit of c's byte) / 2,
/// rounded down: the rounded average of a and b when c's bit is set.
static void vLerpU8(Wave &w, const Instr &in) {
  valuU32<3>(w, in, [](uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i += 8)
      r |= ((((a >> i) & 0xff) + ((b >> i) & 0xff) + ((c >> i) & 1)) >> 1) << i;
    return r;
  });
}

/// v_sat_pk_u8_i16: each signed 16-bit half of S0 clamped to [0, 255],
/// packed into the low two bytes; the high half of D is zero.
static void vSatPkU8I16(Wave &w, const Instr &in) {
  valuU32<1>(w, in, [](uint32_t a, uint32_t, uint32_t) {
    auto sat = [](uint16_t h) {
      return uint32_t(std::clamp<int32_t>(int16_t(h), 0, 255));
    };
    return sat(uint16_t(a)) | (sat(uint16_t(a >> 16)) << 8);
  });
}

/// v_cvt_off_f32_i4: the signed 4-bit integer S0[3:0] over 16, as f32
/// (-0.5 to 0.4375).
static void vCvtOffF32I4(Wave &w, const Instr &in) {
  valuU32<1>(w, in, [&in](uint32_t a, uint32_t, uint32_t) {
    int v = int(a & 15) - (a & 8 ? 16 : 0);
    return f32ToBits(applyOutputMods(float(v) / 16.0f, in));
  });
}

/// v_fract_f16: x - floor(x), at most the largest f16 below 1 (0x3bff),
/// which the f32 difference would round up to 1.0 for tiny negative x.
static float fractF16Op(float x) {
  return std::min(x - std::floor(x), 0.99951171875f);
}

/// 16-bit VOP3 integer operations on the halves op_sel picks, the result
/// placed in the destination half op_sel[3] picks: multiply-adds and
/// min3/max3/med3 of three sources, and v_add_i16/v_sub_i16, exact and
/// saturated to the 16-bit range under clamp (else wrapped).
template <bool Signed, unsigned N, typename F>
static void vInt16(Wave &w, const Instr &in, F f) {
  ValuSources s;
  prepareSources(w, in, N, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    int64_t x[3] = {0, 0, 0};
    for (unsigned i = 0; i < N; ++i) {
      uint16_t h = half(s.src[i][l], in, i);
      x[i] = Signed ? int64_t(int16_t(h)) : int64_t(h);
    }
    int64_t r = f(x[0], x[1], x[2]);
    if (in.clamp)
      r = Signed ? std::clamp<int64_t>(r, INT16_MIN, INT16_MAX)
                 : std::clamp<int64_t>(r, 0, UINT16_MAX);
    dst[l] = place16(dst[l], uint16_t(r), in);
  });
}
template <bool Signed> static void vMin3I16(Wave &w, const Instr &in) {
  vInt16<Signed, 3>(w, in, [](int64_t a, int64_t b, int64_t c) {
    return std::min({a, b, c});
  });
}
template <bool Signed> static void vMax3I16(Wave &w, const Instr &in) {
  vInt16<Signed, 3>(w, in, [](int64_t a, int64_t b, int64_t c) {
    return std::max({a, b, c});
  });
}
template <bool Signed> static void vMed3I16(Wave &w, const Instr &in) {
  vInt16<Signed, 3>(
      w, in, [](int64_t a, int64_t b, int64_t c) { return med3(a, b, c); });
}
template <bool Subtract> static void vAddSubI16(Wave &w, const Instr &in) {
  vInt16<true, 2>(w, in, [](int64_t a, int64_t b, int64_t) {
    return Subtract ? a - b : a + b;
  });
}
/// v_mad_{u,i}16 and v_mad_legacy_{u,i}16: D.16 = S0.16 * S1.16 + S2.16.
/// The legacy encodings have no op_sel (their halves are the low ones).
template <bool Signed> static void vMad16(Wave &w, const Instr &in) {
  vInt16<Signed, 3>(w, in,
                    [](int64_t a, int64_t b, int64_t c) { return a * b + c; });
}

/// v_mad_u32_u16 / v_mad_i32_i16: D.32 = S0.16 * S1.16 + S2.32 (op_sel
/// picking the 16-bit sources' halves), saturating to 32 bits under clamp.
template <bool Signed> static void vMad32From16(Wave &w, const Instr &in) {
  valuU32<3>(w, in, [&in](uint32_t a32, uint32_t b32, uint32_t c32) {
    uint16_t a = half(a32, in, 0), b = half(b32, in, 1);
    int64_t r = Signed ? int64_t(int16_t(a)) * int16_t(b) + int32_t(c32)
                       : int64_t(a) * b + int64_t(c32);
    if (in.clamp)
      r = Signed ? std::clamp<int64_t>(r, INT32_MIN, INT32_MAX)
                 : std::clamp<int64_t>(r, 0, UINT32_MAX);
    return uint32_t(r);
  });
}

// Division helpers (the v_div_scale/fmas/fixup sequence LLVM emits for
// correctly rounded f32 division). --------------------------------------------

/// The biased exponent field of an f32 (0 for zeros and subnormals).
static int biasedExponent(float f) { return (f32ToBits(f) >> 23) & 0xff; }

/// v_div_scale_f32 D, VCC = scale(S0, S1 denominator, S2 numerator): in the
/// order of AMD's V_DIV_SCALE_F32 pseudocode, scales S0 by 2^64 or 2^-64
/// where the division sequence would otherwise meet subnormals or
/// overflow, and sets VCC where v_div_fmas must undo a scale. The
/// reciprocal test is made in f64 as the pseudocode states, so it never
/// fires for finite f32 denominators.
static void vDivScaleF32(Wave &w, const Instr &in) {
  ValuSources s;
  prepareSources(w, in, 3, s);
  const Operand *o = srcOperands(in);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  uint64_t vcc = 0;
  auto subnormal = [](auto x) { return std::fpclassify(x) == FP_SUBNORMAL; };
  forEachLane(s.mask, [&](unsigned l) {
    float s0 = applyFloatMods(bitsToF32(s.src[0][l]), o[0]);
    float den = applyFloatMods(bitsToF32(s.src[1][l]), o[1]);
    float num = applyFloatMods(bitsToF32(s.src[2][l]), o[2]);
    float r = s0;
    bool flag = false;
    bool tinyReciprocal = subnormal(1.0 / double(den));
    bool tinyQuotient = subnormal(num / den);
    if (num == 0 || den == 0) {
      r = std::numeric_limits<float>::quiet_NaN();
    } else if (biasedExponent(num) - biasedExponent(den) >= 96) {
      flag = true;
      if (s0 == den)
        r = std::ldexp(s0, 64);
    } else if (subnormal(den)) {
      r = std::ldexp(s0, 64);
    } else if (tinyReciprocal && tinyQuotient) {
      // Never taken in f32 (see above); scaled down as in
      // vDivScaleF64, where the case is live.
      flag = true;
      if (s0 == den)
        r = std::ldexp(s0, -64);
    } else if (tinyReciprocal) {
      r = std::ldexp(s0, -64);
    } else if (tinyQuotient) {
      flag = true;
      if (s0 == num)
        r = std::ldexp(s0, 64);
    } else if (biasedExponent(num) <= 23) {
      r = std::ldexp(s0, 64);
    }
    dst[l] = f32ToBits(r);
    vcc |= uint64_t(flag) << l;
  });
  writeMask(w, in.ops[1], vcc, false);
}

static void vDivFmasF32(Wave &w, const Instr &in) {
  uint64_t vcc = w.vcc();
  ValuSources s;
  prepareSources(w, in, 3, s);
  const Operand *o = srcOperands(in);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    double a = applyFloatMods(bitsToF32(s.src[0][l]), o[0]);
    double b = applyFloatMods(bitsToF32(s.src[1][l]), o[1]);
    float c = applyFloatMods(bitsToF32(s.src[2][l]), o[2]);
    // The exact a*b + c as hi + lo: a*b is exact in double, the sum's
    // error recovered exactly (Knuth's TwoSum).
    double product = a * b;
    double hi = product + c;
    double cPart = hi - product;
    double lo = (product - (hi - cPart)) + (double(c) - cPart);
    // v_div_scale set VCC where it scaled the quotient: 2^64 up when the
    // quotient is tiny (S2, the scaled quotient, then has a biased exponent
    // of at most 127), 2^64 down when it is huge. The scale is undone
    // before the single rounding, so that a subnormal quotient rounds once.
    // AMD's pseudocode writes a fixed 2^32; this is what LLVM's division
    // sequence relies on.
    if ((vcc >> l) & 1) {
      int k = !std::isfinite(c) || std::ilogb(c) > 0 ? 64 : -64;
      hi = std::ldexp(hi, k);
      lo = std::ldexp(lo, k);
    }
    float r = std::isfinite(hi) ? roundPairToF32(hi, lo) : float(hi);
    dst[l] = f32ToBits(applyOutputMods(r, in));
  });
}

/// v_div_fixup_f32 D = fixup(S0 quotient, S1 denominator, S2 numerator):
/// the special cases of num/den in the order of AMD's V_DIV_FIXUP_F32
/// pseudocode, else the quotient with the right sign. Exponent differences
/// beyond the f32 range give the underflowed zero or the overflowed
/// infinity whatever the scaled sequence computed.
static float divFixup(float quotient, float den, float num) {
  const float inf = std::numeric_limits<float>::infinity();
  // The default NaN of 0/0 and inf/inf: 0xffc00000 in the pseudocode.
  const float defaultNan = bitsToF32(0xffc00000u);
  bool negative = std::signbit(den) != std::signbit(num);
  // A NaN source propagates, quieted (the numerator's first).
  if (std::isnan(num))
    return bitsToF32(f32ToBits(num) | 0x00400000u);
  if (std::isnan(den))
    return bitsToF32(f32ToBits(den) | 0x00400000u);
  if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num)))
    return defaultNan;
  if (den == 0 || std::isinf(num))
    return negative ? -inf : inf;
  if (std::isinf(den) || num == 0)
    return negative ? -0.0f : 0.0f;
  if (biasedExponent(num) - biasedExponent(den) < -150)
    return negative ? -0.0f : 0.0f;
  // A NaN quotient here comes from the scaled sequence overflowing.
  if (std::isnan(quotient))
    return negative ? -inf : inf;
  float magnitude = std::fabs(quotient);
  return negative ? -magnitude : magnitude;
}

// f64 and f16 division steps -------------------------------------------------

/// The biased exponent field of an f64 (0 for zeros and subnormals).
static int biasedExponent64(double d) { return (f64ToBits(d) >> 52) & 0x7ff; }

/// v_div_scale_f64: V_DIV_SCALE_F32's rules at f64 width (2^128 scales,
/// an exponent gap of 768, a tiny numerator below biased exponent 54; the
/// reciprocal test is a real one in f64).
static void vDivScaleF64(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  uint32_t t[6] = {0, 0, 0, 0, 0, 0};
  SrcView lo[3], hi[3];
  for (unsigned i = 0; i < 3; ++i) {
    lo[i] = viewOf(w, o[i], 0, t[2 * i]);
    hi[i] = viewOf(w, o[i], 1, t[2 * i + 1]);
  }
  unsigned d = in.ops[0].reg;
  uint64_t vcc = 0;
  auto subnormal = [](double x) { return std::fpclassify(x) == FP_SUBNORMAL; };
  forEachLane(w.exec(), [&](unsigned l) {
    auto source = [&](unsigned i) {
      return applyFloatMods(bitsToF64(lo[i][l] | (uint64_t(hi[i][l]) << 32)),
                            o[i]);
    };
    double s0 = source(0), den = source(1), num = source(2);
    double r = s0;
    bool flag = false;
    bool tinyReciprocal = subnormal(1.0 / den);
    bool tinyQuotient = subnormal(num / den);
    if (num == 0 || den == 0) {
      r = std::numeric_limits<double>::quiet_NaN();
    } else if (biasedExponent64(num) - biasedExponent64(den) >= 768) {
      flag = true;
      if (s0 == den)
        r = std::ldexp(s0, 128);
    } else if (subnormal(den)) {
      r = std::ldexp(s0, 128);
    } else if (tinyReciprocal && tinyQuotient) {
      // The denominator is scaled down, as in the next case: AMD's
      // pseudocode writes an upward scale here, which would overflow the
      // very denominator whose reciprocal is too small (1/1.7e308 would
      // come out infinite); down, the quotient's scale is undone by
      // v_div_fmas and every such quotient comes out exact.
      flag = true;
      if (s0 == den)
        r = std::ldexp(s0, -128);
    } else if (tinyReciprocal) {
      r = std::ldexp(s0, -128);
    } else if (tinyQuotient) {
      flag = true;
      if (s0 == num)
        r = std::ldexp(s0, 128);
    } else if (biasedExponent64(num) <= 53) {
      r = std::ldexp(s0, 128);
    }
    uint64_t bits = f64ToBits(r);
    w.v[d & (kNumVgprs - 1)][l] = uint32_t(bits);
    w.v[(d + 1) & (kNumVgprs - 1)][l] = uint32_t(bits >> 32);
    vcc |= uint64_t(flag) << l;
  });
  writeMask(w, in.ops[1], vcc, false);
}

/// (hi + lo) * 2^k rounded once to f64, |lo| at most half an ulp of hi:
/// only a result in the subnormal range rounds, and there hi alone would
/// round twice when it lies exactly halfway between two subnormals.
static double roundPairScaled(double hi, double lo, int k) {
  double r = std::ldexp(hi, k);
  if (lo == 0 || !std::isfinite(r))
    return r;
  double back = std::ldexp(r, -k);
  if (back == hi)
    return r;
  double other =
      std::nextafter(r, back < hi ? std::numeric_limits<double>::infinity()
                                  : -std::numeric_limits<double>::infinity());
  double middle = (back + std::ldexp(other, -k)) / 2;
  if (hi != middle)
    return r;
  return lo > 0 ? std::max(r, other) : std::min(r, other);
}

/// v_div_fmas_f64: fma(S0, S1, S2), scaled by 2^128 (biased exponent of S2
/// above 1023) or 2^-128 where VCC says, rounded once. A scaled lane takes
/// a*b + c exactly as a pair of doubles (the product's error from an fma,
/// the sum's from TwoSum) before its single rounding.
static void vDivFmasF64(Wave &w, const Instr &in) {
  uint64_t vcc = w.vcc();
  const Operand *o = srcOperands(in);
  uint32_t t[6] = {0, 0, 0, 0, 0, 0};
  SrcView lo[3], hi[3];
  for (unsigned i = 0; i < 3; ++i) {
    lo[i] = viewOf(w, o[i], 0, t[2 * i]);
    hi[i] = viewOf(w, o[i], 1, t[2 * i + 1]);
  }
  uint64_t results[kWaveSize];
  uint64_t exec = w.exec();
  forEachLane(exec, [&](unsigned l) {
    auto source = [&](unsigned i) {
      return applyFloatMods(bitsToF64(lo[i][l] | (uint64_t(hi[i][l]) << 32)),
                            o[i]);
    };
    double a = source(0), b = source(1), c = source(2);
    if (!((vcc >> l) & 1)) {
      results[l] = f64ToBits(std::fma(a, b, c));
      return;
    }
    double p = a * b, pError = std::fma(a, b, -p);
    double sum = p + c, cPart = sum - p;
    double sumError = (p - (sum - cPart)) + (c - cPart);
    double low = sumError + pError;
    double high = sum + low;
    low -= high - sum;
    int k = !std::isfinite(c) || biasedExponent64(c) > 1023 ? 128 : -128;
    double r = std::isfinite(high) ? roundPairScaled(high, low, k)
                                   : std::ldexp(high, k);
    results[l] = f64ToBits(r);
  });
  uint32_t *dlo = w.v[vgprIndex(in.ops[0], 0)];
  uint32_t *dhi = w.v[vgprIndex(in.ops[0], 1)];
  forEachLane(exec, [&](unsigned l) {
    dlo[l] = uint32_t(results[l]);
    dhi[l] = uint32_t(results[l] >> 32);
  });
}

/// v_div_fixup_f64: V_DIV_FIXUP_F32's rules at f64 width.
static double divFixup64(double quotient, double den, double num) {
  const double inf = std::numeric_limits<double>::infinity();
  bool negative = std::signbit(den) != std::signbit(num);
  if (std::isnan(num))
    return bitsToF64(f64ToBits(num) | (1ull << 51));
  if (std::isnan(den))
    return bitsToF64(f64ToBits(den) | (1ull << 51));
  if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num)))
    return bitsToF64(0xfff8000000000000ull);
  if (den == 0 || std::isinf(num))
    return negative ? -inf : inf;
  if (std::isinf(den) || num == 0)
    return negative ? -0.0 : 0.0;
  if (biasedExponent64(num) - biasedExponent64(den) < -1075)
    return negative ? -0.0 : 0.0;
  if (std::isnan(quotient))
    return negative ? -inf : inf;
  double magnitude = std::fabs(quotient);
  return negative ? -magnitude : magnitude;
}

/// v_div_fixup_f16 (S0 quotient, S1 denominator, S2 numerator), the f32
/// rules at f16 width; the values arrive widened to f32 exactly.
static float divFixup16(float quotient, float den, float num) {
  const float inf = std::numeric_limits<float>::infinity();
  bool negative = std::signbit(den) != std::signbit(num);
  auto exponent16 = [](float f) { return (f32ToF16(f) >> 10) & 0x1f; };
  if (std::isnan(num))
    return num;
  if (std::isnan(den))
    return den;
  if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num)))
    return f16ToF32(0xfe00);
  if (den == 0 || std::isinf(num))
    return negative ? -inf : inf;
  if (std::isinf(den) || num == 0)
    return negative ? -0.0f : 0.0f;
  if (exponent16(num) - exponent16(den) < -25)
    return negative ? -0.0f : 0.0f;
  if (std::isnan(quotient))
    return negative ? -inf : inf;
  float magnitude = std::fabs(quotient);
  return negative ? -magnitude : magnitude;
}

static void vFrexpExpI32F64(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  uint32_t t[2] = {0, 0};
  SrcView lo = viewOf(w, o[0], 0, t[0]), hi = viewOf(w, o[0], 1, t[1]);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(w.exec(), [&](unsigned l) {
    double v = applyFloatMods(bitsToF64(lo[l] | (uint64_t(hi[l]) << 32)), o[0]);
    dst[l] = uint32_t(frexpExponent(v));
  });
}

static void vFrexpExpI16F16(Wave &w, const Instr &in) {
  valuU32<1>(w, in, [&](uint32_t a, uint32_t, uint32_t) {
    return place16(0, uint16_t(int16_t(frexpExponent(f16Src(a, in, 0)))), in);
  });
}

static void vLdexpF64(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  DenormalMode dn = f16f64Denormals(w);
  valu64<2>(w, in, [&](uint64_t a, uint64_t b, uint64_t) {
    double r = std::ldexp(applyFloatMods(dn.source(bitsToF64(a)), o[0]),
                          int32_t(uint32_t(b)));
    return f64ToBits(dn.result(applyOutputMods(r, in)));
  });
}

/// The first 1201 bits of the binary fraction of 2/pi, as the integer
/// floor(2/pi * 2^1201): v_trig_preop_f64's table. Computed once from
/// Machin's formula, pi = 16 atan(1/5) - 4 atan(1/239), in fixed point with
/// 1300 fraction bits (the truncation of its few hundred terms stays far
/// below the 1201st bit).
static const llvm::APInt &twoOverPi() {
  static const llvm::APInt bits = [] {
    constexpr unsigned kFraction = 1300, kWidth = 2600;
    auto atanInverse = [](uint64_t x) {
      llvm::APInt one = llvm::APInt::getOneBitSet(kWidth, kFraction);
      llvm::APInt power = one.udiv(x), sum(kWidth, 0);
      for (uint64_t k = 0; !power.isZero(); ++k) {
        llvm::APInt term = power.udiv(2 * k + 1);
        sum = k % 2 ? sum - term : sum + term;
        power = power.udiv(x * x);
      }
      return sum;
    };
    llvm::APInt pi = atanInverse(5) * 16 - atanInverse(239) * 4;
    llvm::APInt twoOverPi =
        llvm::APInt::getOneBitSet(kWidth, 1202 + kFraction).udiv(pi);
    return twoOverPi.trunc(1201);
  }();
  return bits;
}

/// v_trig_preop_f64 d, s0, s1: segment S1[4:0] of 2/pi for the range
/// reduction of S0, as the CDNA3 ISA defines it: 53 bits of the table
/// starting `shift` = segment * 53 bits into it (plus the exponent beyond
/// 1077, for large S0), truncated, scaled by 2^(-53 - shift) (2^128 more
/// for exponents of 1968 and above).
static void vTrigPreopF64(Wave &w, const Instr &in) {
  valu64<2>(w, in, [&](uint64_t a, uint64_t b, uint64_t) {
    int exponent = int((a >> 52) & 0x7ff);
    unsigned shift = (uint32_t(b) & 31) * 53;
    if (exponent > 1077)
      shift += unsigned(exponent - 1077);
    // Bits [1200 - shift, 1148 - shift] of the table, zero past its end.
    uint64_t segment = 0;
    if (shift < 1201) {
      llvm::APInt window = twoOverPi().shl(shift).lshr(1201 - 53);
      segment = window.trunc(53).getZExtValue();
    }
    int scale = -53 - int(shift);
    if (exponent >= 1968)
      scale += 128;
    return f64ToBits(applyOutputMods(std::ldexp(double(segment), scale), in));
  });
}

/// v_ldexp_f16: S0.f16 * 2^S1.i16 (S1 is an integer, not an f16).
static void vLdexpF16(Wave &w, const Instr &in) {
  ValuSources s;
  prepareSources(w, in, 2, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    int exponent = int16_t(half(s.src[1][l], in, 1));
    float r = std::ldexp(f16Src(s.src[0][l], in, 0), exponent);
    dst[l] = place16(dst[l], f32ToF16(applyOutputMods(r, in)), in);
  });
}

// Registration
// ------------------------------------------------------------------------

#define U32_OP(N, expr)                                                        \
  [](Wave &w, const Instr &in) {                                               \
    valuU32<N>(w, in, [](uint32_t a, uint32_t b, uint32_t c) {                 \
      (void)a;                                                                 \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return uint32_t(expr);                                                   \
    });                                                                        \
  }
#define F32_OP(N, expr)                                                        \
  [](Wave &w, const Instr &in) {                                               \
    valuF32<N>(w, in, [](float a, float b, float c) {                          \
      (void)a;                                                                 \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return float(expr);                                                      \
    });                                                                        \
  }
#define F16_OP(N, expr)                                                        \
  [](Wave &w, const Instr &in) {                                               \
    valuF16<N>(w, in, [](float a, float b, float c) {                          \
      (void)a;                                                                 \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return float(expr);                                                      \
    });                                                                        \
  }
// 16-bit operands are held zero-extended in 32 bits: a product of two
// uint16_t would promote to int and could overflow it.
#define U16_OP(N, expr)                                                        \
  [](Wave &w, const Instr &in) {                                               \
    valuU32<N>(w, in, [&in](uint32_t a32, uint32_t b32, uint32_t c32) {        \
      uint32_t a = half(a32, in, 0), b = half(b32, in, 1),                     \
               c = half(c32, in, 2);                                           \
      (void)a;                                                                 \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return uint32_t(uint16_t(expr));                                         \
    });                                                                        \
  }
#define U64_OP(N, expr)                                                        \
  [](Wave &w, const Instr &in) {                                               \
    valu64<N>(w, in, [](uint64_t a, uint64_t b, uint64_t c) {                  \
      (void)a;                                                                 \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return uint64_t(expr);                                                   \
    });                                                                        \
  }
#define F64_OP(N, expr)                                                        \
  [](Wave &w, const Instr &in) {                                               \
    const Operand *o = srcOperands(in);                                        \
    DenormalMode dn = f16f64Denormals(w);                                      \
    valu64<N>(w, in, [o, dn, &in](uint64_t ab, uint64_t bb, uint64_t cb) {     \
      double a = applyFloatMods(dn.source(bitsToF64(ab)), o[0]);               \
      double b = N > 1 ? applyFloatMods(dn.source(bitsToF64(bb)), o[1]) : 0.0; \
      double c = N > 2 ? applyFloatMods(dn.source(bitsToF64(cb)), o[2]) : 0.0; \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return f64ToBits(dn.result(applyOutputMods(double(expr), in)));          \
    });                                                                        \
  }

/// A 24-bit signed operand, widened so that products of two cannot overflow.

static uint32_t bytePermute(uint64_t data, uint32_t sel) {
  sel &= 0xff;
  if (sel >= 13)
    return 0xff;
  if (sel == 12)
    return 0;
  if (sel >= 8) {
    static const unsigned signBits[] = {15, 31, 47, 63};
    return (data >> signBits[sel - 8]) & 1 ? 0xff : 0;
  }
  return (data >> (8 * sel)) & 0xff;
}

static uint32_t vPerm(uint32_t s0, uint32_t s1, uint32_t sel) {
  uint64_t data = (uint64_t(s0) << 32) | s1;
  uint32_t r = 0;
  for (unsigned i = 0; i < 4; ++i)
    r |= bytePermute(data, sel >> (8 * i)) << (8 * i);
  return r;
}

static uint32_t ffbh(uint32_t v) { return v ? __builtin_clz(v) : ~0u; }
static uint32_t ffbl(uint32_t v) { return v ? __builtin_ctz(v) : ~0u; }
static uint32_t ffbhSigned(uint32_t v) {
  int32_t s = int32_t(v);
  if (s == 0 || s == -1)
    return ~0u;
  // First bit that differs from the sign, counted from the MSB.
  return __builtin_clz(s < 0 ? ~v : v);
}
static uint32_t bitReverse(uint32_t v) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 32; ++i)
    r |= ((v >> i) & 1) << (31 - i);
  return r;
}

/// Packed 16-bit lane loop (VOP3P): op_sel picks each source's half for the
/// low result, op_sel_hi for the high one; neg_lo/neg_hi negate floats.
template <typename F>
static void valuPk16(Wave &w, const Instr &in, unsigned n, bool isFloat, F f) {
  ValuSources s;
  prepareSources(w, in, n, s);
  const Operand *o = srcOperands(in);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    uint16_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (unsigned i = 0; i < n; ++i) {
      uint32_t v = s.src[i][l];
      if (o[i].kind == OpKind::Imm && v <= 0xffff)
        v |= v << 16; // Constants feed both halves.
      lo[i] = uint16_t((in.opSel >> i) & 1 ? v >> 16 : v);
      hi[i] = uint16_t((in.opSelHi >> i) & 1 ? v >> 16 : v);
      if (isFloat) {
        if ((in.negLo >> i) & 1)
          lo[i] ^= 0x8000;
        if ((in.negHi >> i) & 1)
          hi[i] ^= 0x8000;
      }
    }
    dst[l] = uint32_t(f(lo[0], lo[1], lo[2])) |
             (uint32_t(f(hi[0], hi[1], hi[2])) << 16);
  });
}

/// v_pk_fmac_f16 d, a, b (VOP2): per half D = fma(S0, S1, D), rounded once
/// to f16; an inline constant feeds both halves.
static void vPkFmacF16(Wave &w, const Instr &in) {
  ValuSources s;
  prepareSources(w, in, 2, s);
  const Operand *o = srcOperands(in);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t v[2] = {s.src[0][l], s.src[1][l]};
    for (unsigned i = 0; i < 2; ++i)
      if (o[i].kind == OpKind::Imm && v[i] <= 0xffff)
        v[i] |= v[i] << 16;
    uint32_t r = 0;
    for (unsigned h = 0; h < 32; h += 16) {
      float x = f16ToF32(uint16_t(v[0] >> h)),
            y = f16ToF32(uint16_t(v[1] >> h));
      float acc = f16ToF32(uint16_t(dst[l] >> h));
      r |= uint32_t(f32ToF16(applyOutputMods(fmaF16(x, y, acc), in))) << h;
    }
    dst[l] = r;
  });
}

#define PK_F16_OP(N, expr)                                                     \
  [](Wave &w, const Instr &in) {                                               \
    valuPk16(w, in, N, true, [&in](uint16_t ab, uint16_t bb, uint16_t cb) {    \
      float a = f16ToF32(ab), b = f16ToF32(bb), c = f16ToF32(cb);              \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return f32ToF16(applyOutputMods(float(expr), in));                       \
    });                                                                        \
  }
// Operands zero-extended to 32 bits, as in U16_OP.
#define PK_U16_OP(N, expr)                                                     \
  [](Wave &w, const Instr &in) {                                               \
    valuPk16(w, in, N, false, [](uint32_t a, uint32_t b, uint32_t c) {         \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return uint16_t(expr);                                                   \
    });                                                                        \
  }

/// An integer add or subtract (reversed: b - a) in T: wrapping, or with
/// clamp saturating to T's range (LLVM selects the clamp forms for
/// llvm.[us]{add,sub}.sat).
template <typename T, bool Subtract, bool Reverse>
static T addSubInt(T a, T b, bool clamp) {
  if (Reverse)
    std::swap(a, b);
  int64_t r = Subtract ? int64_t(a) - int64_t(b) : int64_t(a) + int64_t(b);
  if (clamp)
    r = std::clamp<int64_t>(r, std::numeric_limits<T>::min(),
                            std::numeric_limits<T>::max());
  return T(r);
}

/// v_add_u32/v_sub_u32/v_subrev_u32 and v_add_i32/v_sub_i32.
template <typename T, bool Subtract, bool Reverse>
static void vAddSub32(Wave &w, const Instr &in) {
  bool clamp = in.clamp;
  valuU32<2>(w, in, [clamp](uint32_t a, uint32_t b, uint32_t) {
    return uint32_t(addSubInt<T, Subtract, Reverse>(T(a), T(b), clamp));
  });
}

/// v_add_u16/v_sub_u16/v_subrev_u16: the halves op_sel picks, the result's
/// high half zeroed.
template <bool Subtract, bool Reverse>
static void vAddSubU16(Wave &w, const Instr &in) {
  valuU32<2>(w, in, [&in](uint32_t a, uint32_t b, uint32_t) {
    return uint32_t(addSubInt<uint16_t, Subtract, Reverse>(
        half(a, in, 0), half(b, in, 1), in.clamp));
  });
}

/// v_pk_add/sub_u16 and _i16.
template <typename T, bool Subtract>
static void vPkAddSub(Wave &w, const Instr &in) {
  valuPk16(w, in, 2, false, [&in](uint16_t a, uint16_t b, uint16_t) {
    return uint16_t(addSubInt<T, Subtract, false>(T(a), T(b), in.clamp));
  });
}

/// v_pk_mul_lo_u16: per half the low 16 bits of S0 * S1, or under clamp
/// the product saturated to 0xffff.
static void vPkMulLoU16(Wave &w, const Instr &in) {
  valuPk16(w, in, 2, false, [&in](uint16_t a, uint16_t b, uint16_t) {
    uint32_t r = uint32_t(a) * b;
    return uint16_t(in.clamp ? std::min<uint32_t>(r, 0xffff) : r);
  });
}

/// v_pk_mad_u16 / v_pk_mad_i16: per half S0 * S1 + S2, exact, wrapped to
/// 16 bits or saturated to the u16 / i16 range under clamp.
template <bool Signed> static void vPkMad16(Wave &w, const Instr &in) {
  valuPk16(w, in, 3, false, [&in](uint16_t a, uint16_t b, uint16_t c) {
    auto ext = [](uint16_t v) -> int64_t {
      return Signed ? int64_t(int16_t(v)) : int64_t(v);
    };
    int64_t r = ext(a) * ext(b) + ext(c);
    if (in.clamp)
      r = Signed ? std::clamp<int64_t>(r, INT16_MIN, INT16_MAX)
                 : std::clamp<int64_t>(r, 0, UINT16_MAX);
    return uint16_t(r);
  });
}

/// Packed f32 (v_pk_fma_f32 and kin): 64-bit operands, op_sel picks the
/// dword of each source for the low result, op_sel_hi for the high one.
template <typename F>
static void valuPkF32(Wave &w, const Instr &in, unsigned n, F f) {
  const Operand *o = srcOperands(in);
  SrcView lo[3], hi[3];
  uint32_t tmp[6] = {0, 0, 0, 0, 0, 0};
  for (unsigned i = 0; i < 3; ++i) {
    if (i >= n) {
      lo[i] = hi[i] = {&tmp[2 * i], 0};
      continue;
    }
    lo[i] = viewOf(w, o[i], 0, tmp[2 * i]);
    hi[i] =
        o[i].kind == OpKind::Imm ? lo[i] : viewOf(w, o[i], 1, tmp[2 * i + 1]);
  }
  unsigned d = in.ops[0].reg;
  forEachLane(w.exec(), [&](unsigned l) {
    float a[2][3] = {{0, 0, 0}, {0, 0, 0}};
    for (unsigned i = 0; i < n; ++i) {
      uint32_t words[2] = {lo[i][l], hi[i][l]};
      a[0][i] = bitsToF32(words[(in.opSel >> i) & 1]);
      a[1][i] = bitsToF32(words[(in.opSelHi >> i) & 1]);
      if ((in.negLo >> i) & 1)
        a[0][i] = -a[0][i];
      if ((in.negHi >> i) & 1)
        a[1][i] = -a[1][i];
    }
    for (unsigned h = 0; h < 2; ++h)
      w.v[(d + h) & (kNumVgprs - 1)][l] =
          f32ToBits(applyOutputMods(f(a[h][0], a[h][1], a[h][2]), in));
  });
}

/// v_fma_mix_f32, v_fma_mixlo_f16, v_fma_mixhi_f16: S0 * S1 + S2 fused,
/// source i the f16 half op_sel picks where op_sel_hi bit i is set, else
/// an f32; neg_hi takes a source's absolute value, neg_lo negates it. The
/// f32 form rounds once to f32; mixlo/mixhi round once to f16 into the low
/// or high half, keeping the other.
enum class MixDst { F32, Lo, Hi };
template <MixDst Dst> static void vFmaMix(Wave &w, const Instr &in) {
  ValuSources s;
  prepareSources(w, in, 3, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    float x[3];
    for (unsigned i = 0; i < 3; ++i) {
      uint32_t v = s.src[i][l];
      x[i] = (in.opSelHi >> i) & 1
                 ? f16ToF32(uint16_t((in.opSel >> i) & 1 ? v >> 16 : v))
                 : bitsToF32(v);
      if ((in.negHi >> i) & 1)
        x[i] = std::fabs(x[i]);
      if ((in.negLo >> i) & 1)
        x[i] = -x[i];
    }
    if (Dst == MixDst::F32) {
      dst[l] = f32ToBits(applyOutputMods(std::fma(x[0], x[1], x[2]), in));
      return;
    }
    uint16_t h = f32ToF16(applyOutputMods(fmaF16(x[0], x[1], x[2]), in));
    dst[l] = Dst == MixDst::Lo ? (dst[l] & 0xffff0000u) | h
                               : (dst[l] & 0xffffu) | (uint32_t(h) << 16);
  });
}

static void vPkMovB32(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  uint32_t tmp[4] = {0, 0, 0, 0};
  SrcView a[2] = {viewOf(w, o[0], 0, tmp[0]), viewOf(w, o[0], 1, tmp[1])};
  SrcView b[2] = {viewOf(w, o[1], 0, tmp[2]), viewOf(w, o[1], 1, tmp[3])};
  unsigned d = in.ops[0].reg;
  forEachLane(w.exec(), [&](unsigned l) {
    uint32_t lo = a[in.opSel & 1][l];
    uint32_t hi = b[(in.opSel >> 1) & 1][l];
    w.v[d & (kNumVgprs - 1)][l] = lo;
    w.v[(d + 1) & (kNumVgprs - 1)][l] = hi;
  });
}

/// v_dot2_f32_{f16,bf16} / v_dot2c: D = S0.lo*S1.lo + S0.hi*S1.hi + S2.
template <bool Bf16, bool Accumulate>
static void vDot2F32(Wave &w, const Instr &in) {
  ValuSources s;
  prepareSources(w, in, Accumulate ? 2 : 3, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t a = s.src[0][l], b = s.src[1][l];
    auto cvt = [](uint16_t h) {
      return double(Bf16 ? bf16ToF32(h) : f16ToF32(h));
    };
    double acc = bitsToF32(Accumulate ? dst[l] : s.src[2][l]);
    double r = cvt(uint16_t(a)) * cvt(uint16_t(b)) +
               cvt(uint16_t(a >> 16)) * cvt(uint16_t(b >> 16)) + acc;
    dst[l] = f32ToBits(applyOutputMods(float(r), in));
  });
}

/// v_dot{2,4,8}[c]_{i,u}32_{i16,u16,i8,u8,i4,u4}: the products of the
/// sources' `Bits`-wide fields (signed or unsigned), summed with the 32-bit
/// addend (S2, or D for the accumulating VOP2 forms) in 64 bits; clamp
/// saturates the sum to the 32-bit range, else it wraps.
template <unsigned Bits, bool Signed, bool Accumulate>
static void vDotInt(Wave &w, const Instr &in) {
  ValuSources s;
  prepareSources(w, in, Accumulate ? 2 : 3, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  auto field = [](uint32_t v, unsigned i) -> int64_t {
    uint32_t raw = (v >> (i * Bits)) & ((1u << Bits) - 1);
    if (Signed && (raw >> (Bits - 1)))
      return int64_t(raw) - (int64_t(1) << Bits);
    return int64_t(raw);
  };
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t a = s.src[0][l], b = s.src[1][l];
    uint32_t c = Accumulate ? dst[l] : s.src[2][l];
    int64_t sum = Signed ? int64_t(int32_t(c)) : int64_t(c);
    for (unsigned i = 0; i < 32 / Bits; ++i)
      sum += field(a, i) * field(b, i);
    if (in.clamp)
      sum = Signed ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX)
                   : std::clamp<int64_t>(sum, 0, UINT32_MAX);
    dst[l] = uint32_t(sum);
  });
}

template <unsigned Rows> static void vPermlaneSwap(Wave &w, const Instr &in) {
  uint32_t *a = w.v[vgprIndex(in.ops[0], 0)];
  uint32_t *b = w.v[vgprIndex(in.ops[1], 0)];
  if (Rows == 32) {
    for (unsigned l = 0; l < 32; ++l)
      std::swap(a[l + 32], b[l]);
    return;
  }
  for (unsigned pass = 0; pass < 2; ++pass)
    for (unsigned l = 0; l < 16; ++l)
      std::swap(a[pass * 32 + l + 16], b[pass * 32 + l]);
}

/// gfx950's three-input bitwise function: each result bit is the truth
/// table's entry for the source bits (S0 is the most significant index bit,
/// matching LLVM's 0xf0/0xcc/0xaa operand constants).
static uint32_t bitop3(uint32_t a, uint32_t b, uint32_t c, uint8_t table) {
  uint32_t result = 0;
  for (unsigned index = 0; index < 8; ++index) {
    if (!((table >> index) & 1))
      continue;
    result |= ((index & 4) ? a : ~a) & ((index & 2) ? b : ~b) &
              ((index & 1) ? c : ~c);
  }
  return result;
}

static void vBitop3B32(Wave &w, const Instr &in) {
  valuU32<3>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
    return bitop3(a, b, c, in.bitop3);
  });
}

static void vBitop3B16(Wave &w, const Instr &in) {
  valuU32<3>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
    return uint32_t(uint16_t(
        bitop3(half(a, in, 0), half(b, in, 1), half(c, in, 2), in.bitop3)));
  });
}

static void vNop(Wave &, const Instr &) {}

/// v_bfe_{u32,i32}: the `width` bits of `value` from bit `offset`.
static uint32_t bitfieldExtractU32(uint32_t value, uint32_t offset,
                                   uint32_t width) {
  width &= 31;
  return width ? uint32_t((value >> (offset & 31)) & ((1ull << width) - 1)) : 0;
}
static uint32_t bitfieldExtractI32(uint32_t value, uint32_t offset,
                                   uint32_t width) {
  width &= 31;
  if (!width)
    return 0;
  return uint32_t(int32_t(uint32_t(value >> (offset & 31)) << (32 - width)) >>
                  (32 - width));
}

static void vFmacF32(Wave &w, const Instr &in) {
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  const Operand *o = srcOperands(in);
  DenormalMode dn = f32Denormals(w);
  ValuSources s;
  prepareSources(w, in, 2, s);
  forEachLane(s.mask, [&](unsigned l) {
    float r = std::fma(applyFloatMods(dn.source(bitsToF32(s.src[0][l])), o[0]),
                       applyFloatMods(dn.source(bitsToF32(s.src[1][l])), o[1]),
                       dn.source(bitsToF32(dst[l])));
    dst[l] = f32ToBits(dn.result(applyOutputMods(r, in)));
  });
}

/// v_fmac_f64 D += S0 * S1 (fused), D a VGPR pair.
static void vFmacF64(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  DenormalMode dn = f16f64Denormals(w);
  uint32_t t[4] = {0, 0, 0, 0};
  SrcView a0 = viewOf(w, o[0], 0, t[0]), a1 = viewOf(w, o[0], 1, t[1]);
  SrcView b0 = viewOf(w, o[1], 0, t[2]), b1 = viewOf(w, o[1], 1, t[3]);
  uint32_t *lo = w.v[vgprIndex(in.ops[0], 0)];
  uint32_t *hi = w.v[vgprIndex(in.ops[0], 1)];
  forEachLane(w.exec(), [&](unsigned l) {
    auto f64 = [](uint32_t low, uint32_t high) {
      return bitsToF64(low | (uint64_t(high) << 32));
    };
    double a = applyFloatMods(dn.source(f64(a0[l], a1[l])), o[0]);
    double b = applyFloatMods(dn.source(f64(b0[l], b1[l])), o[1]);
    double r = dn.result(
        applyOutputMods(std::fma(a, b, dn.source(f64(lo[l], hi[l]))), in));
    uint64_t bits = f64ToBits(r);
    lo[l] = uint32_t(bits);
    hi[l] = uint32_t(bits >> 32);
  });
}

static void vFrexpExpI32F32(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  valuU32<1>(w, in, [&](uint32_t a, uint32_t, uint32_t) {
    return uint32_t(frexpExponent(applyFloatMods(bitsToF32(a), o[0])));
  });
}

static void vLdexpF32(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  valuU32<2>(w, in, [&](uint32_t a, uint32_t b, uint32_t) {
    float r = std::ldexp(applyFloatMods(bitsToF32(a), o[0]), int32_t(b));
    return f32ToBits(applyOutputMods(r, in));
  });
}

static void vPackB32F16(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  valuU32<2>(w, in, [&](uint32_t a, uint32_t b, uint32_t) {
    uint16_t lo = half(a, in, 0), hi = half(b, in, 1);
    if (o[0].neg)
      lo ^= 0x8000;
    if (o[1].neg)
      hi ^= 0x8000;
    return uint32_t(lo) | (uint32_t(hi) << 16);
  });
}

#define PK_F32_OP(N, expr)                                                     \
  [](Wave &w, const Instr &in) {                                               \
    valuPkF32(w, in, N, [](float a, float b, float c) {                        \
      (void)b;                                                                 \
      (void)c;                                                                 \
      return float(expr);                                                      \
    });                                                                        \
  }

// Conversions (see Convert.cpp). FA and FB are the f32 sources with their
// modifiers.
#define CVT(N, expr)                                                           \
  [](Wave &w, const Instr &in) {                                               \
    const Operand *o = srcOperands(in);                                        \
    valuU32<N>(w, in, [&](uint32_t a, uint32_t b, uint32_t) {                  \
      (void)o;                                                                 \
      (void)b;                                                                 \
      return uint32_t(expr);                                                   \
    });                                                                        \
  }
#define FA applyFloatMods(bitsToF32(a), o[0])
#define FB applyFloatMods(bitsToF32(b), o[1])

llvm::ArrayRef<Binding> hk::emu::vectorBindings() {
  static const Binding bindings[] = {
#define HK_VOP1(name, unit, dsts, sem) {#name, sem},
#define HK_VOP2(name, unit, dsts, sem) {#name, sem},
#define HK_VOP3(name, unit, dsts, sem) {#name, sem},
#define HK_VOP3P(name, unit, dsts, sem) {#name, sem},
#define HK_VOPC(name, sem) {#name, sem},
#include "hk/ISA/Instructions/VOP1.def"
#include "hk/ISA/Instructions/VOP2.def"
#include "hk/ISA/Instructions/VOP3.def"
#include "hk/ISA/Instructions/VOP3P.def"
#include "hk/ISA/Instructions/VOPC.def"
  };
  return bindings;
}
