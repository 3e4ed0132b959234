//===- Convert.cpp - Conversion instructions
//--------------------------------===//
//
// f32/f16/bf16/f64/integer conversions and the fp8 conversions, whose format
// (FNUZ on gfx942, OCP on gfx950) comes from ChipInfo.
//
//===----------------------------------------------------------------------===//

#include "Valu.h"

#include <cmath>
#include <limits>

using namespace hk;
using namespace hk::emu;

template <typename T> static T saturatingConvert(double v) {
  if (std::isnan(v))
    return 0;
  if (v <= double(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (v >= double(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return T(v);
}

static Fp8Format chipFp8(const Wave &w) {
  return w.wg->launch->chip->fp8Format;
}

/// f32 -> f16 rounding toward zero (v_cvt_pkrtz_f16_f32).
static uint16_t f32ToF16Rtz(float f) {
  uint16_t rounded = f32ToF16(f);
  float back = f16ToF32(rounded);
  if (std::isnan(f) || std::isinf(f) || std::fabs(back) <= std::fabs(f))
    return rounded;
  // Rounded away from zero: step one ulp toward zero.
  if (std::isinf(back))
    return uint16_t((rounded & 0x8000) | 0x7bff);
  return uint16_t(rounded - 1);
}

/// v_cvt_pk_{fp8,bf8}_f32: two f32 to two fp8 in one 16-bit half of the
/// destination (op_sel's destination bit picks the half), keeping the other.
static void vCvtPkFp8(Wave &w, const Instr &in) {
  const MiniFloat &format = fp8Format(chipFp8(w), in.sub);
  const Operand *o = srcOperands(in);
  ValuSources s;
  prepareSources(w, in, 2, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  bool high = dstOpSel(in);
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t lo = encodeMiniFloat(applyFloatMods(bitsToF32(s.src[0][l]), o[0]),
                                  format, in.clamp);
    uint32_t hi = encodeMiniFloat(applyFloatMods(bitsToF32(s.src[1][l]), o[1]),
                                  format, in.clamp);
    uint32_t packed = lo | (hi << 8);
    dst[l] = high ? (dst[l] & 0xffffu) | (packed << 16)
                  : (dst[l] & 0xffff0000u) | packed;
  });
}

/// The fp8 byte a v_cvt_f32_{fp8,bf8} reads: SDWA src0_sel already moved it
/// to bits 7:0; the VOP3 form selects it with op_sel.
static unsigned fp8ByteSelect(const Instr &in) {
  if (in.sdwa)
    return 0;
  return (in.opSel & 1) | (((in.opSel >> 1) & 1) << 1);
}

static void vCvtF32Fp8(Wave &w, const Instr &in) {
  const MiniFloat &format = fp8Format(chipFp8(w), in.sub);
  unsigned byte = fp8ByteSelect(in);
  valuU32<1>(w, in, [&](uint32_t a, uint32_t, uint32_t) {
    double v = decodeMiniFloat((a >> (8 * byte)) & 0xff, format);
    return f32ToBits(applyOutputMods(float(v), in));
  });
}

/// v_cvt_pk_f32_{fp8,bf8}: two fp8 of one 16-bit half to v[d:d+1].
static void vCvtPkF32Fp8(Wave &w, const Instr &in) {
  const MiniFloat &format = fp8Format(chipFp8(w), in.sub);
  ValuSources s;
  prepareSources(w, in, 1, s);
  unsigned shift = in.sdwa ? 0 : (in.opSel & 1) * 16;
  unsigned d = in.ops[0].reg;
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t v = s.src[0][l] >> shift;
    w.v[d & (kNumVgprs - 1)][l] =
        f32ToBits(float(decodeMiniFloat(v & 0xff, format)));
    w.v[(d + 1) & (kNumVgprs - 1)][l] =
        f32ToBits(float(decodeMiniFloat((v >> 8) & 0xff, format)));
  });
}

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

static uint32_t f64Result(Wave &w, const Instr &in, unsigned lane, double v) {
  uint64_t bits = f64ToBits(v);
  unsigned d = in.ops[0].reg;
  w.v[(d + 1) & (kNumVgprs - 1)][lane] = uint32_t(bits >> 32);
  return uint32_t(bits);
}

/// Conversions that read an f64 source (two registers).
template <typename F> static void fromF64(Wave &w, const Instr &in, F f) {
  const Operand *o = srcOperands(in);
  uint32_t t[2] = {0, 0};
  SrcView lo = viewOf(w, o[0], 0, t[0]), hi = viewOf(w, o[0], 1, t[1]);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(w.exec(), [&](unsigned l) {
    double v = applyFloatMods(bitsToF64(lo[l] | (uint64_t(hi[l]) << 32)), o[0]);
    dst[l] = f(v);
  });
}

/// Conversions that write an f64 result (two registers).
template <typename F> static void toF64(Wave &w, const Instr &in, F f) {
  ValuSources s;
  prepareSources(w, in, 1, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    dst[l] = f64Result(w, in, l, f(s.src[0][l]));
  });
}

