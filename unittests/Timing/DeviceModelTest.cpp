//===- DeviceModelTest.cpp - The device table against outside figures ----===//
//
// The MFMA cycles of the gfx942 devices against AMD's Matrix Instruction
// Calculator (third_party/oracles, field `cycles`), the matrix peaks the
// cycles imply against the data sheets, and the occupancy rules.
//
//===----------------------------------------------------------------------===//

#include "Simulator.h"

#include "hk/Timing/DeviceModel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace hk;
using namespace hk::timing;

namespace {

const DeviceModel &device(llvm::StringRef name) {
  const DeviceModel *d = DeviceModel::lookup(name);
  EXPECT_NE(d, nullptr) << name.str();
  return *d;
}

const MfmaInstr &mfma(const DeviceModel &d, llvm::StringRef mnemonic) {
  const MfmaInstr *instr = d.chip().findMfma(mnemonic);
  EXPECT_NE(instr, nullptr) << mnemonic.str();
  return *instr;
}

TEST(DeviceModel, LookupIgnoresCaseAndKnowsFourDevices) {
  EXPECT_EQ(DeviceModel::all().size(), 4u);
  EXPECT_EQ(device("mi300x").name, "MI300X");
  EXPECT_EQ(device("MI355X").chipName, "gfx950");
  EXPECT_EQ(DeviceModel::lookup("mi250x"), nullptr);
  EXPECT_EQ(DeviceModel::knownNames(), "mi300x, mi325x, mi350x, mi355x");
  EXPECT_EQ(DeviceModel::defaultFor(*ChipInfo::lookup("gfx942")).name,
            "MI300X");
  EXPECT_EQ(DeviceModel::defaultFor(*ChipInfo::lookup("gfx950")).name,
            "MI355X");
}

// Every instruction the calculator covers has the calculator's cycles on
// both CDNA3 devices.
TEST(DeviceModel, Gfx942MfmaCyclesMatchTheOracles) {
  std::error_code ec;
  std::string dir = std::string(HK_ORACLE_DIR) + "/mfma/gfx942";
  unsigned checked = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (!llvm::StringRef(it->path()).ends_with(".json"))
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    ASSERT_TRUE(bool(buffer)) << it->path();
    auto value = llvm::json::parse((*buffer)->getBuffer());
    ASSERT_TRUE(bool(value)) << it->path();
    const llvm::json::Object &table = *value->getAsObject();
    llvm::StringRef name = *table.getString("instruction");
    int64_t cycles = *table.getInteger("cycles");
    for (llvm::StringRef d : {"mi300x", "mi325x"})
      EXPECT_EQ(device(d).mfmaCycles(mfma(device(d), name)), cycles)
          << d.str() << " " << name.str();
    ++checked;
  }
  EXPECT_GE(checked, 10u);
}

// The data sheets' dense peaks (TFLOP/s) follow from the cycles, the CUs
// and the clock. The sheets round to two or three digits.
TEST(DeviceModel, PeaksMatchTheDataSheets) {
  struct Case {
    const char *device, *mnemonic;
    unsigned cbsz, blgp;
    double tflops;
  } cases[] = {
      {"mi300x", "v_mfma_f32_16x16x16_bf16", 0, 0, 1307.4},
      {"mi300x", "v_mfma_f32_32x32x8_f16", 0, 0, 1307.4},
      {"mi300x", "v_mfma_f32_16x16x32_fp8_fp8", 0, 0, 2614.9},
      {"mi325x", "v_mfma_f32_16x16x16_bf16", 0, 0, 1307.4},
      {"mi355x", "v_mfma_f32_16x16x32_bf16", 0, 0, 2500},
      {"mi355x", "v_mfma_f32_32x32x16_f16", 0, 0, 2500},
      {"mi355x", "v_mfma_scale_f32_16x16x128_f8f6f4", 0, 0, 5000},
      {"mi355x", "v_mfma_scale_f32_32x32x64_f8f6f4", 1, 1, 5000},
      {"mi355x", "v_mfma_scale_f32_16x16x128_f8f6f4", 4, 4, 10000},
      {"mi355x", "v_mfma_scale_f32_16x16x128_f8f6f4", 2, 2, 10000},
      {"mi350x", "v_mfma_f32_16x16x32_bf16", 0, 0, 2300},
  };
  for (const Case &c : cases) {
    const DeviceModel &d = device(c.device);
    double tflops = d.peakFlops(mfma(d, c.mnemonic), c.cbsz, c.blgp) / 1e12;
    EXPECT_NEAR(tflops, c.tflops, 0.01 * c.tflops)
        << c.device << " " << c.mnemonic;
  }
}

// CDNA4 runs the CDNA3 16-bit shapes at the CDNA3 rate: only the new
// shapes double it.
TEST(DeviceModel, Gfx950DoublesOnlyTheNewShapes) {
  const DeviceModel &d = device("mi355x");
  EXPECT_EQ(d.mfmaCycles(mfma(d, "v_mfma_f32_16x16x16_bf16")),
            d.mfmaCycles(mfma(d, "v_mfma_f32_16x16x32_bf16")));
}

TEST(DeviceModel, HbmShareIsPeakTimesEfficiencyOverXcds) {
  const DeviceModel &d = device("mi300x");
  EXPECT_NEAR(d.hbmBytesPerCyclePerXcd() * d.xcds * d.clockHz(),
              5.3e12 * d.hbmEfficiency, 1e6);
  EXPECT_LT(d.hbmEfficiency, 1.0);
}

