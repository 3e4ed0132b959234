//===- HipRuntime.cpp - HIP's runtime and module API over hk-emu ----------===//
//
// libhkhip.so: the part of HIP's runtime API a host program needs to load
// code objects and launch their kernels, implemented over the emulator
// (hk::emu::Device), so that a program written against HIP (and compiled
// against HIP's own headers, which declare every function here) runs on a
// machine without an AMD GPU by linking this library instead of
// libamdhip64.
//
// One device, whose chip HK_HIP_CHIP names (gfx942 or gfx950; gfx950 when
// unset). Every operation runs to completion before its call returns, so
// streams and events are trivially in order: an event records when the
// operations before it finished, hipStreamWaitEvent has nothing to wait
// for. A kernel runs with the emulator's sanitizers on (HK_HIP_SANITIZERS=0
// turns them off); a sanitizer report or an emulator stop fails the launch:
// hipModuleLaunchKernel returns the error (hipErrorIllegalAddress for
// out-of-bounds accesses, hipErrorLaunchTimeOut for the watchdog,
// hipErrorLaunchFailure otherwise), the next synchronizing call on the
// stream (hipStreamSynchronize, hipDeviceSynchronize, hipEventSynchronize,
// hipMemcpy on the null stream) returns it once more, and the reports go
// to stderr. Every failing call prints its reason to stderr as
// "hk-hip: error: ..." (HK_HIP_QUIET=1 keeps quiet).
//
// Device pointers are the emulator's addresses: the host cannot dereference
// them, as with discrete GPU memory.
//
//===----------------------------------------------------------------------===//

#include "hk/Emulator/Device.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unistd.h>

using namespace hk;

struct ihipModuleSymbol_t {
  ihipModule_t *module = nullptr;
  const KernelInfo *kernel = nullptr;
};

struct ihipModule_t {
  std::unique_ptr<emu::Module> module;
  std::map<std::string, std::unique_ptr<ihipModuleSymbol_t>> functions;
};

struct ihipStream_t {
  unsigned flags = 0;
  /// The first failure of a kernel on this stream not yet returned by a
  /// synchronizing call.
  hipError_t pending = hipSuccess;
};

struct ihipEvent_t {
  bool recorded = false;
  std::chrono::steady_clock::time_point time;
  ihipStream_t *stream = nullptr;
};

namespace {

thread_local hipError_t lastError = hipSuccess;

/// The process's one emulated device and every live handle.
struct Runtime {
  const ChipInfo *chip = nullptr;
  std::unique_ptr<emu::Device> device;
  std::string setupError;
  emu::LaunchOptions launchOptions;
  bool quiet = false;
  ihipStream_t nullStream;
  std::set<ihipModule_t *> modules;
  std::set<ihipModuleSymbol_t *> functions;
  std::set<ihipStream_t *> streams;
  std::set<ihipEvent_t *> events;
  std::recursive_mutex mutex;

  Runtime() {
    quiet = envFlag("HK_HIP_QUIET", false);
    const char *chipName = std::getenv("HK_HIP_CHIP");
    llvm::StringRef name = chipName && *chipName ? chipName : "gfx950";
    chip = ChipInfo::lookup(name);
    if (!chip) {
      setupError = ("HK_HIP_CHIP='" + name + "' is not a chip the emulator " +
                    "knows (" + ChipInfo::knownChipNames() + ")")
                       .str();
      return;
    }
    device = std::make_unique<emu::Device>(*chip);
    if (!envFlag("HK_HIP_SANITIZERS", true))
      launchOptions.sanitizers = emu::SanitizerOptions::none();
    if (const char *watchdog = std::getenv("HK_HIP_WATCHDOG")) {
      uint64_t instructions;
      if (llvm::StringRef(watchdog).getAsInteger(10, instructions) ||
          instructions == 0) {
        setupError = "HK_HIP_WATCHDOG='" + std::string(watchdog) +
                     "' is not a positive number of wave-instructions";
        device.reset();
        return;
      }
      launchOptions.watchdogInstructions = instructions;
    }
  }

  static bool envFlag(const char *name, bool fallback) {
    const char *value = std::getenv(name);
    if (!value || !*value)
      return fallback;
    return llvm::StringRef(value) != "0";
  }

