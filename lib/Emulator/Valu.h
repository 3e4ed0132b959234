//===- Valu.h - Shared machinery of the vector ALU handlers --------*- C++
//-*-===//
//
// Source preparation (DPP lane moves, SDWA selects), float input modifiers
// and output modifiers, and the typed lane loops the VALU handlers are
// written with. Internal to lib/Emulator.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_EMULATOR_VALU_H
#define HK_LIB_EMULATOR_VALU_H

#include "Interp.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hk::emu {

/// Sources of one VALU instruction, ready for the lane loop.
struct ValuSources {
  uint64_t mask = 0; ///< Lanes that write their result.
  SrcView src[3];
  uint32_t tmp[3] = {0, 0, 0};
  uint32_t buf[2][kWaveSize];
};

/// Prepares `numSrcs` 32-bit sources (the operands after the destinations),
/// applying DPP to src0 and SDWA selects to src0/src1.
void prepareSources(const Wave &w, const Instr &in, unsigned numSrcs,
                    ValuSources &s);

/// Writes a 32-bit result of lane `lane` honouring SDWA's dst_sel.
void writeSdwaResult(Wave &w, const Instr &in, unsigned lane, uint32_t value);

inline float applyFloatMods(float f, const Operand &op) {
  if (op.abs)
    f = std::fabs(f);
  if (op.neg)
    f = -f;
  return f;
}
inline double applyFloatMods(double f, const Operand &op) {
  if (op.abs)
    f = std::fabs(f);
  if (op.neg)
    f = -f;
  return f;
}

/// Output modifiers (omod, then clamp to [0, 1]).
inline float applyOutputMods(float r, const Instr &in) {
  switch (in.omod) {
  case 1:
    r *= 2.0f;
    break;
  case 2:
    r *= 4.0f;
    break;
  case 3:
    r *= 0.5f;
    break;
  default:
    break;
  }
  if (in.clamp)
    r = std::isnan(r) ? 0.0f : std::fmin(std::fmax(r, 0.0f), 1.0f);
  return r;
}

/// Output modifiers of an f64 result.
inline double applyOutputMods(double r, const Instr &in) {
  static const double scale[] = {1.0, 2.0, 4.0, 0.5};
  r *= scale[in.omod & 3];
  if (in.clamp)
    r = std::isnan(r) ? 0.0 : std::fmin(std::fmax(r, 0.0), 1.0);
  return r;
}

inline const Operand *srcOperands(const Instr &in) {
  return &in.ops[in.numDsts];
}

/// D = f(S0, S1, S2) on 32-bit patterns.
template <unsigned N, typename F>
inline void valuU32(Wave &w, const Instr &in, F f) {
  ValuSources s;
  prepareSources(w, in, N, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  if (in.isSdwa()) {
    forEachLane(s.mask, [&](unsigned l) {
      writeSdwaResult(w, in, l, f(s.src[0][l], s.src[1][l], s.src[2][l]));
    });
    return;
  }
  forEachLane(s.mask, [&](unsigned l) {
    dst[l] = f(s.src[0][l], s.src[1][l], s.src[2][l]);
  });
}

/// The exact value hi + lo, with |lo| at most half an ulp of hi (as an
/// error-free transformation leaves it), rounded once to f32, to nearest
/// even. Converting hi alone would round twice when hi lies exactly halfway
/// between two floats.
inline float roundPairToF32(double hi, double lo) {
  float r = float(hi);
  double dr = r;
  if (lo == 0 || dr == hi || std::isinf(r))
    return r;
  float other =
      std::nextafter(r, hi > dr ? std::numeric_limits<float>::infinity()
                                : -std::numeric_limits<float>::infinity());
  // Two floats of one binade (or neighbours across it): their sum and its
  // half are exact in double.
  double middle = (dr + double(other)) / 2;
  if (hi != middle)
    return r;
  float up = std::max(r, other), down = std::min(r, other);
  return lo > 0 ? up : down;
}

/// a * b + c for f16 or f32 values, rounded once to f16 and returned as an
/// f32: the product is exact in double, the sum's rounding
/// error (Knuth's TwoSum) is kept in the last bit (round to odd), so that
/// the one conversion to f16 rounds as the exact value would.
inline float fmaF16(float a, float b, float c) {
  double p = double(a) * double(b);
  double s = p + double(c);
  if (!std::isfinite(s))
    return float(s);
  double z = s - p;
  double e = (p - (s - z)) + (double(c) - z);
  if (e != 0 && !(f64ToBits(s) & 1))
    s = std::nextafter(s, e > 0 ? std::numeric_limits<double>::infinity()
                                : -std::numeric_limits<double>::infinity());
  return f16ToF32(uint16_t(encodeMiniFloat(s, kF16, /*saturate=*/false)));
}

/// Replaces a subnormal by a zero of its sign.
template <typename T> inline T flushSubnormal(T x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x) : x;
}

