//===- DeviceTest.cpp - The host API's memory and argument handling -------===//

#include "hk/Emulator/Device.h"
#include "hk/Support/ChipInfo.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace hk;
using namespace hk::emu;

namespace {

std::string errorText(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "";
}

TEST(Device, MemoryRoundTripAndBounds) {
  Device dev(*ChipInfo::lookup("gfx942"));
  DevicePtr a = dev.malloc(100);
  DevicePtr b = dev.malloc(100);
  EXPECT_NE(a, b);
  // A guard gap separates allocations: running off the end of `a` is not
  // `b`.
  EXPECT_GE(b, a + 100 + 4096);
  int data[25];
  for (int i = 0; i < 25; ++i)
    data[i] = i * 7;
  EXPECT_EQ(errorText(dev.memcpyHtoD(a, data, sizeof(data))), "");
  int back[25] = {};
  EXPECT_EQ(errorText(dev.memcpyDtoH(back, a, sizeof(back))), "");
  EXPECT_EQ(std::memcmp(data, back, sizeof(data)), 0);
  EXPECT_NE(errorText(dev.memcpyHtoD(a + 50, data, 100))
                .find("does not fit in one device allocation"),
            std::string::npos);
  EXPECT_EQ(dev.getMemory().translate(a + 99, 1) != nullptr, true);
  EXPECT_EQ(dev.getMemory().translate(a + 100, 1), nullptr);
  EXPECT_EQ(errorText(dev.free(a)), "");
  EXPECT_NE(errorText(dev.free(a)).find("not the start of a live allocation"),
            std::string::npos);
}

TEST(Device, RefusesAllocationsBeyondTheLimit) {
  Device dev(*ChipInfo::lookup("gfx942"));
  EXPECT_EQ(dev.malloc(kMaxAllocationBytes + 1), 0u);
  EXPECT_EQ(dev.malloc(~0ull), 0u);
  // The refused requests take no address: the next allocation works.
  DevicePtr a = dev.malloc(16);
  EXPECT_NE(a, 0u);
  EXPECT_NE(dev.getMemory().translate(a, 16), nullptr);
}

TEST(GlobalMemory, RuntimeObjectsDoNotMoveBuffers) {
  // A buffer's address is the same whatever runtime objects (code objects,
  // kernarg segments) were allocated before it, and they lie apart from the
  // buffers.
  GlobalMemory plain, withRuntime;
  DevicePtr code =
      withRuntime.allocate(1 << 20, "code object", MemoryRegion::Runtime);
  ASSERT_NE(code, 0u);
  DevicePtr a = plain.allocate(100, "a");
  DevicePtr b = withRuntime.allocate(100, "b");
  EXPECT_EQ(a, b);
  DevicePtr kernargs =
      withRuntime.allocate(256, "kernarg segment", MemoryRegion::Runtime);
  EXPECT_EQ(plain.allocate(100, "c"), withRuntime.allocate(100, "d"));
  EXPECT_LT(kernargs, b);
  EXPECT_GE(kernargs, code + (1 << 20) + 4096);
  EXPECT_NE(withRuntime.translate(kernargs + 255, 1), nullptr);
  EXPECT_NE(withRuntime.find(code, 1 << 20), nullptr);
}

TEST(Device, RejectsNonCodeObjects) {
  Device dev(*ChipInfo::lookup("gfx950"));
  auto module = dev.loadModule("definitely not an ELF file");
  ASSERT_FALSE(bool(module));
  EXPECT_NE(errorText(module.takeError()).find("not an ELF file"),
            std::string::npos);
}

KernelInfo twoArgKernel() {
  KernelInfo k;
  k.name = "k";
  k.kernargSegmentSize = 24;
  k.args.push_back({"p", "global_buffer", "global", 0, 8});
  k.args.push_back({"n", "by_value", "", 8, 4});
  k.args.push_back({"", "hidden_block_count_x", "", 16, 4});
  return k;
}

TEST(KernargBuilder, FillsExplicitArgumentsAtTheirOffsets) {
  KernelInfo k = twoArgKernel();
  KernargBuilder builder(k);
  EXPECT_EQ(builder.expected(), 2u);
  EXPECT_EQ(errorText(builder.addPointer(0x1122334455667788ull)), "");
  EXPECT_EQ(errorText(builder.addI32(-5)), "");
  auto bytes = builder.finish();
  ASSERT_TRUE(bool(bytes));
  ASSERT_EQ(bytes->size(), 24u);
  uint64_t p;
  int32_t n;
  std::memcpy(&p, bytes->data(), 8);
  std::memcpy(&n, bytes->data() + 8, 4);
  EXPECT_EQ(p, 0x1122334455667788ull);
  EXPECT_EQ(n, -5);
}

TEST(KernargBuilder, ReportsWrongSizesAndCounts) {
  KernelInfo k = twoArgKernel();
  KernargBuilder builder(k);
  std::string message = errorText(builder.addU32(1));
  EXPECT_NE(message.find("is 8 bytes"), std::string::npos) << message;
  EXPECT_EQ(errorText(builder.addPointer(0)), "");
  auto early = builder.finish();
  ASSERT_FALSE(bool(early));
  EXPECT_NE(
      errorText(early.takeError()).find("takes 2 explicit argument(s), got 1"),
      std::string::npos);
  EXPECT_EQ(errorText(builder.addU32(3)), "");
  EXPECT_NE(errorText(builder.addU32(4)).find("got one more"),
            std::string::npos);
}

} // namespace