  ihipStream_t *resolve(hipStream_t stream) {
    return stream ? stream : &nullStream;
  }
};

Runtime &runtime() {
  static Runtime instance;
  return instance;
}

/// Records `code` as the thread's last error (when it is one), prints
/// `message` unless quiet, and returns `code`.
hipError_t fail(hipError_t code, const llvm::Twine &message) {
  lastError = code;
  if (!runtime().quiet)
    llvm::errs() << "hk-hip: error: " << message << "\n";
  return code;
}

hipError_t fail(hipError_t code, llvm::Error error) {
  return fail(code, llvm::toString(std::move(error)));
}

hipError_t ok() { return hipSuccess; }

/// The device, or an error when HK_HIP_CHIP or HK_HIP_WATCHDOG is wrong.
#define HK_HIP_DEVICE_OR_RETURN(rt)                                            \
  Runtime &rt = runtime();                                                     \
  std::lock_guard<std::recursive_mutex> lock(rt.mutex);                        \
  if (!rt.device)                                                              \
  return fail(hipErrorNoDevice, rt.setupError)

bool isDevicePointer(Runtime &rt, const void *ptr, size_t bytes) {
  return rt.device->getMemory().find(uint64_t(uintptr_t(ptr)),
                                     std::max<size_t>(bytes, 1)) != nullptr;
}

std::string hex(const void *ptr) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", ptr);
  return text;
}

/// A synchronizing call's view of `stream`: its pending kernel failure,
/// returned once.
hipError_t takePending(ihipStream_t *stream) {
  hipError_t pending = stream->pending;
  stream->pending = hipSuccess;
  if (pending != hipSuccess)
    lastError = pending;
  return pending;
}

/// The code object's size, from its ELF headers: the end of the last
/// section or segment, or of the header tables.
llvm::Expected<size_t> elfImageSize(const void *image) {
  constexpr size_t kMaxImageBytes = size_t(1) << 30;
  auto *header = static_cast<const llvm::ELF::Elf64_Ehdr *>(image);
  if (std::memcmp(header->e_ident, llvm::ELF::ElfMagic, 4) != 0 ||
      header->e_ident[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the image is not a 64-bit ELF code object");
  uint64_t end = sizeof(llvm::ELF::Elf64_Ehdr);
  auto extend = [&](uint64_t offset, uint64_t size) {
    if (offset <= kMaxImageBytes && size <= kMaxImageBytes)
      end = std::max(end, offset + size);
  };
  extend(header->e_phoff,
         uint64_t(header->e_phnum) * sizeof(llvm::ELF::Elf64_Phdr));
  extend(header->e_shoff,
         uint64_t(header->e_shnum) * sizeof(llvm::ELF::Elf64_Shdr));
  if (end > kMaxImageBytes ||
      header->e_shentsize != sizeof(llvm::ELF::Elf64_Shdr))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the image's ELF header is malformed");
  auto *bytes = static_cast<const uint8_t *>(image);
  for (unsigned i = 0; i < header->e_shnum; ++i) {
    llvm::ELF::Elf64_Shdr section;
    std::memcpy(&section, bytes + header->e_shoff + i * sizeof section,
                sizeof section);
    if (section.sh_type != llvm::ELF::SHT_NOBITS)
      extend(section.sh_offset, section.sh_size);
  }
  for (unsigned i = 0; i < header->e_phnum; ++i) {
    llvm::ELF::Elf64_Phdr segment;
    std::memcpy(&segment, bytes + header->e_phoff + i * sizeof segment,
                sizeof segment);
    extend(segment.p_offset, segment.p_filesz);
  }
  if (end > kMaxImageBytes)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the image's ELF header is malformed");
  return size_t(end);
}

hipError_t loadModule(Runtime &rt, hipModule_t *module, llvm::StringRef image) {
  auto loaded = rt.device->loadModule(image);
  if (!loaded)
    return fail(hipErrorInvalidImage, loaded.takeError());
  auto handle = std::make_unique<ihipModule_t>();
  handle->module = std::move(*loaded);
  *module = handle.get();
  rt.modules.insert(handle.release());
  return ok();
}

/// The kernarg bytes of a launch from either of hipModuleLaunchKernel's
/// argument forms.
hipError_t collectKernargs(const KernelInfo &kernel, void **kernelParams,
                           void **extra, std::vector<uint8_t> &kernargs) {
  if (kernelParams && extra)
    return fail(hipErrorInvalidValue,
                "pass kernel arguments in kernelParams or in extra, not both");
  if (kernelParams) {
    emu::KernargBuilder builder(kernel);
    for (unsigned i = 0; i < builder.expected(); ++i) {
      const KernelArg *arg = kernel.explicitArgs()[i];
      if (!kernelParams[i])
        return fail(hipErrorInvalidValue, "kernelParams[" + llvm::Twine(i) +
                                              "] (" + arg->name + ") is null");
      if (llvm::Error error =
              builder.addBytes(kernelParams[i], arg->size, arg->name))
        return fail(hipErrorInvalidValue, std::move(error));
    }
    auto bytes = builder.finish();
    if (!bytes)
      return fail(hipErrorInvalidValue, bytes.takeError());
    kernargs = std::move(*bytes);
    return ok();
  }
  const void *buffer = nullptr;
  const size_t *size = nullptr;
  for (unsigned i = 0; extra && extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER)
      buffer = extra[i + 1];
    else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE)
      size = static_cast<const size_t *>(extra[i + 1]);
    else
      return fail(hipErrorInvalidValue,
                  "extra[" + llvm::Twine(i) +
                      "] is not HIP_LAUNCH_PARAM_BUFFER_POINTER, "
                      "HIP_LAUNCH_PARAM_BUFFER_SIZE or HIP_LAUNCH_PARAM_END");
  }
  if (!buffer || !size) {
    if (kernel.explicitArgs().empty())
      return ok();
    return fail(hipErrorInvalidValue,
                "kernel '" + kernel.name +
                    "' takes arguments: pass them in kernelParams or as "
                    "HIP_LAUNCH_PARAM_BUFFER_POINTER and _SIZE in extra");
  }
  auto *bytes = static_cast<const uint8_t *>(buffer);
  kernargs.assign(bytes, bytes + *size);
  return ok();
}

