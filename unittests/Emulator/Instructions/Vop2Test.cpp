//===- Vop2Test.cpp - VOP2 instructions -----------------------------------===//
//
// Two-source vector ALU instructions, every lane checked against an
// independent reference:
// - integer and bit operations: host arithmetic from AMD's CDNA3/CDNA4 ISA
//   reference (shift amounts taken from the low 5 or 4 bits, 24-bit
//   multiplies of the sign- or zero-extended low 24 bits, carries as the
//   unsigned overflow of the 33-bit sum or the borrow of the difference);
// - 16-bit integer operations read the low halves only (the sources' high
//   halves are random) and zero the result's high half, as GFX9 does;
// - floating point: LLVM's APFloat with round to nearest even, denormals
//   kept (the mode compute kernels run with); v_max/v_min follow the ISA's
//   IEEE-mode pseudocode: a signalling NaN gives a quiet NaN, a quiet NaN
//   gives the other operand, +0 orders above -0;
// - v_mul_legacy_f32: 0 times anything, infinities and NaNs included, is
//   +0 (the ISA's "DX9 rules");
// - v_dot2c: the exact sum of the two f16 (bf16) products and the f32
//   accumulator, within 1 ulp of f32 (the ISA does not say how often it
//   rounds).
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;
using llvm::APFloat;

