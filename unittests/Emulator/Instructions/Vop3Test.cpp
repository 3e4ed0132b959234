//===- Vop3Test.cpp - VOP3-only instructions ------------------------------===//
//
// Instructions with only a VOP3 encoding, every lane checked against an
// independent reference:
// - integer and bit operations: host arithmetic from AMD's CDNA3/CDNA4 ISA
//   reference (v_bfe's offset and width from the low 5 bits, v_perm's
//   selector bytes 8-11 replicating sign bits, 12 giving 0x00 and 13-15
//   0xff; v_add_i32/v_sub_i32 wrap, and saturate with clamp);
// - floating point: LLVM's APFloat with round to nearest even, denormals
//   kept; max/min/med3 in IEEE mode as in the ISA's pseudocode (med3 of a
//   NaN is the min3); v_minimum3/v_maximum3 (gfx950) as IEEE 754-2019
//   minimum/maximum: any NaN gives a NaN, -0 below +0;
// - v_trig_preop_f64: the ISA's pseudocode on a table of 2/pi computed
//   here by another formula than the emulator's;
// - division: v_div_scale, v_div_fmas and v_div_fixup run as the sequences
//   LLVM emits for f16, f32 and f64 fdiv (with v_rcp, v_fma, v_fma_mix),
//   whose quotient must be APFloat's correctly rounded one for every pair
//   of edge values, plus v_div_fixup's special cases from the pseudocode;
// - packing conversions: APFloat conversions (round to nearest even, or
//   toward zero for pkrtz), the norm forms as round(clamp(x) * 32767 or
//   65535), integer packs saturating.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include "llvm/ADT/APSInt.h"

#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;
using llvm::APFloat;

namespace {

// Integer and bit operations --------------------------------------------------

using IntRef3 = uint64_t (*)(uint32_t a, uint32_t b, uint32_t c);

int64_t sext24(uint32_t v) { return int64_t(int32_t(v << 8) >> 8); }

uint32_t permByte(uint64_t data, uint32_t sel) {
  sel &= 0xff;
  if (sel >= 13)
    return 0xff;
  if (sel == 12)
    return 0;
  if (sel >= 8) // The sign bits of bytes 1, 3, 5 and 7 replicated.
    return (data >> (16 * (sel - 8) + 15)) & 1 ? 0xff : 0;
  return (data >> (8 * sel)) & 0xff;
}

template <typename T> uint64_t median(T a, T b, T c) {
  T lo = std::min(a, b), hi = std::max(a, b);
  return uint32_t(std::max(lo, std::min(hi, c)));
}

const std::map<std::string, std::pair<unsigned, IntRef3>> &intOps() {
  using P = std::pair<unsigned, IntRef3>;
  static const std::map<std::string, P> ops =
      {
          {"v_add_i32", P{2,
                          [](uint32_t a, uint32_t b, uint32_t) -> uint64_t {
                            return a + b;
                          }}},
          {"v_sub_i32", P{2,
                          [](uint32_t a, uint32_t b, uint32_t) -> uint64_t {
                            return uint32_t(a - b);
                          }}},
          {"v_add3_u32", P{3,
                           [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                             return uint32_t(a + b + c);
                           }}},
          {"v_lshl_add_u32",
           P{3,
             [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
               return uint32_t((a << (b & 31)) + c);
             }}},
          {"v_add_lshl_u32",
           P{3,
             [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
               return uint32_t((a + b) << (c & 31));
             }}},
          {"v_lshl_or_b32",
           P{3,
             [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
               return uint32_t((a << (b & 31)) | c);
             }}},
          {"v_and_or_b32", P{3,
                             [](uint32_t a, uint32_t b, uint32_t c)
                                 -> uint64_t { return (a & b) | c; }}},
          {"v_or3_b32", P{3,
                          [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                            return a | b | c;
                          }}},
          {"v_xad_u32", P{3,
                          [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                            return uint32_t((a ^ b) + c);
                          }}},
          {"v_bfe_u32", P{3,
                          [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                            unsigned off = b & 31, width = c & 31;
                            return (uint64_t(a) >> off) & ((1ull << width) - 1);
                          }}},
          {"v_bfe_i32", P{3,
                          [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                            unsigned off = b & 31, width = c & 31;
                            if (width == 0)
                              return 0;
                            uint64_t field =
                                (uint64_t(a) >> off) & ((1ull << width) - 1);
                            if ((field >> (width - 1)) & 1)
                              field |= ~0ull << width;
                            return uint32_t(field);
                          }}},
          {"v_bfi_b32", P{3,
                          [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                            return (a & b) | (~a & c);
                          }}},
          {"v_bfm_b32", P{2,
                          [](uint32_t a, uint32_t b, uint32_t) -> uint64_t {
                            return uint32_t(((1ull << (a & 31)) - 1)
                                            << (b & 31));
                          }}},
          {"v_alignbit_b32",
           P{3,
             [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
               return uint32_t(((uint64_t(a) << 32) | b) >> (c & 31));
             }}},
          {"v_alignbyte_b32",
           P{3,
             [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
               return uint32_t(((uint64_t(a) << 32) | b) >> (8 * (c & 3)));
             }}},
          {"v_perm_b32", P{3,
                           [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                             uint64_t data = (uint64_t(a) << 32) | b;
                             uint32_t r = 0;
                             for (unsigned i = 0; i < 4; ++i)
                               r |= permByte(data, c >> (8 * i)) << (8 * i);
                             return r;
                           }}},
          {"v_bcnt_u32_b32",
           P{2,
             [](uint32_t a, uint32_t b, uint32_t) -> uint64_t {
               unsigned n = 0;
               for (unsigned i = 0; i < 32; ++i)
                 n += (a >> i) & 1;
               return uint32_t(n + b);
             }}},
          {"v_mul_lo_u32", P{2,
                             [](uint32_t a, uint32_t b, uint32_t) -> uint64_t {
                               return uint32_t(uint64_t(a) * b);
                             }}},
          {"v_mul_hi_u32", P{2,
                             [](uint32_t a, uint32_t b, uint32_t) -> uint64_t {
                               return (uint64_t(a) * b) >> 32;
                             }}},
          {"v_mul_hi_i32", P{2,
                             [](uint32_t a, uint32_t b, uint32_t) -> uint64_t {
                               return uint32_t(
                                   (int64_t(int32_t(a)) * int32_t(b)) >> 32);
                             }}},
          {"v_mad_u32_u24", P{3,
                              [](uint32_t a, uint32_t b,
                                 uint32_t c) -> uint64_t {
                                return uint32_t(uint64_t(a & 0xffffff) *
                                                    (b & 0xffffff) +
                                                c);
                              }}},
          {"v_mad_i32_i24", P{3,
                              [](uint32_t a, uint32_t b,
                                 uint32_t c) -> uint64_t {
                                return uint32_t(sext24(a) * sext24(b) +
                                                int32_t(c));
                              }}},
          {"v_max3_i32", P{3,
                           [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                             return uint32_t(std::max(
                                 {int32_t(a), int32_t(b), int32_t(c)}));
                           }}},
          {"v_min3_i32", P{3,
                           [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                             return uint32_t(std::min(
                                 {int32_t(a), int32_t(b), int32_t(c)}));
                           }}},
          {"v_max3_u32", P{3,
                           [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                             return std::max({a, b, c});
                           }}},
          {"v_min3_u32", P{3,
                           [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                             return std::min({a, b, c});
                           }}},
          {"v_med3_i32", P{3,
                           [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                             return median(int32_t(a), int32_t(b), int32_t(c));
                           }}},
          {"v_med3_u32", P{3,
                           [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
                             return median(a, b, c);
                           }}},
      };
  return ops;
}

/// Shift amounts, bit offsets and selectors are mostly small.
uint64_t int3Input(const std::string &name, unsigned i, unsigned op) {
  uint32_t v = intInput(i, op);
  bool smallOperand =
      (op == 1 && (name.find("bfe") != std::string::npos ||
                   name.find("lshl_add") != std::string::npos ||
                   name == "v_lshl_or_b32" || name == "v_bfm_b32")) ||
      (op == 2 && (name.find("bfe") != std::string::npos ||
                   name == "v_add_lshl_u32" || name.find("align") == 2)) ||
      (op == 0 && name == "v_bfm_b32");
  if (smallOperand && i % 2)
    return v % 40;
  if (name == "v_perm_b32" && op == 2 && i % 2)
    return uint32_t(mixBits(i)) & 0x0f0f0f0f;
  return v;
}

void testIntOp(SingleWave &sw, const char *mnemonic) {
  auto [numSrcs, ref] = intOps().at(mnemonic);
  std::string name = mnemonic;
  LaneSpec spec;
  spec.text = name + " v0, v2, v4" + (numSrcs == 3 ? ", v6" : "");
  spec.numSrcs = numSrcs;
  spec.input = [name](unsigned i, unsigned op) {
    return int3Input(name, i, op);
  };
  spec.rounds = 4;
  spec.ref = [ref = ref](const uint64_t *s, uint64_t) {
    return Expect::exact(ref(s[0], s[1], s[2]));
  };
  checkLanes(sw, spec);
  // The 24-bit multiply-adds saturate to the u32 / i32 range with clamp.
  if (name == "v_mad_u32_u24" || name == "v_mad_i32_i24") {
    bool isSigned = name == "v_mad_i32_i24";
    spec.text += " clamp";
    spec.ref = [isSigned](const uint64_t *s, uint64_t) {
      int64_t a = isSigned ? sext24(uint32_t(s[0])) : int64_t(s[0] & 0xffffff);
      int64_t b = isSigned ? sext24(uint32_t(s[1])) : int64_t(s[1] & 0xffffff);
      int64_t c = isSigned ? int64_t(int32_t(s[2])) : int64_t(uint32_t(s[2]));
      int64_t r = a * b + c;
      r = isSigned ? std::clamp<int64_t>(r, INT32_MIN, INT32_MAX)
                   : std::clamp<int64_t>(r, 0, UINT32_MAX);
      return Expect::exact(uint32_t(r));
    };
    checkLanes(sw, spec);
  }
  // v_add_i32/v_sub_i32 saturate to the i32 range with clamp.
  if (name == "v_add_i32" || name == "v_sub_i32") {
    spec.text += " clamp";
    spec.ref = [name](const uint64_t *s, uint64_t) {
      int64_t a = int32_t(s[0]), b = int32_t(s[1]);
      int64_t r = name == "v_add_i32" ? a + b : a - b;
      return Expect::exact(
          uint32_t(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX)));
    };
    checkLanes(sw, spec);
  }
}

