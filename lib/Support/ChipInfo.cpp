//===- ChipInfo.cpp - Facts about the AMD Instinct chips HK targets -------===//

#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace hk;
using E = MfmaElement;

llvm::StringRef hk::stringifyMfmaElement(MfmaElement e) {
  switch (e) {
  case E::F64:
    return "f64";
  case E::F32:
    return "f32";
  case E::XF32:
    return "xf32";
  case E::F16:
    return "f16";
  case E::BF16:
    return "bf16";
  case E::I8:
    return "i8";
  case E::I32:
    return "i32";
  case E::Fp8:
    return "fp8";
  case E::Bf8:
    return "bf8";
  case E::F8F6F4:
    return "f8f6f4";
  }
  return "?";
}

unsigned hk::mfmaElementBits(MfmaElement e) {
  switch (e) {
  case E::F64:
    return 64;
  case E::F32:
  case E::XF32:
  case E::I32:
    return 32;
  case E::F16:
  case E::BF16:
    return 16;
  case E::I8:
  case E::Fp8:
  case E::Bf8:
  case E::F8F6F4:
    return 8;
  }
  return 0;
}

unsigned MfmaInstr::operandRegs() const {
  unsigned bits = kPerLane() * mfmaElementBits(a);
  return std::max(1u, bits / 32);
}

unsigned LdsBankModel::readLanesPerPhase(unsigned bytesPerLane) const {
  if (bytesPerLane == 12 && read96LanesPerPhase)
    return read96LanesPerPhase;
  unsigned perPhase = banks * bankWidthBytes / std::max(bytesPerLane, 4u);
  return std::min(perPhase, 64u);
}

unsigned LdsBankModel::writeLanesPerPhase(unsigned bytesPerLane) const {
  if (bytesPerLane == 8 && write64LanesPerPhase)
    return write64LanesPerPhase;
  return readLanesPerPhase(bytesPerLane);
}

/// Lanes [first, first + count) of a wave as a mask.
static uint64_t laneRange(unsigned first, unsigned count) {
  if (first >= 64)
    return 0;
  uint64_t lanes = count >= 64 ? ~0ull : (1ull << count) - 1;
  return lanes << first;
}

bool LdsBankModel::usesQuadOrder(const LdsWaveAccess &access,
                                 unsigned lanesPerPhase) const {
  if (wideReadQuadOrder.empty() || access.isWrite || access.second ||
      lanesPerPhase % 4 != 0)
    return false;
  return access.bytesPerAddress == 16 ||
         (access.bytesPerAddress == 12 && read96LanesPerPhase);
}

uint64_t LdsBankModel::quadOrderPhaseLanes(unsigned lanesPerPhase,
                                           unsigned phase) const {
  uint64_t lanes = 0;
  for (unsigned i = phase * lanesPerPhase / 4;
       i < (phase + 1) * lanesPerPhase / 4 && i < wideReadQuadOrder.size(); ++i)
    lanes |= laneRange(4 * unsigned(wideReadQuadOrder[i]), 4);
  return lanes;
}

namespace {
/// The distinct words each bank holds in one phase of an LDS access.
/// `occupied` marks the banks holding any, so nothing is cleared between
/// phases, and a bank's first word is checked before the rest, which makes
/// the common conflict-free and broadcast accesses cheap. Words beyond 64
/// in one bank are not counted: a ds_* phase moves at most
/// banks * bankWidthBytes bytes, so it never gets there.
struct PhaseBanks {
  static constexpr unsigned kMaxWordsPerBank = 64;
  unsigned numBanks;
  bool banksPow2;
  uint64_t occupied = 0;
  unsigned worst = 1; ///< Most distinct words in one bank.
  uint8_t held[LdsBankModel::kMaxBanks];
  uint32_t words[LdsBankModel::kMaxBanks][kMaxWordsPerBank];

  void startPhase() {
    occupied = 0;
    worst = 1;
  }
  void add(uint32_t word) {
    unsigned bank = banksPow2 ? word & (numBanks - 1) : word % numBanks;
    uint64_t bit = 1ull << bank;
    uint32_t *list = words[bank];
    if (!(occupied & bit)) {
      occupied |= bit;
      list[0] = word;
      held[bank] = 1;
      return;
    }
    if (list[0] == word)
      return;
    unsigned count = held[bank];
    for (unsigned j = 1; j < count; ++j)
      if (list[j] == word)
        return;
    if (count == kMaxWordsPerBank)
      return;
    list[count] = word;
    held[bank] = uint8_t(count + 1);
    worst = std::max(worst, count + 1);
  }
};
} // namespace