namespace {

// Integer and bit operations -------------------------------------------------

using IntRef2 = uint64_t (*)(uint64_t a, uint64_t b);

int64_t sext24(uint64_t v) { return int64_t(int32_t(uint32_t(v) << 8) >> 8); }

const std::map<std::string, IntRef2> &intOps() {
  static const std::map<std::string, IntRef2> ops = {
      {"v_and_b32", [](uint64_t a, uint64_t b) { return a & b; }},
      {"v_or_b32", [](uint64_t a, uint64_t b) { return a | b; }},
      {"v_xor_b32", [](uint64_t a, uint64_t b) { return a ^ b; }},
      {"v_xnor_b32",
       [](uint64_t a, uint64_t b) { return uint64_t(uint32_t(~(a ^ b))); }},
      {"v_lshlrev_b32",
       [](uint64_t a, uint64_t b) {
         return uint64_t(uint32_t(b << (a & 31)));
       }},
      {"v_lshrrev_b32", [](uint64_t a, uint64_t b) { return b >> (a & 31); }},
      {"v_ashrrev_i32",
       [](uint64_t a, uint64_t b) {
         return uint64_t(uint32_t(int32_t(uint32_t(b)) >> (a & 31)));
       }},
      {"v_add_u32",
       [](uint64_t a, uint64_t b) { return uint64_t(uint32_t(a + b)); }},
      {"v_sub_u32",
       [](uint64_t a, uint64_t b) { return uint64_t(uint32_t(a - b)); }},
      {"v_subrev_u32",
       [](uint64_t a, uint64_t b) { return uint64_t(uint32_t(b - a)); }},
      {"v_mul_u32_u24",
       [](uint64_t a, uint64_t b) {
         return uint64_t(uint32_t((a & 0xffffff) * (b & 0xffffff)));
       }},
      {"v_mul_hi_u32_u24",
       [](uint64_t a, uint64_t b) {
         return ((a & 0xffffff) * (b & 0xffffff)) >> 32;
       }},
      {"v_mul_i32_i24",
       [](uint64_t a, uint64_t b) {
         return uint64_t(uint32_t(sext24(a) * sext24(b)));
       }},
      {"v_mul_hi_i32_i24",
       [](uint64_t a, uint64_t b) {
         return uint64_t(uint32_t((sext24(a) * sext24(b)) >> 32));
       }},
      {"v_max_i32",
       [](uint64_t a, uint64_t b) { return int32_t(a) > int32_t(b) ? a : b; }},
      {"v_min_i32",
       [](uint64_t a, uint64_t b) { return int32_t(a) < int32_t(b) ? a : b; }},
      {"v_max_u32", [](uint64_t a, uint64_t b) { return a > b ? a : b; }},
      {"v_min_u32", [](uint64_t a, uint64_t b) { return a < b ? a : b; }},
  };
  return ops;
}

/// The 16-bit operations on the low halves of their sources.
const std::map<std::string, IntRef2> &int16Ops() {
  static const std::map<std::string, IntRef2> ops = {
      {"v_add_u16", [](uint64_t a, uint64_t b) { return (a + b) & 0xffff; }},
      {"v_sub_u16", [](uint64_t a, uint64_t b) { return (a - b) & 0xffff; }},
      {"v_subrev_u16", [](uint64_t a, uint64_t b) { return (b - a) & 0xffff; }},
      {"v_mul_lo_u16", [](uint64_t a, uint64_t b) { return (a * b) & 0xffff; }},
      {"v_lshlrev_b16",
       [](uint64_t a, uint64_t b) { return (b << (a & 15)) & 0xffff; }},
      {"v_lshrrev_b16", [](uint64_t a, uint64_t b) { return b >> (a & 15); }},
      {"v_ashrrev_i16",
       [](uint64_t a, uint64_t b) {
         return uint64_t(uint16_t(int16_t(b) >> (a & 15)));
       }},
      {"v_max_u16", [](uint64_t a, uint64_t b) { return a > b ? a : b; }},
      {"v_min_u16", [](uint64_t a, uint64_t b) { return a < b ? a : b; }},
      {"v_max_i16",
       [](uint64_t a, uint64_t b) { return int16_t(a) > int16_t(b) ? a : b; }},
      {"v_min_i16",
       [](uint64_t a, uint64_t b) { return int16_t(a) < int16_t(b) ? a : b; }},
  };
  return ops;
}

void testIntOp(SingleWave &sw, const char *mnemonic) {
  bool is16 = int16Ops().count(mnemonic);
  IntRef2 ref = is16 ? int16Ops().at(mnemonic) : intOps().at(mnemonic);
  for (const char *suffix : {"", "_e64"}) {
    LaneSpec spec;
    spec.text = std::string(mnemonic) + suffix + " v0, v2, v4";
    spec.dst = is16 ? Fmt::B16 : Fmt::B32;
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      return intInput(i, op);
    };
    spec.rounds = 3;
    spec.ref = [ref, is16](const uint64_t *s, uint64_t) {
      uint64_t mask = is16 ? 0xffff : 0xffffffff;
      return Expect::exact(ref(s[0] & mask, s[1] & mask));
    };
    checkLanes(sw, spec);
  }
  // Adds and subtracts saturate with clamp (unsigned).
  llvm::StringRef name(mnemonic);
  if (!name.contains("_add_u") && !name.contains("_sub"))
    return;
  if (!name.ends_with("u32") && !name.ends_with("u16"))
    return;
  LaneSpec spec;
  spec.text = std::string(mnemonic) + "_e64 v0, v2, v4 clamp";
  spec.dst = is16 ? Fmt::B16 : Fmt::B32;
  spec.input = [](unsigned i, unsigned op) -> uint64_t {
    return intInput(i, op);
  };
  spec.rounds = 3;
  bool sub = name.contains("sub"), rev = name.contains("subrev");
  spec.ref = [is16, sub, rev](const uint64_t *s, uint64_t) {
    uint64_t mask = is16 ? 0xffff : 0xffffffff;
    int64_t a = s[rev ? 1 : 0] & mask, b = s[rev ? 0 : 1] & mask;
    int64_t r = sub ? a - b : a + b;
    return Expect::exact(uint64_t(std::clamp<int64_t>(r, 0, int64_t(mask))));
  };
  checkLanes(sw, spec);
}

