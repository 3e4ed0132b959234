//===- HipDevice.h - A GPU through HIP's runtime, for the hk package -*- C++
//-*-===//
//
// hk.Device("hip"): device 0 of a HIP runtime library loaded at run time
// (libamdhip64, or the library HK_HIP_LIBRARY names, such as the project's
// libhkhip), so that the package needs no HIP at build time and imports
// where there is none. Launches stage host arrays with hipMalloc and
// hipMemcpy, pack the kernel arguments with the project's ABI code and
// launch through hipModuleLaunchKernel.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PYTHON_HIPDEVICE_H
#define HK_PYTHON_HIPDEVICE_H

#include "hk/Runtime/Launch.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace hk {

struct ChipInfo;

class HipDevice {
public:
  /// Opens `library` (empty: HK_HIP_LIBRARY, else libamdhip64) and device 0;
  /// an error says what is missing: the library, a device, a chip HK
  /// compiles for.
  static llvm::Expected<std::unique_ptr<HipDevice>>
  open(const std::string &library);
  ~HipDevice();

  const ChipInfo &getChip() const { return *chip; }
  const std::string &getName() const { return name; }
  const std::string &getLibrary() const { return libraryPath; }

  /// Runs `signature`'s kernel of the code object `hsaco` (loaded once per
  /// `moduleKey`) on `args` over `grid` (or the kernel's own grid) and
  /// copies the writable arrays back. Returns the grid it ran and the
  /// wall time of the launch.
  llvm::Expected<std::pair<GridSize, double>>
  launch(uint64_t moduleKey, llvm::StringRef hsaco,
         const KernelSignature &signature, llvm::ArrayRef<LaunchArg> args,
         std::optional<GridSize> grid);

  struct Api;

private:
  HipDevice() = default;
  llvm::Error check(int status, llvm::StringRef call) const;

  void *handle = nullptr;
  std::unique_ptr<Api> api;
  const ChipInfo *chip = nullptr;
  std::string name, libraryPath;
  std::map<uint64_t, void *> modules;
};

} // namespace hk

#endif // HK_PYTHON_HIPDEVICE_H