// HBM's and the Infinity Cache's bytes per second and latency in
// nanoseconds hold at any engine clock: per engine cycle, a lower clock
// gets more bytes and waits fewer cycles. 0 stands for the peak.
TEST(DeviceModel, MemorySideFiguresFollowTheEngineClock) {
  const DeviceModel &d = device("mi325x");
  double slow = d.clockMHz * 0.7;
  EXPECT_DOUBLE_EQ(d.hbmBytesPerCyclePerXcd(slow) * slow * 1e6,
                   d.hbmBytesPerCyclePerXcd() * d.clockHz());
  EXPECT_DOUBLE_EQ(d.mallBytesPerCyclePerXcd(slow) * slow * 1e6,
                   d.mallBytesPerCyclePerXcd(0) * d.clockHz());
  EXPECT_DOUBLE_EQ(d.memorySideCycles(1000, slow) / (slow * 1e6),
                   1000 / d.clockHz());
  EXPECT_DOUBLE_EQ(d.memorySideCycles(1000, 0), 1000);
  EXPECT_DOUBLE_EQ(d.memorySideCycles(1000, d.clockMHz), 1000);
}

LaunchShape shape(unsigned waves, unsigned vgprs, unsigned sgprs,
                  unsigned lds) {
  LaunchShape s;
  s.workgroups = 1;
  s.wavesPerWorkgroup = waves;
  s.vgprs = vgprs;
  s.sgprs = sgprs;
  s.ldsBytes = lds;
  return s;
}

TEST(Occupancy, RegistersLdsAndWaves) {
  const DeviceModel &d = device("mi300x");
  // 512 unified VGPRs per lane: 128 leave room for four waves per SIMD.
  Occupancy o = computeOccupancy(d, shape(4, 128, 32, 0));
  EXPECT_EQ(o.wavesPerSimd, 4u);
  EXPECT_EQ(o.workgroupsPerCu, 4u);
  EXPECT_STREQ(o.limit, "VGPRs");
  // Allocation is in granules of 8: 129 take 136.
  EXPECT_EQ(computeOccupancy(d, shape(4, 129, 32, 0)).wavesPerSimd, 3u);
  // Few registers: eight waves per SIMD.
  o = computeOccupancy(d, shape(4, 32, 32, 0));
  EXPECT_EQ(o.wavesPerSimd, 8u);
  EXPECT_STREQ(o.limit, "waves per SIMD");
  // 40 KB of LDS: one workgroup of the 64 KB on gfx942, four of gfx950's
  // 160 KB.
  o = computeOccupancy(d, shape(4, 32, 32, 40 * 1024));
  EXPECT_EQ(o.workgroupsPerCu, 1u);
  EXPECT_STREQ(o.limit, "LDS");
  EXPECT_EQ(o.wavesPerSimdPlaced, 1u);
  EXPECT_EQ(computeOccupancy(device("mi355x"), shape(4, 32, 32, 40 * 1024))
                .workgroupsPerCu,
            4u);
  // Eight waves a workgroup (two per SIMD), 256 VGPRs: one workgroup.
  o = computeOccupancy(d, shape(8, 256, 32, 0));
  EXPECT_EQ(o.wavesPerSimd, 2u);
  EXPECT_EQ(o.workgroupsPerCu, 1u);
  // One-wave workgroups are not bound by the barrier limit of 16.
  EXPECT_EQ(computeOccupancy(d, shape(1, 32, 32, 0)).workgroupsPerCu, 32u);
  EXPECT_EQ(computeOccupancy(d, shape(2, 32, 32, 0)).workgroupsPerCu, 16u);
  // Too many registers for one wave: nothing fits.
  EXPECT_EQ(computeOccupancy(d, shape(4, 600, 32, 0)).workgroupsPerCu, 0u);
}

// The clock under load: the peak with idle matrix pipes, AMD's measured
// median clock (ROCm blog, "Measuring Max-Achievable FLOPs - Part 2") once
// the pipes are as busy as in its GEMM (708 of the 1307.4 * 1207 / 2100 =
// 751.4 TFLOP/s the clock allows: 94.2%), linear between.
TEST(DeviceModel, SustainedClockFollowsTheMatrixLoad) {
  const DeviceModel &mi300x = device("mi300x");
  EXPECT_DOUBLE_EQ(mi300x.sustainedClockMHz("bf16", 0), 2100);
  EXPECT_NEAR(mi300x.sustainedClockMHz("bf16", 708 / 751.4), 1207, 0.5);
  EXPECT_DOUBLE_EQ(mi300x.sustainedClockMHz("bf16", 1), 1207);
  EXPECT_NEAR(mi300x.sustainedClockMHz("bf16", 0.5 * 708 / 751.4),
              (2100 + 1207) / 2.0, 0.5);
  // Each kind its own measurement; bf8 as fp8; unmeasured kinds as bf16.
  EXPECT_DOUBLE_EQ(mi300x.sustainedClockMHz("f16", 1), 1115);
  EXPECT_DOUBLE_EQ(mi300x.sustainedClockMHz("fp8", 1), 1230);
  EXPECT_DOUBLE_EQ(mi300x.sustainedClockMHz("bf8", 1), 1230);
  EXPECT_DOUBLE_EQ(mi300x.sustainedClockMHz("f64", 1), 1207);
  EXPECT_DOUBLE_EQ(device("mi325x").sustainedClockMHz("bf16", 1), 1447);
  // CDNA4 (assumed): MI325X's fraction of the peak clock.
  EXPECT_NEAR(device("mi355x").sustainedClockMHz("bf16", 1),
              2400 * 1447 / 2100.0, 1e-9);
}

} // namespace
