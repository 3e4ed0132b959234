//===- Numerics.h - Number formats of the CDNA3/CDNA4 ALUs ---------*- C++
//-*-===//
//
// Bit-exact conversions between f32 and the narrow formats the matrix cores
// and the conversion instructions read and write: f16, bf16, the two fp8
// families (FNUZ on gfx942, OCP on gfx950), fp6, fp4 and the E8M0 scales of
// gfx950's scaled MFMAs. Rounding is round-to-nearest-even everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef HK_EMULATOR_NUMERICS_H
#define HK_EMULATOR_NUMERICS_H

#include "hk/Support/ChipInfo.h"

#include <cstdint>
#include <cstring>

namespace hk::emu {

inline float bitsToF32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline uint32_t f32ToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}
inline double bitsToF64(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}
inline uint64_t f64ToBits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  return bits;
}

/// A small IEEE-like binary format. `specials` says how the top of the
/// exponent range is used.
struct MiniFloat {
  enum Specials : uint8_t {
    IEEE, ///< Infinities and NaNs in the all-ones exponent (f16, OCP E5M2).
    FN,   ///< No infinities; only all-ones exponent+mantissa is NaN (E4M3FN).
    FNUZ, ///< No infinities, no negative zero; 0x80 is the only NaN.
    None  ///< Every encoding is a finite number (fp6, fp4).
  };
  unsigned expBits;
  unsigned manBits;
  int bias;
  Specials specials;

  unsigned totalBits() const { return 1 + expBits + manBits; }
  double maxFinite() const;
};

extern const MiniFloat kF16, kBF16;

/// The fp8 format a chip's MFMAs and conversions use for E4M3 (`fp8`) and
/// E5M2 (`bf8`).
const MiniFloat &fp8Format(Fp8Format chipFormat, bool e5m2);
/// fp6 (E2M3, `e3m2` false) or bf6 (E3M2); fp4 is E2M1. All OCP MX formats.
const MiniFloat &fp6Format(bool e3m2);
extern const MiniFloat kFp4;

/// Decodes `bits` (low totalBits() bits) to a double (exact).
double decodeMiniFloat(uint32_t bits, const MiniFloat &format);
/// Encodes with round-to-nearest-even. Values beyond the largest finite
/// number saturate when `saturate` is set (and always in formats without
/// infinities or NaNs); otherwise they become infinity or NaN.
uint32_t encodeMiniFloat(double value, const MiniFloat &format, bool saturate);

float f16ToF32(uint16_t bits);
uint16_t f32ToF16(float value);
inline float bf16ToF32(uint16_t bits) {
  return bitsToF32(uint32_t(bits) << 16);
}
uint16_t f32ToBf16(float value);
/// The E8M0 scale of an MX block: 2^(bits-127); 0xff is NaN.
double e8m0ToDouble(uint8_t bits);

} // namespace hk::emu

#endif // HK_EMULATOR_NUMERICS_H