/// 64-bit shifts: D = S1 shifted by S0[5:0]; v_lshl_add_u64 D = (S0 <<
/// S1) + S2 with a shift of 0 to 4.
void testShift64(SingleWave &sw, const char *mnemonic) {
  std::string name = mnemonic;
  LaneSpec spec;
  spec.dst = Fmt::B64;
  spec.rounds = 3;
  if (name == "v_lshl_add_u64") {
    for (unsigned shift = 0; shift <= 4; ++shift) {
      spec.text =
          name + " v[0:1], v[2:3], " + std::to_string(shift) + ", v[4:5]";
      spec.numSrcs = 2;
      spec.srcRegs[0] = spec.srcRegs[1] = 2;
      spec.input = [](unsigned i, unsigned op) { return int64Input(i, op); };
      spec.ref = [shift](const uint64_t *s, uint64_t) {
        return Expect::exact((s[0] << shift) + s[1]);
      };
      checkLanes(sw, spec);
    }
    return;
  }
  spec.text = name + " v[0:1], v2, v[4:5]";
  spec.srcRegs[1] = 2;
  spec.input = [](unsigned i, unsigned op) -> uint64_t {
    return op == 0 ? (i % 2 ? intInput(i, 0) : i % 70) : int64Input(i, 1);
  };
  spec.ref = [name](const uint64_t *s, uint64_t) {
    unsigned n = s[0] & 63;
    uint64_t v = s[1];
    if (name == "v_lshlrev_b64")
      return Expect::exact(v << n);
    if (name == "v_lshrrev_b64")
      return Expect::exact(v >> n);
    return Expect::exact(uint64_t(int64_t(v) >> n));
  };
  checkLanes(sw, spec);
}

