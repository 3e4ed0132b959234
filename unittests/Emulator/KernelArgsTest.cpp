//===- KernelArgsTest.cpp - Argument specifications and element types ----===//

#include "hk/Emulator/KernelArgs.h"
#include "hk/Emulator/Npy.h"

#include "gtest/gtest.h"

using namespace hk::emu;

namespace {

std::string errorOf(llvm::StringRef text) {
  auto spec = parseArgSpec(text);
  if (spec)
    return "";
  return llvm::toString(spec.takeError());
}

std::vector<uint8_t> scalarBytes(llvm::StringRef text) {
  auto spec = parseArgSpec(text);
  EXPECT_TRUE(bool(spec)) << text.str();
  if (!spec) {
    llvm::consumeError(spec.takeError());
    return {};
  }
  EXPECT_EQ(spec->kind, ArgSpec::Scalar);
  return spec->bytes;
}

TEST(KernelArgs, Scalars) {
  EXPECT_EQ(scalarBytes("i8:-1"), std::vector<uint8_t>({0xff}));
  EXPECT_EQ(scalarBytes("u16:0x1234"), std::vector<uint8_t>({0x34, 0x12}));
  EXPECT_EQ(scalarBytes("i32:-2"),
            std::vector<uint8_t>({0xfe, 0xff, 0xff, 0xff}));
  EXPECT_EQ(scalarBytes("f32:1"), std::vector<uint8_t>({0, 0, 0x80, 0x3f}));
  EXPECT_EQ(scalarBytes("f16:1"), std::vector<uint8_t>({0x00, 0x3c}));
  EXPECT_EQ(scalarBytes("bf16:-2"), std::vector<uint8_t>({0x00, 0xc0}));
  EXPECT_EQ(scalarBytes("u64:1").size(), 8u);
  EXPECT_EQ(errorOf("i8:128"), "128 is out of range for i8 (-128 to 127)");
  EXPECT_EQ(errorOf("u8:256"), "256 is out of range for u8 (0 to 255)");
  EXPECT_NE(errorOf("u32:-1").find("expected buf:FILE"), std::string::npos);
  EXPECT_NE(errorOf("x"), "");
  EXPECT_NE(errorOf(""), "");
}

TEST(KernelArgs, Buffers) {
  auto buf = parseArgSpec("buf:a.npy:b.npy");
  ASSERT_TRUE(bool(buf));
  EXPECT_EQ(buf->kind, ArgSpec::Buffer);
  EXPECT_EQ(buf->path, "a.npy");
  EXPECT_EQ(buf->outPath, "b.npy");
  EXPECT_EQ(buf->fixedSize(), 8u);
  auto out = parseArgSpec("out:u8:10");
  ASSERT_TRUE(bool(out));
  EXPECT_EQ(out->kind, ArgSpec::Output);
  EXPECT_EQ(out->type, "u8");
  EXPECT_EQ(out->count, 10u);
  EXPECT_NE(errorOf("out:f99:4").find("expected out:TYPE:COUNT"),
            std::string::npos);
  EXPECT_NE(errorOf("out:f32:99999999999999").find("exceed"),
            std::string::npos);
  EXPECT_NE(errorOf("buf:"), "");
}

TEST(KernelArgs, StructsAndRaw) {
  auto s = parseArgSpec("struct:0=buf:a.npy,0x8=i32:5,12=out:f32:4");
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(s->kind, ArgSpec::Struct);
  ASSERT_EQ(s->fields.size(), 3u);
  EXPECT_EQ(s->fields[1].offset, 8u);
  EXPECT_EQ(s->fields[1].spec->fixedSize(), 4u);
  EXPECT_EQ(s->fields[2].spec->kind, ArgSpec::Output);
  auto raw = parseArgSpec("raw:args.bin,16=u64:7");
  ASSERT_TRUE(bool(raw));
  EXPECT_EQ(raw->kind, ArgSpec::Raw);
  EXPECT_EQ(raw->path, "args.bin");
  ASSERT_EQ(raw->fields.size(), 1u);
  EXPECT_EQ(raw->fields[0].offset, 16u);
  EXPECT_EQ(errorOf("struct:"), "expected struct:OFFSET=SPEC,...");
  EXPECT_EQ(errorOf("struct:x=i32:1"),
            "expected fields OFFSET=SPEC, got 'x=i32:1'");
  EXPECT_EQ(errorOf("struct:0=raw:f"),
            "field 0=raw:f: a field is a buffer or a scalar");
  EXPECT_EQ(errorOf("struct:4=i8:300"),
            "field 4=i8:300: 300 is out of range for i8 (-128 to 127)");
}

// hk-emu's type names and NumPy's descrs differ where they overlap: "i8" is
// one byte to hk-emu and eight to NumPy.
TEST(KernelArgs, ElementTypes) {
  EXPECT_EQ(elementSizeOf("i8"), 1u);
  EXPECT_EQ(elementSizeOf("u8"), 1u);
  EXPECT_EQ(elementSizeOf("bf16"), 2u);
  EXPECT_EQ(elementSizeOf("f64"), 8u);
  EXPECT_EQ(elementSizeOf("f4"), 0u);
  EXPECT_EQ(npyElementSize("<i8"), 8u);
  EXPECT_EQ(npyElementSize("|u1"), 1u);
  EXPECT_EQ(npyElementSize("f32"), 0u);
  for (const char *type : {"f32", "f16", "f64", "i8", "i16", "i32", "i64", "u8",
                           "u16", "u32", "u64"}) {
    EXPECT_EQ(typeOfNpyDescr(npyDescrOf(type)), type);
    EXPECT_EQ(npyElementSize(npyDescrOf(type)), elementSizeOf(type));
  }
  EXPECT_EQ(npyDescrOf("bf16"), "u2");
  EXPECT_EQ(npyDescrOf("fp8"), "u1");
  EXPECT_EQ(typeOfNpyDescr("b1"), "u8");
  EXPECT_EQ(npyDescrOf("nope"), "");
}

} // namespace