/// What the wave's MODE register says about denormals for one precision.
struct DenormalMode {
  bool flushSources = false, flushResults = false;
  bool any() const { return flushSources || flushResults; }
  template <typename T> T source(T x) const {
    return flushSources ? flushSubnormal(x) : x;
  }
  template <typename T> T result(T x) const {
    return flushResults ? flushSubnormal(x) : x;
  }
};
inline DenormalMode denormalMode(const Wave &w, unsigned shift) {
  unsigned mode = (w.mode >> shift) & 3;
  return {ModeRegister::flushesSources(mode),
          ModeRegister::flushesResults(mode)};
}
inline DenormalMode f32Denormals(const Wave &w) {
  return denormalMode(w, ModeRegister::kDenorm32Shift);
}
/// f16 and f64 share one MODE field.
inline DenormalMode f16f64Denormals(const Wave &w) {
  return denormalMode(w, ModeRegister::kDenorm16_64Shift);
}

/// D = f(S0, S1, S2) on f32 with input and output modifiers, denormals as
/// the wave's MODE says.
template <unsigned N, typename F>
inline void valuF32(Wave &w, const Instr &in, F f) {
  const Operand *o = srcOperands(in);
  DenormalMode denormals = f32Denormals(w);
  bool mods = in.omod || in.clamp || denormals.any();
  for (unsigned i = 0; i < N; ++i)
    mods |= o[i].neg || o[i].abs;
  if (!mods) {
    valuU32<N>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
      return f32ToBits(f(bitsToF32(a), bitsToF32(b), bitsToF32(c)));
    });
    return;
  }
  auto source = [&](uint32_t bits, unsigned i) {
    return i < N ? applyFloatMods(denormals.source(bitsToF32(bits)), o[i])
                 : 0.0f;
  };
  valuU32<N>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
    float r = f(source(a, 0), source(b, 1), source(c, 2));
    return f32ToBits(denormals.result(applyOutputMods(r, in)));
  });
}

/// The 16-bit half of source `index` that op_sel selects.
inline uint16_t half(uint32_t value, const Instr &in, unsigned index) {
  return uint16_t((in.opSel >> index) & 1 ? value >> 16 : value);
}

/// Whether VOP3 op_sel's destination bit is set.
inline bool dstOpSel(const Instr &in) { return (in.opSel >> 3) & 1; }

/// Writes a 16-bit result: op_sel's destination bit puts it in the high
/// half (keeping the low half); otherwise the high half is zeroed as on GFX9.
inline uint32_t place16(uint32_t old, uint16_t value, const Instr &in) {
  if (dstOpSel(in))
    return (old & 0xffffu) | (uint32_t(value) << 16);
  return value;
}

/// `f` with a NaN quieted (its payload kept), as a conversion delivers it.
inline float quieted(float f) {
  return std::isnan(f) ? bitsToF32(f32ToBits(f) | 0x400000u) : f;
}

inline float f16Src(uint32_t value, const Instr &in, unsigned index) {
  float f = f16ToF32(half(value, in, index));
  return applyFloatMods(f, srcOperands(in)[index]);
}

/// An f16 bit pattern with a subnormal replaced by a zero of its sign.
inline uint16_t flushF16(uint16_t bits) {
  return (bits & 0x7c00) == 0 ? uint16_t(bits & 0x8000) : bits;
}