/// v_mbcnt_lo/hi: the count of set bits of S0 in the lanes below this one
/// (lanes 0-31 for lo, 32-63 for hi), plus S1.
void testMbcnt(SingleWave &sw, const char *mnemonic) {
  bool hi = llvm::StringRef(mnemonic).contains("hi");
  Wave &w = sw.wave();
  for (uint32_t mask : {0xffffffffu, 0u, 0x80000001u, 0x12345678u}) {
    w.s[20] = mask;
    for (unsigned l = 0; l < 64; ++l)
      w.v[4][l] = l * 1000;
    runOrFail(sw, std::string(mnemonic) + " v0, s20, v4");
    for (unsigned l = 0; l < 64; ++l) {
      unsigned count = 0;
      for (unsigned j = 0; j < 32; ++j) {
        unsigned lane = hi ? j + 32 : j;
        if (lane < l && ((mask >> j) & 1))
          ++count;
      }
      EXPECT_EQ(w.v[0][l], l * 1000 + count)
          << mnemonic << " mask " << hex(mask) << " lane " << l;
    }
  }
}

/// v_mad_u64_u32 / v_mad_i64_i32 vdst, sdst, s0, s1, s2: the 64-bit
/// S0 * S1 + S2 and its carry (unsigned overflow, or signed overflow of
/// the 64-bit result).
void testMad64(SingleWave &sw, const char *mnemonic) {
  bool isSigned = llvm::StringRef(mnemonic).contains("i64");
  Wave &w = sw.wave();
  // Rounds 4 and 5 with clamp: an overflowing result saturates (the carry
  // still reports the overflow).
  for (unsigned round = 0; round < 6; ++round) {
    bool clamp = round >= 4;
    uint64_t c[64];
    uint32_t a[64], b[64];
    for (unsigned l = 0; l < 64; ++l) {
      unsigned i = round * 64 + l;
      a[l] = w.v[2][l] = intInput(i, 0);
      b[l] = w.v[4][l] = intInput(i, 1);
      c[l] = int64Input(i, 2);
      w.v[6][l] = uint32_t(c[l]);
      w.v[7][l] = uint32_t(c[l] >> 32);
    }
    std::string text = std::string(mnemonic) +
                       " v[0:1], s[10:11], v2, v4, v[6:7]" +
                       (clamp ? " clamp" : "");
    runOrFail(sw, text);
    uint64_t carry = w.sgpr64(10);
    Mismatches bad(text);
    for (unsigned l = 0; l < 64; ++l) {
      uint64_t got = w.v[0][l] | (uint64_t(w.v[1][l]) << 32);
      uint64_t want;
      bool wantCarry;
      if (isSigned) {
        __int128 full = __int128(int64_t(int32_t(a[l])) * int32_t(b[l])) +
                        __int128(int64_t(c[l]));
        want = uint64_t(full);
        wantCarry = full != __int128(int64_t(want));
        if (clamp && wantCarry)
          want = full < 0 ? 0x8000000000000000ull : 0x7fffffffffffffffull;
      } else {
        unsigned __int128 full =
            (unsigned __int128)(uint64_t(a[l]) * b[l]) + c[l];
        want = uint64_t(full);
        wantCarry = (full >> 64) != 0;
        if (clamp && wantCarry)
          want = ~0ull;
      }
      if (got != want || ((carry >> l) & 1) != wantCarry)
        bad.add("lane " + std::to_string(l) + ": got " + hex(got) + " carry " +
                std::to_string((carry >> l) & 1) + ", want " + hex(want) +
                " carry " + std::to_string(wantCarry));
    }
  }
}

/// gfx950 v_bitop3_b32/b16: each result bit is bit (S0 << 2 | S1 << 1 |
/// S2) of the 8-bit table.
void testBitop3(SingleWave &sw, const char *mnemonic) {
  bool b16 = llvm::StringRef(mnemonic).ends_with("b16");
  for (unsigned table : {0x00u, 0xffu, 0x96u, 0xe8u, 0x12u, 0xcau, 0x80u}) {
    LaneSpec spec;
    spec.text = std::string(mnemonic) + " v0, v2, v4, v6 bitop3:" + hex(table);
    spec.numSrcs = 3;
    spec.dst = b16 ? Fmt::B16 : Fmt::B32;
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      return intInput(i, op);
    };
    spec.rounds = 2;
    spec.ref = [table, b16](const uint64_t *s, uint64_t) {
      uint32_t r = 0;
      for (unsigned bit = 0; bit < 32; ++bit) {
        unsigned index = (((s[0] >> bit) & 1) << 2) |
                         (((s[1] >> bit) & 1) << 1) | ((s[2] >> bit) & 1);
        r |= ((table >> index) & 1) << bit;
      }
      return Expect::exact(b16 ? r & 0xffff : r);
    };
    checkLanes(sw, spec);
  }
}

/// v_pack_b32_f16: { S1.f16, S0.f16 }, op_sel choosing the halves and neg
/// flipping signs; the bits move unchanged otherwise (NaNs included).
void testPackB32F16(SingleWave &sw, const char *mnemonic) {
  struct Form {
    const char *suffix;
    unsigned selA, selB;
    bool negA, negB;
  } forms[] = {{"v0, v2, v4", 0, 0, false, false},
               {"v0, v2, v4 op_sel:[1,0]", 1, 0, false, false},
               {"v0, v2, v4 op_sel:[0,1]", 0, 1, false, false},
               {"v0, -v2, -v4 op_sel:[1,1]", 1, 1, true, true}};
  for (const Form &f : forms) {
    LaneSpec spec;
    spec.text = std::string(mnemonic) + " " + f.suffix;
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      return f16Input(i, op) | (uint32_t(f16Input(i * 3 + 1, op)) << 16);
    };
    spec.rounds = 2;
    spec.ref = [f](const uint64_t *s, uint64_t) {
      uint32_t lo = (s[0] >> (16 * f.selA)) & 0xffff;
      uint32_t hi = (s[1] >> (16 * f.selB)) & 0xffff;
      lo ^= f.negA ? 0x8000 : 0;
      hi ^= f.negB ? 0x8000 : 0;
      return Expect::exact(lo | (hi << 16));
    };
    checkLanes(sw, spec);
  }
}

// Floating point
// ---------------------------------------------------------------

