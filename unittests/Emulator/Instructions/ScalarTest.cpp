//===- ScalarTest.cpp - SOP1, SOP2, SOPC and SOPK instructions ------------===//
//
// Each instruction runs on 64 input pairs (edge values, then random ones)
// and its result and SCC are checked against host integer arithmetic
// written from AMD's CDNA3 ISA reference, independently of the emulator's
// .def semantics.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;

namespace {

constexpr int kKeep = -1; ///< SCC unchanged.

struct Result {
  uint64_t value;
  int scc;
};

using Ref = Result (*)(uint64_t a, uint64_t b, bool scc);

/// Bit-field extract: offset in b[5:0] (b[4:0] for 32-bit), width in
/// b[22:16].
uint64_t extract(uint64_t a, uint64_t b, unsigned bits, bool sign) {
  unsigned offset = b & (bits - 1), width = (b >> 16) & 0x7f;
  if (width == 0)
    return 0;
  __int128 v = (unsigned __int128)a >> offset;
  if (width < bits) {
    v &= ((__int128)1 << width) - 1;
    if (sign && ((v >> (width - 1)) & 1))
      v -= (__int128)1 << width;
  } else if (sign) {
    // A field reaching the top bit: the arithmetic shift.
    v = bits == 32 ? __int128(int32_t(uint32_t(a)) >> offset)
                   : __int128(int64_t(a) >> offset);
  }
  return bits == 32 ? uint32_t(uint64_t(v)) : uint64_t(v);
}

int64_t s32(uint64_t v) { return int32_t(uint32_t(v)); }
uint64_t u32(uint64_t v) { return uint32_t(v); }

const std::map<std::string, std::pair<unsigned, Ref>> &sop2() {
  // (result width, reference).
  static const std::map<std::string, std::pair<unsigned, Ref>> refs = {
      {"s_add_u32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = u32(a) + u32(b);
          return Result{u32(r), int(r >> 32)};
        }}},
      {"s_sub_u32",
       {32, [](uint64_t a, uint64_t b,
               bool) { return Result{u32(a - b), int(u32(b) > u32(a))}; }}},
      {"s_add_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          int64_t r = s32(a) + s32(b);
          return Result{u32(r), int(r != int32_t(r))};
        }}},
      {"s_sub_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          int64_t r = s32(a) - s32(b);
          return Result{u32(r), int(r != int32_t(r))};
        }}},
      {"s_addc_u32",
       {32,
        [](uint64_t a, uint64_t b, bool c) {
          uint64_t r = u32(a) + u32(b) + c;
          return Result{u32(r), int(r >> 32)};
        }}},
      {"s_subb_u32",
       {32,
        [](uint64_t a, uint64_t b, bool c) {
          return Result{u32(a - b - c), int(u32(b) + c > u32(a))};
        }}},
      {"s_min_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{u32(std::min(s32(a), s32(b))), int(s32(a) < s32(b))};
        }}},
      {"s_min_u32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{std::min(u32(a), u32(b)), int(u32(a) < u32(b))};
        }}},
      {"s_max_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{u32(std::max(s32(a), s32(b))), int(s32(a) > s32(b))};
        }}},
      {"s_max_u32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{std::max(u32(a), u32(b)), int(u32(a) > u32(b))};
        }}},
      {"s_cselect_b32",
       {32, [](uint64_t a, uint64_t b,
               bool c) { return Result{u32(c ? a : b), kKeep}; }}},
      {"s_and_b32",
       {32, [](uint64_t a, uint64_t b,
               bool) { return Result{u32(a & b), int(u32(a & b) != 0)}; }}},
      {"s_or_b32",
       {32, [](uint64_t a, uint64_t b,
               bool) { return Result{u32(a | b), int(u32(a | b) != 0)}; }}},
      {"s_xor_b32",
       {32, [](uint64_t a, uint64_t b,
               bool) { return Result{u32(a ^ b), int(u32(a ^ b) != 0)}; }}},
      {"s_andn2_b32",
       {32, [](uint64_t a, uint64_t b,
               bool) { return Result{u32(a & ~b), int(u32(a & ~b) != 0)}; }}},
      {"s_orn2_b32",
       {32, [](uint64_t a, uint64_t b,
               bool) { return Result{u32(a | ~b), int(u32(a | ~b) != 0)}; }}},
      {"s_nand_b32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{u32(~(a & b)), int(u32(~(a & b)) != 0)};
        }}},
      {"s_nor_b32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{u32(~(a | b)), int(u32(~(a | b)) != 0)};
        }}},
      {"s_xnor_b32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{u32(~(a ^ b)), int(u32(~(a ^ b)) != 0)};
        }}},
      {"s_lshl_b32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = u32(u32(a) << (b & 31));
          return Result{r, int(r != 0)};
        }}},
      {"s_lshr_b32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = u32(a) >> (b & 31);
          return Result{r, int(r != 0)};
        }}},
      {"s_ashr_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = u32(s32(a) >> (b & 31));
          return Result{r, int(r != 0)};
        }}},
      {"s_bfm_b32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t mask = (uint64_t(1) << (a & 31)) - 1;
          return Result{u32(mask << (b & 31)), kKeep};
        }}},
      {"s_mul_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{u32(uint64_t(s32(a) * s32(b))), kKeep};
        }}},
      {"s_mul_hi_u32",
       {32, [](uint64_t a, uint64_t b,
               bool) { return Result{(u32(a) * u32(b)) >> 32, kKeep}; }}},
      {"s_mul_hi_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{u32(uint64_t(s32(a) * s32(b)) >> 32), kKeep};
        }}},
      {"s_bfe_u32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = extract(u32(a), b, 32, false);
          return Result{r, int(r != 0)};
        }}},
      {"s_bfe_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = extract(u32(a), b, 32, true);
          return Result{r, int(r != 0)};
        }}},
      {"s_absdiff_i32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          int64_t d = s32(a) - s32(b);
          uint64_t r = u32(uint64_t(d < 0 ? -d : d));
          return Result{r, int(r != 0)};
        }}},
      {"s_lshl1_add_u32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = (u32(a) << 1) + u32(b);
          return Result{u32(r), int(r >> 32 != 0)};
        }}},
      {"s_lshl2_add_u32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = (u32(a) << 2) + u32(b);
          return Result{u32(r), int(r >> 32 != 0)};
        }}},
      {"s_lshl3_add_u32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = (u32(a) << 3) + u32(b);
          return Result{u32(r), int(r >> 32 != 0)};
        }}},
      {"s_lshl4_add_u32",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = (u32(a) << 4) + u32(b);
          return Result{u32(r), int(r >> 32 != 0)};
        }}},
      {"s_pack_ll_b32_b16",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{(a & 0xffff) | ((b & 0xffff) << 16), kKeep};
        }}},
      {"s_pack_lh_b32_b16",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{(a & 0xffff) | (b & 0xffff0000u), kKeep};
        }}},
      {"s_pack_hh_b32_b16",
       {32,
        [](uint64_t a, uint64_t b, bool) {
          return Result{((a >> 16) & 0xffff) | (b & 0xffff0000u), kKeep};
        }}},
      {"s_and_b64",
       {64, [](uint64_t a, uint64_t b,
               bool) { return Result{a & b, int((a & b) != 0)}; }}},
      {"s_or_b64",
       {64, [](uint64_t a, uint64_t b,
               bool) { return Result{a | b, int((a | b) != 0)}; }}},
      {"s_xor_b64",
       {64, [](uint64_t a, uint64_t b,
               bool) { return Result{a ^ b, int((a ^ b) != 0)}; }}},
      {"s_andn2_b64",
       {64, [](uint64_t a, uint64_t b,
               bool) { return Result{a & ~b, int((a & ~b) != 0)}; }}},
      {"s_orn2_b64",
       {64, [](uint64_t a, uint64_t b,
               bool) { return Result{a | ~b, int((a | ~b) != 0)}; }}},
      {"s_nand_b64",
       {64, [](uint64_t a, uint64_t b,
               bool) { return Result{~(a & b), int(~(a & b) != 0)}; }}},
      {"s_nor_b64",
       {64, [](uint64_t a, uint64_t b,
               bool) { return Result{~(a | b), int(~(a | b) != 0)}; }}},
      {"s_xnor_b64",
       {64, [](uint64_t a, uint64_t b,
               bool) { return Result{~(a ^ b), int(~(a ^ b) != 0)}; }}},
      {"s_cselect_b64",
       {64, [](uint64_t a, uint64_t b,
               bool c) { return Result{c ? a : b, kKeep}; }}},
      {"s_bfm_b64",
       {64,
        [](uint64_t a, uint64_t b, bool) {
          unsigned width = a & 63;
          uint64_t mask = width ? ~0ull >> (64 - width) : 0;
          return Result{mask << (b & 63), kKeep};
        }}},
      {"s_lshl_b64",
       {64,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = a << (b & 63);
          return Result{r, int(r != 0)};
        }}},
      {"s_lshr_b64",
       {64,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = a >> (b & 63);
          return Result{r, int(r != 0)};
        }}},
      {"s_ashr_i64",
       {64,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = uint64_t(int64_t(a) >> (b & 63));
          return Result{r, int(r != 0)};
        }}},
      {"s_bfe_u64",
       {64,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = extract(a, u32(b), 64, false);
          return Result{r, int(r != 0)};
        }}},
      {"s_bfe_i64",
       {64,
        [](uint64_t a, uint64_t b, bool) {
          uint64_t r = extract(a, u32(b), 64, true);
          return Result{r, int(r != 0)};
        }}},
  };
  return refs;
}

