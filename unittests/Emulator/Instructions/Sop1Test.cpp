//===- Sop1Test.cpp - SOP1 instructions -----------------------------------===//
//
// Each instruction runs on 64 inputs (edge values, then random ones) and
// its result, SCC and EXEC are checked against host arithmetic written
// from AMD's CDNA3/CDNA4 ISA reference (the SOP1 pseudocode and its
// functional examples), independently of the emulator's .def semantics.
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

/// A reference: (source, SCC in) -> result.
using Ref = Result (*)(uint64_t a, bool scc);

struct Sop1 {
  unsigned srcBits, dstBits;
  Ref ref;
};

/// The index of the first bit of `v` (`bits` wide) equal to `want`,
/// scanning from bit 0, or -1.
uint64_t firstFromLsb(uint64_t v, unsigned bits, bool want) {
  for (unsigned i = 0; i < bits; ++i)
    if (((v >> i) & 1) == want)
      return i;
  return 0xffffffffu;
}

/// The number of leading bits before the first one, or -1.
uint64_t leadingZeros(uint64_t v, unsigned bits) {
  for (unsigned i = 0; i < bits; ++i)
    if ((v >> (bits - 1 - i)) & 1)
      return i;
  return 0xffffffffu;
}

/// The index, counted from the most significant bit, of the first bit that
/// differs from the sign bit, or -1 when none does (0 and -1).
uint64_t signRunLength(uint64_t v, unsigned bits) {
  bool sign = (v >> (bits - 1)) & 1;
  for (unsigned i = 1; i < bits; ++i)
    if (bool((v >> (bits - 1 - i)) & 1) != sign)
      return i;
  return 0xffffffffu;
}

uint64_t countBits(uint64_t v, unsigned bits, bool want) {
  uint64_t n = 0;
  for (unsigned i = 0; i < bits; ++i)
    n += ((v >> i) & 1) == want;
  return n;
}

uint64_t u32(uint64_t v) { return uint32_t(v); }

const std::map<std::string, Sop1> &sop1() {
  static const std::map<std::string, Sop1> refs = {
      {"s_mov_b32",
       {32, 32, [](uint64_t a, bool) { return Result{u32(a), kKeep}; }}},
      {"s_mov_b64",
       {64, 64, [](uint64_t a, bool) { return Result{a, kKeep}; }}},
      {"s_not_b32",
       {32, 32,
        [](uint64_t a, bool) { return Result{u32(~a), int(u32(~a) != 0)}; }}},
      {"s_not_b64",
       {64, 64, [](uint64_t a, bool) { return Result{~a, int(~a != 0)}; }}},
      {"s_brev_b32",
       {32, 32,
        [](uint64_t a, bool) {
          uint64_t r = 0;
          for (unsigned i = 0; i < 32; ++i)
            r |= ((a >> i) & 1) << (31 - i);
          return Result{r, kKeep};
        }}},
      {"s_brev_b64",
       {64, 64,
        [](uint64_t a, bool) {
          uint64_t r = 0;
          for (unsigned i = 0; i < 64; ++i)
            r |= ((a >> i) & 1) << (63 - i);
          return Result{r, kKeep};
        }}},
      {"s_bcnt0_i32_b64",
       {64, 32,
        [](uint64_t a, bool) {
          uint64_t n = countBits(a, 64, false);
          return Result{n, int(n != 0)};
        }}},
      {"s_ff0_i32_b64",
       {64, 32,
        [](uint64_t a, bool) {
          return Result{firstFromLsb(a, 64, false), kKeep};
        }}},
      {"s_flbit_i32",
       {32, 32,
        [](uint64_t a, bool) { return Result{signRunLength(a, 32), kKeep}; }}},
      {"s_flbit_i32_i64",
       {64, 32,
        [](uint64_t a, bool) { return Result{signRunLength(a, 64), kKeep}; }}},
      {"s_bcnt0_i32_b32",
       {32, 32,
        [](uint64_t a, bool) {
          uint64_t n = countBits(a, 32, false);
          return Result{n, int(n != 0)};
        }}},
      {"s_bcnt1_i32_b32",
       {32, 32,
        [](uint64_t a, bool) {
          uint64_t n = countBits(a, 32, true);
          return Result{n, int(n != 0)};
        }}},
      {"s_bcnt1_i32_b64",
       {64, 32,
        [](uint64_t a, bool) {
          uint64_t n = countBits(a, 64, true);
          return Result{n, int(n != 0)};
        }}},
      {"s_ff1_i32_b32",
       {32, 32,
        [](uint64_t a, bool) {
          return Result{firstFromLsb(a, 32, true), kKeep};
        }}},
      {"s_ff1_i32_b64",
       {64, 32,
        [](uint64_t a, bool) {
          return Result{firstFromLsb(a, 64, true), kKeep};
        }}},
      {"s_ff0_i32_b32",
       {32, 32,
        [](uint64_t a, bool) {
          return Result{firstFromLsb(a, 32, false), kKeep};
        }}},
      {"s_flbit_i32_b32",
       {32, 32,
        [](uint64_t a, bool) { return Result{leadingZeros(a, 32), kKeep}; }}},
      {"s_flbit_i32_b64",
       {64, 32,
        [](uint64_t a, bool) { return Result{leadingZeros(a, 64), kKeep}; }}},
      {"s_sext_i32_i8",
       {32, 32,
        [](uint64_t a, bool) {
          uint64_t r = a & 0xff;
          if (r & 0x80)
            r |= 0xffffff00u;
          return Result{r, kKeep};
        }}},
      {"s_sext_i32_i16",
       {32, 32,
        [](uint64_t a, bool) {
          uint64_t r = a & 0xffff;
          if (r & 0x8000)
            r |= 0xffff0000u;
          return Result{r, kKeep};
        }}},
      // S_ABS_I32(0x80000000) => 0x80000000 (AMD's functional example).
      {"s_abs_i32",
       {32, 32,
        [](uint64_t a, bool) {
          uint64_t r = (a >> 31) & 1 ? u32(0 - a) : u32(a);
          return Result{r, int(r != 0)};
        }}},
      {"s_cmov_b32",
       {32, 32,
        [](uint64_t a, bool scc) {
          // The old destination is the sentinel the test
          // writes first.
          return Result{scc ? u32(a) : 0xdeadbeefu, kKeep};
        }}},
      {"s_cmov_b64",
       {64, 64,
        [](uint64_t a, bool scc) {
          return Result{scc ? a : 0xdeadbeefdeadbeefull, kKeep};
        }}},
  };
  return refs;
}