/// AMD's V_MED3_F32: with a NaN operand the min3; otherwise the middle
/// value as max3 picks it.
uint64_t med3(Fmt fmt, uint64_t a, uint64_t b, uint64_t c) {
  if (isNaNBits(fmt, a) || isNaNBits(fmt, b) || isNaNBits(fmt, c))
    return ieeeMaxMin(fmt, ieeeMaxMin(fmt, a, b, false), c, false);
  uint64_t hi = ieeeMaxMin(fmt, ieeeMaxMin(fmt, a, b, true), c, true);
  if (hi == a)
    return ieeeMaxMin(fmt, b, c, true);
  if (hi == b)
    return ieeeMaxMin(fmt, a, c, true);
  return ieeeMaxMin(fmt, a, b, true);
}

struct FloatRef {
  Fmt fmt;
  unsigned numSrcs;
  std::function<Expect(const uint64_t *)> ref;
};

const std::map<std::string, FloatRef> &floatOps() {
  static const std::map<std::string, FloatRef> ops = [] {
    std::map<std::string, FloatRef> m;
    for (Fmt fmt : {Fmt::F32, Fmt::F16}) {
      std::string t = fmt == Fmt::F32 ? "_f32" : "_f16";
      m["v_max3" + t] = {
          fmt, 3, [fmt](const uint64_t *s) {
            return ieeeBits(
                fmt,
                ieeeMaxMin(fmt, ieeeMaxMin(fmt, s[0], s[1], true), s[2], true));
          }};
      m["v_min3" + t] = {
          fmt, 3, [fmt](const uint64_t *s) {
            return ieeeBits(fmt,
                            ieeeMaxMin(fmt, ieeeMaxMin(fmt, s[0], s[1], false),
                                       s[2], false));
          }};
      m["v_med3" + t] = {
          fmt, 3, [fmt](const uint64_t *s) {
            Expect e = ieeeBits(fmt, med3(fmt, s[0], s[1], s[2]));
            // Which zero a tie of zeros gives is not said.
            if (e.kind == Expect::Exact && !(e.bits & ~signBit(fmt)))
              e.kind = Expect::ZeroAny;
            return e;
          }};
    }
    for (Fmt fmt : {Fmt::F32, Fmt::F16, Fmt::F64}) {
      std::string t = fmt == Fmt::F32   ? "_f32"
                      : fmt == Fmt::F16 ? "_f16"
                                        : "_f64";
      m["v_fma" + t] = {fmt, 3, [fmt](const uint64_t *s) {
                          return ieee(apFma(fmt, s[0], s[1], s[2]));
                        }};
    }
    m["v_minimum3_f32"] = {
        Fmt::F32, 3, [](const uint64_t *s) {
          Fmt f = Fmt::F32;
          return ieeeBits(
              f, ieeeMinimumMaximum(f, ieeeMinimumMaximum(f, s[0], s[1], false),
                                    s[2], false));
        }};
    m["v_maximum3_f32"] = {
        Fmt::F32, 3, [](const uint64_t *s) {
          Fmt f = Fmt::F32;
          return ieeeBits(
              f, ieeeMinimumMaximum(f, ieeeMinimumMaximum(f, s[0], s[1], true),
                                    s[2], true));
        }};
    Fmt d = Fmt::F64;
    m["v_add_f64"] = {
        d, 2, [d](const uint64_t *s) { return ieee(apAdd(d, s[0], s[1])); }};
    m["v_mul_f64"] = {
        d, 2, [d](const uint64_t *s) { return ieee(apMul(d, s[0], s[1])); }};
    m["v_max_f64"] = {d, 2, [d](const uint64_t *s) {
                        return ieeeBits(d, ieeeMaxMin(d, s[0], s[1], true));
                      }};
    m["v_min_f64"] = {d, 2, [d](const uint64_t *s) {
                        return ieeeBits(d, ieeeMaxMin(d, s[0], s[1], false));
                      }};
    return m;
  }();
  return ops;
}

void testFloatOp(SingleWave &sw, const char *mnemonic) {
  const FloatRef &r = floatOps().at(mnemonic);
  FloatOp op;
  op.mnemonic = mnemonic;
  op.numSrcs = r.numSrcs;
  op.src[0] = op.src[1] = op.src[2] = r.fmt;
  op.dst = r.fmt;
  op.native = false;
  op.rounds = floatRounds(r.fmt, 3);
  op.ref = r.ref;
  checkFloatOp(sw, op);
}

/// v_ldexp_f32/f64: S0 * 2^S1, S1 a signed 32-bit integer.
void testLdexp(SingleWave &sw, const char *mnemonic) {
  Fmt fmt = llvm::StringRef(mnemonic).ends_with("f64") ? Fmt::F64 : Fmt::F32;
  FloatOp op;
  op.mnemonic = mnemonic;
  op.src[0] = fmt;
  op.src[1] = Fmt::B32;
  op.dst = fmt;
  op.native = false;
  op.inputMods = false;
  op.rounds = floatRounds(fmt, 2);
  op.input = [fmt](unsigned i, unsigned o) -> uint64_t {
    if (o == 0)
      return floatInputs(fmt)(i, 0);
    static const int32_t edges[] = {
        0,    1,    -1,   2,     -2,   100,   -100,      127,      -126,
        -149, -150, 1023, -1074, 2000, -2000, INT32_MIN, INT32_MAX};
    if (i % 3 == 0)
      return uint32_t(edges[(i / 3) % std::size(edges)]);
    return uint32_t(int32_t(mixBits(i + 7) % 301) - 150);
  };
  op.ref = [fmt](const uint64_t *s) {
    return ieee(llvm::scalbn(toAPFloat(fmt, s[0]), int32_t(s[1]),
                             APFloat::rmNearestTiesToEven));
  };
  checkFloatOp(sw, op);
}

