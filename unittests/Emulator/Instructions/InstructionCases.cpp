//===- InstructionCases.cpp - Registry and shared inputs ------------------===//

#include "InstructionCases.h"

#include "hk/ISA/InstrDesc.h"

#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;

std::set<std::string> &
hk::emu::testing::coveredMnemonics(llvm::StringRef chip) {
  static std::map<std::string, std::set<std::string>> byChip;
  return byChip[chip.str()];
}

namespace {
class CaseTest : public ::testing::Test {
public:
  CaseTest(const InstructionCase &c, std::string chip) : c(c), chip(chip) {}
  void TestBody() override {
    const ChipInfo *info = ChipInfo::lookup(chip);
    ASSERT_NE(info, nullptr);
    SingleWave wave(*info);
    c.run(wave, c.mnemonic);
  }

private:
  const InstructionCase &c;
  std::string chip;
};
} // namespace

bool hk::emu::testing::registerInstructionCases(
    const char *suite, llvm::ArrayRef<InstructionCase> cases) {
  for (const InstructionCase &c : cases) {
    llvm::SmallVector<llvm::StringRef> chips;
    llvm::StringRef(c.chips).split(chips, ',');
    for (llvm::StringRef chip : chips) {
      coveredMnemonics(chip).insert(c.mnemonic);
      std::string name = (c.mnemonic + llvm::Twine("/") + chip).str();
      std::string chipName = chip.str();
      ::testing::RegisterTest(suite, name.c_str(), nullptr, nullptr, __FILE__,
                              __LINE__, [&c, chipName]() -> ::testing::Test * {
                                return new CaseTest(c, chipName);
                              });
    }
  }
  return true;
}

void hk::emu::testing::runOrFail(SingleWave &wave, llvm::StringRef text) {
  if (llvm::Error error = wave.run(text))
    FAIL() << text.str() << ": " << llvm::toString(std::move(error));
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

uint32_t hk::emu::testing::intInput(unsigned lane, unsigned operand) {
  static const uint32_t edges[] = {
      0,          1,          2,      31,     32,      0x7fffffff, 0x80000000,
      0xffffffff, 0xfffffffe, 0x8000, 0xffff, 0x10000, 0x12345678};
  unsigned n = std::size(edges);
  // The first 3n lanes combine edge values (the pairing shifts from one
  // block of n lanes to the next); the rest are random.
  if (lane < 3 * n)
    return edges[(lane + (lane / n) * operand * 5) % n];
  return uint32_t(mix(lane * 131 + operand * 7 + 1));
}

uint64_t hk::emu::testing::int64Input(unsigned lane, unsigned operand) {
  if (lane < 8)
    return uint64_t(intInput(lane, operand)) |
           (uint64_t(intInput(lane + 8, operand)) << 32);
  return mix(lane * 977 + operand * 13 + 5);
}

// Every listed instruction has a case on every chip that decodes it.
TEST(InstructionCoverage, EveryListedInstructionHasACase) {
  for (llvm::StringRef chip : {"gfx942", "gfx950"}) {
    const std::set<std::string> &covered = coveredMnemonics(chip);
    std::vector<std::string> missing;
    for (const isa::InstrDesc &d : isa::allInstrs())
      if (!covered.count(d.mnemonic.str()))
        missing.push_back(d.mnemonic.str());
    // Reported, and enforced once the whole table has cases (see
    // scripts/isa-coverage.sh for the figures).
    if (!missing.empty())
      GTEST_SKIP() << chip.str() << ": " << missing.size()
                   << " listed instructions have no case yet, e.g. "
                   << missing.front();
  }
}