/// The HIP error of a launch that ran and reported, or hipSuccess.
hipError_t reportsError(const emu::LaunchResult &result) {
  if (!result.totalReports)
    return hipSuccess;
  for (const emu::SanitizerReport &report : result.reports)
    if (llvm::StringRef(emu::stringifyReportKind(report.kind))
            .contains("out-of-bounds"))
      return hipErrorIllegalAddress;
  return hipErrorLaunchFailure;
}

} // namespace

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

extern "C" {

hipError_t hipGetLastError(void) {
  hipError_t error = lastError;
  lastError = hipSuccess;
  return error;
}

hipError_t hipPeekAtLastError(void) { return lastError; }

const char *hipGetErrorName(hipError_t error) {
  switch (error) {
#define HK_HIP_NAME(code)                                                      \
  case code:                                                                   \
    return #code;
    HK_HIP_NAME(hipSuccess)
    HK_HIP_NAME(hipErrorInvalidValue)
    HK_HIP_NAME(hipErrorOutOfMemory)
    HK_HIP_NAME(hipErrorNotInitialized)
    HK_HIP_NAME(hipErrorInvalidConfiguration)
    HK_HIP_NAME(hipErrorInvalidSymbol)
    HK_HIP_NAME(hipErrorInvalidDevicePointer)
    HK_HIP_NAME(hipErrorInvalidMemcpyDirection)
    HK_HIP_NAME(hipErrorInvalidDeviceFunction)
    HK_HIP_NAME(hipErrorNoDevice)
    HK_HIP_NAME(hipErrorInvalidDevice)
    HK_HIP_NAME(hipErrorInvalidImage)
    HK_HIP_NAME(hipErrorFileNotFound)
    HK_HIP_NAME(hipErrorInvalidHandle)
    HK_HIP_NAME(hipErrorNotFound)
    HK_HIP_NAME(hipErrorNotReady)
    HK_HIP_NAME(hipErrorIllegalAddress)
    HK_HIP_NAME(hipErrorLaunchOutOfResources)
    HK_HIP_NAME(hipErrorLaunchTimeOut)
    HK_HIP_NAME(hipErrorLaunchFailure)
    HK_HIP_NAME(hipErrorNotSupported)
#undef HK_HIP_NAME
  default:
    return "hipErrorUnknown";
  }
}

const char *hipGetErrorString(hipError_t error) {
  switch (error) {
  case hipSuccess:
    return "no error";
  case hipErrorInvalidValue:
    return "invalid argument";
  case hipErrorOutOfMemory:
    return "out of memory";
  case hipErrorInvalidConfiguration:
    return "invalid configuration argument";
  case hipErrorInvalidSymbol:
    return "invalid device symbol";
  case hipErrorInvalidDevicePointer:
    return "invalid device pointer";
  case hipErrorInvalidMemcpyDirection:
    return "invalid copy direction for memcpy";
  case hipErrorNoDevice:
    return "no ROCm-capable device is detected";
  case hipErrorInvalidDevice:
    return "invalid device ordinal";
  case hipErrorInvalidImage:
    return "device kernel image is invalid";
  case hipErrorFileNotFound:
    return "file not found";
  case hipErrorInvalidHandle:
    return "invalid resource handle";
  case hipErrorNotFound:
    return "named symbol not found";
  case hipErrorNotReady:
    return "device not ready";
  case hipErrorIllegalAddress:
    return "an illegal memory access was encountered";
  case hipErrorLaunchOutOfResources:
    return "too many resources requested for launch";
  case hipErrorLaunchTimeOut:
    return "the launch timed out and was terminated";
  case hipErrorLaunchFailure:
    return "unspecified launch failure";
  case hipErrorNotSupported:
    return "operation not supported";
  default:
    return "unknown error";
  }
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

hipError_t hipInit(unsigned int flags) {
  if (flags != 0)
    return fail(hipErrorInvalidValue, "hipInit takes flags 0");
  HK_HIP_DEVICE_OR_RETURN(rt);
  return ok();
}

hipError_t hipDriverGetVersion(int *version) {
  if (!version)
    return fail(hipErrorInvalidValue, "hipDriverGetVersion: null pointer");
  *version = HIP_VERSION;
  return ok();
}

hipError_t hipRuntimeGetVersion(int *version) {
  return hipDriverGetVersion(version);
}

hipError_t hipGetDeviceCount(int *count) {
  if (!count)
    return fail(hipErrorInvalidValue, "hipGetDeviceCount: null pointer");
  *count = 0;
  HK_HIP_DEVICE_OR_RETURN(rt);
  *count = 1;
  return ok();
}

hipError_t hipSetDevice(int device) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (device != 0)
    return fail(hipErrorInvalidDevice,
                "device " + llvm::Twine(device) +
                    " does not exist; the emulator has device 0");
  return ok();
}

hipError_t hipGetDevice(int *device) {
  if (!device)
    return fail(hipErrorInvalidValue, "hipGetDevice: null pointer");
  HK_HIP_DEVICE_OR_RETURN(rt);
  *device = 0;
  return ok();
}

hipError_t hipDeviceGetName(char *name, int length, hipDevice_t device) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (device != 0)
    return fail(hipErrorInvalidDevice,
                "device " + llvm::Twine(device) + " does not exist");
  if (!name || length <= 0)
    return fail(hipErrorInvalidValue, "hipDeviceGetName: no buffer");
  std::string text =
      ("AMD Instinct " + rt.chip->products + " (hk-emu " + rt.chip->name + ")")
          .str();
  std::snprintf(name, size_t(length), "%s", text.c_str());
  return ok();
}