/// v_sad_{u8,hi_u8,u16,u32} d, a, b, c: the sum of |a_i - b_i| over the
/// unsigned bytes, halves or words (sad_hi: shifted left 16), plus c;
/// wrapped to 32 bits, or saturated under clamp. v_lerp_u8: per byte
/// (a + b + the low bit of c's byte) >> 1.
void testSadLerp(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  bool lerp = name == "v_lerp_u8";
  for (bool clamp : {false, true}) {
    if (lerp && clamp)
      continue;
    LaneSpec spec;
    spec.text =
        std::string(mnemonic) + " v0, v2, v4, v6" + (clamp ? " clamp" : "");
    spec.numSrcs = 3;
    spec.rounds = 3;
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      if (op == 2 && i % 3 == 0)
        return 0xffffff00u + i; // Near the top: the sum wraps or saturates.
      return intInput(i, op);
    };
    spec.ref = [name, clamp](const uint64_t *s, uint64_t) {
      uint32_t a = uint32_t(s[0]), b = uint32_t(s[1]), c = uint32_t(s[2]);
      auto field = [](uint32_t v, unsigned bits, unsigned i) -> int64_t {
        return int64_t((uint64_t(v) >> (bits * i)) &
                       ((uint64_t(1) << bits) - 1));
      };
      if (name == "v_lerp_u8") {
        uint32_t r = 0;
        for (unsigned i = 0; i < 4; ++i)
          r |= uint32_t(
                   (field(a, 8, i) + field(b, 8, i) + (field(c, 8, i) & 1)) / 2)
               << (8 * i);
        return Expect::exact(r);
      }
      unsigned bits = name.ends_with("u16")   ? 16
                      : name.ends_with("u32") ? 32
                                              : 8;
      int64_t sum = 0;
      for (unsigned i = 0; i < 32 / bits; ++i)
        sum += std::abs(field(a, bits, i) - field(b, bits, i));
      if (name == "v_sad_hi_u8")
        sum *= 65536;
      sum += c;
      if (clamp && sum > 0xffffffffll)
        sum = 0xffffffffll;
      return Expect::exact(uint32_t(sum));
    };
    checkLanes(sw, spec);
  }
}

/// floor(2/pi * 2^1201), computed here from Euler's pi/4 = atan(1/2) +
/// atan(1/3) (the emulator uses Machin's formula) in 1400-bit fixed point.
const llvm::APInt &twoOverPiTable() {
  static const llvm::APInt bits = [] {
    constexpr unsigned kFraction = 1400, kWidth = 2800;
    auto atanInverse = [](uint64_t x) {
      llvm::APInt sum(kWidth, 0);
      llvm::APInt power = llvm::APInt::getOneBitSet(kWidth, kFraction).udiv(x);
      for (uint64_t k = 0; !power.isZero(); ++k) {
        llvm::APInt term = power.udiv(2 * k + 1);
        sum = k % 2 ? sum - term : sum + term;
        power = power.udiv(x * x);
      }
      return sum;
    };
    llvm::APInt quarterPi = atanInverse(2) + atanInverse(3);
    // 2/pi * 2^1201 = 2^1200 / (pi / 4).
    return llvm::APInt::getOneBitSet(kWidth, 1200 + kFraction)
        .udiv(quarterPi)
        .trunc(1201);
  }();
  return bits;
}

/// v_trig_preop_f64 d, s0, s1 as the CDNA3 ISA's pseudocode defines it:
/// shift = S1[4:0] * 53, plus exponent(S0) - 1077 when the exponent is
/// above 1077; the 53 table bits below the top `shift` ones, as an
/// integer, times 2^(-53 - shift), times 2^128 more when the exponent is
/// 1968 or above. The first segment of 1.0 is 2/pi truncated to a double
/// (0x3fe45f306dc9c882; round to nearest gives ...883), and segments 0-2
/// sum to 2/pi within 2^-159.
void testTrigPreop(SingleWave &sw, const char *mnemonic) {
  LaneSpec spec;
  spec.text = std::string(mnemonic) + " v[0:1], v[2:3], v4";
  spec.srcRegs[0] = 2;
  spec.dst = Fmt::F64;
  spec.rounds = 6;
  spec.input = [](unsigned i, unsigned op) -> uint64_t {
    if (op == 1) // Segments, some with bits above [4:0] set.
      return i % 4 == 3 ? intInput(i, 1) : (i * 7) % 32;
    static const uint64_t exponents[] = {0,    1,    1023, 1077, 1078, 1100,
                                         1967, 1968, 2000, 2046, 2047};
    if (i % 2)
      return f64Input(i, 0);
    uint64_t e = exponents[(i / 2) % std::size(exponents)];
    return (e << 52) | (mixBits(i) & ((uint64_t(1) << 52) - 1)) |
           (uint64_t(i % 3 == 0) << 63);
  };
  spec.ref = [](const uint64_t *s, uint64_t) {
    int exponent = int((s[0] >> 52) & 0x7ff);
    unsigned shift = unsigned(s[1] & 31) * 53;
    if (exponent > 1077)
      shift += unsigned(exponent - 1077);
    uint64_t segment = 0;
    for (unsigned k = 0; k < 53; ++k) { // Table bit 1200 - shift - k.
      int bit = 1200 - int(shift) - int(k);
      if (bit >= 0 && twoOverPiTable()[unsigned(bit)])
        segment |= uint64_t(1) << (52 - k);
    }
    int scale = -53 - int(shift) + (exponent >= 1968 ? 128 : 0);
    APFloat exact = APFloat(double(segment)); // 53 bits: exact.
    return ieee(llvm::scalbn(exact, scale, APFloat::rmNearestTiesToEven));
  };
  checkLanes(sw, spec);

  // The known first segment of 1.0, and three segments summing to 2/pi.
  Wave &w = sw.wave();
  double sum = 0;
  for (unsigned k = 0; k < 3; ++k) {
    w.v[2][0] = 0;
    w.v[3][0] = 0x3ff00000u;
    w.v[4][0] = k;
    runOrFail(sw, spec.text);
    uint64_t bits = w.v[0][0] | (uint64_t(w.v[1][0]) << 32);
    if (k == 0)
      EXPECT_EQ(bits, 0x3fe45f306dc9c882ull) << "segment 0 of 1.0";
    sum += toDouble(Fmt::F64, bits);
  }
  EXPECT_EQ(sum, 0.63661977236758134308) << "2/pi from three segments";
}

// Division
// ---------------------------------------------------------------------

/// LLVM's fdiv sequences for gfx942/gfx950 (llc -mcpu=gfx942, denormals
/// kept): numerator in v0 (v[0:1]), denominator in v1 (v[2:3]).
const char *const kDivF32 = R"(v_div_scale_f32 v2, s[0:1], v1, v1, v0
v_rcp_f32 v3, v2
v_fma_f32 v4, -v2, v3, 1.0
v_fmac_f32 v3, v4, v3
v_div_scale_f32 v4, vcc, v0, v1, v0
v_mul_f32 v5, v4, v3
v_fma_f32 v6, -v2, v5, v4
v_fmac_f32 v5, v6, v3
v_fma_f32 v2, -v2, v5, v4
v_div_fmas_f32 v2, v2, v3, v5
v_div_fixup_f32 v0, v2, v1, v0)";