/// The 64-bit second source of these is a 32-bit operand.
bool secondSourceIs32(llvm::StringRef m) {
  return m.contains("lshl_b64") || m.contains("lshr_b64") ||
         m.contains("ashr_i64") || m.contains("bfe_") ||
         m.starts_with("s_bfm_b64");
}

void testSop2(SingleWave &sw, const char *mnemonic) {
  auto [bits, ref] = sop2().at(mnemonic);
  bool wide = bits == 64;
  bool narrowB = wide && secondSourceIs32(mnemonic);
  bool narrowA = llvm::StringRef(mnemonic) == "s_bfm_b64";
  std::string text = std::string(mnemonic) + (wide ? " s[4:5], " : " s4, ") +
                     (wide && !narrowA ? "s[8:9], " : "s8, ") +
                     (wide && !narrowB ? "s[10:11]" : "s10");
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 64; ++i) {
    uint64_t a = wide ? int64Input(i, 0) : intInput(i, 0);
    uint64_t b = wide ? int64Input(i, 1) : intInput(i, 1);
    if (narrowA)
      a = u32(a);
    if (narrowB)
      b = u32(b);
    bool sccIn = i & 1;
    w.setSgpr64(8, a);
    w.setSgpr64(10, b);
    w.scc = sccIn;
    w.setSgpr64(4, 0xdeadbeefdeadbeefull);
    runOrFail(sw, text);
    Result expected = ref(a, b, sccIn);
    uint64_t got = wide ? w.sgpr64(4) : w.s[4];
    EXPECT_EQ(got, expected.value)
        << mnemonic << " a=" << a << " b=" << b << " scc=" << sccIn;
    if (!wide)
      EXPECT_EQ(w.s[5], 0xdeadbeefu) << mnemonic << " wrote past its result";
    EXPECT_EQ(int(w.scc), expected.scc == kKeep ? int(sccIn) : expected.scc)
        << mnemonic << " SCC, a=" << a << " b=" << b;
  }
}

std::vector<InstructionCase> sop2Cases() {
  std::vector<InstructionCase> cases;
  for (const auto &entry : sop2())
    cases.push_back({entry.first.c_str(), "gfx942,gfx950", testSop2});
  return cases;
}

const std::vector<InstructionCase> kSop2Cases = sop2Cases();
HK_INSTRUCTION_CASES(Sop2, kSop2Cases);

} // namespace