/// Host memory the emulated device can use: its global memory is host
/// memory.
static size_t hostMemoryBytes() {
  return size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGE_SIZE));
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *props, int device) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!props)
    return fail(hipErrorInvalidValue, "hipGetDeviceProperties: null pointer");
  if (device != 0)
    return fail(hipErrorInvalidDevice,
                "device " + llvm::Twine(device) + " does not exist");
  const ChipInfo &chip = *rt.chip;
  std::memset(props, 0, sizeof *props);
  std::string name =
      ("AMD Instinct " + chip.products + " (hk-emu " + chip.name + ")").str();
  std::snprintf(props->name, sizeof props->name, "%s", name.c_str());
  std::snprintf(props->gcnArchName, sizeof props->gcnArchName,
                "%s:sramecc+:xnack-", chip.name.str().c_str());
  unsigned version = 0;
  chip.name.drop_front(3).getAsInteger(10, version);
  props->gcnArch = int(version);
  props->major = int(version / 100);
  props->minor = int(version % 100 / 10);
  props->totalGlobalMem = hostMemoryBytes();
  props->sharedMemPerBlock = chip.ldsBytesPerWorkgroup;
  props->maxSharedMemoryPerMultiProcessor = chip.ldsBytesPerWorkgroup;
  props->regsPerBlock = int(chip.vgprsPerSimdLane * chip.waveSize);
  props->warpSize = int(chip.waveSize);
  props->maxThreadsPerBlock = 1024;
  props->maxThreadsDim[0] = props->maxThreadsDim[1] = props->maxThreadsDim[2] =
      1024;
  props->maxGridSize[0] = props->maxGridSize[1] = props->maxGridSize[2] =
      0x7fffffff;
  props->multiProcessorCount = int(chip.computeUnits);
  props->maxThreadsPerMultiProcessor =
      int(chip.simdsPerCU * chip.maxWavesPerSimd * chip.waveSize);
  props->concurrentKernels = 0;
  props->canMapHostMemory = 0;
  props->memPitch = size_t(1) << 31;
  props->textureAlignment = 256;
  return ok();
}

hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attribute,
                                 int device) {
  if (!value)
    return fail(hipErrorInvalidValue, "hipDeviceGetAttribute: null pointer");
  hipDeviceProp_t props;
  if (hipError_t error = hipGetDeviceProperties(&props, device))
    return error;
  switch (attribute) {
  case hipDeviceAttributeMaxThreadsPerBlock:
    *value = props.maxThreadsPerBlock;
    return ok();
  case hipDeviceAttributeWarpSize:
    *value = props.warpSize;
    return ok();
  case hipDeviceAttributeMultiprocessorCount:
    *value = props.multiProcessorCount;
    return ok();
  case hipDeviceAttributeMaxSharedMemoryPerBlock:
    *value = int(props.sharedMemPerBlock);
    return ok();
  case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
    *value = int(props.maxSharedMemoryPerMultiProcessor);
    return ok();
  case hipDeviceAttributeComputeCapabilityMajor:
    *value = props.major;
    return ok();
  case hipDeviceAttributeComputeCapabilityMinor:
    *value = props.minor;
    return ok();
  case hipDeviceAttributeMaxBlockDimX:
  case hipDeviceAttributeMaxBlockDimY:
  case hipDeviceAttributeMaxBlockDimZ:
    *value = props.maxThreadsDim[0];
    return ok();
  case hipDeviceAttributeMaxGridDimX:
  case hipDeviceAttributeMaxGridDimY:
  case hipDeviceAttributeMaxGridDimZ:
    *value = props.maxGridSize[0];
    return ok();
  case hipDeviceAttributeMaxThreadsPerMultiProcessor:
    *value = props.maxThreadsPerMultiProcessor;
    return ok();
  case hipDeviceAttributeMaxRegistersPerBlock:
    *value = props.regsPerBlock;
    return ok();
  default:
    return fail(hipErrorInvalidValue, "hipDeviceGetAttribute: attribute " +
                                          llvm::Twine(attribute) +
                                          " is not one the emulator reports");
  }
}

hipError_t hipDeviceSynchronize(void) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  hipError_t first = takePending(&rt.nullStream);
  for (ihipStream_t *stream : rt.streams) {
    hipError_t error = takePending(stream);
    if (first == hipSuccess)
      first = error;
  }
  return first;
}

hipError_t hipDeviceReset(void) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  for (ihipModule_t *module : rt.modules)
    delete module;
  for (ihipStream_t *stream : rt.streams)
    delete stream;
  for (ihipEvent_t *event : rt.events)
    delete event;
  rt.modules.clear();
  rt.functions.clear();
  rt.streams.clear();
  rt.events.clear();
  rt.nullStream.pending = hipSuccess;
  rt.device = std::make_unique<emu::Device>(*rt.chip);
  return ok();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

hipError_t hipMalloc(void **ptr, size_t size) {
  if (!ptr)
    return fail(hipErrorInvalidValue, "hipMalloc: null pointer");
  *ptr = nullptr;
  HK_HIP_DEVICE_OR_RETURN(rt);
  emu::DevicePtr address = rt.device->malloc(size, "hipMalloc");
  if (!address)
    return fail(hipErrorOutOfMemory,
                "hipMalloc of " + llvm::Twine(size) +
                    " bytes: beyond the emulator's largest allocation (" +
                    llvm::Twine(emu::kMaxAllocationBytes) +
                    " bytes) or the host's memory");
  *ptr = reinterpret_cast<void *>(uintptr_t(address));
  return ok();
}

hipError_t hipFree(void *ptr) {
  if (!ptr)
    return ok();
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (llvm::Error error = rt.device->free(uint64_t(uintptr_t(ptr))))
    return fail(hipErrorInvalidValue, std::move(error));
  return ok();
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int) {
  if (!ptr)
    return fail(hipErrorInvalidValue, "hipHostMalloc: null pointer");
  *ptr = std::malloc(std::max<size_t>(size, 1));
  if (!*ptr)
    return fail(hipErrorOutOfMemory,
                "hipHostMalloc of " + llvm::Twine(size) + " bytes");
  return ok();
}

hipError_t hipHostFree(void *ptr) {
  std::free(ptr);
  return ok();
}

hipError_t hipMemGetInfo(size_t *free, size_t *total) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!free || !total)
    return fail(hipErrorInvalidValue, "hipMemGetInfo: null pointer");
  *total = hostMemoryBytes();
  *free = size_t(sysconf(_SC_AVPHYS_PAGES)) * size_t(sysconf(_SC_PAGE_SIZE));
  return ok();
}

