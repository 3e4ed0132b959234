//===- SopkTest.cpp - SOPK instructions -----------------------------------===//
//
// Scalar instructions with a 16-bit constant, checked on register values
// (edge and random) against host arithmetic written from AMD's CDNA3/CDNA4
// ISA reference: the constant is sign-extended by the _i32 forms and
// zero-extended by the _u32 compares.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;

namespace {

constexpr int kKeep = -1;

/// The 16-bit constants the cases use.
uint16_t simm(unsigned i) {
  static const uint16_t edges[] = {0,      1,      0x7fff, 0x8000,
                                   0xffff, 0xfffe, 0x1234, 0x8001};
  if (i < std::size(edges))
    return edges[i];
  return uint16_t(mixBits(i * 31 + 7));
}

int64_t sext16(uint16_t k) { return int16_t(k); }

struct Result {
  uint32_t value;
  int scc;
};

/// (D before, constant, SCC before) -> D after and SCC.
using Ref = Result (*)(uint32_t d, uint16_t k, bool scc);

const std::map<std::string, Ref> &sopk() {
  static const std::map<std::string, Ref> refs = {
      {"s_movk_i32", [](uint32_t, uint16_t k,
                        bool) { return Result{uint32_t(sext16(k)), kKeep}; }},
      {"s_cmovk_i32",
       [](uint32_t d, uint16_t k, bool scc) {
         return Result{scc ? uint32_t(sext16(k)) : d, kKeep};
       }},
      {"s_addk_i32",
       [](uint32_t d, uint16_t k, bool) {
         int64_t sum = int64_t(int32_t(d)) + sext16(k);
         return Result{uint32_t(sum), int(sum != int32_t(sum))};
       }},
      {"s_mulk_i32",
       [](uint32_t d, uint16_t k, bool) {
         return Result{uint32_t(int64_t(int32_t(d)) * sext16(k)), kKeep};
       }},
  };
  return refs;
}

void testSopk(SingleWave &sw, const char *mnemonic) {
  Ref ref = sopk().at(mnemonic);
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 48; ++i) {
    uint16_t k = simm(i % 16 + (i / 16) * 3);
    uint32_t d = intInput(i, 0);
    bool sccIn = (i / 2) & 1;
    w.s[4] = d;
    w.scc = sccIn;
    runOrFail(sw, std::string(mnemonic) + " s4, " + hex(k));
    Result want = ref(d, k, sccIn);
    EXPECT_EQ(w.s[4], want.value)
        << mnemonic << " d=" << hex(d) << " k=" << hex(k);
    EXPECT_EQ(int(w.scc), want.scc == kKeep ? int(sccIn) : want.scc)
        << mnemonic << " SCC, d=" << hex(d) << " k=" << hex(k);
  }
}

using CmpRef = bool (*)(uint32_t a, uint16_t k);

const std::map<std::string, CmpRef> &sopkCompares() {
  static const std::map<std::string, CmpRef> refs = {
      {"s_cmpk_eq_i32",
       [](uint32_t a, uint16_t k) { return int32_t(a) == sext16(k); }},
      {"s_cmpk_lg_i32",
       [](uint32_t a, uint16_t k) { return int32_t(a) != sext16(k); }},
      {"s_cmpk_gt_i32",
       [](uint32_t a, uint16_t k) { return int32_t(a) > sext16(k); }},
      {"s_cmpk_ge_i32",
       [](uint32_t a, uint16_t k) { return int32_t(a) >= sext16(k); }},
      {"s_cmpk_lt_i32",
       [](uint32_t a, uint16_t k) { return int32_t(a) < sext16(k); }},
      {"s_cmpk_le_i32",
       [](uint32_t a, uint16_t k) { return int32_t(a) <= sext16(k); }},
      {"s_cmpk_eq_u32", [](uint32_t a, uint16_t k) { return a == k; }},
      {"s_cmpk_lg_u32", [](uint32_t a, uint16_t k) { return a != k; }},
      {"s_cmpk_gt_u32", [](uint32_t a, uint16_t k) { return a > k; }},
      {"s_cmpk_ge_u32", [](uint32_t a, uint16_t k) { return a >= k; }},
      {"s_cmpk_lt_u32", [](uint32_t a, uint16_t k) { return a < k; }},
      {"s_cmpk_le_u32", [](uint32_t a, uint16_t k) { return a <= k; }},
  };
  return refs;
}

