//===- Numerics.cpp - Number formats of the CDNA3/CDNA4 ALUs
//---------------===//

#include "hk/Emulator/Numerics.h"

#include <array>
#include <cmath>
#include <limits>

using namespace hk;
using namespace hk::emu;

const MiniFloat hk::emu::kF16 = {5, 10, 15, MiniFloat::IEEE};
const MiniFloat hk::emu::kBF16 = {8, 7, 127, MiniFloat::IEEE};
const MiniFloat hk::emu::kFp4 = {2, 1, 1, MiniFloat::None};

static const MiniFloat kE4M3Fnuz = {4, 3, 8, MiniFloat::FNUZ};
static const MiniFloat kE5M2Fnuz = {5, 2, 16, MiniFloat::FNUZ};
static const MiniFloat kE4M3Ocp = {4, 3, 7, MiniFloat::FN};
static const MiniFloat kE5M2Ocp = {5, 2, 15, MiniFloat::IEEE};
static const MiniFloat kE2M3 = {2, 3, 1, MiniFloat::None};
static const MiniFloat kE3M2 = {3, 2, 3, MiniFloat::None};

const MiniFloat &hk::emu::fp8Format(Fp8Format chipFormat, bool e5m2) {
  if (chipFormat == Fp8Format::FNUZ)
    return e5m2 ? kE5M2Fnuz : kE4M3Fnuz;
  return e5m2 ? kE5M2Ocp : kE4M3Ocp;
}

const MiniFloat &hk::emu::fp6Format(bool e3m2) { return e3m2 ? kE3M2 : kE2M3; }

/// Largest biased exponent field that encodes finite numbers.
static unsigned maxFiniteExponentField(const MiniFloat &f) {
  unsigned allOnes = (1u << f.expBits) - 1;
  return f.specials == MiniFloat::IEEE ? allOnes - 1 : allOnes;
}

/// Largest mantissa field usable with the largest finite exponent field.
static unsigned maxFiniteMantissaField(const MiniFloat &f) {
  unsigned allOnes = (1u << f.manBits) - 1;
  // E4M3FN spends the all-ones pattern on NaN.
  return f.specials == MiniFloat::FN ? allOnes - 1 : allOnes;
}

double MiniFloat::maxFinite() const {
  int exponent = int(maxFiniteExponentField(*this)) - bias;
  double mantissa =
      1.0 + double(maxFiniteMantissaField(*this)) / double(1u << manBits);
  return std::ldexp(mantissa, exponent);
}