static hipError_t copy(Runtime &rt, void *dst, const void *src, size_t bytes,
                       hipMemcpyKind kind) {
  if (bytes == 0)
    return ok();
  if (!dst || !src)
    return fail(hipErrorInvalidValue, "memcpy of " + llvm::Twine(bytes) +
                                          " bytes with a null pointer");
  bool dstDevice = isDevicePointer(rt, dst, bytes);
  bool srcDevice = isDevicePointer(rt, src, bytes);
  if (kind == hipMemcpyDefault)
    kind = dstDevice
               ? (srcDevice ? hipMemcpyDeviceToDevice : hipMemcpyHostToDevice)
               : (srcDevice ? hipMemcpyDeviceToHost : hipMemcpyHostToHost);
  auto address = [](const void *ptr) { return uint64_t(uintptr_t(ptr)); };
  switch (kind) {
  case hipMemcpyHostToHost:
    std::memmove(dst, src, bytes);
    return ok();
  case hipMemcpyHostToDevice:
    if (llvm::Error error = rt.device->memcpyHtoD(address(dst), src, bytes))
      return fail(hipErrorInvalidValue, std::move(error));
    return ok();
  case hipMemcpyDeviceToHost:
    if (llvm::Error error = rt.device->memcpyDtoH(dst, address(src), bytes))
      return fail(hipErrorInvalidValue, std::move(error));
    return ok();
  case hipMemcpyDeviceToDevice: {
    emu::GlobalMemory &memory = rt.device->getMemory();
    uint8_t *to = memory.translate(address(dst), bytes);
    uint8_t *from = memory.translate(address(src), bytes);
    if (!to || !from)
      return fail(hipErrorInvalidValue,
                  "device-to-device memcpy of " + llvm::Twine(bytes) +
                      " bytes from " + hex(src) + " to " + hex(dst) +
                      ": a range lies outside every allocation");
    std::memmove(to, from, bytes);
    return ok();
  }
  default:
    return fail(hipErrorInvalidMemcpyDirection, "memcpy kind " +
                                                    llvm::Twine(int(kind)) +
                                                    " is not a copy "
                                                    "direction");
  }
}

hipError_t hipMemcpy(void *dst, const void *src, size_t bytes,
                     hipMemcpyKind kind) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  hipError_t error = copy(rt, dst, src, bytes, kind);
  if (hipError_t pending = takePending(&rt.nullStream))
    return pending;
  return error;
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes,
                          hipMemcpyKind kind, hipStream_t stream) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (stream && !rt.streams.count(stream))
    return fail(hipErrorInvalidHandle, "hipMemcpyAsync: unknown stream");
  return copy(rt, dst, src, bytes, kind);
}

hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice);
}

hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost);
}

hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToDevice);
}

hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t bytes,
                              hipStream_t stream) {
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyHostToDevice, stream);
}

hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t bytes,
                              hipStream_t stream) {
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToHost, stream);
}

hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src,
                              size_t bytes, hipStream_t stream) {
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, stream);
}

/// Fills `count` elements of `width` bytes at `dst` with `pattern`.
static hipError_t fill(void *dst, uint32_t pattern, unsigned width,
                       size_t count, hipStream_t stream) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (stream && !rt.streams.count(stream))
    return fail(hipErrorInvalidHandle, "memset: unknown stream");
  if (count == 0)
    return ok();
  uint8_t *bytes =
      rt.device->getMemory().translate(uint64_t(uintptr_t(dst)), count * width);
  if (!bytes)
    return fail(hipErrorInvalidValue,
                "memset of " + llvm::Twine(count * width) + " bytes at " +
                    hex(dst) + ": the range lies outside every allocation");
  for (size_t i = 0; i < count; ++i)
    std::memcpy(bytes + i * width, &pattern, width);
  return ok();
}

hipError_t hipMemset(void *dst, int value, size_t bytes) {
  return fill(dst, uint8_t(value), 1, bytes, nullptr);
}

hipError_t hipMemsetAsync(void *dst, int value, size_t bytes,
                          hipStream_t stream) {
  return fill(dst, uint8_t(value), 1, bytes, stream);
}

hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
  return fill(dst, value, 1, count, nullptr);
}

hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value,
                        size_t count) {
  return fill(dst, value, 2, count, nullptr);
}

hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  return fill(dst, uint32_t(value), 4, count, nullptr);
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  if (!module || !image)
    return fail(hipErrorInvalidValue, "hipModuleLoadData: null pointer");
  HK_HIP_DEVICE_OR_RETURN(rt);
  auto size = elfImageSize(image);
  if (!size)
    return fail(hipErrorInvalidImage, size.takeError());
  return loadModule(rt, module,
                    llvm::StringRef(static_cast<const char *>(image), *size));
}

hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image,
                               unsigned int, hipJitOption *, void **) {
  return hipModuleLoadData(module, image);
}

hipError_t hipModuleLoad(hipModule_t *module, const char *path) {
  if (!module || !path)
    return fail(hipErrorInvalidValue, "hipModuleLoad: null pointer");
  HK_HIP_DEVICE_OR_RETURN(rt);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail(hipErrorFileNotFound, "cannot read '" + llvm::Twine(path) +
                                          "': " + buffer.getError().message());
  return loadModule(rt, module, (*buffer)->getBuffer());
}

