//===- CheckTest.cpp - Host arrays and the checks of a run ----------------===//

#include "hk/Runtime/Check.h"
#include "hk/Runtime/HostArray.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace hk;

namespace {

ElementType type(llvm::StringRef name) {
  auto t = ElementType::lookup(name);
  EXPECT_TRUE(bool(t));
  return *t;
}

TEST(HostArray, EncodesThroughTheElementType) {
  EXPECT_EQ(type("bf16").encode(1.0), 0x3f80u);
  EXPECT_EQ(type("bf16").decode(0xc020), -2.5);
  // Ties to even: 1 + 2^-8 lies halfway between bf16 1 and 1 + 2^-7.
  EXPECT_EQ(type("bf16").encode(1.0 + std::ldexp(1.0, -8)), 0x3f80u);
  EXPECT_EQ(type("i32").encode(-3.0), 0xfffffffdu);
  EXPECT_EQ(type("i8").encode(1000.0), 0x7fu); // Saturates.
  EXPECT_EQ(type("f16").unitRoundoff(), std::ldexp(1.0, -11));
  EXPECT_EQ(type("i32").unitRoundoff(), 0.0);
  EXPECT_EQ(type("bf16").numpyDescr(), "u2");
  EXPECT_EQ(type("f8E4M3FN").numpyDescr(), "u1");
  EXPECT_FALSE(bool(ElementType::lookup("f128")));
}

TEST(HostArray, UnwrittenBitsAreANaNOfTheType) {
  for (llvm::StringRef name : {"f32", "f16", "bf16", "f8E4M3FN", "f8E5M2",
                               "f8E4M3FNUZ", "f8E5M2FNUZ"}) {
    ElementType t = type(name);
    ASSERT_TRUE(t.unwrittenBits().has_value()) << name.str();
    EXPECT_TRUE(std::isnan(t.decode(*t.unwrittenBits()))) << name.str();
  }
  EXPECT_FALSE(type("i32").unwrittenBits().has_value());
}

TEST(HostArray, PaddedRowsAndIndices) {
  HostArray a = HostArray::create(type("f32"), {3, 5}, /*rowPadding=*/3);
  EXPECT_EQ(a.getStrides()[0], 8);
  EXPECT_EQ(a.getByteSize(), 3u * 8 * 4);
  EXPECT_EQ(a.offsetOf(7), (1u * 8 + 2) * 4);
  EXPECT_EQ(a.describeIndex(7), "(1, 2)");
  a.set(7, 2.5);
  EXPECT_EQ(a.get(7), 2.5);
}

TEST(Check, NaNWhereTheReferenceHasANumberFailsAsNaN) {
  HostArray out = HostArray::create(type("f32"), {2, 2});
  out.set(0, 1.0);
  out.set(1, 2.0);
  out.set(2, std::numeric_limits<double>::quiet_NaN());
  out.set(3, 4.0);
  CheckResult r =
      compareWithReference(out, boundedBy({1.0, 2.0, 3.0, 4.0}, 0, 0), "C");
  EXPECT_EQ(r.failures, 1u);
  EXPECT_TRUE(std::isnan(r.maxAbsError));
  EXPECT_EQ(r.firstFailure, "C element (1, 0): got nan, expected 3 (bound 0)");
  // NaN is right where the reference is NaN.
  r = compareWithReference(
      out,
      boundedBy({1.0, 2.0, std::numeric_limits<double>::quiet_NaN(), 4.0}, 0,
                0),
      "C");
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.maxAbsError, 0.0);
}

TEST(Check, UnwrittenElementsAreCounted) {
  HostArray out = HostArray::create(type("bf16"), {4, 3});
  markUnwritten(out);
  for (int64_t i = 0; i < 9; ++i)
    out.set(i, 1.0);
  CheckResult r;
  checkWritten(out, "C", r);
  EXPECT_EQ(r.unwritten, 3u);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.firstFailure, "3 of 12 elements of C were not written (first "
                            "(3, 0)): is the grid too small?");
}

TEST(Check, ChangedInputsAndWrittenPadding) {
  HostArray before = HostArray::create(type("f32"), {2, 2}, /*rowPadding=*/2);
  HostArray after = before.clone();
  CheckResult r;
  checkUnchanged(before, after, "A", r);
  EXPECT_TRUE(r.passed());
  after.set(3, 5.0);
  checkUnchanged(before, after, "A", r);
  EXPECT_EQ(r.changed, 1u);
  EXPECT_EQ(r.firstFailure, "1 elements of A changed although the kernel "
                            "should only read it (first element (1, 1))");
  // An output's own elements may change, its padding may not.
  CheckResult padding;
  checkUnchanged(before, after, "C", padding, /*paddingOnly=*/true);
  EXPECT_TRUE(padding.passed());
  after.getData()[2 * 4] = 1; // Row 0, column 2: padding.
  checkUnchanged(before, after, "C", padding, /*paddingOnly=*/true);
  EXPECT_EQ(padding.changed, 1u);
  EXPECT_EQ(padding.firstFailure, "1 padding elements of C were written "
                                  "(first padding at byte offset 8)");
}

} // namespace
