//===- SoppTest.cpp - SOPP instructions -----------------------------------===//
//
// Program control: branches land where AMD's CDNA3/CDNA4 ISA reference
// says (PC of the next instruction + 4 * signext(SIMM16)) exactly when
// their condition holds; s_endpgm ends and s_barrier parks the wave;
// s_waitcnt retires what its counters allow; s_trap stops the run; the
// hints and messages change no state a kernel can observe.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;

namespace {

void testBranch(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  runOrFail(sw, "s_branch 5");
  EXPECT_EQ(w.pc, 4u + 5 * 4);
  // A negative offset from the third instruction: back to the first.
  runOrFail(sw, "s_nop 0\ns_nop 0\ns_branch 0xfffd");
  EXPECT_EQ(w.pc, 0u);
}

/// Sets the state a conditional branch tests to `taken` (the instruction's
/// condition true) or not.
void setCondition(Wave &w, llvm::StringRef mnemonic, bool taken) {
  w.scc = false;
  w.setVcc(0x100);
  w.setExec(~0ull);
  if (mnemonic == "s_cbranch_scc0")
    w.scc = !taken;
  else if (mnemonic == "s_cbranch_scc1")
    w.scc = taken;
  else if (mnemonic == "s_cbranch_vccz")
    w.setVcc(taken ? 0 : 1ull << 40);
  else if (mnemonic == "s_cbranch_vccnz")
    w.setVcc(taken ? 1ull << 40 : 0);
  else if (mnemonic == "s_cbranch_execz")
    w.setExec(taken ? 0 : 1ull << 63);
  else if (mnemonic == "s_cbranch_execnz")
    w.setExec(taken ? 1 : 0);
}

void testCbranch(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  for (bool taken : {true, false}) {
    setCondition(w, mnemonic, taken);
    runOrFail(sw, std::string("s_nop 0\n") + mnemonic + " 0x10");
    EXPECT_EQ(w.pc, taken ? 8u + 0x40 : 8u)
        << mnemonic << (taken ? " taken" : " not taken");
    setCondition(w, mnemonic, taken);
    runOrFail(sw, std::string("s_nop 0\n") + mnemonic + " 0xffff");
    EXPECT_EQ(w.pc, taken ? 4u : 8u) << mnemonic << " backwards";
  }
  w.setExec(~0ull);
}

void testEndpgm(SingleWave &sw, const char *) {
  runOrFail(sw, "s_endpgm");
  EXPECT_EQ(sw.wave().state, Wave::Ended);
}

void testBarrier(SingleWave &sw, const char *) {
  runOrFail(sw, "s_barrier");
  EXPECT_EQ(sw.wave().state, Wave::AtBarrier);
}

/// s_waitcnt with the wait-count bookkeeping on: three outstanding vector
/// loads and two LDS reads retire oldest first down to the counts the
/// instruction gives, each counter independently.
void testWaitcnt(SingleWave &plain, const char *) {
  SingleWave sw(plain.chip(), 65536, SanitizerOptions());
  Wave &w = sw.wave();
  DevicePtr buffer = sw.memory().allocate(4096, "data");
  ASSERT_NE(buffer, 0u);
  for (unsigned l = 0; l < 64; ++l) {
    w.v[2][l] = uint32_t(buffer + 4 * l);
    w.v[3][l] = uint32_t(buffer >> 32);
    w.v[4][l] = 4 * l;
  }
  auto issue = [&] {
    runOrFail(sw, "global_load_dword v10, v[2:3], off\n"
                  "global_load_dword v11, v[2:3], off\n"
                  "global_load_dword v12, v[2:3], off\n"
                  "ds_read_b32 v13, v4\n"
                  "ds_read_b32 v14, v4");
    ASSERT_EQ(w.vmemOps.size(), 3u);
    ASSERT_EQ(w.ldsOps.size(), 2u);
  };
  issue();
  runOrFail(sw, "s_waitcnt vmcnt(1)");
  EXPECT_EQ(w.vmemOps.size(), 1u);
  EXPECT_EQ(w.ldsOps.size(), 2u) << "vmcnt alone leaves LDS reads";
  EXPECT_EQ(w.pendingReg[10], 0u) << "the oldest load retired";
  EXPECT_EQ(w.pendingReg[11], 0u);
  EXPECT_NE(w.pendingReg[12], 0u) << "the newest load is still in flight";
  runOrFail(sw, "s_waitcnt lgkmcnt(1)");
  EXPECT_EQ(w.ldsOps.size(), 1u);
  EXPECT_EQ(w.pendingReg[13], 0u);
  EXPECT_NE(w.pendingReg[14], 0u);
  runOrFail(sw, "s_waitcnt expcnt(0)");
  EXPECT_EQ(w.vmemOps.size(), 1u) << "expcnt waits for neither";
  EXPECT_EQ(w.ldsOps.size(), 1u);
  runOrFail(sw, "s_waitcnt vmcnt(0) lgkmcnt(0)");
  EXPECT_TRUE(w.vmemOps.empty());
  EXPECT_TRUE(w.ldsOps.empty());
  EXPECT_EQ(w.pendingCount, 0u);
  // vmcnt above 15 lives in the immediate's bits 15:14.
  issue();
  runOrFail(sw, "s_waitcnt vmcnt(17)");
  EXPECT_EQ(w.vmemOps.size(), 3u);
  runOrFail(sw, "s_waitcnt 0");
  EXPECT_TRUE(w.vmemOps.empty() && w.ldsOps.empty());
}

/// Hints and messages: the PC moves to the next instruction and no register
/// the kernel can read changes.
void testNoState(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 16; ++i)
    w.s[i] = intInput(i, 3);
  for (unsigned l = 0; l < 64; ++l)
    w.v[1][l] = intInput(l, 4);
  w.scc = true;
  w.setExec(0xf0f0f0f0f0f0f0f0ull);
  w.setVcc(0x1234);
  llvm::StringRef m(mnemonic);
  std::string text = m.str();
  if (m == "s_sendmsg" || m == "s_sendmsghalt")
    text += " sendmsg(MSG_SAVEWAVE)";
  else if (m == "s_icache_inv" || m == "s_ttracedata" || m == "s_wakeup")
    ; // No operand.
  else if (m == "s_sethalt")
    text += " 0"; // Clears the halt bit: execution goes on.
  else
    text += " 3";
  runOrFail(sw, "s_nop 0\n" + text);
  EXPECT_EQ(w.pc, 8u) << text;
  EXPECT_EQ(w.state, Wave::Running) << text;
  for (unsigned i = 0; i < 16; ++i)
    EXPECT_EQ(w.s[i], intInput(i, 3)) << text << " s" << i;
  for (unsigned l = 0; l < 64; ++l)
    EXPECT_EQ(w.v[1][l], intInput(l, 4)) << text;
  EXPECT_TRUE(w.scc) << text;
  EXPECT_EQ(w.exec(), 0xf0f0f0f0f0f0f0f0ull) << text;
  EXPECT_EQ(w.vcc(), 0x1234u) << text;
  w.setExec(~0ull);
}

