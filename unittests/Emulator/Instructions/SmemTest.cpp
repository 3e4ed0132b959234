//===- SmemTest.cpp - Scalar memory instructions --------------------------===//
//
// Scalar loads read the dwords at SBASE + offset (AMD's CDNA3/CDNA4 ISA
// reference, "SMEM Instructions"): an SGPR offset is an unsigned byte
// offset whose two low bits are ignored, an immediate one a signed byte
// offset. Buffer loads take the base from a buffer resource and return
// zeros past its num_records. Memory is filled with a pattern whose every
// dword says where it came from.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;

namespace {

/// The dword the tests store at byte offset `offset` of their buffer.
uint32_t pattern(uint64_t offset) {
  return uint32_t(mixBits(offset / 4 + 11) | 1);
}

/// A 4 KiB buffer holding pattern(); returns its device address.
DevicePtr makeBuffer(SingleWave &sw) {
  DevicePtr base = sw.memory().allocate(4096, "smem");
  uint8_t *host = sw.memory().translate(base, 4096);
  for (unsigned i = 0; i < 4096; i += 4) {
    uint32_t v = pattern(i);
    std::memcpy(host + i, &v, 4);
  }
  return base;
}

unsigned dwordsOf(llvm::StringRef mnemonic) {
  for (unsigned n : {16, 8, 4, 2})
    if (mnemonic.ends_with("x" + std::to_string(n)))
      return n;
  return 1;
}

std::string sdst(unsigned dwords) {
  return dwords == 1 ? "s20" : "s[20:" + std::to_string(19 + dwords) + "]";
}

/// Checks s20.. against the pattern at `offset` (or zeros).
void expectLoaded(Wave &w, unsigned dwords, uint64_t offset, bool zero,
                  const std::string &text) {
  for (unsigned i = 0; i < dwords; ++i)
    EXPECT_EQ(w.s[20 + i], zero ? 0 : pattern(offset + 4 * i))
        << text << " dword " << i;
  EXPECT_EQ(w.s[20 + dwords], 0xabababab) << text << " wrote past its result";
}

void clearDst(Wave &w) {
  for (unsigned i = 20; i < 40; ++i)
    w.s[i] = 0xabababab;
}

void testLoad(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  DevicePtr base = makeBuffer(sw);
  unsigned dwords = dwordsOf(mnemonic);
  std::string m = mnemonic;
  w.setSgpr64(2, base + 0x100);
  struct Form {
    std::string operands;
    int64_t offset;
  } forms[] = {
      {"0x40", 0x40},
      {"-0x20", -0x20}, // A signed immediate.
      {"s6", 0x80},     // s6 = 0x83: the two low bits are ignored.
      {"0", 0},
  };
  w.s[6] = 0x83;
  for (const Form &form : forms) {
    clearDst(w);
    std::string text = m + " " + sdst(dwords) + ", s[2:3], " + form.operands;
    runOrFail(sw, text);
    expectLoaded(w, dwords, 0x100 + form.offset, false, text);
  }
}

/// A buffer resource in s[8:11] for `base` with `numRecords` bytes (stride
/// 0: a raw buffer).
void setResource(Wave &w, DevicePtr base, uint32_t numRecords) {
  w.s[8] = uint32_t(base);
  w.s[9] = uint32_t(base >> 32) & 0xffff;
  w.s[10] = numRecords;
  w.s[11] = 0x00027000;
}

void testBufferLoad(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  DevicePtr base = makeBuffer(sw);
  unsigned dwords = dwordsOf(mnemonic);
  std::string m = mnemonic;
  setResource(w, base + 0x200, 0x400);
  w.s[6] = 0x43;
  for (auto [operands, offset] :
       {std::pair<std::string, uint64_t>{"0x10", 0x10}, {"s6", 0x40}}) {
    clearDst(w);
    std::string text = m + " " + sdst(dwords) + ", s[8:11], " + operands;
    runOrFail(sw, text);
    expectLoaded(w, dwords, 0x200 + offset, false, text);
  }
  // Wholly past num_records: zeros.
  w.s[6] = 0x400;
  clearDst(w);
  std::string text = m + " " + sdst(dwords) + ", s[8:11], s6";
  runOrFail(sw, text);
  expectLoaded(w, dwords, 0, true, text + " past num_records");
}

/// Cache maintenance changes no register.
void testCacheOp(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  for (unsigned i = 0; i < 32; ++i)
    w.s[i] = intInput(i, 2);
  runOrFail(sw, mnemonic);
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(w.s[i], intInput(i, 2)) << mnemonic << " s" << i;
}

// No clock exists in the emulator: its time is the wave's count of
// executed instructions (docs/emulator.md), so consecutive reads never go
// backwards.
void testMemtime(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  w.executed = 0x123456789ull;
  runOrFail(sw, std::string(mnemonic) + " s[4:5]");
  EXPECT_EQ(w.sgpr64(4), 0x123456789ull);
  w.executed += 3;
  runOrFail(sw, std::string(mnemonic) + " s[6:7]");
  EXPECT_GT(w.sgpr64(6), w.sgpr64(4));
}

const InstructionCase kSmemCases[] = {
    {"s_load_dword", kBothChips, testLoad},
    {"s_load_dwordx2", kBothChips, testLoad},
    {"s_load_dwordx4", kBothChips, testLoad},
    {"s_load_dwordx8", kBothChips, testLoad},
    {"s_load_dwordx16", kBothChips, testLoad},
    {"s_buffer_load_dword", kBothChips, testBufferLoad},
    {"s_buffer_load_dwordx2", kBothChips, testBufferLoad},
    {"s_buffer_load_dwordx4", kBothChips, testBufferLoad},
    {"s_buffer_load_dwordx8", kBothChips, testBufferLoad},
    {"s_buffer_load_dwordx16", kBothChips, testBufferLoad},
    {"s_dcache_inv", kBothChips, testCacheOp},
    {"s_dcache_wb", kBothChips, testCacheOp},
    {"s_dcache_inv_vol", kBothChips, testCacheOp},
    {"s_dcache_wb_vol", kBothChips, testCacheOp},
    {"s_memtime", kBothChips, testMemtime},
    {"s_memrealtime", kBothChips, testMemtime},
};
HK_INSTRUCTION_CASES(Smem, kSmemCases);

} // namespace