hipError_t hipModuleUnload(hipModule_t module) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.modules.erase(module))
    return fail(hipErrorInvalidHandle, "hipModuleUnload: unknown module");
  for (auto &entry : module->functions)
    rt.functions.erase(entry.second.get());
  delete module;
  return ok();
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                const char *name) {
  if (!function || !name)
    return fail(hipErrorInvalidValue, "hipModuleGetFunction: null pointer");
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.modules.count(module))
    return fail(hipErrorInvalidHandle, "hipModuleGetFunction: unknown module");
  const KernelInfo *kernel = module->module->findKernel(name);
  if (!kernel)
    return fail(hipErrorNotFound,
                "the module has no kernel '" + llvm::Twine(name) + "'");
  std::unique_ptr<ihipModuleSymbol_t> &entry = module->functions[name];
  if (!entry) {
    entry = std::make_unique<ihipModuleSymbol_t>();
    entry->module = module;
    entry->kernel = kernel;
    rt.functions.insert(entry.get());
  }
  *function = entry.get();
  return ok();
}

hipError_t hipModuleGetGlobal(hipDeviceptr_t *ptr, size_t *bytes,
                              hipModule_t module, const char *name) {
  if (!name)
    return fail(hipErrorInvalidValue, "hipModuleGetGlobal: null name");
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.modules.count(module))
    return fail(hipErrorInvalidHandle, "hipModuleGetGlobal: unknown module");
  auto global = rt.device->getGlobal(*module->module, name);
  if (!global)
    return fail(hipErrorNotFound, global.takeError());
  if (ptr)
    *ptr = reinterpret_cast<void *>(uintptr_t(global->first));
  if (bytes)
    *bytes = global->second;
  return ok();
}

hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attribute,
                               hipFunction_t function) {
  if (!value)
    return fail(hipErrorInvalidValue, "hipFuncGetAttribute: null pointer");
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.functions.count(function))
    return fail(hipErrorInvalidHandle, "hipFuncGetAttribute: unknown function");
  const KernelInfo &kernel = *function->kernel;
  switch (attribute) {
  case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value =
        int(kernel.maxFlatWorkgroupSize ? kernel.maxFlatWorkgroupSize : 1024);
    return ok();
  case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = int(kernel.groupSegmentFixedSize);
    return ok();
  case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *value = int(kernel.privateSegmentFixedSize);
    return ok();
  case HIP_FUNC_ATTRIBUTE_NUM_REGS:
    *value = int(kernel.vgprCount);
    return ok();
  case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *value = int(rt.chip->ldsBytesPerWorkgroup - kernel.groupSegmentFixedSize);
    return ok();
  default:
    return fail(hipErrorInvalidValue, "hipFuncGetAttribute: attribute " +
                                          llvm::Twine(attribute) +
                                          " is not one the emulator reports");
  }
}

hipError_t hipModuleLaunchKernel(hipFunction_t function, unsigned int gridX,
                                 unsigned int gridY, unsigned int gridZ,
                                 unsigned int blockX, unsigned int blockY,
                                 unsigned int blockZ,
                                 unsigned int sharedMemBytes,
                                 hipStream_t stream, void **kernelParams,
                                 void **extra) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.functions.count(function))
    return fail(hipErrorInvalidHandle,
                "hipModuleLaunchKernel: unknown function");
  if (stream && !rt.streams.count(stream))
    return fail(hipErrorInvalidHandle, "hipModuleLaunchKernel: unknown stream");
  const KernelInfo &kernel = *function->kernel;
  emu::Dim3 grid{gridX, gridY, gridZ}, block{blockX, blockY, blockZ};
  uint64_t limit =
      kernel.maxFlatWorkgroupSize ? kernel.maxFlatWorkgroupSize : 1024;
  if (grid.count() == 0 || block.count() == 0 || block.count() > limit)
    return fail(hipErrorInvalidConfiguration,
                "kernel '" + kernel.name + "': grid " + llvm::Twine(gridX) +
                    "x" + llvm::Twine(gridY) + "x" + llvm::Twine(gridZ) +
                    " of blocks " + llvm::Twine(blockX) + "x" +
                    llvm::Twine(blockY) + "x" + llvm::Twine(blockZ) +
                    " (at most " + llvm::Twine(limit) +
                    " work-items per block, none empty)");
  if (uint64_t(kernel.groupSegmentFixedSize) + sharedMemBytes >
      rt.chip->ldsBytesPerWorkgroup)
    return fail(hipErrorLaunchOutOfResources,
                "kernel '" + kernel.name + "' needs " +
                    llvm::Twine(kernel.groupSegmentFixedSize) + " + " +
                    llvm::Twine(sharedMemBytes) + " bytes of LDS; " +
                    rt.chip->name + " has " +
                    llvm::Twine(rt.chip->ldsBytesPerWorkgroup));
  std::vector<uint8_t> kernargs;
  if (hipError_t error = collectKernargs(kernel, kernelParams, extra, kernargs))
    return error;

  emu::LaunchOptions options = rt.launchOptions;
  options.dynamicLdsBytes = sharedMemBytes;
  auto result = rt.device->launch(*function->module->module, kernel.name, grid,
                                  block, kernargs, options);
  ihipStream_t *target = rt.resolve(stream);
  hipError_t error = hipSuccess;
  if (!result) {
    std::string message = llvm::toString(result.takeError());
    error = llvm::StringRef(message).contains("watchdog")
                ? hipErrorLaunchTimeOut
                : hipErrorLaunchFailure;
    (void)fail(error, message);
  } else if ((error = reportsError(*result))) {
    (void)fail(error, "kernel '" + kernel.name +
                          "': " + llvm::Twine(result->totalReports) +
                          " sanitizer report" +
                          (result->totalReports == 1 ? "" : "s"));
    if (!rt.quiet)
      for (const emu::SanitizerReport &report : result->reports)
        llvm::errs() << "hk-hip:   " << report.message << "\n";
  }
  if (error != hipSuccess && target->pending == hipSuccess)
    target->pending = error;
  return error;
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
  if (!stream)
    return fail(hipErrorInvalidValue, "hipStreamCreate: null pointer");
  HK_HIP_DEVICE_OR_RETURN(rt);
  auto *created = new ihipStream_t;
  created->flags = flags;
  rt.streams.insert(created);
  *stream = created;
  return ok();
}