/// Phases and conflict cycles of `access` for `Words` words per address (0:
/// `words` at run time). The common widths get their own instance so that
/// the inner loop has a constant trip count.
template <unsigned Words>
static LdsAccessCost costPhases(const LdsBankModel &model, unsigned numBanks,
                                const LdsWaveAccess &access,
                                unsigned lanesPerPhase, unsigned wordShift,
                                unsigned bankWidthBytes, unsigned words) {
  LdsAccessCost result;
  PhaseBanks banks;
  banks.numBanks = numBanks;
  banks.banksPow2 = llvm::isPowerOf2_32(numBanks);
  unsigned count = Words ? Words : words;
  auto addAddress = [&](uint32_t address) {
    uint32_t word =
        wordShift != ~0u ? address >> wordShift : address / bankWidthBytes;
    for (unsigned i = 0; i < count; ++i)
      banks.add(word + i);
  };
  bool ordered = model.usesQuadOrder(access, lanesPerPhase);
  for (unsigned first = 0, phase = 0; first < 64;
       first += lanesPerPhase, ++phase) {
    uint64_t lanes = access.activeLanes &
                     (ordered ? model.quadOrderPhaseLanes(lanesPerPhase, phase)
                              : laneRange(first, lanesPerPhase));
    if (!lanes)
      continue;
    ++result.phases;
    banks.startPhase();
    for (; lanes; lanes &= lanes - 1) {
      unsigned lane = unsigned(llvm::countr_zero(lanes));
      addAddress(access.first[lane]);
      if (access.second)
        addAddress(access.second[lane]);
    }
    result.conflictCycles += banks.worst - 1;
  }
  return result;
}

LdsAccessCost LdsBankModel::cost(const LdsWaveAccess &access) const {
  unsigned numBanks = std::min(banks, kMaxBanks);
  if (!access.first || numBanks == 0 || bankWidthBytes == 0)
    return {};
  unsigned perLane = access.bytesPerAddress * (access.second ? 2 : 1);
  unsigned lanesPerPhase = std::clamp(
      access.isWrite ? writeLanesPerPhase(perLane) : readLanesPerPhase(perLane),
      1u, 64u);
  unsigned words = std::max(1u, (access.bytesPerAddress + bankWidthBytes - 1) /
                                    bankWidthBytes);
  // Bank counts and widths are powers of two on every chip: masks and
  // shifts instead of divisions in the emulator's hottest LDS path.
  unsigned wordShift =
      llvm::isPowerOf2_32(bankWidthBytes) ? llvm::Log2_32(bankWidthBytes) : ~0u;
  switch (words) {
  case 1:
    return costPhases<1>(*this, numBanks, access, lanesPerPhase, wordShift,
                         bankWidthBytes, words);
  case 2:
    return costPhases<2>(*this, numBanks, access, lanesPerPhase, wordShift,
                         bankWidthBytes, words);
  case 4:
    return costPhases<4>(*this, numBanks, access, lanesPerPhase, wordShift,
                         bankWidthBytes, words);
  default:
    return costPhases<0>(*this, numBanks, access, lanesPerPhase, wordShift,
                         bankWidthBytes, words);
  }
}

unsigned LdsBankModel::conflictCycles(llvm::ArrayRef<uint32_t> addresses,
                                      unsigned bytesPerLane,
                                      bool isWrite) const {
  unsigned cycles = 0;
  for (size_t wave = 0; wave < addresses.size(); wave += 64) {
    llvm::ArrayRef<uint32_t> lanes = addresses.slice(wave).take_front(64);
    uint64_t active = 0;
    for (unsigned lane = 0; lane < lanes.size(); ++lane)
      if (lanes[lane] != UINT32_MAX)
        active |= 1ull << lane;
    cycles += cost({lanes.data(), nullptr, active, bytesPerLane, isWrite})
                  .conflictCycles;
  }
  return cycles;
}