void testSop1(SingleWave &sw, const char *mnemonic) {
  const Sop1 &op = sop1().at(mnemonic);
  std::string text = std::string(mnemonic) +
                     (op.dstBits == 64 ? " s[4:5], " : " s4, ") +
                     (op.srcBits == 64 ? "s[8:9]" : "s8");
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 64; ++i) {
    uint64_t a = op.srcBits == 64 ? int64Input(i, 0) : intInput(i, 0);
    bool sccIn = i & 1;
    w.setSgpr64(8, a);
    w.scc = sccIn;
    w.setSgpr64(4, 0xdeadbeefdeadbeefull);
    runOrFail(sw, text);
    Result want = op.ref(a, sccIn);
    uint64_t got = op.dstBits == 64 ? w.sgpr64(4) : w.s[4];
    EXPECT_EQ(got, want.value) << mnemonic << " a=" << hex(a);
    if (op.dstBits == 32)
      EXPECT_EQ(w.s[5], 0xdeadbeefu) << mnemonic << " wrote past its result";
    EXPECT_EQ(int(w.scc), want.scc == kKeep ? int(sccIn) : want.scc)
        << mnemonic << " SCC, a=" << hex(a);
  }
}

/// AMD's functional examples of the bit-scan instructions.
TEST(Sop1Examples, BitScans) {
  SingleWave sw(*ChipInfo::lookup("gfx942"));
  Wave &w = sw.wave();
  struct Example {
    const char *mnemonic;
    uint32_t in, out;
  } examples[] = {
      {"s_bcnt0_i32_b32", 0xcccccccc, 16},  {"s_bcnt1_i32_b32", 0xcccccccc, 16},
      {"s_ff0_i32_b32", 0xaaaaaaaa, 0},     {"s_ff0_i32_b32", 0x55555555, 1},
      {"s_ff0_i32_b32", 0xffffffff, ~0u},   {"s_ff0_i32_b32", 0xfffeffff, 16},
      {"s_ff1_i32_b32", 0xaaaaaaaa, 1},     {"s_ff1_i32_b32", 0x00000000, ~0u},
      {"s_ff1_i32_b32", 0x00010000, 16},    {"s_flbit_i32_b32", 0x0000cccc, 16},
      {"s_flbit_i32_b32", 0x7fffffff, 1},   {"s_flbit_i32_b32", 0, ~0u},
      {"s_flbit_i32", 0x00000000, ~0u},     {"s_flbit_i32", 0x0000cccc, 16},
      {"s_flbit_i32", 0xffff3333, 16},      {"s_flbit_i32", 0x7fffffff, 1},
      {"s_flbit_i32", 0x80000000, 1},       {"s_flbit_i32", 0xffffffff, ~0u},
      {"s_abs_i32", 0x80000001, 0x7fffffff}};
  for (const Example &e : examples) {
    w.s[8] = e.in;
    runOrFail(sw, std::string(e.mnemonic) + " s4, s8");
    EXPECT_EQ(w.s[4], e.out) << e.mnemonic << "(" << hex(e.in) << ")";
  }
}