double hk::emu::decodeMiniFloat(uint32_t bits, const MiniFloat &f) {
  unsigned total = f.totalBits();
  bits &= (1u << total) - 1;
  bool negative = bits >> (total - 1);
  unsigned exponent = (bits >> f.manBits) & ((1u << f.expBits) - 1);
  unsigned mantissa = bits & ((1u << f.manBits) - 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (f.specials == MiniFloat::FNUZ && bits == (1u << (total - 1)))
    return nan;
  if (f.specials == MiniFloat::IEEE && exponent == (1u << f.expBits) - 1)
    return mantissa ? nan
                    : (negative ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity());
  if (f.specials == MiniFloat::FN && exponent == (1u << f.expBits) - 1 &&
      mantissa == (1u << f.manBits) - 1)
    return nan;
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(double(mantissa), 1 - f.bias - int(f.manBits));
  else
    magnitude = std::ldexp(double(mantissa | (1u << f.manBits)),
                           int(exponent) - f.bias - int(f.manBits));
  return negative ? -magnitude : magnitude;
}

static uint32_t nanEncoding(const MiniFloat &f) {
  unsigned total = f.totalBits();
  switch (f.specials) {
  case MiniFloat::FNUZ:
    return 1u << (total - 1);
  case MiniFloat::FN:
    return (1u << (total - 1)) - 1;
  case MiniFloat::IEEE:
    // Quiet NaN: all-ones exponent, top mantissa bit.
    return (((1u << f.expBits) - 1) << f.manBits) | (1u << (f.manBits - 1));
  case MiniFloat::None:
    return 0;
  }
  return 0;
}

uint32_t hk::emu::encodeMiniFloat(double value, const MiniFloat &f,
                                  bool saturate) {
  unsigned total = f.totalBits();
  uint32_t signBit = 1u << (total - 1);
  if (std::isnan(value))
    return f.specials == MiniFloat::None ? 0 : nanEncoding(f);
  bool negative = std::signbit(value);
  double magnitude = std::fabs(value);
  uint32_t sign = negative ? signBit : 0;
  uint32_t infinity = ((1u << f.expBits) - 1) << f.manBits;
  uint32_t maxFiniteBits =
      (maxFiniteExponentField(f) << f.manBits) | maxFiniteMantissaField(f);
  bool canSaturateOnly = f.specials == MiniFloat::None;
  if (std::isinf(magnitude)) {
    if (saturate || canSaturateOnly)
      return sign | maxFiniteBits;
    if (f.specials == MiniFloat::IEEE)
      return sign | infinity;
    return nanEncoding(f);
  }
  int minNormalExp = 1 - f.bias;
  int exponent = magnitude == 0 ? minNormalExp : std::ilogb(magnitude);
  if (exponent < minNormalExp)
    exponent = minNormalExp;
  double quantum = std::ldexp(1.0, exponent - int(f.manBits));
  // The quotient is exact (both are doubles with few significant bits), and
  // nearbyint rounds half to even in the default rounding mode.
  double rounded = std::nearbyint(magnitude / quantum) * quantum;
  if (rounded > f.maxFinite()) {
    if (saturate || canSaturateOnly)
      return sign | maxFiniteBits;
    if (f.specials == MiniFloat::IEEE)
      return sign | infinity;
    return nanEncoding(f);
  }
  if (rounded == 0)
    return f.specials == MiniFloat::FNUZ ? 0 : sign;
  int roundedExp = std::ilogb(rounded);
  if (roundedExp < minNormalExp) {
    uint32_t mantissa =
        uint32_t(std::ldexp(rounded, int(f.manBits) - minNormalExp));
    return sign | mantissa;
  }
  uint32_t expField = uint32_t(roundedExp + f.bias);
  uint32_t mantissa =
      uint32_t(std::ldexp(rounded, int(f.manBits) - roundedExp)) -
      (1u << f.manBits);
  return sign | (expField << f.manBits) | mantissa;
}

float hk::emu::f16ToF32(uint16_t bits) {
  // A NaN keeps its sign, payload and quiet bit (a signalling NaN stays
  // signalling, as instructions that treat the two apart need).
  if ((bits & 0x7c00) == 0x7c00 && (bits & 0x3ff))
    return bitsToF32((uint32_t(bits & 0x8000) << 16) | 0x7f800000u |
                     (uint32_t(bits & 0x3ff) << 13));
  return float(decodeMiniFloat(bits, kF16));
}

uint16_t hk::emu::f32ToF16(float value) {
  uint32_t bits = f32ToBits(value);
  // A NaN keeps its sign and the top of its payload, and is quieted (so a
  // NaN an f16 instruction creates is AMD's 0xfe00, like its f32 0xffc00000).
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return uint16_t(((bits >> 16) & 0x8000) | 0x7e00 | ((bits >> 13) & 0x1ff));
  return uint16_t(encodeMiniFloat(value, kF16, /*saturate=*/false));
}

uint16_t hk::emu::f32ToBf16(float value) {
  uint32_t bits = f32ToBits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((bits >> 16) | 0x40); // Quiet the NaN, keep its sign.
  uint32_t roundingBias = 0x7fffu + ((bits >> 16) & 1);
  return uint16_t((bits + roundingBias) >> 16);
}

double hk::emu::e8m0ToDouble(uint8_t bits) {
  // Every scaled MFMA element multiplies by one: a table, not an ldexp.
  static const std::array<double, 256> table = [] {
    std::array<double, 256> values;
    for (unsigned v = 0; v < 255; ++v)
      values[v] = std::ldexp(1.0, int(v) - 127);
    values[255] = std::numeric_limits<double>::quiet_NaN();
    return values;
  }();
  return table[bits];
}