// Dense MFMAs common to CDNA3 and CDNA4.
#define HK_COMMON_MFMAS                                                        \
  {"v_mfma_f32_32x32x1_2b_f32", E::F32, E::F32, E::F32, 32, 32, 1, 2},         \
      {"v_mfma_f32_16x16x1_4b_f32", E::F32, E::F32, E::F32, 16, 16, 1, 4},     \
      {"v_mfma_f32_4x4x1_16b_f32", E::F32, E::F32, E::F32, 4, 4, 1, 16},       \
      {"v_mfma_f32_32x32x2_f32", E::F32, E::F32, E::F32, 32, 32, 2, 1},        \
      {"v_mfma_f32_16x16x4_f32", E::F32, E::F32, E::F32, 16, 16, 4, 1},        \
      {"v_mfma_f32_32x32x4_2b_f16", E::F16, E::F16, E::F32, 32, 32, 4, 2},     \
      {"v_mfma_f32_16x16x4_4b_f16", E::F16, E::F16, E::F32, 16, 16, 4, 4},     \
      {"v_mfma_f32_4x4x4_16b_f16", E::F16, E::F16, E::F32, 4, 4, 4, 16},       \
      {"v_mfma_f32_32x32x8_f16", E::F16, E::F16, E::F32, 32, 32, 8, 1},        \
      {"v_mfma_f32_16x16x16_f16", E::F16, E::F16, E::F32, 16, 16, 16, 1},      \
      {"v_mfma_f32_32x32x4_2b_bf16", E::BF16, E::BF16, E::F32, 32, 32, 4, 2},  \
      {"v_mfma_f32_16x16x4_4b_bf16", E::BF16, E::BF16, E::F32, 16, 16, 4, 4},  \
      {"v_mfma_f32_4x4x4_16b_bf16", E::BF16, E::BF16, E::F32, 4, 4, 4, 16},    \
      {"v_mfma_f32_32x32x8_bf16", E::BF16, E::BF16, E::F32, 32, 32, 8, 1},     \
      {"v_mfma_f32_16x16x16_bf16", E::BF16, E::BF16, E::F32, 16, 16, 16, 1},   \
      {"v_mfma_i32_32x32x4_2b_i8", E::I8, E::I8, E::I32, 32, 32, 4, 2},        \
      {"v_mfma_i32_16x16x4_4b_i8", E::I8, E::I8, E::I32, 16, 16, 4, 4},        \
      {"v_mfma_i32_4x4x4_16b_i8", E::I8, E::I8, E::I32, 4, 4, 4, 16},          \
      {"v_mfma_i32_32x32x16_i8", E::I8, E::I8, E::I32, 32, 32, 16, 1},         \
      {"v_mfma_i32_16x16x32_i8", E::I8, E::I8, E::I32, 16, 16, 32, 1},         \
      {"v_mfma_f32_16x16x32_fp8_fp8", E::Fp8, E::Fp8, E::F32, 16, 16, 32, 1},  \
      {"v_mfma_f32_16x16x32_fp8_bf8", E::Fp8, E::Bf8, E::F32, 16, 16, 32, 1},  \
      {"v_mfma_f32_16x16x32_bf8_fp8", E::Bf8, E::Fp8, E::F32, 16, 16, 32, 1},  \
      {"v_mfma_f32_16x16x32_bf8_bf8", E::Bf8, E::Bf8, E::F32, 16, 16, 32, 1},  \
      {"v_mfma_f32_32x32x16_fp8_fp8", E::Fp8, E::Fp8, E::F32, 32, 32, 16, 1},  \
      {"v_mfma_f32_32x32x16_fp8_bf8", E::Fp8, E::Bf8, E::F32, 32, 32, 16, 1},  \
      {"v_mfma_f32_32x32x16_bf8_fp8", E::Bf8, E::Fp8, E::F32, 32, 32, 16, 1},  \
      {"v_mfma_f32_32x32x16_bf8_bf8", E::Bf8, E::Bf8, E::F32, 32, 32, 16, 1},  \
      {"v_mfma_f64_16x16x4_f64", E::F64, E::F64, E::F64, 16, 16, 4, 1},        \
      {"v_mfma_f64_4x4x4_4b_f64", E::F64, E::F64, E::F64, 4, 4, 4, 4}

