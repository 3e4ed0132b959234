//===- InstructionCases.h - Per-instruction tests of the emulator -*- C++ -*-//
//
// Every instruction the table lists has at least one case here: LLVM's
// assembler encodes it, the emulator runs it on a wave whose lanes hold
// chosen and random inputs, and each lane is checked against a reference
// computed independently (host integer arithmetic, LLVM's APFloat for
// floating point, AMD's ISA documents for the special cases).
//
// A test file defines its cases and registers them:
//
//   static const InstructionCase kCases[] = {
//       {"s_add_u32", "gfx942,gfx950", testSAddU32},
//       ...};
//   HK_INSTRUCTION_CASES(Sop2, kCases);
//
// HK_INSTRUCTION_CASES makes one GoogleTest per case and records the
// mnemonics for the coverage test, which fails when a listed instruction
// has no case.
//
//===----------------------------------------------------------------------===//

#ifndef HK_UNITTESTS_EMULATOR_INSTRUCTIONCASES_H
#define HK_UNITTESTS_EMULATOR_INSTRUCTIONCASES_H

#include "SingleWave.h"

#include "hk/Support/ChipInfo.h"

#include "gtest/gtest.h"

#include <functional>
#include <random>
#include <set>
#include <string>

namespace hk::emu::testing {

/// One test of one instruction: `run` gets a fresh wave on `chip` and
/// checks the instruction `mnemonic` names.
struct InstructionCase {
  const char *mnemonic;
  /// Comma-separated chips the instruction exists on.
  const char *chips;
  void (*run)(SingleWave &wave, const char *mnemonic);
};

/// The mnemonics some registered case covers, by chip.
std::set<std::string> &coveredMnemonics(llvm::StringRef chip);

/// Registers `cases` with GoogleTest (one test per case and chip) and with
/// the coverage test.
bool registerInstructionCases(const char *suite,
                              llvm::ArrayRef<InstructionCase> cases);

#define HK_INSTRUCTION_CASES(suite, cases)                                     \
  static const bool suite##Registered =                                        \
      ::hk::emu::testing::registerInstructionCases(#suite, cases)

/// Runs `text` and fails the test with the emulator's message if it does
/// not run.
void runOrFail(SingleWave &wave, llvm::StringRef text);

/// Inputs for lane loops: lane-dependent values mixing the edge cases of
/// 32-bit integers with random ones (seeded, so failures reproduce).
uint32_t intInput(unsigned lane, unsigned operand);
uint64_t int64Input(unsigned lane, unsigned operand);

} // namespace hk::emu::testing

#endif // HK_UNITTESTS_EMULATOR_INSTRUCTIONCASES_H