const char *const kDivF64 =
    R"(v_div_scale_f64 v[4:5], s[0:1], v[2:3], v[2:3], v[0:1]
v_rcp_f64 v[6:7], v[4:5]
v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
v_fmac_f64 v[6:7], v[6:7], v[8:9]
v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
v_fmac_f64 v[6:7], v[6:7], v[8:9]
v_div_scale_f64 v[8:9], vcc, v[0:1], v[2:3], v[0:1]
v_mul_f64 v[10:11], v[8:9], v[6:7]
v_fma_f64 v[4:5], -v[4:5], v[10:11], v[8:9]
v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[10:11]
v_div_fixup_f64 v[0:1], v[4:5], v[2:3], v[0:1])";

const char *const kDivF16 = R"(v_cvt_f32_f16 v2, v1
v_cvt_f32_f16 v3, v0
v_rcp_f32 v2, v2
v_mul_f32 v3, v3, v2
v_fma_mix_f32 v4, -v1, v3, v0 op_sel_hi:[1,0,1]
v_fmac_f32 v3, v4, v2
v_fma_mix_f32 v4, -v1, v3, v0 op_sel_hi:[1,0,1]
v_mul_f32 v2, v4, v2
v_and_b32 v2, 0xff800000, v2
v_add_f32 v2, v2, v3
v_cvt_f16_f32 v2, v2
v_div_fixup_f16 v0, v2, v1, v0)";

/// Runs the division sequence of `fmt` over every pair of edge values and
/// random pairs; each lane must hold the correctly rounded quotient (any
/// NaN where it is a NaN).
void checkDivision(SingleWave &sw, Fmt fmt) {
  Wave &w = sw.wave();
  bool f64 = fmt == Fmt::F64;
  const char *sequence = f64 ? kDivF64 : fmt == Fmt::F16 ? kDivF16 : kDivF32;
  auto input = floatInputs(fmt);
  unsigned rounds = floatRounds(fmt, 6);
  Mismatches bad(std::string("division sequence ") + (f64 ? "f64"
                                                      : fmt == Fmt::F16
                                                          ? "f16"
                                                          : "f32"));
  for (unsigned round = 0; round < rounds; ++round) {
    uint64_t num[64], den[64];
    for (unsigned l = 0; l < 64; ++l) {
      num[l] = input(round * 64 + l, 0);
      den[l] = input(round * 64 + l, 1);
      if (f64) {
        w.v[0][l] = uint32_t(num[l]);
        w.v[1][l] = uint32_t(num[l] >> 32);
        w.v[2][l] = uint32_t(den[l]);
        w.v[3][l] = uint32_t(den[l] >> 32);
      } else {
        w.v[0][l] = uint32_t(num[l]);
        w.v[1][l] = uint32_t(den[l]);
      }
    }
    if (llvm::Error error = sw.run(sequence)) {
      ADD_FAILURE() << llvm::toString(std::move(error));
      return;
    }
    uint64_t mask = f64 ? ~0ull : fmt == Fmt::F16 ? 0xffff : 0xffffffff;
    for (unsigned l = 0; l < 64; ++l) {
      uint64_t got = f64 ? w.v[0][l] | (uint64_t(w.v[1][l]) << 32) : w.v[0][l];
      APFloat q = toAPFloat(fmt, num[l] & mask);
      q.divide(toAPFloat(fmt, den[l] & mask), APFloat::rmNearestTiesToEven);
      std::string why;
      if (!matches(fmt, got, ieee(q), why))
        bad.add(hex(num[l] & mask) + " / " + hex(den[l] & mask) + ": got " +
                hex(got & mask) + ", " + why);
    }
  }
}

void testDivision(SingleWave &sw, const char *mnemonic) {
  checkDivision(sw, llvm::StringRef(mnemonic).ends_with("f64") ? Fmt::F64
                                                               : Fmt::F32);
}

/// v_div_fixup_f16 q, den, num given the correctly rounded quotient q: q
/// for ordinary operands, the special values for the special cases, so
/// the correctly rounded quotient every time.
void testDivFixupF16(SingleWave &sw, const char *mnemonic) {
  LaneSpec spec;
  spec.text = std::string(mnemonic) + " v0, v2, v4, v6";
  spec.numSrcs = 3;
  spec.dst = Fmt::F16;
  auto quotient = [](unsigned i) {
    APFloat q = toAPFloat(Fmt::F16, f16Input(i, 0));
    q.divide(toAPFloat(Fmt::F16, f16Input(i, 1)), APFloat::rmNearestTiesToEven);
    return q;
  };
  spec.input = [quotient](unsigned i, unsigned op) -> uint64_t {
    if (op == 1)
      return f16Input(i, 1);
    if (op == 2)
      return f16Input(i, 0);
    APFloat q = quotient(i);
    return q.isNaN() ? 0x3c00 : fromAPFloat(q);
  };
  spec.rounds = f16Rounds(4);
  spec.ref = [](const uint64_t *s, uint64_t) {
    APFloat q = toAPFloat(Fmt::F16, s[2] & 0xffff);
    q.divide(toAPFloat(Fmt::F16, s[1] & 0xffff), APFloat::rmNearestTiesToEven);
    return ieee(q);
  };
  checkLanes(sw, spec);
  // And LLVM's f16 fdiv sequence (v_rcp_f32, v_fma_mix_f32 refinements).
  checkDivision(sw, Fmt::F16);
}