/// s_bitset0/1_b32 s4, s8: bit s8[4:0] of s4 cleared or set, the other
/// bits kept.
void testBitset(SingleWave &sw, const char *mnemonic) {
  bool set = llvm::StringRef(mnemonic) == "s_bitset1_b32";
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 64; ++i) {
    uint32_t old = intInput(i, 0), index = intInput(i, 1);
    w.s[4] = old;
    w.s[8] = index;
    w.scc = i & 1;
    runOrFail(sw, std::string(mnemonic) + " s4, s8");
    uint32_t bit = 1u << (index & 31);
    EXPECT_EQ(w.s[4], set ? old | bit : old & ~bit)
        << mnemonic << " old=" << hex(old) << " index=" << index;
    EXPECT_EQ(w.scc, bool(i & 1)) << mnemonic << " changed SCC";
  }
}

/// s_bitset0/1_b64 s[4:5], s8: bit s8[5:0] of s[4:5] cleared or set, the
/// other bits kept.
void testBitset64(SingleWave &sw, const char *mnemonic) {
  bool set = llvm::StringRef(mnemonic) == "s_bitset1_b64";
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 64; ++i) {
    uint64_t old = int64Input(i, 0);
    uint32_t index = intInput(i, 1);
    w.setSgpr64(4, old);
    w.s[8] = index;
    w.scc = i & 1;
    runOrFail(sw, std::string(mnemonic) + " s[4:5], s8");
    uint64_t bit = 1ull << (index % 64);
    EXPECT_EQ(w.sgpr64(4), set ? old | bit : old & ~bit)
        << mnemonic << " old=" << hex(old) << " index=" << index;
    EXPECT_EQ(w.scc, bool(i & 1)) << mnemonic << " changed SCC";
  }
}

/// s_movrels_b{32,64} s4, s8: s4 (s[4:5]) = s[8 + M0] (s[8 + M0 : 9 + M0]);
/// s_movreld_b{32,64} s8, s4: s[8 + M0] (and the next) = s4 (s[4:5]). The
/// SGPRs around the target keep their values.
void testMovrel(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  bool source = name.starts_with("s_movrels");
  unsigned words = name.ends_with("64") ? 2 : 1;
  std::string text =
      std::string(mnemonic) +
      (words == 2 ? (source ? " s[4:5], s[8:9]" : " s[8:9], s[4:5]")
                  : (source ? " s4, s8" : " s8, s4"));
  Wave &w = sw.wave();
  for (uint32_t m0 = 0; m0 < 12; m0 += words) {
    for (unsigned r = 0; r < 32; ++r)
      w.s[r] = 0x5000u + r;
    w.s[isa::kM0] = m0;
    runOrFail(sw, text);
    for (unsigned r = 0; r < 32; ++r) {
      uint32_t want = 0x5000u + r;
      if (source && r >= 4 && r < 4 + words)
        want = 0x5000u + 8 + m0 + (r - 4);
      if (!source && r >= 8 + m0 && r < 8 + m0 + words)
        want = 0x5000u + 4 + (r - 8 - m0);
      EXPECT_EQ(w.s[r], want) << text << " M0=" << m0 << " s" << r;
    }
  }
}

/// The new EXEC of a saveexec or wrexec instruction from source s and the
/// old exec e.
using ExecRef = uint64_t (*)(uint64_t s, uint64_t e);