/// The SGPR and inline-constant forms of src0 (the e32 encoding's only
/// non-VGPR source).
TEST(Vop2Examples, ScalarAndConstantSources) {
  SingleWave sw(*ChipInfo::lookup("gfx942"));
  Wave &w = sw.wave();
  w.s[12] = 0x00ff00ff;
  for (unsigned l = 0; l < 64; ++l)
    w.v[4][l] = 0x0f0f0f0f * (l + 1);
  runOrFail(sw, "v_and_b32 v0, s12, v4");
  runOrFail(sw, "v_sub_u32 v1, -7, v4");
  runOrFail(sw, "v_lshlrev_b32 v3, 4, v4");
  runOrFail(sw, "v_add_u32 v5, 0x12345678, v4");
  for (unsigned l = 0; l < 64; ++l) {
    uint32_t b = 0x0f0f0f0f * (l + 1);
    EXPECT_EQ(w.v[0][l], 0x00ff00ffu & b) << l;
    EXPECT_EQ(w.v[1][l], uint32_t(-7) - b) << l;
    EXPECT_EQ(w.v[3][l], b << 4) << l;
    EXPECT_EQ(w.v[5][l], 0x12345678u + b) << l;
  }
}

// Carries --------------------------------------------------------------------

/// v_add_co_u32 and kin: D = S0 + S1 (+ carry-in), or S0 - S1 (- borrow),
/// reversed for *rev; the carry-out mask is the unsigned overflow (borrow)
/// of each active lane. The e32 form writes VCC (and reads it as the
/// carry-in), the e64 form names SGPR pairs.
void testCarry(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  bool subtract = name.contains("sub");
  bool reverse = name.contains("rev");
  bool withCarry = name.contains("addc") || name.contains("subb");
  Wave &w = sw.wave();
  // e32, e64, and e64 with clamp (an overflowing result saturates to
  // 0xffffffff, or 0 for a borrow; the carry-out is then not checked: the
  // documents do not say whether clamp changes it).
  for (unsigned form = 0; form < 3; ++form) {
    bool e64 = form > 0, clamp = form == 2;
    std::string text = std::string(mnemonic) +
                       (e64 ? "_e64 v0, s[10:11], v2, v4" : " v0, vcc, v2, v4");
    if (withCarry)
      text += e64 ? ", s[12:13]" : ", vcc";
    if (clamp)
      text += " clamp";
    for (unsigned round = 0; round < 4; ++round) {
      uint64_t exec = round == 3 ? 0x5a5a5a5a0f0f0f0full : ~0ull;
      uint64_t carryIn = mixBits(round + 77);
      uint32_t a[64], b[64];
      for (unsigned l = 0; l < 64; ++l) {
        a[l] = w.v[2][l] = intInput(round * 64 + l, 0);
        b[l] = w.v[4][l] = intInput(round * 64 + l, 1);
        w.v[0][l] = 0xdead0000 + l;
      }
      w.setSgpr64(e64 ? 12 : isa::kVccLo, carryIn);
      if (e64)
        w.setSgpr64(10, 0x1234567812345678ull);
      w.setExec(exec);
      runOrFail(sw, text);
      w.setExec(~0ull);
      uint64_t carryOut = w.sgpr64(e64 ? 10 : isa::kVccLo);
      Mismatches bad(text);
      for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1)) {
          if (w.v[0][l] != 0xdead0000 + l)
            bad.add("inactive lane " + std::to_string(l) + " was written");
          continue;
        }
        uint64_t x = reverse ? b[l] : a[l], y = reverse ? a[l] : b[l];
        uint64_t c = withCarry ? (carryIn >> l) & 1 : 0;
        uint64_t r = subtract ? x - y - c : x + y + c;
        bool carry = subtract ? y + c > x : (r >> 32) != 0;
        if (clamp && carry)
          r = subtract ? 0 : 0xffffffff;
        bool carryMatches = clamp || ((carryOut >> l) & 1) == carry;
        if (w.v[0][l] != uint32_t(r) || !carryMatches)
          bad.add("lane " + std::to_string(l) + " (" + hex(a[l]) + ", " +
                  hex(b[l]) + ", carry " + std::to_string(c) + "): got " +
                  hex(w.v[0][l]) + " carry " +
                  std::to_string((carryOut >> l) & 1) + ", want " +
                  hex(uint32_t(r)) + " carry " + std::to_string(carry));
      }
    }
  }
}