void testTrap(SingleWave &sw, const char *) {
  llvm::Error error = sw.run("s_trap 2");
  ASSERT_TRUE(bool(error)) << "s_trap must stop the run";
  EXPECT_NE(llvm::toString(std::move(error)).find("s_trap 2"),
            std::string::npos);
}

void testSetGprIdxOff(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  w.s[8] = 5;
  w.s[isa::kM0] = 0x12340000;
  runOrFail(sw, "s_set_gpr_idx_on s8, gpr_idx(SRC0)");
  ASSERT_TRUE(w.gprIndexing);
  runOrFail(sw, "s_set_gpr_idx_off");
  EXPECT_FALSE(w.gprIndexing);
  EXPECT_EQ(w.s[isa::kM0], 0x12341005u) << "M0 keeps the index and mode";
}

/// s_set_gpr_idx_mode: M0[15:12] = the mode, the rest of M0 kept.
void testSetGprIdxMode(SingleWave &sw, const char *) {
  Wave &w = sw.wave();
  w.s[isa::kM0] = 0xabcdefffu;
  runOrFail(sw, "s_set_gpr_idx_mode gpr_idx(SRC2,DST)");
  EXPECT_EQ(w.s[isa::kM0], 0xabcdcfffu);
  runOrFail(sw, "s_set_gpr_idx_mode gpr_idx(SRC1)");
  EXPECT_EQ(w.s[isa::kM0], 0xabcd2fffu);
}

const InstructionCase kSoppCases[] = {
    {"s_branch", kBothChips, testBranch},
    {"s_cbranch_scc0", kBothChips, testCbranch},
    {"s_cbranch_scc1", kBothChips, testCbranch},
    {"s_cbranch_vccz", kBothChips, testCbranch},
    {"s_cbranch_vccnz", kBothChips, testCbranch},
    {"s_cbranch_execz", kBothChips, testCbranch},
    {"s_cbranch_execnz", kBothChips, testCbranch},
    {"s_endpgm", kBothChips, testEndpgm},
    {"s_barrier", kBothChips, testBarrier},
    {"s_waitcnt", kBothChips, testWaitcnt},
    {"s_nop", kBothChips, testNoState},
    {"s_sleep", kBothChips, testNoState},
    {"s_setprio", kBothChips, testNoState},
    {"s_sethalt", kBothChips, testNoState},
    {"s_icache_inv", kBothChips, testNoState},
    {"s_wakeup", kBothChips, testNoState},
    {"s_incperflevel", kBothChips, testNoState},
    {"s_decperflevel", kBothChips, testNoState},
    {"s_ttracedata", kBothChips, testNoState},
    {"s_sendmsg", kBothChips, testNoState},
    {"s_sendmsghalt", kBothChips, testNoState},
    {"s_trap", kBothChips, testTrap},
    {"s_set_gpr_idx_off", kBothChips, testSetGprIdxOff},
    {"s_set_gpr_idx_mode", kBothChips, testSetGprIdxMode},
};
HK_INSTRUCTION_CASES(Sopp, kSoppCases);

} // namespace
