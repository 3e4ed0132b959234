//===- ChipInfoTest.cpp - The chip facts table ----------------------------===//

#include "hk/Support/ChipInfo.h"

#include "gtest/gtest.h"

using namespace hk;

TEST(ChipInfo, LooksUpKnownChipsAndTargetIds) {
  ASSERT_NE(ChipInfo::lookup("gfx942"), nullptr);
  ASSERT_NE(ChipInfo::lookup("gfx950"), nullptr);
  EXPECT_EQ(ChipInfo::lookup("gfx942:sramecc+:xnack-"),
            ChipInfo::lookup("gfx942"));
  EXPECT_EQ(ChipInfo::lookup("gfx90a"), nullptr);
  EXPECT_EQ(ChipInfo::lookup(""), nullptr);
  EXPECT_EQ(ChipInfo::knownChipNames(), "gfx942, gfx950");
}

TEST(ChipInfo, LdsSizesAndBankPhases) {
  const ChipInfo &cdna3 = *ChipInfo::lookup("gfx942");
  const ChipInfo &cdna4 = *ChipInfo::lookup("gfx950");
  EXPECT_EQ(cdna3.ldsBytesPerWorkgroup, 64u * 1024);
  EXPECT_EQ(cdna4.ldsBytesPerWorkgroup, 160u * 1024);
  // gfx950: ds_read_b128 serves 16 lanes per phase, ds_read_b64 32,
  // ds_write_b64 16, ds_read_b96 8.
  EXPECT_EQ(cdna4.lds.readLanesPerPhase(16), 16u);
  EXPECT_EQ(cdna4.lds.readLanesPerPhase(8), 32u);
  EXPECT_EQ(cdna4.lds.writeLanesPerPhase(8), 16u);
  EXPECT_EQ(cdna4.lds.readLanesPerPhase(12), 8u);
  EXPECT_EQ(cdna3.lds.readLanesPerPhase(16), 8u);
  EXPECT_EQ(cdna3.lds.readLanesPerPhase(4), 32u);
}

TEST(ChipInfo, MatrixCoreShapesDifferByChip) {
  const ChipInfo &cdna3 = *ChipInfo::lookup("gfx942");
  const ChipInfo &cdna4 = *ChipInfo::lookup("gfx950");
  EXPECT_NE(cdna3.findMfma(MfmaElement::BF16, 16, 16, 16), nullptr);
  EXPECT_NE(cdna3.findMfma(MfmaElement::BF16, 32, 32, 8), nullptr);
  EXPECT_EQ(cdna3.findMfma(MfmaElement::BF16, 16, 16, 32), nullptr);
  EXPECT_NE(cdna4.findMfma(MfmaElement::BF16, 16, 16, 32), nullptr);
  EXPECT_NE(cdna4.findMfma(MfmaElement::F16, 32, 32, 16), nullptr);
  EXPECT_NE(cdna4.findMfma("v_mfma_scale_f32_16x16x128_f8f6f4"), nullptr);
  EXPECT_EQ(cdna3.findMfma("v_mfma_scale_f32_16x16x128_f8f6f4"), nullptr);
  EXPECT_NE(cdna3.findMfma("v_mfma_f32_16x16x8_xf32"), nullptr);
  EXPECT_EQ(cdna4.findMfma("v_mfma_f32_16x16x8_xf32"), nullptr);
  EXPECT_EQ(cdna3.fp8Format, Fp8Format::FNUZ);
  EXPECT_EQ(cdna4.fp8Format, Fp8Format::OCP);
}

TEST(ChipInfo, MfmaRegisterCounts) {
  const ChipInfo &cdna4 = *ChipInfo::lookup("gfx950");
  const MfmaInstr *bf16 = cdna4.findMfma(MfmaElement::BF16, 16, 16, 32);
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ(bf16->kPerLane(), 8u);
  EXPECT_EQ(bf16->operandRegs(), 4u);
  EXPECT_EQ(bf16->accRegs(), 4u);
  EXPECT_EQ(bf16->flops(), 2u * 16 * 16 * 32);
  const MfmaInstr *scaled = cdna4.findMfma("v_mfma_scale_f32_32x32x64_f8f6f4");
  ASSERT_NE(scaled, nullptr);
  EXPECT_EQ(scaled->kPerLane(), 32u);
  EXPECT_EQ(scaled->accRegs(), 16u);
}

TEST(ChipInfo, DirectToLdsWidths) {
  EXPECT_TRUE(ChipInfo::lookup("gfx942")->supportsDirectToLds(4));
  EXPECT_FALSE(ChipInfo::lookup("gfx942")->supportsDirectToLds(16));
  EXPECT_TRUE(ChipInfo::lookup("gfx950")->supportsDirectToLds(16));
  EXPECT_TRUE(ChipInfo::lookup("gfx950")->supportsDirectToLds(12));
}

TEST(ChipInfo, Occupancy) {
  const ChipInfo &cdna3 = *ChipInfo::lookup("gfx942");
  // 128 unified registers -> 4 waves; 256 -> 2; 512 -> 1.
  EXPECT_EQ(cdna3.occupancy(128, 0, 4), 4u);
  // 128 arch VGPRs and 128 AGPRs: .vgpr_count 256.
  EXPECT_EQ(cdna3.occupancy(256, 0, 4), 2u);
  // v0-v255 and a0-a157 (.vgpr_count 414): one wave, not zero.
  EXPECT_EQ(cdna3.occupancy(414, 0, 8), 1u);
  EXPECT_EQ(cdna3.occupancy(512, 0, 8), 1u);
  EXPECT_EQ(cdna3.occupancy(16, 0, 4), 8u);
  // A workgroup needing all of LDS: one group of 8 waves per CU = 2/SIMD.
  EXPECT_EQ(cdna3.occupancy(16, 64 * 1024, 8), 2u);
  EXPECT_EQ(cdna3.occupancy(16, 64 * 1024 + 1, 8), 0u);
}
