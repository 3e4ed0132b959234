//===- NumericsTest.cpp - Narrow formats against their published facts ----===//
//
// Expected values come from the format definitions (third_party/oracles
// README: FNUZ on gfx942, OCP on gfx950; IEEE binary16; bfloat16), not from
// the emulator.
//
//===----------------------------------------------------------------------===//

#include "hk/Emulator/Numerics.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace hk;
using namespace hk::emu;

namespace {

const MiniFloat &e4m3(Fp8Format f) { return fp8Format(f, false); }
const MiniFloat &e5m2(Fp8Format f) { return fp8Format(f, true); }

TEST(Numerics, Fp8FnuzFacts) {
  // E4M3 FNUZ: bias 8, max 240, 0x80 is the only NaN, no negative zero.
  EXPECT_EQ(decodeMiniFloat(0x7f, e4m3(Fp8Format::FNUZ)), 240.0);
  EXPECT_TRUE(std::isnan(decodeMiniFloat(0x80, e4m3(Fp8Format::FNUZ))));
  EXPECT_EQ(decodeMiniFloat(0x40, e4m3(Fp8Format::FNUZ)), 1.0); // 2^(8-8)
  EXPECT_EQ(decodeMiniFloat(0x01, e4m3(Fp8Format::FNUZ)), std::ldexp(1.0, -10));
  EXPECT_EQ(encodeMiniFloat(-0.0, e4m3(Fp8Format::FNUZ), false), 0u);
  EXPECT_EQ(encodeMiniFloat(1000.0, e4m3(Fp8Format::FNUZ), true), 0x7fu);
  EXPECT_EQ(encodeMiniFloat(1000.0, e4m3(Fp8Format::FNUZ), false), 0x80u);
  // E5M2 FNUZ: bias 16, max 57344.
  EXPECT_EQ(decodeMiniFloat(0x7f, e5m2(Fp8Format::FNUZ)), 57344.0);
  EXPECT_EQ(decodeMiniFloat(0x40, e5m2(Fp8Format::FNUZ)), 1.0);
}

TEST(Numerics, Fp8OcpFacts) {
  // E4M3FN: bias 7, max 448 (0x7e), 0x7f/0xff NaN, no infinities.
  EXPECT_EQ(decodeMiniFloat(0x7e, e4m3(Fp8Format::OCP)), 448.0);
  EXPECT_TRUE(std::isnan(decodeMiniFloat(0x7f, e4m3(Fp8Format::OCP))));
  EXPECT_EQ(decodeMiniFloat(0x38, e4m3(Fp8Format::OCP)), 1.0);
  EXPECT_EQ(decodeMiniFloat(0x80, e4m3(Fp8Format::OCP)), 0.0);
  EXPECT_TRUE(std::signbit(decodeMiniFloat(0x80, e4m3(Fp8Format::OCP))));
  EXPECT_EQ(encodeMiniFloat(500.0, e4m3(Fp8Format::OCP), true), 0x7eu);
  // E5M2: bias 15, IEEE-like with infinities, max 57344.
  EXPECT_EQ(decodeMiniFloat(0x3c, e5m2(Fp8Format::OCP)), 1.0);
  EXPECT_EQ(decodeMiniFloat(0x7b, e5m2(Fp8Format::OCP)), 57344.0);
  EXPECT_TRUE(std::isinf(decodeMiniFloat(0x7c, e5m2(Fp8Format::OCP))));
  EXPECT_EQ(encodeMiniFloat(1e6, e5m2(Fp8Format::OCP), false), 0x7cu);
}

TEST(Numerics, RoundToNearestEven) {
  const MiniFloat &f = e4m3(Fp8Format::OCP);
  // 1.0625 lies halfway between 1.0 (0x38) and 1.125 (0x39): even wins.
  EXPECT_EQ(encodeMiniFloat(1.0625, f, false), 0x38u);
  // 1.1875 lies halfway between 1.125 (0x39) and 1.25 (0x3a).
  EXPECT_EQ(encodeMiniFloat(1.1875, f, false), 0x3au);
  // Every encoding round-trips.
  for (Fp8Format chip : {Fp8Format::FNUZ, Fp8Format::OCP})
    for (bool wide : {false, true})
      for (uint32_t bits = 0; bits < 256; ++bits) {
        double v = decodeMiniFloat(bits, fp8Format(chip, wide));
        if (std::isnan(v) || std::isinf(v))
          continue;
        EXPECT_EQ(
            decodeMiniFloat(encodeMiniFloat(v, fp8Format(chip, wide), false),
                            fp8Format(chip, wide)),
            v);
      }
}

TEST(Numerics, HalfAndBfloat) {
  EXPECT_EQ(f32ToF16(1.0f), 0x3c00);
  EXPECT_EQ(f32ToF16(65504.0f), 0x7bff);
  EXPECT_EQ(f32ToF16(65520.0f), 0x7c00); // Rounds up to infinity.
  EXPECT_EQ(f32ToF16(-2.0f), 0xc000);
  EXPECT_EQ(f16ToF32(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(f32ToBf16(1.0f), 0x3f80);
  // 1 + 2^-8 is halfway between bf16 1.0 and 1 + 2^-7: even (1.0) wins.
  EXPECT_EQ(f32ToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(f32ToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(bf16ToF32(0xc040), -3.0f);
}

TEST(Numerics, MxFormats) {
  // fp4 E2M1: values 0, 0.5, 1, 1.5, 2, 3, 4, 6.
  const double fp4[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(decodeMiniFloat(i, kFp4), fp4[i]);
    EXPECT_EQ(decodeMiniFloat(i | 8, kFp4), -fp4[i]);
  }
  EXPECT_EQ(fp6Format(false).maxFinite(), 7.5); // E2M3
  EXPECT_EQ(fp6Format(true).maxFinite(), 28.0); // E3M2
  EXPECT_EQ(e8m0ToDouble(127), 1.0);
  EXPECT_EQ(e8m0ToDouble(130), 8.0);
  EXPECT_TRUE(std::isnan(e8m0ToDouble(0xff)));
}

} // namespace