hipError_t hipStreamCreate(hipStream_t *stream) {
  return hipStreamCreateWithFlags(stream, hipStreamDefault);
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.streams.erase(stream))
    return fail(hipErrorInvalidHandle, "hipStreamDestroy: unknown stream");
  for (ihipEvent_t *event : rt.events)
    if (event->stream == stream)
      event->stream = nullptr;
  delete stream;
  return ok();
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (stream && !rt.streams.count(stream))
    return fail(hipErrorInvalidHandle, "hipStreamSynchronize: unknown stream");
  return takePending(rt.resolve(stream));
}

hipError_t hipStreamQuery(hipStream_t stream) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (stream && !rt.streams.count(stream))
    return fail(hipErrorInvalidHandle, "hipStreamQuery: unknown stream");
  return ok();
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                              unsigned int flags) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if ((stream && !rt.streams.count(stream)) || !rt.events.count(event))
    return fail(hipErrorInvalidHandle, "hipStreamWaitEvent: unknown handle");
  if (flags != 0)
    return fail(hipErrorInvalidValue, "hipStreamWaitEvent takes flags 0");
  return ok();
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  if (!event)
    return fail(hipErrorInvalidValue, "hipEventCreate: null pointer");
  HK_HIP_DEVICE_OR_RETURN(rt);
  (void)flags;
  auto *created = new ihipEvent_t;
  rt.events.insert(created);
  *event = created;
  return ok();
}

hipError_t hipEventCreate(hipEvent_t *event) {
  return hipEventCreateWithFlags(event, hipEventDefault);
}

hipError_t hipEventDestroy(hipEvent_t event) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.events.erase(event))
    return fail(hipErrorInvalidHandle, "hipEventDestroy: unknown event");
  delete event;
  return ok();
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.events.count(event) || (stream && !rt.streams.count(stream)))
    return fail(hipErrorInvalidHandle, "hipEventRecord: unknown handle");
  event->recorded = true;
  event->time = std::chrono::steady_clock::now();
  event->stream = rt.resolve(stream);
  return ok();
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.events.count(event))
    return fail(hipErrorInvalidHandle, "hipEventSynchronize: unknown event");
  if (event->stream &&
      (event->stream == &rt.nullStream || rt.streams.count(event->stream)))
    return takePending(event->stream);
  return ok();
}

hipError_t hipEventQuery(hipEvent_t event) {
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.events.count(event))
    return fail(hipErrorInvalidHandle, "hipEventQuery: unknown event");
  return ok();
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
  if (!ms)
    return fail(hipErrorInvalidValue, "hipEventElapsedTime: null pointer");
  HK_HIP_DEVICE_OR_RETURN(rt);
  if (!rt.events.count(start) || !rt.events.count(stop))
    return fail(hipErrorInvalidHandle, "hipEventElapsedTime: unknown event");
  if (!start->recorded || !stop->recorded)
    return fail(hipErrorInvalidHandle,
                "hipEventElapsedTime: an event was never recorded");
  *ms = std::chrono::duration<float, std::milli>(stop->time - start->time)
            .count();
  return ok();
}

} // extern "C"
