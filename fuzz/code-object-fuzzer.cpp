//===- code-object-fuzzer.cpp - Fuzz loading, decoding, running hsaco -----===//
//
// One input is a code object's bytes. It is parsed (ELF, notes, metadata,
// kernel descriptors), loaded into an emulated device of its chip (segments,
// relocations, every instruction decoded), and each of its first kernels
// runs one workgroup of one wave, with its buffer arguments pointing at a
// small zeroed buffer and a watchdog short enough to stop any loop early.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "hk/Emulator/Device.h"
#include "hk/Runtime/CodeObject.h"

#include <algorithm>

using namespace hk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes = fuzz::asString(data, size);
  llvm::Expected<CodeObject> object = CodeObject::parse(bytes);
  if (!object) {
    llvm::consumeError(object.takeError());
    return 0;
  }
  emu::Device device(object->getChip());
  llvm::Expected<std::unique_ptr<emu::Module>> module =
      device.loadModule(bytes);
  if (!module) {
    llvm::consumeError(module.takeError());
    return 0;
  }
  (void)(*module)->unsupportedInstructions();

  emu::DevicePtr buffer = device.malloc(4096, "fuzz");
  emu::LaunchOptions options;
  options.threads = 1;
  options.watchdogInstructions = 20000;
  const std::vector<KernelInfo> &kernels = object->getKernels();
  for (size_t k = 0; k < std::min<size_t>(kernels.size(), 2); ++k) {
    const KernelInfo &kernel = kernels[k];
    emu::KernargBuilder args(kernel);
    bool filled = true;
    for (const KernelArg *arg : kernel.explicitArgs()) {
      llvm::Error error = llvm::Error::success();
      if (arg->valueKind == "global_buffer" && arg->size == 8) {
        error = args.addPointer(buffer);
      } else {
        std::vector<uint8_t> zeros(std::min<uint32_t>(arg->size, 1u << 16));
        error = args.addBytes(zeros.data(), zeros.size(), "fuzz value");
      }
      if (error) {
        llvm::consumeError(std::move(error));
        filled = false;
        break;
      }
    }
    if (!filled)
      continue;
    llvm::Expected<std::vector<uint8_t>> kernargs = args.finish();
    if (!kernargs) {
      llvm::consumeError(kernargs.takeError());
      continue;
    }
    llvm::Expected<emu::LaunchResult> result = device.launch(
        **module, kernel.name, {1, 1, 1}, {64, 1, 1}, *kernargs, options);
    if (!result)
      llvm::consumeError(result.takeError());
  }
  return 0;
}