/// v_div_fixup_f32's special cases (AMD's pseudocode): NaN sources give a
/// NaN, 0/0 and inf/inf the default NaN, x/0 and inf/x a signed infinity,
/// x/inf and 0/x a signed zero; otherwise the quotient's magnitude with
/// the sign of num * den.
TEST(Vop3Examples, DivFixupSpecialCases) {
  SingleWave sw(*ChipInfo::lookup("gfx942"));
  Wave &w = sw.wave();
  const uint32_t inf = 0x7f800000, one = 0x3f800000, two = 0x40000000,
                 neg = 0x80000000, nan = 0x7fc00001;
  struct Case {
    uint32_t quotient, den, num, want;
  } cases[] = {{one, 0, 0, 0xffc00000},
               {one, inf, inf, 0xffc00000},
               {one, 0, two, inf},
               {one, neg, two, inf | neg},
               {one, two, inf, inf},
               {one, two | neg, inf, inf | neg},
               {one, inf, two, 0},
               {one, inf, two | neg, neg},
               {one, two, 0, 0},
               {one, two | neg, 0, neg},
               {one | neg, two, two, one},
               {one, two | neg, two, one | neg},
               {0x3e800000, two, one, 0x3e800000}};
  for (const Case &c : cases) {
    w.v[2][0] = c.quotient;
    w.v[4][0] = c.den;
    w.v[6][0] = c.num;
    runOrFail(sw, "v_div_fixup_f32 v0, v2, v4, v6");
    EXPECT_EQ(w.v[0][0], c.want) << hex(c.num) << " / " << hex(c.den);
  }
  for (uint32_t den : {one, nan}) {
    w.v[2][0] = one;
    w.v[4][0] = den;
    w.v[6][0] = den == nan ? one : nan;
    runOrFail(sw, "v_div_fixup_f32 v0, v2, v4, v6");
    EXPECT_TRUE(isNaNBits(Fmt::F32, w.v[0][0])) << hex(w.v[0][0]);
  }
}

// Conversions
// ------------------------------------------------------------------

uint64_t convertBits(Fmt from, uint64_t bits, Fmt to,
                     APFloat::roundingMode mode) {
  APFloat v = toAPFloat(from, bits);
  bool lost;
  v.convert(semanticsOf(to), mode, &lost);
  if (v.isNaN())
    return quietBits(to, fromAPFloat(v) | (1ull << (bitsOf(to) - 2)));
  return fromAPFloat(v);
}

/// v_cvt_pk_{f16,bf16}_f32 and v_cvt_pkrtz_f16_f32: two f32 to a pair of
/// halves (round to nearest even, or toward zero); NaN lanes may be any
/// quiet NaN.
void testCvtPkHalf(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  Fmt to = name.contains("bf16") ? Fmt::BF16 : Fmt::F16;
  APFloat::roundingMode mode = name.contains("rtz")
                                   ? APFloat::rmTowardZero
                                   : APFloat::rmNearestTiesToEven;
  for (const char *operands : {" v0, v2, v4", " v0, -v2, |v4|"}) {
    bool mods = llvm::StringRef(operands).contains('|');
    LaneSpec spec;
    spec.text = mnemonic + std::string(operands);
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      return f32Input(i, op);
    };
    spec.rounds = f32Rounds(2);
    spec.ref = [to, mode, mods](const uint64_t *s, uint64_t) {
      uint64_t a = applyMods(Fmt::F32, s[0], false, mods);
      uint64_t b = applyMods(Fmt::F32, s[1], mods, false);
      uint64_t lo = convertBits(Fmt::F32, a, to, mode);
      uint64_t hi = convertBits(Fmt::F32, b, to, mode);
      if (isNaNBits(to, lo) || isNaNBits(to, hi))
        return Expect::skip(); // Checked below, half by half.
      return Expect::exact(lo | (hi << 16));
    };
    checkLanes(sw, spec);
  }
  // NaN halves: a quiet NaN in the right half, the other half exact.
  Wave &w = sw.wave();
  w.v[2][0] = 0x7f800001; // Signalling NaN.
  w.v[4][0] = 0x3f800000;
  runOrFail(sw, std::string(mnemonic) + " v0, v2, v4");
  EXPECT_TRUE(isNaNBits(to, w.v[0][0] & 0xffff) &&
              !isSignalingBits(to, w.v[0][0] & 0xffff))
      << hex(w.v[0][0]);
  EXPECT_EQ(w.v[0][0] >> 16, to == Fmt::BF16 ? 0x3f80u : 0x3c00u);
}

/// v_cvt_pknorm_{i16,u16}_{f32,f16}: clamp to [-1, 1] ([0, 1]), scale by
/// 32767 (65535), round to nearest even. NaN inputs are not checked: the
/// documents do not say what they give.
uint32_t norm16(uint64_t bits, bool isSigned, Fmt fmt = Fmt::F32) {
  double x = std::clamp(toDouble(fmt, bits), isSigned ? -1.0 : 0.0, 1.0);
  double scaled = std::nearbyint(x * (isSigned ? 32767.0 : 65535.0));
  return uint32_t(int32_t(scaled)) & 0xffff;
}

void testCvtPkNorm(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  bool isSigned = name.contains("_i16_");
  Fmt fmt = name.ends_with("f16") ? Fmt::F16 : Fmt::F32;
  // The f16 forms also with op_sel picking each source's high half.
  for (bool high : {false, true}) {
    if (high && fmt == Fmt::F32)
      continue;
    LaneSpec spec;
    spec.text =
        mnemonic + std::string(" v0, v2, v4") + (high ? " op_sel:[1,1,0]" : "");
    spec.input = [fmt](unsigned i, unsigned op) -> uint64_t {
      if (fmt == Fmt::F16)
        return f16Input(i, op) | (uint32_t(f16Input(i * 3 + 5, op)) << 16);
      if (i % 4 == 0) // Values in range.
        return fromAPFloat(
            APFloat(float(int(mixBits(i + op) % 2001) - 1000) / 1000.0f));
      return f32Input(i, op);
    };
    spec.rounds = fmt == Fmt::F16 ? f16Rounds(2) : f32Rounds(2);
    spec.ref = [isSigned, fmt, high](const uint64_t *s, uint64_t) {
      uint64_t a = fmt == Fmt::F16 ? (s[0] >> (high ? 16 : 0)) & 0xffff : s[0];
      uint64_t b = fmt == Fmt::F16 ? (s[1] >> (high ? 16 : 0)) & 0xffff : s[1];
      if (isNaNBits(fmt, a) || isNaNBits(fmt, b))
        return Expect::skip();
      return Expect::exact(norm16(a, isSigned, fmt) |
                           (norm16(b, isSigned, fmt) << 16));
    };
    checkLanes(sw, spec);
  }
}

