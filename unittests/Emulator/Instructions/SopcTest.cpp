//===- SopcTest.cpp - SOPC instructions -----------------------------------===//
//
// Scalar compares set SCC from two sources; each runs on 64 input pairs
// (edge values, then random ones) against host comparisons written from
// AMD's CDNA3/CDNA4 ISA reference. s_set_gpr_idx_on is checked for the M0
// fields and the mode it turns on.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;

namespace {

/// (64-bit sources, reference).
using Ref = bool (*)(uint64_t a, uint64_t b);

const std::map<std::string, std::pair<bool, Ref>> &sopc() {
  static const std::map<std::string, std::pair<bool, Ref>> refs = {
      {"s_cmp_eq_i32",
       {false, [](uint64_t a, uint64_t b) { return uint32_t(a) == b; }}},
      {"s_cmp_lg_i32",
       {false, [](uint64_t a, uint64_t b) { return uint32_t(a) != b; }}},
      {"s_cmp_gt_i32",
       {false, [](uint64_t a, uint64_t b) { return int32_t(a) > int32_t(b); }}},
      {"s_cmp_ge_i32",
       {false,
        [](uint64_t a, uint64_t b) { return int32_t(a) >= int32_t(b); }}},
      {"s_cmp_lt_i32",
       {false, [](uint64_t a, uint64_t b) { return int32_t(a) < int32_t(b); }}},
      {"s_cmp_le_i32",
       {false,
        [](uint64_t a, uint64_t b) { return int32_t(a) <= int32_t(b); }}},
      {"s_cmp_eq_u32", {false, [](uint64_t a, uint64_t b) { return a == b; }}},
      {"s_cmp_lg_u32", {false, [](uint64_t a, uint64_t b) { return a != b; }}},
      {"s_cmp_gt_u32", {false, [](uint64_t a, uint64_t b) { return a > b; }}},
      {"s_cmp_ge_u32", {false, [](uint64_t a, uint64_t b) { return a >= b; }}},
      {"s_cmp_lt_u32", {false, [](uint64_t a, uint64_t b) { return a < b; }}},
      {"s_cmp_le_u32", {false, [](uint64_t a, uint64_t b) { return a <= b; }}},
      {"s_cmp_eq_u64", {true, [](uint64_t a, uint64_t b) { return a == b; }}},
      {"s_cmp_lg_u64", {true, [](uint64_t a, uint64_t b) { return a != b; }}},
      {"s_bitcmp0_b32",
       {false,
        [](uint64_t a, uint64_t b) { return ((a >> (b & 31)) & 1) == 0; }}},
      {"s_bitcmp1_b32",
       {false,
        [](uint64_t a, uint64_t b) { return ((a >> (b & 31)) & 1) == 1; }}},
      {"s_bitcmp0_b64",
       {true,
        [](uint64_t a, uint64_t b) { return ((a >> (b & 63)) & 1) == 0; }}},
      {"s_bitcmp1_b64",
       {true,
        [](uint64_t a, uint64_t b) { return ((a >> (b & 63)) & 1) == 1; }}},
  };
  return refs;
}

void testSopc(SingleWave &sw, const char *mnemonic) {
  auto [wide, ref] = sopc().at(mnemonic);
  // s_bitcmp*_b64 takes a 64-bit value and a 32-bit bit index.
  bool bitIndex = llvm::StringRef(mnemonic).starts_with("s_bitcmp");
  std::string text = std::string(mnemonic) + (wide ? " s[8:9], " : " s8, ") +
                     (wide && !bitIndex ? "s[10:11]" : "s10");
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 128; ++i) {
    // Half the pairs are equal, so that the equality compares see both
    // outcomes.
    uint64_t a = wide ? int64Input(i, 0) : intInput(i, 0);
    uint64_t b = i % 4 == 3 ? a : wide ? int64Input(i, 1) : intInput(i, 1);
    if (!wide || bitIndex)
      b = uint32_t(b);
    w.setSgpr64(8, a);
    w.setSgpr64(10, b);
    w.scc = i & 1;
    uint32_t s4 = w.s[4];
    runOrFail(sw, text);
    EXPECT_EQ(w.scc, ref(a, b)) << mnemonic << " " << hex(a) << ", " << hex(b);
    EXPECT_EQ(w.s[4], s4) << mnemonic << " wrote an SGPR";
  }
}

/// s_set_gpr_idx_on s8, gpr_idx(...): M0[7:0] = s8[7:0], M0[15:12] = the
/// enabled operands (SRC0, SRC1, SRC2, DST in bits 12-15), the rest of M0
/// kept, and the indexing mode on.
void testSetGprIdxOn(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  struct Mode {
    const char *text;
    uint32_t bits;
  } modes[] = {{"gpr_idx(SRC0)", 1},
               {"gpr_idx(SRC1,DST)", 0xa},
               {"gpr_idx(SRC0,SRC1,SRC2,DST)", 0xf},
               {"gpr_idx()", 0}};
  for (unsigned i = 0; i < 4; ++i) {
    uint32_t m0 = intInput(i + 3, 0), s = intInput(i + 5, 1);
    w.s[isa::kM0] = m0;
    w.s[8] = s;
    w.gprIndexing = false;
    runOrFail(sw, std::string("s_set_gpr_idx_on s8, ") + modes[i].text);
    EXPECT_EQ(w.s[isa::kM0],
              (m0 & ~0xf0ffu) | (s & 0xff) | (modes[i].bits << 12))
        << modes[i].text;
    EXPECT_TRUE(w.gprIndexing);
  }
}

std::vector<InstructionCase> sopcCases() {
  std::vector<InstructionCase> cases;
  for (const auto &entry : sopc())
    cases.push_back({entry.first.c_str(), kBothChips, testSopc});
  cases.push_back({"s_set_gpr_idx_on", kBothChips, testSetGprIdxOn});
  return cases;
}

const std::vector<InstructionCase> kSopcCases = sopcCases();
HK_INSTRUCTION_CASES(Sopc, kSopcCases);

} // namespace