/// v_cndmask_b32: S1 where the mask's bit is set, else S0; the e64 form
/// takes any SGPR pair and float input modifiers.
void testCndmask(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  struct Form {
    const char *text;
    unsigned maskReg;
    bool negA, absB;
  } forms[] = {{"v_cndmask_b32 v0, v2, v4, vcc", isa::kVccLo, false, false},
               {"v_cndmask_b32_e64 v0, v2, v4, s[10:11]", 10, false, false},
               {"v_cndmask_b32_e64 v0, -v2, |v4|, s[10:11]", 10, true, true}};
  for (const Form &f : forms) {
    uint64_t mask = mixBits(f.maskReg + f.negA);
    w.setSgpr64(f.maskReg, mask);
    for (unsigned l = 0; l < 64; ++l) {
      w.v[2][l] = intInput(l, 0);
      w.v[4][l] = intInput(l, 1);
    }
    runOrFail(sw, f.text);
    for (unsigned l = 0; l < 64; ++l) {
      uint32_t a = intInput(l, 0) ^ (f.negA ? 0x80000000u : 0);
      uint32_t b = intInput(l, 1) & (f.absB ? 0x7fffffffu : ~0u);
      EXPECT_EQ(w.v[0][l], (mask >> l) & 1 ? b : a) << f.text << " lane " << l;
    }
  }
}

/// v_readlane_b32 sdst, vsrc, lane (lane from an SGPR or a constant, its
/// low 6 bits) and v_writelane_b32 vdst, ssrc, lane (M0 here: one SGPR
/// source only): one lane, whatever EXEC is.
void testReadlane(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  for (unsigned l = 0; l < 64; ++l)
    w.v[2][l] = intInput(l, 0) ^ (l << 24);
  for (uint32_t lane : {0u, 1u, 31u, 32u, 63u, 64u + 5, 0xffffffffu}) {
    w.s[21] = lane;
    w.setExec(lane & 1 ? 0 : ~0ull);
    runOrFail(sw, "v_readlane_b32 s20, v2, s21");
    EXPECT_EQ(w.s[20], w.v[2][lane & 63]) << "lane " << lane;
  }
  w.setExec(~0ull);
  runOrFail(sw, "v_readlane_b32 s20, v2, 17");
  EXPECT_EQ(w.s[20], w.v[2][17]);
}

void testWritelane(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  for (uint32_t lane : {0u, 1u, 31u, 32u, 63u, 64u + 5, 0xffffffffu}) {
    for (unsigned l = 0; l < 64; ++l)
      w.v[0][l] = l;
    w.s[20] = 0xabc00000 + lane;
    w.s[isa::kM0] = lane;
    w.setExec(lane & 1 ? 0 : ~0ull);
    runOrFail(sw, "v_writelane_b32 v0, s20, m0");
    w.setExec(~0ull);
    for (unsigned l = 0; l < 64; ++l)
      EXPECT_EQ(w.v[0][l], l == (lane & 63) ? 0xabc00000 + lane : l)
          << "lane " << lane << " lane " << l;
  }
  runOrFail(sw, "v_writelane_b32 v0, 17, 9");
  EXPECT_EQ(w.v[0][9], 17u);
}

// Floating point -------------------------------------------------------------

struct BinaryFloat {
  Fmt fmt;
  std::function<Expect(uint64_t, uint64_t)> ref;
};