/// v_cvt_pk_u16_u32 / v_cvt_pk_i16_i32: two 32-bit integers saturated to
/// 16 bits.
void testCvtPkInt(SingleWave &sw, const char *mnemonic) {
  bool isSigned = llvm::StringRef(mnemonic).contains("i16");
  LaneSpec spec;
  spec.text = mnemonic + std::string(" v0, v2, v4");
  spec.input = [](unsigned i, unsigned op) -> uint64_t {
    return intInput(i, op);
  };
  spec.rounds = 3;
  spec.ref = [isSigned](const uint64_t *s, uint64_t) {
    auto sat = [isSigned](uint64_t v) -> uint32_t {
      if (isSigned)
        return uint32_t(std::clamp<int32_t>(int32_t(v), -32768, 32767)) &
               0xffff;
      return uint32_t(std::min<uint64_t>(v & 0xffffffff, 0xffff));
    };
    return Expect::exact(sat(s[0]) | (sat(s[1]) << 16));
  };
  checkLanes(sw, spec);
}

/// v_cvt_pk_{fp8,bf8}_f32 vdst, s0, s1 [op_sel]: two f32 to the chip's
/// fp8/bf8 format (FNUZ on gfx942, OCP on gfx950) with round to nearest
/// even, into bytes 0-1 (or 2-3 with op_sel:[0,0,1]), the other half kept.
/// Out-of-range values: not checked (the instructions saturate or not by
/// a MODE bit whose default the ISA leaves to the driver), nor NaN bytes'
/// exact pattern.
void testCvtPkFp8(SingleWave &sw, const char *mnemonic) {
  bool bf8 = llvm::StringRef(mnemonic).contains("bf8");
  const llvm::fltSemantics &sem =
      isGfx950(sw)
          ? (bf8 ? APFloat::Float8E5M2() : APFloat::Float8E4M3FN())
          : (bf8 ? APFloat::Float8E5M2FNUZ() : APFloat::Float8E4M3FNUZ());
  for (bool high : {false, true}) {
    LaneSpec spec;
    spec.text =
        std::string(mnemonic) + " v0, v2, v4" + (high ? " op_sel:[0,0,1]" : "");
    spec.input = [](unsigned i, unsigned op) -> uint64_t {
      // Moderate values around the fp8 range, with ties.
      uint64_t r = mixBits(i * 3 + op);
      int exponent = int(r % 24) - 12;
      return fromAPFloat(
          APFloat(std::ldexp(float((r >> 8) % 256) / 64.0f, exponent) *
                  ((r >> 20) & 1 ? -1.0f : 1.0f)));
    };
    spec.rounds = 4;
    spec.ref = [&sem, high](const uint64_t *s, uint64_t old) {
      uint32_t bytes = 0;
      for (unsigned h = 0; h < 2; ++h) {
        APFloat v = toAPFloat(Fmt::F32, s[h]);
        bool lost;
        APFloat::opStatus status =
            v.convert(sem, APFloat::rmNearestTiesToEven, &lost);
        if ((status & APFloat::opOverflow) || v.isNaN() || v.isInfinity())
          return Expect::skip();
        bytes |= uint32_t(v.bitcastToAPInt().getZExtValue() & 0xff) << (8 * h);
      }
      uint32_t keep = uint32_t(old) & (high ? 0xffffu : 0xffff0000u);
      return Expect::exact(keep | (high ? bytes << 16 : bytes));
    };
    checkLanes(sw, spec);
  }
}

std::vector<InstructionCase> vop3Cases() {
  std::vector<InstructionCase> cases;
  for (const auto &entry : intOps())
    cases.push_back({entry.first.c_str(), kBothChips, testIntOp});
  for (const auto &entry : floatOps()) {
    bool gfx950 =
        entry.first == "v_minimum3_f32" || entry.first == "v_maximum3_f32";
    cases.push_back(
        {entry.first.c_str(), gfx950 ? "gfx950" : kBothChips, testFloatOp});
  }
  for (const char *name :
       {"v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64", "v_lshl_add_u64"})
    cases.push_back({name, kBothChips, testShift64});
  cases.push_back({"v_mbcnt_lo_u32_b32", kBothChips, testMbcnt});
  cases.push_back({"v_mbcnt_hi_u32_b32", kBothChips, testMbcnt});
  cases.push_back({"v_mad_u64_u32", kBothChips, testMad64});
  cases.push_back({"v_mad_i64_i32", kBothChips, testMad64});
  cases.push_back({"v_bitop3_b32", "gfx950", testBitop3});
  cases.push_back({"v_bitop3_b16", "gfx950", testBitop3});
  cases.push_back({"v_pack_b32_f16", kBothChips, testPackB32F16});
  cases.push_back({"v_ldexp_f32", kBothChips, testLdexp});
  cases.push_back({"v_ldexp_f64", kBothChips, testLdexp});
  cases.push_back({"v_trig_preop_f64", kBothChips, testTrigPreop});
  for (const char *name :
       {"v_sad_u8", "v_sad_hi_u8", "v_sad_u16", "v_sad_u32", "v_lerp_u8"})
    cases.push_back({name, kBothChips, testSadLerp});
  for (const char *name :
       {"v_div_scale_f32", "v_div_fmas_f32", "v_div_fixup_f32",
        "v_div_scale_f64", "v_div_fmas_f64", "v_div_fixup_f64"})
    cases.push_back({name, kBothChips, testDivision});
  cases.push_back({"v_div_fixup_f16", kBothChips, testDivFixupF16});
  cases.push_back({"v_cvt_pkrtz_f16_f32", kBothChips, testCvtPkHalf});
  cases.push_back({"v_cvt_pk_f16_f32", "gfx950", testCvtPkHalf});
  cases.push_back({"v_cvt_pk_bf16_f32", "gfx950", testCvtPkHalf});
  cases.push_back({"v_cvt_pknorm_i16_f32", kBothChips, testCvtPkNorm});
  cases.push_back({"v_cvt_pknorm_u16_f32", kBothChips, testCvtPkNorm});
  cases.push_back({"v_cvt_pknorm_i16_f16", kBothChips, testCvtPkNorm});
  cases.push_back({"v_cvt_pknorm_u16_f16", kBothChips, testCvtPkNorm});
  cases.push_back({"v_cvt_pk_u16_u32", kBothChips, testCvtPkInt});
  cases.push_back({"v_cvt_pk_i16_i32", kBothChips, testCvtPkInt});
  cases.push_back({"v_cvt_pk_fp8_f32", kBothChips, testCvtPkFp8});
  cases.push_back({"v_cvt_pk_bf8_f32", kBothChips, testCvtPkFp8});
  return cases;
}

const std::vector<InstructionCase> kVop3Cases = vop3Cases();
HK_INSTRUCTION_CASES(Vop3, kVop3Cases);

} // namespace
