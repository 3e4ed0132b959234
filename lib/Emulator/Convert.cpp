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

static Fp8Format chipFp8(const Wave &w) {
  return w.wg->launch->chip->fp8Format;
}

/// v_cvt_pk_{fp8,bf8}_f32: two f32 to two fp8 in one 16-bit half of the
/// destination (op_sel's destination bit picks the half), keeping the other.
template <bool Bf8> void hk::emu::vCvtPkFp8(Wave &w, const Instr &in) {
  const MiniFloat &format = fp8Format(chipFp8(w), Bf8);
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
  if (in.isSdwa())
    return 0;
  return (in.opSel & 1) | (((in.opSel >> 1) & 1) << 1);
}

template <bool Bf8> void hk::emu::vCvtF32Fp8(Wave &w, const Instr &in) {
  const MiniFloat &format = fp8Format(chipFp8(w), Bf8);
  unsigned byte = fp8ByteSelect(in);
  valuU32<1>(w, in, [&](uint32_t a, uint32_t, uint32_t) {
    double v = decodeMiniFloat((a >> (8 * byte)) & 0xff, format);
    return f32ToBits(applyOutputMods(float(v), in));
  });
}

/// v_cvt_pk_f32_{fp8,bf8}: two fp8 of one 16-bit half to v[d:d+1].
template <bool Bf8> void hk::emu::vCvtPkF32Fp8(Wave &w, const Instr &in) {
  const MiniFloat &format = fp8Format(chipFp8(w), Bf8);
  ValuSources s;
  prepareSources(w, in, 1, s);
  unsigned shift = in.isSdwa() ? 0 : (in.opSel & 1) * 16;
  unsigned d = in.ops[0].reg;
  forEachLane(s.mask, [&](unsigned l) {
    uint32_t v = s.src[0][l] >> shift;
    w.v[d & (kNumVgprs - 1)][l] =
        f32ToBits(float(decodeMiniFloat(v & 0xff, format)));
    w.v[(d + 1) & (kNumVgprs - 1)][l] =
        f32ToBits(float(decodeMiniFloat((v >> 8) & 0xff, format)));
  });
}

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

template void hk::emu::vCvtPkFp8<false>(Wave &, const Instr &);
template void hk::emu::vCvtPkFp8<true>(Wave &, const Instr &);
template void hk::emu::vCvtF32Fp8<false>(Wave &, const Instr &);
template void hk::emu::vCvtF32Fp8<true>(Wave &, const Instr &);
template void hk::emu::vCvtPkF32Fp8<false>(Wave &, const Instr &);
template void hk::emu::vCvtPkF32Fp8<true>(Wave &, const Instr &);

void hk::emu::vCvtF16F32(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  ValuSources s;
  prepareSources(w, in, 1, s);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(s.mask, [&](unsigned l) {
    uint16_t h = f32ToF16(
        applyOutputMods(applyFloatMods(bitsToF32(s.src[0][l]), o[0]), in));
    if (in.isSdwa())
      writeSdwaResult(w, in, l, h);
    else
      dst[l] = place16(dst[l], h, in);
  });
}

void hk::emu::vCvtF32F64(Wave &w, const Instr &in) {
  fromF64(w, in,
          [&](double v) { return f32ToBits(applyOutputMods(float(v), in)); });
}

void hk::emu::vCvtI32F64(Wave &w, const Instr &in) {
  fromF64(w, in,
          [](double v) { return uint32_t(saturatingConvert<int32_t>(v)); });
}

void hk::emu::vCvtU32F64(Wave &w, const Instr &in) {
  fromF64(w, in, [](double v) { return saturatingConvert<uint32_t>(v); });
}

void hk::emu::vCvtF64F32(Wave &w, const Instr &in) {
  const Operand *o = srcOperands(in);
  toF64(w, in, [&](uint32_t a) {
    return applyOutputMods(double(applyFloatMods(bitsToF32(a), o[0])), in);
  });
}

void hk::emu::vCvtF64I32(Wave &w, const Instr &in) {
  toF64(w, in, [](uint32_t a) { return double(int32_t(a)); });
}

void hk::emu::vCvtF64U32(Wave &w, const Instr &in) {
  toF64(w, in, [](uint32_t a) { return double(a); });
}
