//===- Vop3pTest.cpp - VOP3P (packed) instructions ------------------------===//
//
// Packed math, each 16-bit (or 32-bit) half of every lane checked against
// host integer arithmetic or LLVM's APFloat (round to nearest even,
// denormals kept; max/min in IEEE mode as the ISA's pseudocode says,
// minimum3/maximum3 as IEEE 754-2019 minimum/maximum). Each runs with the
// default selection (low halves for the low result, high for the high),
// with op_sel/op_sel_hi swapping halves, and for floats with neg_lo/neg_hi
// and clamp. v_dot2: the exact sum of both products and the f32 addend,
// the integer dots: the exact sum of the fields' products and the addend,
// wrapped to 32 bits or (clamp) saturated;
// within 1 ulp.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;
using llvm::APFloat;

namespace {

/// The selection and modifiers of one packed form.
struct PkForm {
  std::string suffix;
  unsigned opSel = 0, opSelHi = 7, negLo = 0, negHi = 0;
  bool clamp = false;
};

std::vector<PkForm> pkForms(unsigned n, bool isFloat) {
  std::vector<PkForm> forms = {{""}};
  std::string ones = n == 3 ? "[1,1,1]" : "[1,1]";
  forms.push_back(
      {" op_sel:" + ones + " op_sel_hi:" + (n == 3 ? "[0,0,0]" : "[0,0]"), 7,
       0});
  forms.push_back({n == 3 ? " op_sel:[1,0,0] op_sel_hi:[0,1,1]"
                          : " op_sel:[1,0] op_sel_hi:[0,1]",
                   1, n == 3 ? 6u : 2u});
  if (isFloat) {
    PkForm neg{n == 3 ? " neg_lo:[1,0,1] neg_hi:[0,1,1]"
                      : " neg_lo:[1,0] neg_hi:[0,1]"};
    neg.negLo = 5;
    neg.negHi = 6;
    forms.push_back(neg);
    PkForm clamp{" clamp"};
    clamp.clamp = true;
    forms.push_back(clamp);
  }
  return forms;
}

using Half16Ref = std::function<Expect(const uint64_t *halves)>;

/// Runs `mnemonic` with 32-bit sources of packed 16-bit values and checks
/// both halves of every lane with `ref` (sources of the half, modifiers
/// applied).
void checkPacked16(SingleWave &sw, const std::string &mnemonic, unsigned n,
                   Fmt fmt, const Half16Ref &ref, unsigned rounds) {
  bool isFloat = fmt != Fmt::B16;
  Wave &w = sw.wave();
  for (const PkForm &f : pkForms(n, isFloat)) {
    std::string text =
        mnemonic + " v0, v2, v4" + (n == 3 ? ", v6" : "") + f.suffix;
    Mismatches bad(text);
    for (unsigned round = 0; round < rounds; ++round) {
      uint32_t src[64][3];
      for (unsigned l = 0; l < 64; ++l)
        for (unsigned op = 0; op < n; ++op) {
          unsigned i = round * 64 + l;
          uint32_t lo =
              isFloat ? (fmt == Fmt::F16 ? f16Input(i, op) : bf16Input(i, op))
                      : intInput(i, op) & 0xffff;
          uint32_t hi = isFloat ? (fmt == Fmt::F16 ? f16Input(i * 7 + 5, op)
                                                   : bf16Input(i * 7 + 5, op))
                                : intInput(i + 13, op) >> 16;
          src[l][op] = w.v[2 + 2 * op][l] = lo | (hi << 16);
        }
      if (llvm::Error error = sw.run(text)) {
        ADD_FAILURE() << text << ": " << llvm::toString(std::move(error));
        return;
      }
      for (unsigned l = 0; l < 64; ++l)
        for (unsigned h = 0; h < 2; ++h) {
          unsigned sel = h ? f.opSelHi : f.opSel;
          unsigned neg = h ? f.negHi : f.negLo;
          uint64_t halves[3] = {0, 0, 0};
          for (unsigned op = 0; op < n; ++op) {
            halves[op] = (src[l][op] >> (16 * ((sel >> op) & 1))) & 0xffff;
            if ((neg >> op) & 1)
              halves[op] ^= 0x8000;
          }
          Expect want = ref(halves);
          if (f.clamp)
            want = applyOutputMods(fmt, want, 0, true);
          std::string why;
          uint32_t got = (w.v[0][l] >> (16 * h)) & 0xffff;
          if (!matches(isFloat ? fmt : Fmt::B16, got, want, why)) {
            std::string inputs;
            for (unsigned op = 0; op < n; ++op)
              inputs += (op ? ", " : "") + hex(src[l][op]);
            bad.add("lane " + std::to_string(round * 64 + l) + " (" + inputs +
                    ") half " + std::to_string(h) + ": got " + hex(got) + ", " +
                    why);
          }
        }
    }
  }
}

// 16-bit integers
// ---------------------------------------------------------------

using Int16Ref = uint64_t (*)(uint64_t a, uint64_t b, uint64_t c);

const std::map<std::string, std::pair<unsigned, Int16Ref>> &int16Ops() {
  using P = std::pair<unsigned, Int16Ref>;
  static const std::map<std::string, P> ops = {
      {"v_pk_add_u16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return a + b; }}},
      {"v_pk_sub_u16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return a - b; }}},
      {"v_pk_add_i16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return a + b; }}},
      {"v_pk_sub_i16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return a - b; }}},
      {"v_pk_mul_lo_u16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return a * b; }}},
      {"v_pk_mad_u16",
       P{3, [](uint64_t a, uint64_t b, uint64_t c) { return a * b + c; }}},
      {"v_pk_mad_i16",
       P{3, [](uint64_t a, uint64_t b, uint64_t c) { return a * b + c; }}},
      {"v_pk_lshlrev_b16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return b << (a & 15); }}},
      {"v_pk_lshrrev_b16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return b >> (a & 15); }}},
      {"v_pk_ashrrev_i16",
       P{2, [](uint64_t a, uint64_t b,
               uint64_t) { return uint64_t(int16_t(b) >> (a & 15)); }}},
      {"v_pk_max_u16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return std::max(a, b); }}},
      {"v_pk_min_u16",
       P{2, [](uint64_t a, uint64_t b, uint64_t) { return std::min(a, b); }}},
      {"v_pk_max_i16", P{2,
                         [](uint64_t a, uint64_t b, uint64_t) {
                           return uint64_t(std::max(int16_t(a), int16_t(b)));
                         }}},
      {"v_pk_min_i16", P{2,
                         [](uint64_t a, uint64_t b, uint64_t) {
                           return uint64_t(std::min(int16_t(a), int16_t(b)));
                         }}},
  };
  return ops;
}

void testInt16(SingleWave &sw, const char *mnemonic) {
  auto [n, ref] = int16Ops().at(mnemonic);
  checkPacked16(
      sw, mnemonic, n, Fmt::B16,
      [ref = ref](const uint64_t *h) {
        return Expect::exact(ref(h[0], h[1], h[2]) & 0xffff);
      },
      3);
  // Adds, subtracts, multiplies and multiply-adds saturate with clamp (to
  // the u16 or i16 range).
  llvm::StringRef name(mnemonic);
  bool mad = name.contains("_mad_"), mul = name.contains("_mul_lo_");
  if (!name.contains("_add_") && !name.contains("_sub_") && !mad && !mul)
    return;
  bool sub = name.contains("_sub_"), isSigned = name.ends_with("i16");
  LaneSpec spec;
  spec.numSrcs = mad ? 3 : 2;
  spec.text = std::string(mnemonic) +
              (mad ? " v0, v2, v4, v6 clamp" : " v0, v2, v4 clamp");
  spec.input = [](unsigned i, unsigned op) -> uint64_t {
    return intInput(i, op) ^ intInput(i + 7, op) << 16;
  };
  spec.rounds = 3;
  spec.ref = [sub, mad, mul, isSigned](const uint64_t *s, uint64_t) {
    uint64_t r = 0;
    for (unsigned h = 0; h < 2; ++h) {
      uint16_t x = s[0] >> (16 * h), y = s[1] >> (16 * h);
      uint16_t z = s[2] >> (16 * h);
      int64_t a = isSigned ? int16_t(x) : x, b = isSigned ? int16_t(y) : y;
      int64_t c = isSigned ? int16_t(z) : z;
      int64_t exact = mad ? a * b + c : mul ? a * b : sub ? a - b : a + b;
      int64_t v = std::clamp<int64_t>(exact, isSigned ? -32768 : 0,
                                      isSigned ? 32767 : 65535);
      r |= uint64_t(uint16_t(v)) << (16 * h);
    }
    return Expect::exact(r);
  };
  checkLanes(sw, spec);
}

// f16
// ---------------------------------------------------------------------------

const std::map<std::string, std::pair<unsigned, Half16Ref>> &f16Ops() {
  using P = std::pair<unsigned, Half16Ref>;
  constexpr Fmt f = Fmt::F16;
  static const std::map<std::string, P> ops = {
      {"v_pk_add_f16",
       P{2, [](const uint64_t *h) { return ieee(apAdd(f, h[0], h[1])); }}},
      {"v_pk_mul_f16",
       P{2, [](const uint64_t *h) { return ieee(apMul(f, h[0], h[1])); }}},
      {"v_pk_fma_f16",
       P{3,
         [](const uint64_t *h) { return ieee(apFma(f, h[0], h[1], h[2])); }}},
      {"v_pk_max_f16", P{2,
                         [](const uint64_t *h) {
                           return ieeeBits(f, ieeeMaxMin(f, h[0], h[1], true));
                         }}},
      {"v_pk_min_f16", P{2,
                         [](const uint64_t *h) {
                           return ieeeBits(f, ieeeMaxMin(f, h[0], h[1], false));
                         }}},
      {"v_pk_minimum3_f16",
       P{3,
         [](const uint64_t *h) {
           return ieeeBits(f, ieeeMinimumMaximum(
                                  f, ieeeMinimumMaximum(f, h[0], h[1], false),
                                  h[2], false));
         }}},
      {"v_pk_maximum3_f16",
       P{3,
         [](const uint64_t *h) {
           return ieeeBits(
               f, ieeeMinimumMaximum(f, ieeeMinimumMaximum(f, h[0], h[1], true),
                                     h[2], true));
         }}},
  };
  return ops;
}

void testF16(SingleWave &sw, const char *mnemonic) {
  auto [n, ref] = f16Ops().at(mnemonic);
  checkPacked16(sw, mnemonic, n, Fmt::F16, ref, f16Rounds(2));
}

// Packed f32
// --------------------------------------------------------------------

/// v_pk_{add,mul,fma}_f32 and v_pk_mov_b32: 64-bit sources, op_sel bit i
/// choosing source i's dword for the low result, op_sel_hi for the high.
void testPkF32(SingleWave &sw, const char *mnemonic) {
  std::string name = mnemonic;
  bool mov = name == "v_pk_mov_b32";
  unsigned n = name == "v_pk_fma_f32" ? 3 : 2;
  Wave &w = sw.wave();
  struct Form {
    std::string suffix;
    unsigned opSel, opSelHi, negLo, negHi;
  };
  std::vector<Form> forms;
  if (mov) {
    forms = {{" op_sel:[0,1]", 0, 2, 0, 0},
             {" op_sel:[1,0]", 1, 0, 0, 0},
             {" op_sel:[0,0]", 0, 0, 0, 0},
             {" op_sel:[1,1]", 1, 2, 0, 0}};
  } else {
    forms = {{"", 0, 7, 0, 0},
             {n == 3 ? " op_sel:[1,1,1] op_sel_hi:[0,0,0]"
                     : " op_sel:[1,1] op_sel_hi:[0,0]",
              7, 0, 0, 0},
             {n == 3 ? " neg_lo:[1,0,1] neg_hi:[0,1,1]"
                     : " neg_lo:[1,0] neg_hi:[0,1]",
              0, 7, 5, 6}};
  }
  std::string ops =
      " v[0:1], v[2:3], v[4:5]" + std::string(n == 3 ? ", v[6:7]" : "");
  for (const Form &f : forms) {
    std::string text = name + ops + f.suffix;
    Mismatches bad(text);
    for (unsigned round = 0; round < f32Rounds(1); ++round) {
      uint32_t src[64][3][2];
      for (unsigned l = 0; l < 64; ++l)
        for (unsigned op = 0; op < n; ++op)
          for (unsigned d = 0; d < 2; ++d) {
            unsigned i = round * 64 + l;
            src[l][op][d] = w.v[2 + 2 * op + d][l] =
                f32Input(d ? i * 5 + 3 : i, op);
          }
      if (llvm::Error error = sw.run(text)) {
        ADD_FAILURE() << text << ": " << llvm::toString(std::move(error));
        return;
      }
      for (unsigned l = 0; l < 64; ++l)
        for (unsigned d = 0; d < 2; ++d) {
          unsigned sel = d ? f.opSelHi : f.opSel;
          unsigned neg = d ? f.negHi : f.negLo;
          uint64_t x[3] = {0, 0, 0};
          for (unsigned op = 0; op < n; ++op)
            x[op] = applyMods(Fmt::F32, src[l][op][(sel >> op) & 1], false,
                              (neg >> op) & 1);
          Expect want;
          if (mov)
            want = Expect::exact(x[d]);
          else if (name == "v_pk_add_f32")
            want = ieee(apAdd(Fmt::F32, x[0], x[1]));
          else if (name == "v_pk_mul_f32")
            want = ieee(apMul(Fmt::F32, x[0], x[1]));
          else
            want = ieee(apFma(Fmt::F32, x[0], x[1], x[2]));
          std::string why;
          if (!matches(Fmt::F32, w.v[d][l], want, why))
            bad.add("lane " + std::to_string(l) + " dword " +
                    std::to_string(d) + ": got " + hex(w.v[d][l]) + ", " + why);
        }
    }
  }
}

// Dot products
// ------------------------------------------------------------------

/// v_dot2_f32_{f16,bf16} d, a, b, c: a.lo * b.lo + a.hi * b.hi + c.f32,
/// the exact sum within 1 ulp of f32.
void testDot2(SingleWave &sw, const char *mnemonic) {
  Fmt half = llvm::StringRef(mnemonic).contains("bf16") ? Fmt::BF16 : Fmt::F16;
  LaneSpec spec;
  spec.text = std::string(mnemonic) + " v0, v2, v4, v6";
  spec.numSrcs = 3;
  spec.dst = Fmt::F32;
  spec.input = [half](unsigned i, unsigned op) -> uint64_t {
    if (op == 2)
      return f32Input(i, 2);
    auto one = [half](unsigned j, unsigned o) -> uint64_t {
      return half == Fmt::BF16 ? bf16Input(j, o) : f16Input(j, o);
    };
    return one(i, op) | (one(i * 7 + 3, op) << 16);
  };
  spec.rounds = f16Rounds(2);
  spec.ref = [half](const uint64_t *s, uint64_t) {
    return dot2Reference(half, s[0], s[1], s[2]);
  };
  checkLanes(sw, spec);
}

/// v_dot{2,4,8}_{i32,u32}_{i16,u16,i8,u8,i4,u4} d, a, b, c, with and
/// without clamp: intDotReference. The inputs mix random words with fields
/// at their extremes and addends near the 32-bit limits, so that sums wrap
/// (and saturate under clamp) in both directions.
void testDotInt(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  unsigned bits = name.ends_with("16") ? 16 : name.ends_with("8") ? 8 : 4;
  bool isSigned = name.contains("_i32_");
  for (bool clamp : {false, true}) {
    LaneSpec spec;
    spec.text =
        std::string(mnemonic) + " v0, v2, v4, v6" + (clamp ? " clamp" : "");
    spec.numSrcs = 3;
    spec.dst = Fmt::B32;
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      static const uint32_t extremes[] = {0x7fffffffu, 0x80000000u, 0xffffffffu,
                                          0x77777777u, 0x88888888u, 0x7f7f7f7fu,
                                          0x80808080u, 0x7fff8000u};
      if (op < 2 && i % 3 == 0)
        return extremes[(i / 3 + op * 3) % 8];
      return intInput(i, op);
    };
    spec.rounds = 3;
    spec.ref = [bits, isSigned, clamp](const uint64_t *s, uint64_t) {
      return Expect::exact(intDotReference(bits, isSigned, uint32_t(s[0]),
                                           uint32_t(s[1]), uint32_t(s[2]),
                                           clamp));
    };
    checkLanes(sw, spec);
  }
}

// Mixed precision
// ----------------------------------------------------------------

/// v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: a fused S0 * S1 + S2
/// of f16 (op_sel_hi set: the half op_sel picks) and f32 sources, rounded
/// once to f32 or to f16 (into one half, the other kept). The reference
/// is APFloat's fused multiply-add in IEEE quad rounded to odd (truncated,
/// its last bit set when inexact), converted once: as good as the exact
/// value for any narrower result.
void testFmaMix(SingleWave &sw, const char *mnemonic) {
  std::string name = mnemonic;
  Fmt dst = name == "v_fma_mix_f32" ? Fmt::F32 : Fmt::F16;
  bool hiHalf = name == "v_fma_mixhi_f16";
  struct Form {
    std::string suffix;
    unsigned opSel, opSelHi;
    bool negA, absB;
  } forms[] = {
      {"v0, v2, v4, v6 op_sel_hi:[1,1,1]", 0, 7, false, false},
      {"v0, v2, v4, v6 op_sel:[1,0,1] op_sel_hi:[1,0,1]", 5, 5, false, false},
      {"v0, -v2, |v4|, v6 op_sel:[0,1,0] op_sel_hi:[1,1,0]", 2, 3, true, true},
      {"v0, v2, v4, v6", 0, 0, false, false}};
  for (const Form &f : forms) {
    LaneSpec spec;
    spec.text = name + " " + f.suffix;
    spec.numSrcs = 3;
    spec.dst = Fmt::B32;
    spec.input = [f](unsigned i, unsigned op) -> uint64_t {
      if ((f.opSelHi >> op) & 1)
        return f16Input(i, op) | (uint32_t(f16Input(i * 5 + 1, op)) << 16);
      return f32Input(i, op);
    };
    spec.rounds = f16Rounds(1);
    spec.ref = [f, dst, hiHalf](const uint64_t *s, uint64_t old) {
      const llvm::fltSemantics &quad = APFloat::IEEEquad();
      APFloat x[3] = {APFloat(quad), APFloat(quad), APFloat(quad)};
      for (unsigned i = 0; i < 3; ++i) {
        bool isHalf = (f.opSelHi >> i) & 1;
        uint64_t bits = isHalf ? (s[i] >> (16 * ((f.opSel >> i) & 1))) & 0xffff
                               : s[i] & 0xffffffff;
        APFloat v = toAPFloat(isHalf ? Fmt::F16 : Fmt::F32, bits);
        bool lost;
        v.convert(quad, APFloat::rmNearestTiesToEven, &lost);
        if (i == 1 && f.absB)
          v.clearSign();
        if (i == 0 && f.negA)
          v.changeSign();
        x[i] = v;
      }
      APFloat::opStatus status =
          x[0].fusedMultiplyAdd(x[1], x[2], APFloat::rmTowardZero);
      if ((status & APFloat::opInexact) && x[0].isFiniteNonZero())
        x[0] = APFloat(quad, x[0].bitcastToAPInt() | 1);
      Expect e = ieee(apConvert(x[0], dst));
      if (dst == Fmt::F32)
        return e;
      if (e.kind != Expect::Exact) // A NaN half: not checked.
        return Expect::skip();
      uint32_t h = uint32_t(e.bits);
      return Expect::exact(hiHalf ? (old & 0xffff) | (h << 16)
                                  : (old & 0xffff0000u) | h);
    };
    checkLanes(sw, spec);
  }
}

std::vector<InstructionCase> vop3pCases() {
  std::vector<InstructionCase> cases;
  for (const auto &entry : int16Ops())
    cases.push_back({entry.first.c_str(), kBothChips, testInt16});
  for (const auto &entry : f16Ops()) {
    bool gfx950 = entry.first.find("imum3") != std::string::npos;
    cases.push_back(
        {entry.first.c_str(), gfx950 ? "gfx950" : kBothChips, testF16});
  }
  for (const char *name :
       {"v_pk_fma_f32", "v_pk_mul_f32", "v_pk_add_f32", "v_pk_mov_b32"})
    cases.push_back({name, kBothChips, testPkF32});
  cases.push_back({"v_dot2_f32_f16", kBothChips, testDot2});
  cases.push_back({"v_dot2_f32_bf16", "gfx950", testDot2});
  for (const char *name : {"v_dot2_i32_i16", "v_dot2_u32_u16", "v_dot4_i32_i8",
                           "v_dot4_u32_u8", "v_dot8_i32_i4", "v_dot8_u32_u4"})
    cases.push_back({name, kBothChips, testDotInt});
  for (const char *name :
       {"v_fma_mix_f32", "v_fma_mixlo_f16", "v_fma_mixhi_f16"})
    cases.push_back({name, kBothChips, testFmaMix});
  return cases;
}

const std::vector<InstructionCase> kVop3pCases = vop3pCases();
HK_INSTRUCTION_CASES(Vop3p, kVop3pCases);

} // namespace
