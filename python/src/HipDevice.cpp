//===- HipDevice.cpp - A GPU through HIP's runtime, for the hk package ----===//

#include "HipDevice.h"

#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <dlfcn.h>

#include <hip/hip_runtime_api.h>

using namespace hk;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

// The entry points used, typed as HIP's header declares them: calling a
// function through a pointer of another type (int for hipError_t, say) is
// undefined, and UBSan reports it when the runtime is instrumented.
// hipGetDevicePropertiesR0600 (HIP 6) has hipGetDeviceProperties' type.
struct HipDevice::Api {
  hipError_t (*getDeviceCount)(int *);
  hipError_t (*setDevice)(int);
  hipError_t (*getDeviceProperties)(hipDeviceProp_t *, int);
  hipError_t (*malloc)(void **, size_t);
  hipError_t (*free)(void *);
  hipError_t (*memcpy)(void *, const void *, size_t, hipMemcpyKind);
  hipError_t (*moduleLoadData)(hipModule_t *, const void *);
  hipError_t (*moduleUnload)(hipModule_t);
  hipError_t (*moduleGetFunction)(hipFunction_t *, hipModule_t, const char *);
  hipError_t (*moduleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, unsigned, unsigned,
                                   hipStream_t, void **, void **);
  hipError_t (*deviceSynchronize)();
  const char *(*getErrorString)(hipError_t);
  const char *(*getErrorName)(hipError_t);
};

namespace {

/// The chip in gcnArchName ("gfx942:sramecc+:xnack-"). The properties
/// struct changed layout across HIP versions; the architecture name is the
/// one field that starts with "gfx", so it is found by content.
std::string findArchName(const std::vector<char> &props) {
  for (size_t at = 0; at + 4 < props.size(); ++at) {
    if (std::strncmp(props.data() + at, "gfx", 3) != 0 ||
        (at && props[at - 1] != '\0'))
      continue;
    std::string text(props.data() + at,
                     strnlen(props.data() + at, props.size() - at));
    return text.substr(0, text.find(':'));
  }
  return "";
}
} // namespace

llvm::Error HipDevice::check(int status, llvm::StringRef call) const {
  if (status == 0)
    return llvm::Error::success();
  hipError_t error = hipError_t(status);
  return makeError(call + " failed: " + api->getErrorName(error) + " (" +
                   api->getErrorString(error) + ")");
}

llvm::Expected<std::unique_ptr<HipDevice>>
HipDevice::open(const std::string &library) {
  std::string path = library;
  if (path.empty())
    if (const char *env = std::getenv("HK_HIP_LIBRARY"))
      path = env;
  std::vector<std::string> candidates;
  if (!path.empty())
    candidates = {path};
  else
    candidates = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"};
  void *handle = nullptr;
  std::string errors;
  for (const std::string &candidate : candidates) {
    handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      path = candidate;
      break;
    }
    errors += (errors.empty() ? "" : "; ") + std::string(dlerror());
  }
  if (!handle)
    return makeError("no HIP runtime: cannot load " +
                     llvm::join(candidates, " or ") + " (" + errors +
                     "); install ROCm's HIP runtime or set HK_HIP_LIBRARY");

  std::unique_ptr<HipDevice> device(new HipDevice);
  device->handle = handle;
  device->libraryPath = path;
  device->api = std::make_unique<Api>();
  Api &api = *device->api;
  std::string missing;
  auto bind = [&](auto &slot, const char *symbol) {
    void *address = dlsym(handle, symbol);
    if (!address)
      missing += (missing.empty() ? "" : ", ") + std::string(symbol);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(address);
  };
  bind(api.getDeviceCount, "hipGetDeviceCount");
  bind(api.setDevice, "hipSetDevice");
  // HIP 6 renamed the properties call with its new struct layout.
  if (dlsym(handle, "hipGetDevicePropertiesR0600"))
    bind(api.getDeviceProperties, "hipGetDevicePropertiesR0600");
  else
    bind(api.getDeviceProperties, "hipGetDeviceProperties");
  bind(api.malloc, "hipMalloc");
  bind(api.free, "hipFree");
  bind(api.memcpy, "hipMemcpy");
  bind(api.moduleLoadData, "hipModuleLoadData");
  bind(api.moduleUnload, "hipModuleUnload");
  bind(api.moduleGetFunction, "hipModuleGetFunction");
  bind(api.moduleLaunchKernel, "hipModuleLaunchKernel");
  bind(api.deviceSynchronize, "hipDeviceSynchronize");
  bind(api.getErrorString, "hipGetErrorString");
  bind(api.getErrorName, "hipGetErrorName");
  if (!missing.empty())
    return makeError(path + " is not a HIP runtime: it lacks " + missing);

  int count = 0;
  hipError_t status = api.getDeviceCount(&count);
  if (status != 0 || count == 0)
    return makeError(
        "no HIP device: hipGetDeviceCount says " +
        llvm::Twine(status ? api.getErrorName(status) : "0 devices") +
        " (with " + path + ")");
  if (llvm::Error error = device->check(api.setDevice(0), "hipSetDevice(0)"))
    return std::move(error);
  // Larger than hipDeviceProp_t of any HIP version so far.
  std::vector<char> props(16384, 0);
  if (llvm::Error error = device->check(
          api.getDeviceProperties(
              reinterpret_cast<hipDeviceProp_t *>(props.data()), 0),
          "hipGetDeviceProperties"))
    return std::move(error);
  device->name = std::string(props.data(), strnlen(props.data(), 256));
  std::string arch = findArchName(props);
  device->chip = ChipInfo::lookup(arch);
  if (!device->chip)
    return makeError("HIP device 0 (" + device->name + ") is " +
                     (arch.empty() ? std::string("of an unknown architecture")
                                   : "a " + arch) +
                     "; hk compiles for " + ChipInfo::knownChipNames());
  return device;
}

