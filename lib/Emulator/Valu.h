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

/// D = f(S0, S1, S2) on f32 with input and output modifiers.
template <unsigned N, typename F>
inline void valuF32(Wave &w, const Instr &in, F f) {
  const Operand *o = srcOperands(in);
  bool mods = in.omod || in.clamp;
  for (unsigned i = 0; i < N; ++i)
    mods |= o[i].neg || o[i].abs;
  if (!mods) {
    valuU32<N>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
      return f32ToBits(f(bitsToF32(a), bitsToF32(b), bitsToF32(c)));
    });
    return;
  }
  valuU32<N>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
    float r = f(applyFloatMods(bitsToF32(a), o[0]),
                N > 1 ? applyFloatMods(bitsToF32(b), o[1]) : 0.0f,
                N > 2 ? applyFloatMods(bitsToF32(c), o[2]) : 0.0f);
    return f32ToBits(applyOutputMods(r, in));
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

inline float f16Src(uint32_t value, const Instr &in, unsigned index) {
  float f = f16ToF32(half(value, in, index));
  return applyFloatMods(f, srcOperands(in)[index]);
}

/// D.f16 = f(S0, S1, S2) evaluated in f32 and rounded once.
template <unsigned N, typename F>
inline void valuF16(Wave &w, const Instr &in, F f) {
  ValuSources s;
  prepareSources(w, in, N, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    float r =
        f(f16Src(s.src[0][l], in, 0), N > 1 ? f16Src(s.src[1][l], in, 1) : 0.0f,
          N > 2 ? f16Src(s.src[2][l], in, 2) : 0.0f);
    uint16_t bits = f32ToF16(applyOutputMods(r, in));
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