void testSopkCompare(SingleWave &sw, const char *mnemonic) {
  CmpRef ref = sopkCompares().at(mnemonic);
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 48; ++i) {
    uint16_t k = simm(i % 16 + (i / 16) * 5);
    // A third of the values equal the constant, sign- or zero-extended.
    uint32_t a = i % 3 == 0   ? uint32_t(sext16(k))
                 : i % 3 == 1 ? uint32_t(k)
                              : intInput(i, 0);
    w.s[8] = a;
    w.scc = !ref(a, k);
    runOrFail(sw, std::string(mnemonic) + " s8, " + hex(k));
    EXPECT_EQ(w.scc, ref(a, k))
        << mnemonic << " a=" << hex(a) << " k=" << hex(k);
    EXPECT_EQ(w.s[8], a) << mnemonic << " changed its source";
  }
}

// The emulator models no writable hardware register (modes come from the
// kernel descriptor; see docs/emulator.md). What is checked: s_getreg_b32
// writes a value no wider than the field it reads; s_setreg leaves every
// register the kernel can see unchanged.
void testGetreg(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  w.s[4] = 0xffffffffu;
  runOrFail(sw, "s_getreg_b32 s4, hwreg(HW_REG_MODE, 0, 4)");
  EXPECT_LT(w.s[4], 16u) << "a 4-bit field";
  w.s[4] = 0xffffffffu;
  runOrFail(sw, "s_getreg_b32 s4, hwreg(HW_REG_HW_ID, 8, 1)");
  EXPECT_LT(w.s[4], 2u) << "a 1-bit field";
}

// s_setreg writes MODE's denormal field (bits 4-7: f32 and f16/f64 modes);
// s_getreg reads it back, the other registers unchanged. Rounding other
// than to nearest even is refused, as the emulator implements no other.
void testSetreg(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 8; ++i)
    w.s[i] = intInput(i, 0);
  w.s[3] = 0x5; // f32: flush sources; f16/f64: flush sources and results
  w.scc = true;
  uint64_t exec = w.exec();
  bool fromRegister = llvm::StringRef(mnemonic) == "s_setreg_b32";
  std::string text = fromRegister
                         ? "s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s3"
                         : "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 5";
  runOrFail(sw, text);
  runOrFail(sw, "s_getreg_b32 s9, hwreg(HW_REG_MODE, 0, 8)");
  EXPECT_EQ(w.s[9], 0x50u) << text;
  for (unsigned i = 0; i < 8; ++i)
    EXPECT_EQ(w.s[i], i == 3 ? 0x5u : intInput(i, 0)) << text;
  EXPECT_TRUE(w.scc);
  EXPECT_EQ(w.exec(), exec);

  w.s[3] = 0x3; // round toward zero
  std::string round = fromRegister
                          ? "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3"
                          : "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3";
  llvm::Error err = sw.run(round);
  EXPECT_TRUE(bool(err)) << round << " should be refused";
  llvm::consumeError(std::move(err));
}

std::vector<InstructionCase> sopkCases() {
  std::vector<InstructionCase> cases;
  for (const auto &entry : sopk())
    cases.push_back({entry.first.c_str(), kBothChips, testSopk});
  for (const auto &entry : sopkCompares())
    cases.push_back({entry.first.c_str(), kBothChips, testSopkCompare});
  cases.push_back({"s_getreg_b32", kBothChips, testGetreg});
  cases.push_back({"s_setreg_b32", kBothChips, testSetreg});
  cases.push_back({"s_setreg_imm32_b32", kBothChips, testSetreg});
  return cases;
}

const std::vector<InstructionCase> kSopkCases = sopkCases();
HK_INSTRUCTION_CASES(Sopk, kSopkCases);

} // namespace