HipDevice::~HipDevice() {
  if (api)
    for (auto &entry : modules)
      (void)api->moduleUnload(static_cast<hipModule_t>(entry.second));
  // The runtime stays loaded: HIP runtimes do not support being unloaded
  // while the process runs.
}

llvm::Expected<std::pair<GridSize, double>> HipDevice::launch(
    uint64_t moduleKey, llvm::StringRef hsaco, const KernelSignature &signature,
    llvm::ArrayRef<LaunchArg> args, std::optional<GridSize> grid) {
  if (llvm::Error error = checkLaunchArgs(signature, args))
    return std::move(error);
  std::vector<ArgValue> values;
  for (auto [i, param] : llvm::enumerate(signature.params)) {
    if (param.kind == KernelParam::I32) {
      values.push_back(ArgValue::ofI32(args[i].i32));
      continue;
    }
    if (param.kind == KernelParam::F32) {
      values.push_back(ArgValue::ofF32(args[i].f32));
      continue;
    }
    ViewValue view;
    view.sizes.assign(args[i].array->getSizes().begin(),
                      args[i].array->getSizes().end());
    view.strides.assign(args[i].array->getStrides().begin(),
                        args[i].array->getStrides().end());
    values.push_back(ArgValue::ofView(std::move(view)));
  }
  GridSize dims = grid.value_or(GridSize{1, 1, 1});
  if (!grid) {
    auto computed = computeGrid(signature, values);
    if (!computed)
      return computed.takeError();
    dims = *computed;
  }

  auto &slot = modules[moduleKey];
  hipModule_t module = static_cast<hipModule_t>(slot);
  if (!module) {
    if (llvm::Error error = check(api->moduleLoadData(&module, hsaco.data()),
                                  "hipModuleLoadData")) {
      modules.erase(moduleKey);
      return std::move(error);
    }
    slot = module;
  }
  hipFunction_t function = nullptr;
  if (llvm::Error error = check(
          api->moduleGetFunction(&function, module, signature.name.c_str()),
          "hipModuleGetFunction(" + signature.name + ")"))
    return std::move(error);

  // One buffer per distinct array, as one pointer would be; freed on every
  // path out.
  struct Buffer {
    HostArray *array;
    void *device;
  };
  std::vector<Buffer> buffers;
  auto release = [&] {
    for (Buffer &buffer : buffers)
      (void)api->free(buffer.device); // Cleanup: the first error is kept.
  };
  for (auto [i, param] : llvm::enumerate(signature.params)) {
    if (param.kind != KernelParam::View)
      continue;
    HostArray *array = args[i].array;
    auto same = llvm::find_if(buffers, [&](const Buffer &buffer) {
      return buffer.array->getData() == array->getData();
    });
    void *address = same != buffers.end() ? same->device : nullptr;
    if (!address) {
      llvm::Error error = check(
          api->malloc(&address, std::max<uint64_t>(array->getByteSize(), 1)),
          "hipMalloc");
      if (!error && array->getByteSize())
        error = check(api->memcpy(address, array->getData(),
                                  array->getByteSize(), hipMemcpyHostToDevice),
                      "hipMemcpy (to the device)");
      if (address)
        buffers.push_back({array, address});
      if (error) {
        release();
        return std::move(error);
      }
    }
    values[i].view.address = uint64_t(uintptr_t(address));
  }
  auto kernargs = packKernelArgs(signature, values);
  if (!kernargs) {
    release();
    return kernargs.takeError();
  }
  size_t size = kernargs->size();
  void *config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, kernargs->data(),
                    HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  auto start = std::chrono::steady_clock::now();
  llvm::Error error =
      check(api->moduleLaunchKernel(function, dims[0], dims[1], dims[2],
                                    signature.blockSize(), 1, 1, 0, nullptr,
                                    nullptr, config),
            "hipModuleLaunchKernel(" + signature.name + ")");
  if (!error)
    error = check(api->deviceSynchronize(), "hipDeviceSynchronize");
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  for (Buffer &buffer : buffers) {
    if (error || !buffer.array->isWritable() || !buffer.array->getByteSize())
      continue;
    error =
        check(api->memcpy(buffer.array->getData(), buffer.device,
                          buffer.array->getByteSize(), hipMemcpyDeviceToHost),
              "hipMemcpy (from the device)");
  }
  release();
  if (error)
    return std::move(error);
  return std::make_pair(dims, seconds);
}