const std::map<std::string, BinaryFloat> &binaryFloatOps() {
  static const std::map<std::string, BinaryFloat> ops = [] {
    std::map<std::string, BinaryFloat> m;
    for (Fmt fmt : {Fmt::F32, Fmt::F16}) {
      std::string s = fmt == Fmt::F32 ? "_f32" : "_f16";
      m["v_add" + s] = {fmt, [fmt](uint64_t a, uint64_t b) {
                          return ieee(apAdd(fmt, a, b));
                        }};
      m["v_sub" + s] = {fmt, [fmt](uint64_t a, uint64_t b) {
                          return ieee(apSub(fmt, a, b));
                        }};
      m["v_subrev" + s] = {fmt, [fmt](uint64_t a, uint64_t b) {
                             return ieee(apSub(fmt, b, a));
                           }};
      m["v_mul" + s] = {fmt, [fmt](uint64_t a, uint64_t b) {
                          return ieee(apMul(fmt, a, b));
                        }};
      m["v_max" + s] = {fmt, [fmt](uint64_t a, uint64_t b) {
                          return ieeeBits(fmt, ieeeMaxMin(fmt, a, b, true));
                        }};
      m["v_min" + s] = {fmt, [fmt](uint64_t a, uint64_t b) {
                          return ieeeBits(fmt, ieeeMaxMin(fmt, a, b, false));
                        }};
    }
    m["v_mul_legacy_f32"] = {Fmt::F32, [](uint64_t a, uint64_t b) {
                               if (toAPFloat(Fmt::F32, a).isZero() ||
                                   toAPFloat(Fmt::F32, b).isZero())
                                 return Expect::exact(0);
                               return ieee(apMul(Fmt::F32, a, b));
                             }};
    return m;
  }();
  return ops;
}

void testBinaryFloat(SingleWave &sw, const char *mnemonic) {
  const BinaryFloat &f = binaryFloatOps().at(mnemonic);
  FloatOp op;
  op.mnemonic = mnemonic;
  op.src[0] = op.src[1] = f.fmt;
  op.dst = f.fmt;
  op.rounds = floatRounds(f.fmt, 3);
  op.ref = [&f](const uint64_t *s) { return f.ref(s[0], s[1]); };
  checkFloatOp(sw, op);
}

/// f32 fused multiply-adds with a literal (fmaak: S0 * S1 + K; fmamk:
/// S0 * K + S1) and with the destination as accumulator (fmac).
void testFmaLiteral(SingleWave &sw, const char *mnemonic) {
  bool mk = llvm::StringRef(mnemonic).contains("mk");
  for (uint32_t k : {0x3f800000u, 0xc0490fdbu, 0x00000001u, 0x7f7fffffu,
                     0x80800000u, 0x7fc00000u}) {
    LaneSpec spec;
    spec.text = std::string(mnemonic) +
                (mk ? " v0, v2, " + hex(k) + ", v4" : " v0, v2, v4, " + hex(k));
    spec.dst = Fmt::F32;
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      return f32Input(i, op);
    };
    spec.rounds = f32Rounds(1);
    spec.ref = [k, mk](const uint64_t *s, uint64_t) {
      return mk ? ieee(apFma(Fmt::F32, s[0], k, s[1]))
                : ieee(apFma(Fmt::F32, s[0], s[1], k));
    };
    checkLanes(sw, spec);
  }
}

/// v_fmac_f32 and v_fmac_f64: D = S0 * S1 + D, fused.
void testFmac(SingleWave &sw, const char *mnemonic) {
  bool f64 = llvm::StringRef(mnemonic).ends_with("f64");
  Fmt fmt = f64 ? Fmt::F64 : Fmt::F32;
  std::string d = f64 ? " v[0:1], " : " v0, ", a = srcReg(0, f64 ? 2 : 1),
              b = srcReg(1, f64 ? 2 : 1);
  struct Form {
    std::string text;
    bool negA, absB, clamp;
  } forms[] = {{mnemonic + d + a + ", " + b, false, false, false},
               {mnemonic + std::string("_e64") + d + "-" + a + ", |" + b + "|",
                true, true, false},
               {mnemonic + std::string("_e64") + d + a + ", " + b + " clamp",
                false, false, true}};
  for (const Form &f : forms) {
    LaneSpec spec;
    spec.text = f.text;
    spec.dst = fmt;
    spec.srcRegs[0] = spec.srcRegs[1] = f64 ? 2 : 1;
    spec.input = floatInputs(fmt);
    spec.dstInput = [fmt](unsigned i) { return floatInputs(fmt)(i, 2); };
    spec.rounds = f.clamp ? 4 : floatRounds(fmt, 2);
    spec.ref = [f, fmt](const uint64_t *s, uint64_t old) {
      uint64_t a = applyMods(fmt, s[0], false, f.negA);
      uint64_t b = applyMods(fmt, s[1], f.absB, false);
      return applyOutputMods(fmt, ieee(apFma(fmt, a, b, old)), 0, f.clamp);
    };
    checkLanes(sw, spec);
  }
}