static const MfmaInstr gfx942Mfmas[] = {
    HK_COMMON_MFMAS,
    // xf32 exists on CDNA3 only.
    {"v_mfma_f32_32x32x4_xf32", E::XF32, E::XF32, E::F32, 32, 32, 4, 1},
    {"v_mfma_f32_16x16x8_xf32", E::XF32, E::XF32, E::F32, 16, 16, 8, 1},
};

static const MfmaInstr gfx950Mfmas[] = {
    HK_COMMON_MFMAS,
    // CDNA4 double-rate 16-bit and 8-bit integer shapes.
    {"v_mfma_f32_16x16x32_f16", E::F16, E::F16, E::F32, 16, 16, 32, 1},
    {"v_mfma_f32_32x32x16_f16", E::F16, E::F16, E::F32, 32, 32, 16, 1},
    {"v_mfma_f32_16x16x32_bf16", E::BF16, E::BF16, E::F32, 16, 16, 32, 1},
    {"v_mfma_f32_32x32x16_bf16", E::BF16, E::BF16, E::F32, 32, 32, 16, 1},
    {"v_mfma_i32_16x16x64_i8", E::I8, E::I8, E::I32, 16, 16, 64, 1},
    {"v_mfma_i32_32x32x32_i8", E::I8, E::I8, E::I32, 32, 32, 32, 1},
    // Scaled f8f6f4: the operand formats are instruction modifiers.
    {"v_mfma_scale_f32_16x16x128_f8f6f4", E::F8F6F4, E::F8F6F4, E::F32, 16, 16,
     128, 1, /*scaled=*/true},
    {"v_mfma_scale_f32_32x32x64_f8f6f4", E::F8F6F4, E::F8F6F4, E::F32, 32, 32,
     64, 1, /*scaled=*/true},
};

#undef HK_COMMON_MFMAS

static const unsigned gfx942DirectToLds[] = {1, 2, 4};
static const unsigned gfx950DirectToLds[] = {1, 2, 4, 12, 16};

// Each was compiled into every example on the chip, on and off, and run in
// the emulator (test/Target/features.test).
static const llvm::StringRef gfx9xToggleableFeatures[] = {
    "xnack", "sramecc", "tgsplit", "precise-memory"};

// [LDS-PHASES] Which lanes of a wide LDS read share a phase is not lane
// order. CDNA3's ds_read_b128 (Composable Kernel's documentation,
// "Understanding AMD GPU LDS and Bank Conflicts"): lanes 0-3 with 20-23, 4-7
// with 16-19, 8-11 with 28-31, 12-15 with 24-27, and the same 32 lanes on.
// CDNA4 (HipKittens' phase solver, analysis/paper_experiments/phases, run on
// MI355X with the bank-conflict counter over every pair of lanes):
// ds_read_b96 pairs quads the same way in eight phases; ds_read_b128 joins
// two of those pairs per phase (lanes 0-3, 12-15, 20-23, 24-27; 4-11,
// 16-19, 28-31; and the same 32 lanes on); ds_read_b64 and ds_write_b64
// take lanes in order. One quad order gives all of them: phases of 8 lanes
// take the pairs (0 5) (3 6) (1 4) (2 7), phases of 16 two pairs each.
static const uint8_t wideReadQuadOrder[] = {0, 5,  3,  6,  1, 4,  2,  7,
                                            8, 13, 11, 14, 9, 12, 10, 15};