/// D.f16 = f(S0, S1, S2) evaluated in f32 and rounded once.
template <unsigned N, typename F>
inline void valuF16(Wave &w, const Instr &in, F f) {
  ValuSources s;
  prepareSources(w, in, N, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  DenormalMode denormals = f16f64Denormals(w);
  auto source = [&](uint32_t value, unsigned i) {
    if (i >= N)
      return 0.0f;
    if (!denormals.flushSources)
      return f16Src(value, in, i);
    float f = f16ToF32(flushF16(half(value, in, i)));
    return applyFloatMods(f, srcOperands(in)[i]);
  };
  forEachLane(s.mask, [&](unsigned l) {
    float r = f(source(s.src[0][l], 0), source(s.src[1][l], 1),
                source(s.src[2][l], 2));
    uint16_t bits = f32ToF16(applyOutputMods(r, in));
    if (denormals.flushResults)
      bits = flushF16(bits);
    if (in.isSdwa())
      writeSdwaResult(w, in, l, bits);
    else
      dst[l] = place16(dst[l], bits, in);
  });
}

/// 64-bit lane loop: sources read as two consecutive 32-bit words.
template <unsigned N, typename F>
inline void valu64(Wave &w, const Instr &in, F f) {
  const Operand *o = srcOperands(in);
  SrcView lo[3], hi[3];
  uint32_t tmp[6] = {0, 0, 0, 0, 0, 0};
  for (unsigned i = 0; i < 3; ++i) {
    if (i < N) {
      lo[i] = viewOf(w, o[i], 0, tmp[2 * i]);
      hi[i] = o[i].count >= 2 || o[i].kind == OpKind::Imm
                  ? viewOf(w, o[i], 1, tmp[2 * i + 1])
                  : SrcView{&tmp[2 * i + 1], 0};
    } else {
      lo[i] = hi[i] = {&tmp[2 * i], 0};
    }
  }
  unsigned d = in.ops[0].reg;
  forEachLane(w.exec(), [&](unsigned l) {
    uint64_t a = lo[0][l] | (uint64_t(hi[0][l]) << 32);
    uint64_t b = lo[1][l] | (uint64_t(hi[1][l]) << 32);
    uint64_t c = lo[2][l] | (uint64_t(hi[2][l]) << 32);
    uint64_t r = f(a, b, c);
    w.v[d & (kNumVgprs - 1)][l] = uint32_t(r);
    w.v[(d + 1) & (kNumVgprs - 1)][l] = uint32_t(r >> 32);
  });
}

/// f64/integer -> integer conversion that saturates to T's range (NaN
/// converts to 0), as the v_cvt_*_f32/f64 integer conversions do.
template <typename T> inline T saturatingConvert(double v) {
  if (std::isnan(v))
    return 0;
  if (v <= double(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (v >= double(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return T(v);
}

/// f32 -> f16 rounding toward zero (v_cvt_pkrtz_f16_f32).
inline uint16_t f32ToF16Rtz(float f) {
  uint16_t rounded = f32ToF16(f);
  float back = f16ToF32(rounded);
  if (std::isnan(f) || std::isinf(f) || std::fabs(back) <= std::fabs(f))
    return rounded;
  // Rounded away from zero: step one ulp toward zero.
  if (std::isinf(back))
    return uint16_t((rounded & 0x8000) | 0x7bff);
  return uint16_t(rounded - 1);
}

/// v_cvt_pknorm_{i16,u16}_f32: clamp to [-1, 1] ([0, 1]) and scale to the
/// 16-bit range, rounding to nearest even.
inline uint16_t normI16(float f) {
  double v = std::fmax(-1.0, std::fmin(1.0, double(f)));
  return uint16_t(saturatingConvert<int16_t>(std::nearbyint(v * 32767.0)));
}
inline uint16_t normU16(float f) {
  double v = std::fmax(0.0, std::fmin(1.0, double(f)));
  return saturatingConvert<uint16_t>(std::nearbyint(v * 65535.0));
}
/// An i32 saturated to i16 (v_cvt_pk_i16_i32).
inline uint16_t satI16(uint32_t v) {
  return uint16_t(std::clamp(int32_t(v), -32768, 32767));
}

// Conversion handlers (Convert.cpp).
template <bool Bf8> void vCvtPkFp8(Wave &w, const Instr &in);
template <bool Bf8> void vCvtF32Fp8(Wave &w, const Instr &in);
template <bool Bf8> void vCvtPkF32Fp8(Wave &w, const Instr &in);
void vCvtF16F32(Wave &w, const Instr &in);
void vCvtF32F64(Wave &w, const Instr &in);
void vCvtI32F64(Wave &w, const Instr &in);
void vCvtU32F64(Wave &w, const Instr &in);
void vCvtF64F32(Wave &w, const Instr &in);
void vCvtF64I32(Wave &w, const Instr &in);
void vCvtF64U32(Wave &w, const Instr &in);

} // namespace hk::emu

#endif // HK_LIB_EMULATOR_VALU_H