/// v_ldexp_f16: S0 * 2^S1, S1 the low half as a signed 16-bit integer
/// (exponents far outside the f16 range included).
void testLdexpF16(SingleWave &sw, const char *mnemonic) {
  FloatOp op;
  op.mnemonic = mnemonic;
  op.src[0] = Fmt::F16;
  op.src[1] = Fmt::B16;
  op.dst = Fmt::F16;
  op.inputMods = false;
  op.rounds = f16Rounds(2);
  op.input = [](unsigned i, unsigned o) -> uint64_t {
    if (o == 0)
      return floatInputs(Fmt::F16)(i, 0);
    static const int16_t edges[] = {0,   1,  -1,  2,      -2,   10,
                                    -10, 15, -14, -24,    -25,  30,
                                    -40, 31, 100, -32768, 32767};
    uint32_t high = uint32_t(mixBits(i)) & 0xffff0000u;
    if (i % 3 == 0)
      return high | uint16_t(edges[(i / 3) % std::size(edges)]);
    return high | uint16_t(int16_t(mixBits(i + 99) % 61) - 30);
  };
  op.ref = [](const uint64_t *s) {
    return ieee(llvm::scalbn(toAPFloat(Fmt::F16, s[0]), int16_t(s[1]),
                             APFloat::rmNearestTiesToEven));
  };
  checkFloatOp(sw, op);
}

/// v_dot2c_f32_{f16,bf16} vdst, s0, s1: D = S0.lo * S1.lo + S0.hi * S1.hi
/// + D.
void testDot2c(SingleWave &sw, const char *mnemonic) {
  bool bf16 = llvm::StringRef(mnemonic).contains("bf16");
  Fmt half = bf16 ? Fmt::BF16 : Fmt::F16;
  LaneSpec spec;
  spec.text = std::string(mnemonic) + " v0, v2, v4";
  spec.dst = Fmt::F32;
  spec.input = [half](unsigned i, unsigned op) -> uint64_t {
    auto one = [half](unsigned j, unsigned o) -> uint64_t {
      return half == Fmt::BF16 ? bf16Input(j, o) : f16Input(j, o);
    };
    return one(i, op) | (one(i * 7 + 3, op) << 16);
  };
  spec.dstInput = [](unsigned i) -> uint64_t { return f32Input(i, 2); };
  spec.rounds = f16Rounds(2);
  spec.ref = [half](const uint64_t *s, uint64_t old) {
    return dot2Reference(half, s[0], s[1], old);
  };
  checkLanes(sw, spec);
}

/// v_dot{2c_i32_i16,4c_i32_i8,8c_i32_i4} vdst, s0, s1: the signed dot of
/// the sources' fields plus D (intDotReference); the VOP3 encoding also
/// with clamp.
void testDotIntC(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  unsigned bits = name.ends_with("16") ? 16 : name.ends_with("8") ? 8 : 4;
  for (bool clamp : {false, true}) {
    LaneSpec spec;
    spec.text = std::string(mnemonic) +
                (clamp ? "_e64 v0, v2, v4 clamp" : " v0, v2, v4");
    spec.dst = Fmt::B32;
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      if (i % 4 == 0)
        return op ? 0x80808080u : 0x7f7f8000u + i;
      return intInput(i, op);
    };
    spec.dstInput = [](unsigned i) -> uint64_t {
      return i % 2 ? 0x7ffffff0u - i : intInput(i, 2);
    };
    spec.rounds = 3;
    spec.ref = [bits, clamp](const uint64_t *s, uint64_t old) {
      return Expect::exact(intDotReference(
          bits, true, uint32_t(s[0]), uint32_t(s[1]), uint32_t(old), clamp));
    };
    checkLanes(sw, spec);
  }
}

