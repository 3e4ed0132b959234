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

KernelSignature signature(std::vector<KernelParam> params) {
  KernelSignature sig;
  sig.name = "k";
  sig.waves = 4;
  sig.params = std::move(params);
  return sig;
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
  KernelSignature sig =
      signature({view({-1, -1}, 2), scalar(KernelParam::I32),
                 view({4, -1, 32}, 4), scalar(KernelParam::F32)});
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
  KernelSignature sig = signature({view({-1, 64}, 2)});
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
  KernelSignature sig = signature({view({-1, -1}, 4)});
  ViewValue padded = viewValue(0x100, {10, 20});
  padded.strides = {32, 1};
  auto bytes = packKernelArgs(sig, {ArgValue::ofView(padded)});
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  EXPECT_EQ(readAt<int32_t>(*bytes, 16), 32);
}

// The fields' names and offsets are those convert-hk-to-amdgpu gives the
// LLVM arguments (test/Target/arg-names.test reads them back from a code
// object).
TEST(KernelABI, FieldsNameEveryWord) {
  KernelParam a = view({-1, -1}, 2), n = scalar(KernelParam::I32),
              b = view({4, -1, 32}, 4);
  a.name = "A";
  b.name = "B";
  std::vector<AbiField> fields = getAbiFields(signature({a, n, b}));
  std::vector<std::pair<std::string, unsigned>> got;
  for (const AbiField &field : fields)
    got.emplace_back(field.name, field.offset);
  std::vector<std::pair<std::string, unsigned>> expected = {
      {"A", 0},          {"B", 8},          {"A_size0", 16},
      {"A_size1", 20},   {"B_size1", 24},   {"A_stride0", 28},
      {"B_stride0", 32}, {"B_stride1", 36}, {"arg1", 40}};
  EXPECT_EQ(got, expected);
}

TEST(KernelABI, GridFromTheOutputTiling) {
  KernelSignature sig = signature({view({-1, -1}, 2), view({-1, -1, 64}, 2)});
  // x: the larger of ceil(rows(arg0) / 128) and ceil(dim1(arg1) / 64);
  // y: dim0(arg1); z: unused.
  sig.grid = LaunchGrid{{{{0, 0, 128}, {1, 1, 64}}, {{1, 0, 1}}, {}}};
  auto grid =
      computeGrid(sig, {ArgValue::ofView(viewValue(0x100, {300, 8})),
                        ArgValue::ofView(viewValue(0x200, {5, 1000, 64}))});
  ASSERT_TRUE(bool(grid)) << llvm::toString(grid.takeError());
  EXPECT_EQ((*grid)[0], 16u);
  EXPECT_EQ((*grid)[1], 5u);
  EXPECT_EQ((*grid)[2], 1u);
  // Empty outputs still launch one block.
  grid = computeGrid(sig, {ArgValue::ofView(viewValue(0x100, {0, 8})),
                           ArgValue::ofView(viewValue(0x200, {0, 0, 64}))});
  ASSERT_TRUE(bool(grid));
  EXPECT_EQ((*grid)[0], 1u);
  EXPECT_EQ((*grid)[1], 1u);
}

TEST(KernelABI, NoGridRuleIsAnError) {
  KernelSignature sig = signature({view({-1, -1}, 2)});
  auto grid = computeGrid(sig, {ArgValue::ofView(viewValue(0x100, {3, 3}))});
  ASSERT_FALSE(bool(grid));
  EXPECT_EQ(llvm::toString(grid.takeError()),
            "kernel 'k' does not say which grid it needs (no output tile "
            "indexed by the block ids alone); give the grid");
}

} // namespace