static const ChipInfo chipTable[] = {
    {
        /*name=*/"gfx942",
        /*products=*/"MI300X/MI325X",
        /*generation=*/"CDNA3",
        /*elfMach=*/0x04c,
        /*ldsBytesPerWorkgroup=*/64 * 1024,
        // ds_read_b128 takes lanes 0-3 and 20-23, 4-7 and 16-19, ... into
        // its eight phases of eight lanes [LDS-PHASES].
        /*lds=*/
        {/*banks=*/32, /*bankWidthBytes=*/4, /*write64=*/0, /*read96=*/0,
         /*wideReadQuadOrder=*/wideReadQuadOrder},
        /*fp8Format=*/Fp8Format::FNUZ,
        /*directToLdsBytes=*/gfx942DirectToLds,
        /*mfmaInstrs=*/gfx942Mfmas,
        /*hasLdsTransposeRead=*/false,
        /*hasPermlaneSwap=*/false,
        /*hasPackedBf16Convert=*/false,
        /*computeUnits=*/304,
        /*xcds=*/8,
        /*toggleableFeatures=*/gfx9xToggleableFeatures,
    },
    {
        /*name=*/"gfx950",
        /*products=*/"MI350X/MI355X",
        /*generation=*/"CDNA4",
        /*elfMach=*/0x04f,
        /*ldsBytesPerWorkgroup=*/160 * 1024,
        // 64 banks: ds_read_b128 serves 16 lanes per phase, ds_read_b64 32,
        // ds_write_b64 16 and ds_read_b96 8; ds_read_b128 takes lanes 0-3,
        // 12-15, 20-23 and 24-27 into its first phase, and ds_read_b96
        // pairs quads as CDNA3's ds_read_b128 does (all measured,
        // [LDS-PHASES]).
        /*lds=*/
        {/*banks=*/64, /*bankWidthBytes=*/4, /*write64=*/16, /*read96=*/8,
         /*wideReadQuadOrder=*/wideReadQuadOrder},
        /*fp8Format=*/Fp8Format::OCP,
        /*directToLdsBytes=*/gfx950DirectToLds,
        /*mfmaInstrs=*/gfx950Mfmas,
        /*hasLdsTransposeRead=*/true,
        /*hasPermlaneSwap=*/true,
        /*hasPackedBf16Convert=*/true,
        /*computeUnits=*/256,
        /*xcds=*/8,
        /*toggleableFeatures=*/gfx9xToggleableFeatures,
    },
};

llvm::ArrayRef<ChipInfo> ChipInfo::all() { return chipTable; }

const ChipInfo *ChipInfo::lookup(llvm::StringRef name) {
  // Accept target ids with feature suffixes ("gfx942:sramecc+:xnack-").
  llvm::StringRef base = name.split(':').first;
  for (const ChipInfo &chip : chipTable)
    if (chip.name == base)
      return &chip;
  return nullptr;
}

const ChipInfo *ChipInfo::lookupElfMach(unsigned mach) {
  for (const ChipInfo &chip : chipTable)
    if (chip.elfMach == mach)
      return &chip;
  return nullptr;
}

std::string ChipInfo::knownChipNames() {
  std::string names;
  for (const ChipInfo &chip : chipTable) {
    if (!names.empty())
      names += ", ";
    names += chip.name.str();
  }
  return names;
}

bool ChipInfo::supportsDirectToLds(unsigned bytesPerLane) const {
  return llvm::is_contained(directToLdsBytes, bytesPerLane);
}

unsigned ChipInfo::maxDirectToLdsBytes() const {
  unsigned widest = 0;
  for (unsigned bytes : directToLdsBytes)
    widest = std::max(widest, bytes);
  return widest;
}

const MfmaInstr *ChipInfo::findMfma(MfmaElement ab, unsigned m, unsigned n,
                                    unsigned k) const {
  for (const MfmaInstr &instr : mfmaInstrs)
    if (instr.a == ab && instr.b == ab && instr.blocks == 1 && instr.m == m &&
        instr.n == n && instr.k == k)
      return &instr;
  return nullptr;
}

const MfmaInstr *ChipInfo::findMfma(llvm::StringRef mnemonic) const {
  for (const MfmaInstr &instr : mfmaInstrs)
    if (instr.mnemonic == mnemonic)
      return &instr;
  return nullptr;
}

unsigned ChipInfo::occupancy(unsigned vgprs, unsigned ldsBytes,
                             unsigned wavesPerWorkgroup) const {
  // The unified file (arch VGPRs, then AGPRs) is allocated in granules of
  // 8 registers.
  unsigned unified = llvm::alignTo(vgprs, 8);
  unsigned byRegs = unified == 0 ? maxWavesPerSimd : vgprsPerSimdLane / unified;
  unsigned waves = std::min(maxWavesPerSimd, byRegs);
  if (ldsBytes > 0 && wavesPerWorkgroup > 0) {
    if (ldsBytes > ldsBytesPerWorkgroup)
      return 0;
    unsigned groupsPerCU = ldsBytesPerWorkgroup / ldsBytes;
    unsigned byLds = groupsPerCU * wavesPerWorkgroup / simdsPerCU;
    waves = std::min(waves, std::max(byLds, 1u));
  }
  return waves;
}
