//===- BankModelTest.cpp - The LDS bank model the emulator counts with ----===//
//
// hk-emu counts bank conflicts with ChipInfo's LdsBankModel::cost, the model
// hk-lds-layout chooses swizzles with. These tests pin the model on
// accesses whose cost is known by hand and compare it on random accesses
// with a direct transcription of its definition (sets per bank, no
// shortcuts).
//
//===----------------------------------------------------------------------===//

#include "hk/Support/ChipInfo.h"

#include "gtest/gtest.h"

#include <map>
#include <random>
#include <set>
#include <vector>

using namespace hk;

namespace {

const LdsBankModel &model(llvm::StringRef chip) {
  return ChipInfo::lookup(chip)->lds;
}

/// The first 32 lanes' phases of the wide single-address reads as
/// published (the next 32 lanes repeat them 32 lanes on): CDNA3's
/// ds_read_b128 (Composable Kernel's LDS bank-conflict documentation) and
/// CDNA4's ds_read_b96 (HipKittens' phase solver on MI355X) in phases of 8
/// lanes, CDNA4's ds_read_b128 (the same solver) in phases of 16.
const std::vector<std::vector<unsigned>> kPairedQuads = {
    {0, 1, 2, 3, 20, 21, 22, 23},
    {4, 5, 6, 7, 16, 17, 18, 19},
    {8, 9, 10, 11, 28, 29, 30, 31},
    {12, 13, 14, 15, 24, 25, 26, 27}};
const std::vector<std::vector<unsigned>> kCdna4ReadB128 = {
    {0, 1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27},
    {4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 28, 29, 30, 31}};

/// The phase that serves `lane` of `a` on `chip`, with `lanesPerPhase`.
unsigned phaseOf(llvm::StringRef chip, const LdsWaveAccess &a, unsigned lane,
                 unsigned lanesPerPhase) {
  const std::vector<std::vector<unsigned>> *table = nullptr;
  if (!a.isWrite && !a.second) {
    if (a.bytesPerAddress == 16)
      table = chip == "gfx950" ? &kCdna4ReadB128 : &kPairedQuads;
    else if (a.bytesPerAddress == 12 && chip == "gfx950")
      table = &kPairedQuads;
  }
  if (!table)
    return lane / lanesPerPhase;
  for (unsigned phase = 0; phase < table->size(); ++phase)
    for (unsigned member : (*table)[phase])
      if (member == lane % 32)
        return phase + (lane / 32) * unsigned(table->size());
  ADD_FAILURE() << "lane " << lane << " in no phase";
  return 0;
}

/// The definition: phases of lanes-per-phase lanes (for wide reads, the
/// published lane groups); a phase costs the largest number of distinct
/// words one bank holds.
LdsAccessCost reference(llvm::StringRef chip, const LdsWaveAccess &a) {
  const LdsBankModel &m = model(chip);
  unsigned perLane = a.bytesPerAddress * (a.second ? 2 : 1);
  unsigned lanesPerPhase =
      a.isWrite ? m.writeLanesPerPhase(perLane) : m.readLanesPerPhase(perLane);
  unsigned words =
      (a.bytesPerAddress + m.bankWidthBytes - 1) / m.bankWidthBytes;
  LdsAccessCost cost;
  for (unsigned phase = 0; phase * lanesPerPhase < 64; ++phase) {
    std::map<unsigned, std::set<uint32_t>> perBank;
    for (unsigned lane = 0; lane < 64; ++lane) {
      if (!(a.activeLanes >> lane & 1) ||
          phaseOf(chip, a, lane, lanesPerPhase) != phase)
        continue;
      for (const uint32_t *addresses : {a.first, a.second}) {
        if (!addresses)
          continue;
        for (unsigned w = 0; w < words; ++w) {
          uint32_t word = addresses[lane] / m.bankWidthBytes + w;
          perBank[word % m.banks].insert(word);
        }
      }
    }
    if (perBank.empty())
      continue;
    ++cost.phases;
    size_t worst = 0;
    for (auto &[bank, set] : perBank)
      worst = std::max(worst, set.size());
    cost.conflictCycles += unsigned(worst - 1);
  }
  return cost;
}

std::vector<uint32_t> strided(uint32_t stride, uint32_t base = 0) {
  std::vector<uint32_t> addresses(64);
  for (unsigned lane = 0; lane < 64; ++lane)
    addresses[lane] = base + lane * stride;
  return addresses;
}

TEST(LdsBankModel, EveryChipFitsTheModel) {
  for (const ChipInfo &chip : ChipInfo::all()) {
    EXPECT_LE(chip.lds.banks, LdsBankModel::kMaxBanks) << chip.name.str();
    EXPECT_GT(chip.lds.bankWidthBytes, 0u) << chip.name.str();
  }
}

TEST(LdsBankModel, ConsecutiveAccessesAreConflictFree) {
  std::vector<uint32_t> b128 = strided(16);
  LdsAccessCost cdna4 =
      model("gfx950").cost({b128.data(), nullptr, ~0ull, 16, false});
  // 64 banks of 4 bytes: 16 lanes of 16 bytes per phase.
  EXPECT_EQ(cdna4.phases, 4u);
  EXPECT_EQ(cdna4.conflictCycles, 0u);
  LdsAccessCost cdna3 =
      model("gfx942").cost({b128.data(), nullptr, ~0ull, 16, false});
  EXPECT_EQ(cdna3.phases, 8u);
  EXPECT_EQ(cdna3.conflictCycles, 0u);
}

TEST(LdsBankModel, SameBankDifferentWordsSerialize) {
  // ds_read_b32 with a 256-byte stride on gfx950: every lane of a phase
  // (all 64: 256 bytes per phase / 4) hits bank 0 in a different word.
  std::vector<uint32_t> column = strided(256);
  LdsAccessCost cost =
      model("gfx950").cost({column.data(), nullptr, ~0ull, 4, false});
  EXPECT_EQ(cost.phases, 1u);
  EXPECT_EQ(cost.conflictCycles, 63u);
  // gfx942: 32 lanes per phase, 128-byte banks row: stride 128 conflicts
  // 32-way in each of two phases.
  std::vector<uint32_t> column3 = strided(128);
  LdsAccessCost cdna3 =
      model("gfx942").cost({column3.data(), nullptr, ~0ull, 4, false});
  EXPECT_EQ(cdna3.phases, 2u);
  EXPECT_EQ(cdna3.conflictCycles, 2u * 31);
}

TEST(LdsBankModel, SameWordIsABroadcast) {
  std::vector<uint32_t> same(64, 40);
  LdsAccessCost cost =
      model("gfx950").cost({same.data(), nullptr, ~0ull, 4, false});
  EXPECT_EQ(cost.conflictCycles, 0u);
}

TEST(LdsBankModel, InactiveLanesAndEmptyPhasesCostNothing) {
  std::vector<uint32_t> column = strided(256);
  // Lanes 0 and 1 only: one phase, one extra cycle.
  LdsAccessCost two =
      model("gfx950").cost({column.data(), nullptr, 0x3, 4, false});
  EXPECT_EQ(two.phases, 1u);
  EXPECT_EQ(two.conflictCycles, 1u);
  LdsAccessCost none =
      model("gfx950").cost({column.data(), nullptr, 0, 4, false});
  EXPECT_EQ(none.phases, 0u);
  EXPECT_EQ(none.conflictCycles, 0u);
  // The array form marks inactive lanes with UINT32_MAX.
  std::vector<uint32_t> sparse(64, UINT32_MAX);
  sparse[0] = 0;
  sparse[1] = 256;
  EXPECT_EQ(model("gfx950").conflictCycles(sparse, 4, false), 1u);
}

TEST(LdsBankModel, TwoAddressFormsCountBothAddresses) {
  // ds_read2_b32 on gfx950: 8 bytes per lane, 32 lanes per phase. offset0
  // and offset1 256 bytes apart put each lane's two words in one bank.
  std::vector<uint32_t> a0 = strided(4), a1 = strided(4, 256);
  LdsAccessCost cost =
      model("gfx950").cost({a0.data(), a1.data(), ~0ull, 4, false});
  EXPECT_EQ(cost.phases, 2u);
  // Per phase: lanes 0-31 use banks 0-31 twice (words w and w+64).
  EXPECT_EQ(cost.conflictCycles, 2u);
  EXPECT_EQ(cost.conflictCycles,
            reference("gfx950", {a0.data(), a1.data(), ~0ull, 4, false})
                .conflictCycles);
}

TEST(LdsBankModel, WritesOf64BitsUseTheMeasuredPhase) {
  // gfx950 serves ds_write_b64 16 lanes per phase (measured), reads 32.
  std::vector<uint32_t> b64 = strided(8);
  EXPECT_EQ(model("gfx950").cost({b64.data(), nullptr, ~0ull, 8, true}).phases,
            4u);
  EXPECT_EQ(model("gfx950").cost({b64.data(), nullptr, ~0ull, 8, false}).phases,
            2u);
}

/// Lanes `first` to `first + 3` and `second` to `second + 3` read 16
/// bytes each from the same banks in different words (the second quad one
/// bank row of `rowBytes` further on); every other lane is inactive.
LdsWaveAccess twoQuads(std::vector<uint32_t> &addresses, unsigned first,
                       unsigned second, unsigned rowBytes) {
  addresses.assign(64, 0);
  for (unsigned i = 0; i < 4; ++i) {
    addresses[first + i] = 16 * i;
    addresses[second + i] = rowBytes + 16 * i;
  }
  uint64_t active = 0xfull << first | 0xfull << second;
  return {addresses.data(), nullptr, active, 16, false};
}

TEST(LdsBankModel, WideReadsTakeLanesInTheMeasuredOrder) {
  std::vector<uint32_t> a;
  // CDNA3's ds_read_b128 serves lanes 0-3 with 20-23, not with 4-7.
  EXPECT_EQ(model("gfx942").cost(twoQuads(a, 0, 20, 128)).conflictCycles, 1u);
  EXPECT_EQ(model("gfx942").cost(twoQuads(a, 0, 4, 128)).conflictCycles, 0u);
  EXPECT_EQ(model("gfx942").cost(twoQuads(a, 40, 60, 128)).conflictCycles, 1u);
  // CDNA4's: lanes 0-3 with 12-15, 20-23 and 24-27, not with 4-11.
  for (unsigned partner : {12u, 20u, 24u})
    EXPECT_EQ(model("gfx950").cost(twoQuads(a, 0, partner, 256)).conflictCycles,
              1u)
        << partner;
  for (unsigned partner : {4u, 8u, 16u, 28u, 32u})
    EXPECT_EQ(model("gfx950").cost(twoQuads(a, 0, partner, 256)).conflictCycles,
              0u)
        << partner;
  // Its ds_read_b96 pairs quads as CDNA3's ds_read_b128 does, 8 lanes a
  // phase: 0-3 with 20-23 only.
  LdsWaveAccess b96 = twoQuads(a, 0, 20, 256);
  b96.bytesPerAddress = 12;
  EXPECT_EQ(model("gfx950").cost(b96).conflictCycles, 1u);
  b96 = twoQuads(a, 0, 12, 256);
  b96.bytesPerAddress = 12;
  EXPECT_EQ(model("gfx950").cost(b96).conflictCycles, 0u);
  EXPECT_EQ(model("gfx950").cost(b96).phases, 2u);
  // Writes and two-address reads take lanes in order.
  LdsWaveAccess write = twoQuads(a, 0, 4, 128);
  write.isWrite = true;
  EXPECT_EQ(model("gfx942").cost(write).conflictCycles, 1u);
}

TEST(LdsBankModel, MatchesTheDefinitionOnRandomAccesses) {
  std::mt19937 rng(1234);
  for (llvm::StringRef chip : {"gfx942", "gfx950"}) {
    const LdsBankModel &m = model(chip);
    for (unsigned trial = 0; trial < 4000; ++trial) {
      unsigned bytes = std::vector<unsigned>{1, 2, 4, 8, 12, 16}[trial % 6];
      bool twoAddresses = (trial / 6) % 3 == 0 && (bytes == 4 || bytes == 8);
      bool write = (trial / 2) % 2;
      // Small address ranges make conflicts and broadcasts frequent.
      uint32_t range = std::vector<uint32_t>{64, 512, 4096, 65536}[trial % 4];
      std::vector<uint32_t> a0(64), a1(64);
      for (unsigned lane = 0; lane < 64; ++lane) {
        a0[lane] = rng() % range & ~(bytes >= 4 ? 3u : 0u);
        a1[lane] = rng() % range & ~3u;
      }
      uint64_t active = (uint64_t(rng()) << 32 | rng());
      if (trial % 5 == 0)
        active = ~0ull;
      LdsWaveAccess access{a0.data(), twoAddresses ? a1.data() : nullptr,
                           active, bytes, write};
      LdsAccessCost fast = m.cost(access), slow = reference(chip, access);
      ASSERT_EQ(fast.phases, slow.phases)
          << chip.str() << " trial " << trial << " bytes " << bytes;
      ASSERT_EQ(fast.conflictCycles, slow.conflictCycles)
          << chip.str() << " trial " << trial << " bytes " << bytes;
    }
  }
}

} // namespace
