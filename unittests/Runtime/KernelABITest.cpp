//===- KernelABITest.cpp - Host side of the kernel ABI --------------------===//

#include "hk/Runtime/KernelABI.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace hk;

namespace {

KernelParam view(std::vector<int64_t> shape, unsigned bytes) {
  KernelParam p;
  p.kind = KernelParam::View;
  p.shape.assign(shape.begin(), shape.end());
  p.elementBytes = bytes;
  return p;
}

KernelParam scalar(KernelParam::Kind kind) {
  KernelParam p;
  p.kind = kind;
  return p;
}

ViewValue viewValue(uint64_t address, std::vector<int64_t> sizes) {
  ViewValue v;
  v.address = address;
  v.sizes.assign(sizes.begin(), sizes.end());
  v.strides = rowMajorStrides(v.sizes);
  return v;
}

template <typename T> T readAt(const std::vector<uint8_t> &bytes, size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

std::string errorOf(llvm::Expected<std::vector<uint8_t>> result) {
  if (result)
    return "";
  return llvm::toString(result.takeError());
}

// (a: ?x?, n: i32, b: 4x?x32, x: f32) packs as
//   a.ptr b.ptr | a.rows a.cols b.dim1 | a.stride0 b.stride0 b.stride1 | n x
TEST(KernelABI, PointersThenSizesThenStridesThenScalars) {
  KernelSignature sig{"k",
                      4,
                      {view({-1, -1}, 2), scalar(KernelParam::I32),
                       view({4, -1, 32}, 4), scalar(KernelParam::F32)}};
  auto bytes = packKernelArgs(
      sig,
      {ArgValue::ofView(viewValue(0x1000, {100, 70})), ArgValue::ofI32(-7),
       ArgValue::ofView(viewValue(0x2000, {4, 9, 32})), ArgValue::ofF32(2.5f)});
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  ASSERT_EQ(bytes->size(), 48u);
  EXPECT_EQ(readAt<uint64_t>(*bytes, 0), 0x1000u);
  EXPECT_EQ(readAt<uint64_t>(*bytes, 8), 0x2000u);
  EXPECT_EQ(readAt<int32_t>(*bytes, 16), 100);    // a rows
  EXPECT_EQ(readAt<int32_t>(*bytes, 20), 70);     // a cols
  EXPECT_EQ(readAt<int32_t>(*bytes, 24), 9);      // b's only runtime size
  EXPECT_EQ(readAt<int32_t>(*bytes, 28), 70);     // a stride 0
  EXPECT_EQ(readAt<int32_t>(*bytes, 32), 9 * 32); // b stride 0
  EXPECT_EQ(readAt<int32_t>(*bytes, 36), 32);     // b stride 1
  EXPECT_EQ(readAt<int32_t>(*bytes, 40), -7);
  EXPECT_EQ(readAt<float>(*bytes, 44), 2.5f);
}

TEST(KernelABI, RejectsWhatTheKernelCannotTake) {
  KernelSignature sig{"k", 4, {view({-1, 64}, 2)}};
  EXPECT_EQ(errorOf(packKernelArgs(sig, {})),
            "kernel 'k' takes 1 arguments, got 0");
  EXPECT_EQ(errorOf(packKernelArgs(
                sig, {ArgValue::ofView(viewValue(0x100, {8, 32}))})),
            "kernel 'k' argument 0: dimension 1 is static 64, got 32");
  EXPECT_EQ(
      errorOf(packKernelArgs(sig, {ArgValue::ofView(viewValue(0x100, {8}))})),
      "kernel 'k' argument 0: expected a rank-2 view, got rank 1");
  EXPECT_EQ(errorOf(packKernelArgs(
                sig, {ArgValue::ofView(viewValue(0x104, {8, 64}))})),
            "kernel 'k' argument 0: the base address must be 16-byte aligned");

  ViewValue strided = viewValue(0x100, {8, 64});
  strided.strides = {64, 2};
  EXPECT_EQ(errorOf(packKernelArgs(sig, {ArgValue::ofView(strided)})),
            "kernel 'k' argument 0: the innermost stride must be 1, got 2");

  // 2^25 rows of 64 bf16: 2^32 bytes, beyond 32-bit offsets.
  EXPECT_EQ(
      errorOf(packKernelArgs(
          sig, {ArgValue::ofView(viewValue(0x100, {int64_t(1) << 25, 64}))})),
      "kernel 'k' argument 0: the view spans 2147483648 elements of 2 bytes; "
      "the kernel's 32-bit offsets reach 2^31 - 1 bytes");
  EXPECT_EQ(
      errorOf(packKernelArgs(
          sig, {ArgValue::ofView(viewValue(0x100, {int64_t(1) << 31, 64}))})),
      "kernel 'k' argument 0: size 2147483648 or stride 64 of dimension 0 "
      "does not fit the 32-bit kernel ABI");
}

TEST(KernelABI, PaddedRowsAreViews) {
  // A 10 x 20 view of rows padded to 32 elements.
  KernelSignature sig{"k", 4, {view({-1, -1}, 4)}};
  ViewValue padded = viewValue(0x100, {10, 20});
  padded.strides = {32, 1};
  auto bytes = packKernelArgs(sig, {ArgValue::ofView(padded)});
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  EXPECT_EQ(readAt<int32_t>(*bytes, 16), 32);
}

} // namespace
