//===- Launch.cpp - Run a kernel on host arrays in the emulator -----------===//

#include "hk/Runtime/Launch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace hk;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The ABI's values for `args`, with each array at `addresses[i]` (0 before
/// staging).
static std::vector<ArgValue> toArgValues(const KernelSignature &signature,
                                         llvm::ArrayRef<LaunchArg> args,
                                         llvm::ArrayRef<uint64_t> addresses) {
  std::vector<ArgValue> values;
  for (auto [i, param] : llvm::enumerate(signature.params)) {
    const LaunchArg &arg = args[i];
    if (param.kind == KernelParam::I32) {
      values.push_back(ArgValue::ofI32(arg.i32));
      continue;
    }
    if (param.kind == KernelParam::F32) {
      values.push_back(ArgValue::ofF32(arg.f32));
      continue;
    }
    ViewValue view;
    view.address = addresses.empty() ? 0 : addresses[i];
    view.sizes.assign(arg.array->getSizes().begin(),
                      arg.array->getSizes().end());
    view.strides.assign(arg.array->getStrides().begin(),
                        arg.array->getStrides().end());
    values.push_back(ArgValue::ofView(std::move(view)));
  }
  return values;
}

llvm::Error hk::checkLaunchArgs(const KernelSignature &signature,
                                llvm::ArrayRef<LaunchArg> args) {
  if (args.size() != signature.params.size())
    return makeError("kernel '" + signature.name + "' takes " +
                     llvm::Twine(signature.params.size()) + " arguments, got " +
                     llvm::Twine(args.size()));
  for (auto [i, param] : llvm::enumerate(signature.params)) {
    if (param.kind != KernelParam::View)
      continue;
    const HostArray *array = args[i].array;
    std::string where = "kernel '" + signature.name + "' argument " +
                        std::to_string(i) + " (" + getParamName(signature, i) +
                        ")";
    if (!array)
      return makeError(where + " is a view and takes an array");
    if (array->getType().name != param.elementType)
      return makeError(where + " holds " + param.elementType +
                       " elements, got an array of " + array->getType().name);
  }
  // The ABI's own checks (ranks, static sizes, strides, 32-bit limits);
  // addresses are checked once staged.
  std::vector<uint64_t> aligned(args.size(), 0);
  return packKernelArgs(signature, toArgValues(signature, args, aligned))
      .takeError();
}

namespace {
/// Device copies of a launch's arrays, freed when the launch is over.
class StagedArrays {
public:
  explicit StagedArrays(emu::Device &device) : device(device) {}
  StagedArrays(const StagedArrays &) = delete;
  StagedArrays &operator=(const StagedArrays &) = delete;
  ~StagedArrays() {
    for (const Staged &staged : arrays)
      llvm::consumeError(device.free(staged.address));
  }

  /// The device copy of `array`, made on first use.
  llvm::Expected<uint64_t> stage(HostArray &array, llvm::StringRef label) {
    for (const Staged &staged : arrays)
      if (staged.array->getData() == array.getData())
        return staged.address;
    uint64_t address = device.malloc(array.getByteSize(), label);
    if (!address)
      return makeError("cannot allocate " + llvm::Twine(array.getByteSize()) +
                       " bytes of device memory for " + label);
    arrays.push_back({&array, address});
    if (llvm::Error error =
            device.memcpyHtoD(address, array.getData(), array.getByteSize()))
      return std::move(error);
    return address;
  }

  /// Copies every writable array back.
  llvm::Error readBack() {
    for (const Staged &staged : arrays)
      if (staged.array->isWritable())
        if (llvm::Error error =
                device.memcpyDtoH(staged.array->getData(), staged.address,
                                  staged.array->getByteSize()))
          return error;
    return llvm::Error::success();
  }

private:
  struct Staged {
    HostArray *array;
    uint64_t address;
  };
  emu::Device &device;
  std::vector<Staged> arrays;
};
} // namespace

llvm::Expected<LaunchOutcome>
hk::launchKernel(emu::Device &device, const emu::Module &module,
                 const KernelSignature &signature,
                 llvm::ArrayRef<LaunchArg> args, std::optional<GridSize> grid,
                 const emu::LaunchOptions &options) {
  if (llvm::Error error = checkLaunchArgs(signature, args))
    return std::move(error);
  LaunchOutcome outcome;
  if (grid) {
    outcome.grid = *grid;
  } else {
    auto computed = computeGrid(
        signature,
        toArgValues(signature, args, std::vector<uint64_t>(args.size(), 0)));
    if (!computed)
      return computed.takeError();
    outcome.grid = *computed;
  }

  StagedArrays staged(device);
  std::vector<uint64_t> addresses(args.size(), 0);
  for (auto [i, param] : llvm::enumerate(signature.params))
    if (param.kind == KernelParam::View) {
      auto address = staged.stage(*args[i].array, getParamName(signature, i));
      if (!address)
        return address.takeError();
      addresses[i] = *address;
    }
  auto kernargs =
      packKernelArgs(signature, toArgValues(signature, args, addresses));
  if (!kernargs)
    return kernargs.takeError();
  auto result =
      device.launch(module, signature.name,
                    {outcome.grid[0], outcome.grid[1], outcome.grid[2]},
                    {signature.blockSize(), 1, 1}, *kernargs, options);
  if (!result)
    return result.takeError();
  if (llvm::Error error = staged.readBack())
    return std::move(error);
  outcome.result = std::move(*result);
  return outcome;
}