void hk::emu::registerConvertHandlers(HandlerTable &t) {
  auto add = [&](llvm::StringRef name, Handler fn, uint32_t sub = 0,
                 ConstType ct = ConstType::F32) {
    HandlerEntry e;
    e.fn = fn;
    e.cls = InstrClass::Valu;
    e.sub = sub;
    e.constType = ct;
    t[name] = e;
  };
  add("v_cvt_f32_i32",
      CVT(1, f32ToBits(applyOutputMods(float(int32_t(a)), in))));
  add("v_cvt_f32_u32", CVT(1, f32ToBits(applyOutputMods(float(a), in))));
  add("v_cvt_i32_f32", CVT(1, saturatingConvert<int32_t>(FA)));
  add("v_cvt_u32_f32", CVT(1, saturatingConvert<uint32_t>(FA)));
  add("v_cvt_rpi_i32_f32",
      CVT(1, saturatingConvert<int32_t>(std::floor(double(FA) + 0.5))));
  add("v_cvt_flr_i32_f32",
      CVT(1, saturatingConvert<int32_t>(std::floor(double(FA)))));
  add("v_cvt_f16_f32", [](Wave &w, const Instr &in) {
    const Operand *o = srcOperands(in);
    ValuSources s;
    prepareSources(w, in, 1, s);
    uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
    forEachLane(s.mask, [&](unsigned l) {
      uint16_t h = f32ToF16(
          applyOutputMods(applyFloatMods(bitsToF32(s.src[0][l]), o[0]), in));
      if (in.sdwa)
        writeSdwaResult(w, in, l, h);
      else
        dst[l] = place16(dst[l], h, in);
    });
  });
  add("v_cvt_f32_f16", CVT(1, f32ToBits(applyOutputMods(f16Src(a, in, 0), in))),
      0, ConstType::F16);
  add("v_cvt_f32_bf16",
      CVT(1, f32ToBits(applyFloatMods(bf16ToF32(half(a, in, 0)), o[0]))));
  add("v_cvt_f16_u16", CVT(1, f32ToF16(float(half(a, in, 0)))), 0,
      ConstType::F16);
  add("v_cvt_f16_i16", CVT(1, f32ToF16(float(int16_t(half(a, in, 0))))), 0,
      ConstType::F16);
  add("v_cvt_u16_f16", CVT(1, saturatingConvert<uint16_t>(f16Src(a, in, 0))), 0,
      ConstType::F16);
  add("v_cvt_i16_f16",
      CVT(1, uint16_t(saturatingConvert<int16_t>(f16Src(a, in, 0)))), 0,
      ConstType::F16);
  add("v_cvt_pkrtz_f16_f32",
      CVT(2, uint32_t(f32ToF16Rtz(FA)) | (uint32_t(f32ToF16Rtz(FB)) << 16)));
  add("v_cvt_pk_f16_f32",
      CVT(2, uint32_t(f32ToF16(FA)) | (uint32_t(f32ToF16(FB)) << 16)));
  add("v_cvt_pk_bf16_f32",
      CVT(2, uint32_t(f32ToBf16(FA)) | (uint32_t(f32ToBf16(FB)) << 16)));
  add("v_cvt_pknorm_i16_f32",
      CVT(2, uint32_t(uint16_t(saturatingConvert<int16_t>(std::nearbyint(
                 std::fmax(-1.0, std::fmin(1.0, double(FA))) * 32767.0)))) |
                 (uint32_t(uint16_t(saturatingConvert<int16_t>(std::nearbyint(
                      std::fmax(-1.0, std::fmin(1.0, double(FB))) * 32767.0))))
                  << 16)));
  add("v_cvt_pknorm_u16_f32",
      CVT(2, uint32_t(saturatingConvert<uint16_t>(std::nearbyint(
                 std::fmax(0.0, std::fmin(1.0, double(FA))) * 65535.0))) |
                 (uint32_t(saturatingConvert<uint16_t>(std::nearbyint(
                      std::fmax(0.0, std::fmin(1.0, double(FB))) * 65535.0)))
                  << 16)));
  add("v_cvt_pk_u16_u32",
      CVT(2, uint32_t(std::min(a, 0xffffu)) | (std::min(b, 0xffffu) << 16)));
  add("v_cvt_pk_i16_i32",
      CVT(2, uint32_t(uint16_t(std::clamp(int32_t(a), -32768, 32767))) |
                 (uint32_t(uint16_t(std::clamp(int32_t(b), -32768, 32767)))
                  << 16)));
  add("v_cvt_f32_ubyte0", CVT(1, f32ToBits(float(a & 0xff))));
  add("v_cvt_f32_ubyte1", CVT(1, f32ToBits(float((a >> 8) & 0xff))));
  add("v_cvt_f32_ubyte2", CVT(1, f32ToBits(float((a >> 16) & 0xff))));
  add("v_cvt_f32_ubyte3", CVT(1, f32ToBits(float(a >> 24))));
  add("v_cvt_pk_fp8_f32", vCvtPkFp8, 0);
  add("v_cvt_pk_bf8_f32", vCvtPkFp8, 1);
  add("v_cvt_f32_fp8", vCvtF32Fp8, 0);
  add("v_cvt_f32_bf8", vCvtF32Fp8, 1);
  add("v_cvt_pk_f32_fp8", vCvtPkF32Fp8, 0);
  add("v_cvt_pk_f32_bf8", vCvtPkF32Fp8, 1);
  add(
      "v_cvt_f32_f64",
      [](Wave &w, const Instr &in) {
        fromF64(w, in, [&](double v) {
          return f32ToBits(applyOutputMods(float(v), in));
        });
      },
      0, ConstType::F64);
  add(
      "v_cvt_i32_f64",
      [](Wave &w, const Instr &in) {
        fromF64(w, in, [](double v) {
          return uint32_t(saturatingConvert<int32_t>(v));
        });
      },
      0, ConstType::F64);
  add(
      "v_cvt_u32_f64",
      [](Wave &w, const Instr &in) {
        fromF64(w, in, [](double v) { return saturatingConvert<uint32_t>(v); });
      },
      0, ConstType::F64);
  add("v_cvt_f64_f32", [](Wave &w, const Instr &in) {
    const Operand *o = srcOperands(in);
    toF64(w, in, [&](uint32_t a) {
      return double(applyFloatMods(bitsToF32(a), o[0]));
    });
  });
  add("v_cvt_f64_i32", [](Wave &w, const Instr &in) {
    toF64(w, in, [](uint32_t a) { return double(int32_t(a)); });
  });
  add("v_cvt_f64_u32", [](Wave &w, const Instr &in) {
    toF64(w, in, [](uint32_t a) { return double(a); });
  });
}
