//===- Launch.h - Run a kernel on host arrays in the emulator -----*- C++
//-*-===//
//
// The one launcher hk-run, the Python package and tests share: stages each
// host array in device memory (an array passed twice is one buffer, as one
// pointer would be on a GPU), packs the kernel arguments by the ABI, runs
// the grid (the one given, or the one the kernel's output tiling fixes)
// with blocks of the kernel's waves, copies every writable array back and
// frees the device memory.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_LAUNCH_H
#define HK_RUNTIME_LAUNCH_H

#include "hk/Emulator/Device.h"
#include "hk/Runtime/HostArray.h"
#include "hk/Runtime/KernelABI.h"

#include <array>
#include <optional>

namespace hk {

/// One kernel argument on the host: an array for a view, a number for a
/// scalar.
struct LaunchArg {
  HostArray *array = nullptr;
  int32_t i32 = 0;
  float f32 = 0;

  static LaunchArg ofArray(HostArray &array) {
    LaunchArg arg;
    arg.array = &array;
    return arg;
  }
  static LaunchArg ofI32(int32_t value) {
    LaunchArg arg;
    arg.i32 = value;
    return arg;
  }
  static LaunchArg ofF32(float value) {
    LaunchArg arg;
    arg.f32 = value;
    return arg;
  }
};

using GridSize = std::array<uint32_t, 3>;

struct LaunchOutcome {
  emu::LaunchResult result;
  GridSize grid{1, 1, 1};
};

/// Checks `args` against `signature` (count, kinds, element types and the
/// ABI's limits) without running anything.
llvm::Error checkLaunchArgs(const KernelSignature &signature,
                            llvm::ArrayRef<LaunchArg> args);

/// Runs `signature`'s kernel of `module` on `args` (see the file comment).
/// Without `grid`, the kernel's grid rule sizes it (an error when it has
/// none).
llvm::Expected<LaunchOutcome>
launchKernel(emu::Device &device, const emu::Module &module,
             const KernelSignature &signature, llvm::ArrayRef<LaunchArg> args,
             std::optional<GridSize> grid, const emu::LaunchOptions &options);

} // namespace hk

#endif // HK_RUNTIME_LAUNCH_H