/// v_pk_fmac_f16 vdst, s0, s1: per half D = S0 * S1 + D, fused: APFloat's
/// fusedMultiplyAdd in IEEE half precision.
void testPkFmacF16(SingleWave &sw, const char *mnemonic) {
  LaneSpec spec;
  spec.text = std::string(mnemonic) + " v0, v2, v4";
  spec.dst = Fmt::B32;
  spec.input = [](unsigned i, unsigned op) -> uint64_t {
    return f16Input(i, op) | (uint32_t(f16Input(i * 5 + 2, op)) << 16);
  };
  spec.dstInput = [](unsigned i) -> uint64_t {
    return f16Input(i, 2) | (uint32_t(f16Input(i * 3 + 1, 2)) << 16);
  };
  spec.rounds = f16Rounds(2);
  spec.ref = [](const uint64_t *s, uint64_t old) {
    uint32_t r = 0;
    for (unsigned h = 0; h < 2; ++h) {
      APFloat x = toAPFloat(Fmt::F16, (s[0] >> (16 * h)) & 0xffff);
      x.fusedMultiplyAdd(toAPFloat(Fmt::F16, (s[1] >> (16 * h)) & 0xffff),
                         toAPFloat(Fmt::F16, (old >> (16 * h)) & 0xffff),
                         APFloat::rmNearestTiesToEven);
      Expect e = ieee(x);
      if (e.kind != Expect::Exact) // A NaN half: not checked bit for bit.
        return Expect::skip();
      r |= uint32_t(e.bits & 0xffff) << (16 * h);
    }
    return Expect::exact(r);
  };
  checkLanes(sw, spec);
}

std::vector<InstructionCase> vop2Cases() {
  std::vector<InstructionCase> cases;
  for (const auto &entry : intOps())
    cases.push_back({entry.first.c_str(), kBothChips, testIntOp});
  for (const auto &entry : int16Ops())
    cases.push_back({entry.first.c_str(), kBothChips, testIntOp});
  for (const auto &entry : binaryFloatOps())
    cases.push_back({entry.first.c_str(), kBothChips, testBinaryFloat});
  for (const char *name :
       {"v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_addc_co_u32",
        "v_subb_co_u32", "v_subbrev_co_u32"})
    cases.push_back({name, kBothChips, testCarry});
  cases.push_back({"v_cndmask_b32", kBothChips, testCndmask});
  cases.push_back({"v_readlane_b32", kBothChips, testReadlane});
  cases.push_back({"v_writelane_b32", kBothChips, testWritelane});
  cases.push_back({"v_fmaak_f32", kBothChips, testFmaLiteral});
  cases.push_back({"v_fmamk_f32", kBothChips, testFmaLiteral});
  cases.push_back({"v_fmac_f32", kBothChips, testFmac});
  cases.push_back({"v_fmac_f64", kBothChips, testFmac});
  cases.push_back({"v_ldexp_f16", kBothChips, testLdexpF16});
  cases.push_back({"v_dot2c_f32_f16", kBothChips, testDot2c});
  cases.push_back({"v_dot2c_f32_bf16", "gfx950", testDot2c});
  cases.push_back({"v_pk_fmac_f16", kBothChips, testPkFmacF16});
  for (const char *name :
       {"v_dot2c_i32_i16", "v_dot4c_i32_i8", "v_dot8c_i32_i4"})
    cases.push_back({name, kBothChips, testDotIntC});
  return cases;
}

const std::vector<InstructionCase> kVop2Cases = vop2Cases();
HK_INSTRUCTION_CASES(Vop2, kVop2Cases);

} // namespace