const std::map<std::string, std::pair<bool, ExecRef>> &execOps() {
  // (writes the new EXEC rather than the old one to D, reference).
  static const std::map<std::string, std::pair<bool, ExecRef>> ops = {
      {"s_and_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return s & e; }}},
      {"s_or_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return s | e; }}},
      {"s_xor_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return s ^ e; }}},
      {"s_andn2_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return s & ~e; }}},
      {"s_orn2_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return s | ~e; }}},
      {"s_nand_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return ~(s & e); }}},
      {"s_nor_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return ~(s | e); }}},
      {"s_xnor_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return ~(s ^ e); }}},
      {"s_andn1_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return ~s & e; }}},
      {"s_orn1_saveexec_b64",
       {false, [](uint64_t s, uint64_t e) { return ~s | e; }}},
      {"s_andn1_wrexec_b64",
       {true, [](uint64_t s, uint64_t e) { return ~s & e; }}},
      {"s_andn2_wrexec_b64",
       {true, [](uint64_t s, uint64_t e) { return s & ~e; }}},
  };
  return ops;
}

void testExecOp(SingleWave &sw, const char *mnemonic) {
  auto [writesNew, ref] = execOps().at(mnemonic);
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 64; ++i) {
    uint64_t s = int64Input(i, 0), e = int64Input(i, 1);
    w.setSgpr64(8, s);
    w.setExec(e);
    w.setSgpr64(4, 0x1234);
    w.scc = !(i & 1);
    runOrFail(sw, std::string(mnemonic) + " s[4:5], s[8:9]");
    uint64_t exec = ref(s, e);
    EXPECT_EQ(w.exec(), exec) << mnemonic << " s=" << hex(s) << " e=" << hex(e);
    EXPECT_EQ(w.sgpr64(4), writesNew ? exec : e) << mnemonic << " D";
    EXPECT_EQ(w.scc, exec != 0) << mnemonic << " SCC";
  }
}

/// s_getpc_b64: the address of the next instruction (the second one here,
/// at byte 4, so 8).
void testGetpc(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  runOrFail(sw, "s_nop 0\ns_getpc_b64 s[4:5]");
  EXPECT_EQ(w.sgpr64(4), 8u);
}

void testSetpc(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  w.setSgpr64(8, 0x1230);
  runOrFail(sw, "s_setpc_b64 s[8:9]");
  EXPECT_EQ(w.pc, 0x1230u);
}

/// s_swappc_b64: D = the next instruction's address, PC = S0.
void testSwappc(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  w.setSgpr64(8, 0x4560);
  runOrFail(sw, "s_nop 0\ns_swappc_b64 s[4:5], s[8:9]");
  EXPECT_EQ(w.pc, 0x4560u);
  EXPECT_EQ(w.sgpr64(4), 8u);
}

/// s_set_gpr_idx_idx: M0[7:0] = S0[7:0], the rest of M0 kept.
void testSetGprIdxIdx(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 16; ++i) {
    uint32_t m0 = intInput(i, 0), s = intInput(i, 1);
    w.s[isa::kM0] = m0;
    w.s[8] = s;
    runOrFail(sw, "s_set_gpr_idx_idx s8");
    EXPECT_EQ(w.s[isa::kM0], (m0 & ~0xffu) | (s & 0xff));
  }
}

std::vector<InstructionCase> sop1Cases() {
  std::vector<InstructionCase> cases;
  for (const auto &entry : sop1())
    cases.push_back({entry.first.c_str(), kBothChips, testSop1});
  for (const auto &entry : execOps())
    cases.push_back({entry.first.c_str(), kBothChips, testExecOp});
  cases.push_back({"s_bitset0_b32", kBothChips, testBitset});
  cases.push_back({"s_bitset1_b32", kBothChips, testBitset});
  cases.push_back({"s_bitset0_b64", kBothChips, testBitset64});
  for (const char *name :
       {"s_movrels_b32", "s_movrels_b64", "s_movreld_b32", "s_movreld_b64"})
    cases.push_back({name, kBothChips, testMovrel});
  cases.push_back({"s_bitset1_b64", kBothChips, testBitset64});
  cases.push_back({"s_getpc_b64", kBothChips, testGetpc});
  cases.push_back({"s_setpc_b64", kBothChips, testSetpc});
  cases.push_back({"s_swappc_b64", kBothChips, testSwappc});
  cases.push_back({"s_set_gpr_idx_idx", kBothChips, testSetGprIdxIdx});
  return cases;
}

const std::vector<InstructionCase> kSop1Cases = sop1Cases();
HK_INSTRUCTION_CASES(Sop1, kSop1Cases);

} // namespace
