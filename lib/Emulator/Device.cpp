//===- Device.cpp - The hk-emu host API
//------------------------------------===//

#include "Interp.h"
#include "LaunchChecks.h"

#include "hk/Emulator/Device.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstring>
#include <new>
#include <thread>

using namespace hk;
using namespace hk::emu;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::optional<TimingRequest>>
hk::emu::makeTimingRequest(bool timing, llvm::StringRef device,
                           std::optional<unsigned> clockMHz) {
  if (!device.empty() && !timing)
    return makeError(
        "--device selects the timing model's device; it needs --timing");
  if (clockMHz && !timing)
    return makeError(
        "--clock sets the timing model's clock; it needs --timing");
  if (clockMHz && *clockMHz == 0)
    return makeError("--clock: the clock must be a positive number of MHz");
  if (!timing)
    return std::nullopt;
  TimingRequest request;
  if (!device.empty()) {
    request.device = timing::DeviceModel::lookup(device);
    if (!request.device)
      return makeError("--device: unknown device '" + device +
                       "' (known: " + timing::DeviceModel::knownNames() + ")");
  }
  request.clockMHz = clockMHz.value_or(0);
  return request;
}

static std::string hex(uint64_t value) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format_hex(value, 2);
  return s;
}

// Global memory
// -----------------------------------------------------------------

DevicePtr GlobalMemory::allocate(uint64_t size, llvm::StringRef label,
                                 MemoryRegion region) {
  if (size > kMaxAllocationBytes)
    return 0;
  Allocation alloc;
  alloc.data.reset(
      static_cast<uint8_t *>(std::calloc(std::max<uint64_t>(size, 1), 1)));
  if (!alloc.data)
    return 0;
  std::lock_guard<std::mutex> lock(mutex);
  bool runtime = region == MemoryRegion::Runtime;
  DevicePtr &next = runtime ? nextRuntimeBase : nextBase;
  // A 64 KiB unmapped gap after each buffer catches runs off its end.
  uint64_t span = llvm::alignTo(std::max<uint64_t>(size, 1), 4096) + 65536;
  if (span > (runtime ? kDataBase : kDataEnd) - next)
    return 0;
  alloc.base = next;
  alloc.size = size;
  alloc.label = label.str();
  next += span;
  DevicePtr base = alloc.base;
  allocations.emplace(base, std::move(alloc));
  return base;
}

bool GlobalMemory::release(DevicePtr base) {
  std::lock_guard<std::mutex> lock(mutex);
  return allocations.erase(base) == 1;
}

// Launches never allocate, so lookups during a launch need no lock.
const Allocation *GlobalMemory::find(uint64_t address, uint64_t size) const {
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return nullptr;
  --it;
  const Allocation &alloc = it->second;
  if (address + size > alloc.base + alloc.size || address + size < address)
    return nullptr;
  return &alloc;
}

uint8_t *GlobalMemory::translate(uint64_t address, uint64_t size) const {
  const Allocation *alloc = find(address, size);
  return alloc ? alloc->data.get() + (address - alloc->base) : nullptr;
}

bool GlobalMemory::save(Contents &contents) const {
  std::lock_guard<std::mutex> lock(mutex);
  contents.clear();
  for (const auto &[base, alloc] : allocations) {
    std::unique_ptr<uint8_t[]> copy(new (std::nothrow) uint8_t[alloc.size]);
    if (!copy && alloc.size) {
      contents.clear();
      return false;
    }
    if (alloc.size)
      std::memcpy(copy.get(), alloc.data.get(), alloc.size);
    contents.push_back(std::move(copy));
  }
  return true;
}

void GlobalMemory::restore(const Contents &contents) const {
  std::lock_guard<std::mutex> lock(mutex);
  assert(contents.size() == allocations.size() && "allocations changed");
  size_t i = 0;
  for (const auto &[base, alloc] : allocations) {
    if (alloc.size)
      std::memcpy(alloc.data.get(), contents[i].get(), alloc.size);
    ++i;
  }
}

// Module
// ------------------------------------------------------------------------

Module::Module(CodeObject object, std::unique_ptr<DecodedProgram> program)
    : object(std::move(object)), program(std::move(program)) {
  static std::atomic<uint64_t> next{1};
  serial = next.fetch_add(1);
}
Module::~Module() = default;

// Kernargs
// ----------------------------------------------------------------------

KernargBuilder::KernargBuilder(const KernelInfo &kernel)
    : kernel(kernel), explicitArgs(kernel.explicitArgs()),
      buffer(kernel.kernargSegmentSize, 0) {}

llvm::Error KernargBuilder::addBytes(const void *data, size_t size,
                                     llvm::StringRef what) {
  if (next >= explicitArgs.size())
    return makeError("kernel '" + kernel.name + "' takes " +
                     llvm::Twine(explicitArgs.size()) +
                     " explicit argument(s), got one more (" + what + ")");
  const KernelArg &arg = *explicitArgs[next];
  if (arg.size != size)
    return makeError("argument " + llvm::Twine(next) +
                     (arg.name.empty() ? "" : " ('" + arg.name + "')") +
                     " of kernel '" + kernel.name + "' is " +
                     llvm::Twine(arg.size) + " bytes (" + arg.valueKind +
                     "), got a " + llvm::Twine(size) + "-byte " + what);
  if (arg.offset + size > buffer.size())
    buffer.resize(arg.offset + size, 0);
  // A zero-byte argument (malformed metadata) may come without data.
  if (size)
    std::memcpy(buffer.data() + arg.offset, data, size);
  ++next;
  return llvm::Error::success();
}

llvm::Expected<std::vector<uint8_t>> KernargBuilder::finish() const {
  if (next != explicitArgs.size())
    return makeError("kernel '" + kernel.name + "' takes " +
                     llvm::Twine(explicitArgs.size()) +
                     " explicit argument(s), got " + llvm::Twine(next));
  return buffer;
}

// Device
// ------------------------------------------------------------------------

Device::Device(const ChipInfo &chip) : chip(chip) {}
Device::~Device() = default;

DevicePtr Device::malloc(uint64_t bytes, llvm::StringRef label) {
  return memory.allocate(bytes, label);
}

llvm::Error Device::free(DevicePtr ptr) {
  if (!memory.release(ptr))
    return makeError("free of " + hex(ptr) +
                     ", which is not the start of a live allocation");
  return llvm::Error::success();
}

llvm::Error Device::memcpyHtoD(DevicePtr dst, const void *src, uint64_t bytes) {
  uint8_t *host = memory.translate(dst, bytes);
  if (!host)
    return makeError("memcpyHtoD of " + llvm::Twine(bytes) + " bytes to " +
                     hex(dst) + " does not fit in one device allocation");
  if (bytes) // `src` may be null for an empty copy.
    std::memcpy(host, src, bytes);
  return llvm::Error::success();
}

llvm::Error Device::memcpyDtoH(void *dst, DevicePtr src, uint64_t bytes) {
  const uint8_t *host = memory.translate(src, bytes);
  if (!host)
    return makeError("memcpyDtoH of " + llvm::Twine(bytes) + " bytes from " +
                     hex(src) + " does not fit in one device allocation");
  if (bytes) // `dst` may be null for an empty copy.
    std::memcpy(dst, host, bytes);
  return llvm::Error::success();
}

llvm::Error Device::memset(DevicePtr dst, uint8_t value, uint64_t bytes) {
  uint8_t *host = memory.translate(dst, bytes);
  if (!host)
    return makeError("memset of " + llvm::Twine(bytes) + " bytes at " +
                     hex(dst) + " does not fit in one device allocation");
  std::memset(host, value, bytes);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Module>>
Device::loadModule(llvm::StringRef bytes) {
  auto object = CodeObject::parse(bytes);
  if (!object)
    return object.takeError();
  if (&object->getChip() != &chip)
    return makeError("code object is for " + object->getChip().name +
                     ", but the device is a " + chip.name);
  if (object->isRelocatable())
    return makeError("the code object is an unlinked relocatable object; "
                     "link it (ld.lld -shared) before running it");
  for (const KernelInfo &kernel : object->getKernels()) {
    if (kernel.wavefrontSize != chip.waveSize)
      return makeError("kernel '" + kernel.name + "' uses wave" +
                       llvm::Twine(kernel.wavefrontSize) + "; " + chip.name +
                       " runs wave" + llvm::Twine(chip.waveSize));
    if (kernel.kernargSegmentSize > kMaxKernargSegmentBytes)
      return makeError("kernel '" + kernel.name + "' has a " +
                       llvm::Twine(kernel.kernargSegmentSize) +
                       "-byte kernarg segment; the emulator allows at most " +
                       llvm::Twine(kMaxKernargSegmentBytes));
    if (kernel.privateSegmentFixedSize > kMaxPrivateSegmentBytes)
      return makeError("kernel '" + kernel.name + "' needs " +
                       llvm::Twine(kernel.privateSegmentFixedSize) +
                       " bytes of scratch per work-item; " + chip.name +
                       " provides at most " +
                       llvm::Twine(kMaxPrivateSegmentBytes));
  }
  auto program = DecodedProgram::decode(*object);
  if (!program)
    return program.takeError();
  std::unique_ptr<Module> module(
      new Module(std::move(*object), std::move(*program)));
  module->source = SourceInfo::read(bytes);
  // Placing the image now reports relocation problems at load time.
  if (auto base = getImageBase(*module); !base)
    return base.takeError();
  return std::move(module);
}

llvm::Expected<DevicePtr> Device::getImageBase(const Module &module) {
  std::lock_guard<std::mutex> lock(imagesMutex);
  auto it = images.find(module.getSerial());
  if (it != images.end())
    return it->second;
  const CodeObject &object = module.getCodeObject();
  uint64_t size = object.getImageSize();
  DevicePtr base = memory.allocate(size, "code object", MemoryRegion::Runtime);
  if (!base)
    return makeError("cannot allocate the " + llvm::Twine(size) +
                     "-byte image of the code object");
  llvm::MutableArrayRef<uint8_t> image(memory.translate(base, size), size);
  if (llvm::Error error = object.loadImage(image, base)) {
    memory.release(base);
    return std::move(error);
  }
  images[module.getSerial()] = base;
  return base;
}

llvm::Expected<std::pair<DevicePtr, uint64_t>>
Device::getGlobal(const Module &module, llvm::StringRef name) {
  const Symbol *symbol = module.getCodeObject().findSymbol(name);
  if (!symbol || !symbol->defined || !symbol->isData)
    return makeError("the code object defines no global variable '" + name +
                     "'");
  auto base = getImageBase(module);
  if (!base)
    return base.takeError();
  return std::make_pair(*base + symbol->address, symbol->size);
}

/// Reads the initial-state enables of the kernel descriptor.
static llvm::Error readDescriptor(const KernelInfo &kernel, LaunchState &L) {
  using namespace llvm::amdhsa;
  const uint8_t *d = kernel.descriptor.data();
  uint32_t rsrc1, rsrc2;
  uint16_t props, preload;
  std::memcpy(&rsrc1, d + COMPUTE_PGM_RSRC1_OFFSET, 4);
  std::memcpy(&rsrc2, d + COMPUTE_PGM_RSRC2_OFFSET, 4);
  std::memcpy(&props, d + KERNEL_CODE_PROPERTIES_OFFSET, 2);
  std::memcpy(&preload, d + KERNARG_PRELOAD_OFFSET, 2);
  unsigned round32 =
               AMDHSA_BITS_GET(rsrc1, COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_32),
           round16_64 =
               AMDHSA_BITS_GET(rsrc1, COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_16_64);
  if (round32 != FLOAT_ROUND_MODE_NEAR_EVEN ||
      round16_64 != FLOAT_ROUND_MODE_NEAR_EVEN)
    return makeError("kernel '" + kernel.name +
                     "' selects a float rounding mode other than "
                     "round-to-nearest-even, which hk-emu does not emulate");
  L.initialMode =
      (AMDHSA_BITS_GET(rsrc1, COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_32)
       << ModeRegister::kDenorm32Shift) |
      (AMDHSA_BITS_GET(rsrc1, COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_16_64)
       << ModeRegister::kDenorm16_64Shift);
  L.enablePrivateSegmentBuffer = props & (1u << 0);
  L.enableDispatchPtr = props & (1u << 1);
  L.enableQueuePtr = props & (1u << 2);
  L.enableKernargPtr = props & (1u << 3);
  L.enableDispatchId = props & (1u << 4);
  L.enableFlatScratchInit = props & (1u << 5);
  L.enablePrivateSegmentSize = props & (1u << 6);
  if (props & (1u << 10))
    return makeError("kernel '" + kernel.name +
                     "' is compiled for wave32; gfx942/gfx950 run wave64");
  L.userSgprCount = (rsrc2 >> 1) & 0x1f;
  L.enableWgId[0] = rsrc2 & (1u << 7);
  L.enableWgId[1] = rsrc2 & (1u << 8);
  L.enableWgId[2] = rsrc2 & (1u << 9);
  L.enableWgInfo = rsrc2 & (1u << 10);
  L.workitemIdDims = ((rsrc2 >> 11) & 3) + 1;
  L.preloadSgprs = preload & 0x7f;
  L.preloadOffsetDwords = preload >> 7;
  L.entryPc = kernel.entryAddress + (L.preloadSgprs ? 256 : 0);
  return llvm::Error::success();
}

/// Fills the COV5 hidden arguments the way the HIP runtime does.
static void fillHiddenArgs(const KernelInfo &kernel, Dim3 grid, Dim3 block,
                           uint32_t dynamicLds, std::vector<uint8_t> &bytes) {
  auto put = [&](const KernelArg &arg, uint64_t value) {
    if (arg.offset + arg.size > bytes.size())
      return;
    std::memcpy(bytes.data() + arg.offset, &value,
                std::min<uint32_t>(arg.size, 8));
  };
  uint32_t blocks[3] = {grid.x, grid.y, grid.z};
  uint32_t sizes[3] = {block.x, block.y, block.z};
  for (const KernelArg &arg : kernel.args) {
    llvm::StringRef kind = arg.valueKind;
    if (!kind.starts_with("hidden_"))
      continue;
    int dim = kind.ends_with("_x")   ? 0
              : kind.ends_with("_y") ? 1
              : kind.ends_with("_z") ? 2
                                     : -1;
    if (kind.starts_with("hidden_block_count_") && dim >= 0)
      put(arg, blocks[dim]);
    else if (kind.starts_with("hidden_group_size_") && dim >= 0)
      put(arg, sizes[dim]);
    else if (kind.starts_with("hidden_remainder_") && dim >= 0)
      put(arg, 0); // Grids are whole workgroups (HIP's launch model).
    else if (kind == "hidden_grid_dims")
      put(arg, grid.z > 1 || block.z > 1   ? 3
               : grid.y > 1 || block.y > 1 ? 2
                                           : 1);
    else if (kind == "hidden_dynamic_lds_size")
      put(arg, dynamicLds);
    else
      put(arg, 0); // Offsets, queue/printf/hostcall pointers: none here.
  }
}

/// The 64-byte hsa_kernel_dispatch_packet_t a kernel may read through its
/// dispatch pointer.
static void fillDispatchPacket(uint8_t *packet, Dim3 grid, Dim3 block,
                               uint32_t groupSegment, uint64_t kernarg,
                               uint64_t descriptor) {
  std::memset(packet, 0, 64);
  uint16_t setup = grid.z > 1 || block.z > 1   ? 3
                   : grid.y > 1 || block.y > 1 ? 2
                                               : 1;
  uint16_t wg[3] = {uint16_t(block.x), uint16_t(block.y), uint16_t(block.z)};
  uint32_t gridSize[3] = {grid.x * block.x, grid.y * block.y, grid.z * block.z};
  std::memcpy(packet + 2, &setup, 2);
  std::memcpy(packet + 4, wg, 6);
  std::memcpy(packet + 12, gridSize, 12);
  std::memcpy(packet + 28, &groupSegment, 4);
  std::memcpy(packet + 32, &descriptor, 8);
  std::memcpy(packet + 40, &kernarg, 8);
}

uint64_t Dim3::count() const {
  return llvm::SaturatingMultiply(
      llvm::SaturatingMultiply(uint64_t(x), uint64_t(y)), uint64_t(z));
}

static std::string formatDim3(Dim3 d) {
  return (llvm::Twine(d.x) + "x" + llvm::Twine(d.y) + "x" + llvm::Twine(d.z))
      .str();
}

static llvm::Error validateLaunch(const ChipInfo &chip,
                                  const KernelInfo &kernel, Dim3 grid,
                                  Dim3 block, llvm::ArrayRef<uint8_t> kernargs,
                                  const LaunchOptions &options,
                                  uint64_t ldsBytes) {
  // Every product below is of values checked first, or saturating.
  if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
    return makeError("grid and block sizes must be at least 1 in every "
                     "dimension, got grid " +
                     formatDim3(grid) + " block " + formatDim3(block));
  uint64_t limit =
      kernel.maxFlatWorkgroupSize ? kernel.maxFlatWorkgroupSize : 1024;
  if (block.count() > limit)
    return makeError("block of " + llvm::Twine(block.count()) +
                     " work-items exceeds kernel '" + kernel.name +
                     "''s max_flat_workgroup_size of " + llvm::Twine(limit));
  const std::array<uint32_t, 3> &reqd = kernel.reqdWorkgroupSize;
  Dim3 required{reqd[0], reqd[1], reqd[2]};
  if (required.x &&
      (block.x != required.x || block.y != required.y || block.z != required.z))
    return makeError("block " + formatDim3(block) + " is not kernel '" +
                     kernel.name + "''s required workgroup size " +
                     formatDim3(required) + " (.reqd_workgroup_size)");
  if (block.x > kMaxBlockDim || block.y > kMaxBlockDim ||
      block.z > kMaxBlockDim)
    return makeError("block dimensions must be at most " +
                     llvm::Twine(kMaxBlockDim) + " each, got " +
                     formatDim3(block));
  const char *axes = "xyz";
  uint32_t grids[3] = {grid.x, grid.y, grid.z};
  uint32_t blocks[3] = {block.x, block.y, block.z};
  for (unsigned d = 0; d < 3; ++d)
    if (uint64_t(grids[d]) * blocks[d] > kMaxGridWorkitemsPerDim)
      return makeError("grid " + formatDim3(grid) + " of blocks " +
                       formatDim3(block) + " has " +
                       llvm::Twine(uint64_t(grids[d]) * blocks[d]) +
                       " work-items in " + llvm::Twine(axes[d]) +
                       "; the dispatch packet holds at most " +
                       llvm::Twine(kMaxGridWorkitemsPerDim) + " per dimension");
  if (options.onlyWorkgroups.empty() && grid.count() > kMaxLaunchWorkgroups)
    return makeError(
        "grid " + formatDim3(grid) + " has " + llvm::Twine(grid.count()) +
        " workgroups; the emulator runs at most " +
        llvm::Twine(kMaxLaunchWorkgroups) + " per launch (select some to run)");
  if (options.onlyWorkgroups.size() > kMaxLaunchWorkgroups)
    return makeError(llvm::Twine(options.onlyWorkgroups.size()) +
                     " workgroups selected; the emulator runs at most " +
                     llvm::Twine(kMaxLaunchWorkgroups) + " per launch");
  if (ldsBytes > chip.ldsBytesPerWorkgroup)
    return makeError("kernel '" + kernel.name + "' needs " +
                     llvm::Twine(ldsBytes) + " bytes of LDS (static " +
                     llvm::Twine(kernel.groupSegmentFixedSize) + " + dynamic " +
                     llvm::Twine(options.dynamicLdsBytes) + "), " + chip.name +
                     " has " + llvm::Twine(chip.ldsBytesPerWorkgroup));
  if (kernel.usesDynamicStack && options.stackBytes > kMaxPrivateSegmentBytes)
    return makeError("a stack of " + llvm::Twine(options.stackBytes) +
                     " bytes per work-item exceeds the " +
                     llvm::Twine(kMaxPrivateSegmentBytes) +
                     " bytes of scratch a work-item can have");
  size_t explicitEnd = 0;
  for (const KernelArg *arg : kernel.explicitArgs())
    explicitEnd = std::max<size_t>(explicitEnd, arg->offset + arg->size);
  if (kernargs.size() < explicitEnd)
    return makeError("kernel '" + kernel.name + "' needs " +
                     llvm::Twine(explicitEnd) +
                     " bytes of explicit kernel arguments, got " +
                     llvm::Twine(kernargs.size()));
  for (uint64_t id : options.onlyWorkgroups)
    if (id >= grid.count())
      return makeError("workgroup " + llvm::Twine(id) +
                       " selected to run is outside the grid of " +
                       llvm::Twine(grid.count()) + " workgroups");
  return llvm::Error::success();
}

/// The linear ids of the selected workgroups, in increasing order (see
/// LaunchState::shouldStop); empty when the whole grid runs.
static std::vector<uint64_t> selectedWorkgroups(llvm::ArrayRef<uint64_t> only) {
  std::vector<uint64_t> ids(only.begin(), only.end());
  llvm::sort(ids);
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

/// Sorts reports into a thread-independent order and keeps the first of
/// each (kind, pc), at most `limit`.
static std::vector<SanitizerReport>
canonicalReports(std::vector<SanitizerReport> reports, unsigned limit) {
  std::sort(reports.begin(), reports.end(),
            [](const SanitizerReport &a, const SanitizerReport &b) {
              return std::tie(a.kind, a.pc, a.workgroup, a.wave, a.lane) <
                     std::tie(b.kind, b.pc, b.workgroup, b.wave, b.lane);
            });
  std::vector<SanitizerReport> unique;
  for (SanitizerReport &r : reports)
    if (unique.empty() || unique.back().kind != r.kind ||
        unique.back().pc != r.pc)
      unique.push_back(std::move(r));
  if (unique.size() > limit)
    unique.resize(limit);
  return unique;
}

llvm::Expected<LaunchResult> Device::launch(const Module &module,
                                            llvm::StringRef kernelName,
                                            Dim3 grid, Dim3 block,
                                            llvm::ArrayRef<uint8_t> kernargs,
                                            const LaunchOptions &options) {
  const KernelInfo *kernel = module.findKernel(kernelName);
  if (!kernel) {
    std::string names;
    for (const KernelInfo &k : module.getCodeObject().getKernels())
      names += (names.empty() ? "" : ", ") + k.name;
    return makeError("no kernel '" + kernelName +
                     "' in the code object (it has: " + names + ")");
  }
  if (&module.getCodeObject().getChip() != &chip)
    return makeError("module is for " + module.getCodeObject().getChip().name +
                     ", device is " + chip.name);
  uint64_t ldsBytes =
      uint64_t(kernel->groupSegmentFixedSize) + options.dynamicLdsBytes;
  if (llvm::Error error = validateLaunch(chip, *kernel, grid, block, kernargs,
                                         options, ldsBytes))
    return std::move(error);

  LaunchState L;
  L.chip = &chip;
  L.program = &module.getProgram();
  L.memory = &memory;
  L.kernel = kernel;
  L.grid = grid;
  L.block = block;
  L.ldsBytes = uint32_t(ldsBytes);
  L.sanitize = options.sanitizers;
  L.watchdog = options.watchdogInstructions;
  L.maxReports = options.maxReports;
  L.trace = options.trace;
  L.packedWorkitemIds = chip.packedWorkitemIds;
  if (llvm::Error error = readDescriptor(*kernel, L))
    return std::move(error);
  auto codeBase = getImageBase(module);
  if (!codeBase)
    return codeBase.takeError();
  L.codeBase = *codeBase;
  LaunchChecks checks(module, *kernel, memory, options.sanitizers);
  L.checks = &checks;

  // Kernarg segment and dispatch packet live in device memory for the
  // duration of the launch.
  std::vector<uint8_t> segment(
      std::max<size_t>(kernel->kernargSegmentSize, kernargs.size()), 0);
  std::copy(kernargs.begin(), kernargs.end(), segment.begin());
  fillHiddenArgs(*kernel, grid, block, options.dynamicLdsBytes, segment);
  segment.resize(llvm::alignTo(std::max<size_t>(segment.size(), 4), 64) + 256,
                 0);
  L.kernargAddress =
      memory.allocate(segment.size(), "kernarg segment", MemoryRegion::Runtime);
  L.dispatchAddress =
      memory.allocate(64, "dispatch packet", MemoryRegion::Runtime);
  llvm::scope_exit cleanup([&] {
    memory.release(L.kernargAddress);
    memory.release(L.dispatchAddress);
  });
  if (!L.kernargAddress || !L.dispatchAddress)
    return makeError("cannot allocate the kernarg segment and dispatch "
                     "packet of kernel '" +
                     kernel->name + "'");
  std::memcpy(memory.translate(L.kernargAddress, segment.size()),
              segment.data(), segment.size());
  fillDispatchPacket(memory.translate(L.dispatchAddress, 64), grid, block,
                     uint32_t(ldsBytes), L.kernargAddress,
                     L.codeBase + kernel->descriptorAddress);

  // The whole grid is run in linear order without listing it (a grid may
  // hold 2^32 workgroups).
  std::vector<uint64_t> ids = selectedWorkgroups(options.onlyWorkgroups);
  uint64_t toRun = ids.empty() ? grid.count() : ids.size();

  // The timing model runs its sample first; the thread pool runs what the
  // selection holds beyond it.
  auto start = std::chrono::steady_clock::now();
  TimedOutcome timed;
  std::optional<timing::Prediction> prediction;
  if (options.timing) {
    auto predicted = runTimedSample(L, *kernel, options, ids, timed);
    if (!predicted)
      return predicted.takeError();
    prediction = std::move(*predicted);
    if (!ids.empty() || options.timing->sampleOnly)
      toRun = 0;
  }
  auto timedAlready = [&](uint64_t id) {
    return !timed.ran.empty() &&
           std::binary_search(timed.ran.begin(), timed.ran.end(), id);
  };
  unsigned threads = options.threads
                         ? options.threads
                         : std::max(1u, std::thread::hardware_concurrency());
  threads = unsigned(std::max<uint64_t>(1, std::min<uint64_t>(threads, toRun)));

  struct Outcome {
    KernelCounters counters;
    std::vector<SanitizerReport> reports;
    uint64_t reportCount = 0;
    std::string error;
    uint64_t errorWorkgroup = ~0ull;
  };
  std::vector<Outcome> outcomes(threads);
  std::atomic<uint64_t> next{0};
  // Each host thread runs the workgroups it claims one round at a time.
  // Workgroups are independent unless they wait for one another through
  // memory (a software grid barrier, a producer polling a flag): one that
  // sleeps (s_sleep, the spin-wait hint) or runs long lets the thread take
  // on the next workgroup beside it, so that what it waits for can run.
  // Each workgroup does so at most once per kSleepRun wave-instructions
  // when it sleeps (a kernel that sleeps in its ordinary work takes on few
  // neighbours) and once per kLongRun when it does not.
  constexpr size_t kMaxResident = 256;       // workgroups per host thread
  constexpr uint64_t kSleepRun = 1ull << 16; // wave-instructions
  constexpr uint64_t kLongRun = 1ull << 22;
  auto worker = [&](unsigned t) {
    Outcome &out = outcomes[t];
    std::vector<std::unique_ptr<Workgroup>> owned;
    std::vector<Workgroup *> idle, active;
    // Per active workgroup: when it may next take on a neighbour, having
    // slept, or not.
    std::vector<std::pair<uint64_t, uint64_t>> marks;
    auto claim = [&]() -> bool {
      while (true) {
        uint64_t index = next.fetch_add(1);
        if (index >= toRun)
          return false;
        uint64_t id = ids.empty() ? index : ids[index];
        if (L.shouldStop(id) || timedAlready(id))
          continue;
        if (idle.empty()) {
          auto wg = std::make_unique<Workgroup>();
          wg->launch = &L;
          wg->lds.assign(ldsBytes, 0);
          if (L.sanitize.ldsRace)
            wg->shadow.assign(ldsBytes, LdsShadow());
          wg->dmaPending.assign((ldsBytes + 3) / 4, 0);
          // A dynamic stack gets the launch's stack size, as the HIP
          // runtime gives it hipLimitStackSize.
          wg->scratchPerLane = kernel->usesDynamicStack
                                   ? std::max(kernel->privateSegmentFixedSize,
                                              options.stackBytes)
                                   : kernel->privateSegmentFixedSize;
          idle.push_back(wg.get());
          owned.push_back(std::move(wg));
        }
        Workgroup &wg = *idle.back();
        idle.pop_back();
        wg.linearId = id;
        wg.id[0] = uint32_t(id % grid.x);
        wg.id[1] = uint32_t((id / grid.x) % grid.y);
        wg.id[2] = uint32_t(id / (uint64_t(grid.x) * grid.y));
        prepareWorkgroup(wg);
        active.push_back(&wg);
        marks.push_back({kSleepRun, kLongRun});
        return true;
      }
    };
    bool more = claim();
    while (!active.empty()) {
      bool waiting = false;
      for (size_t i = 0; i < active.size();) {
        Workgroup &wg = *active[i];
        uint64_t sleeps = wg.sleeps;
        if (!runWorkgroupRound(wg)) {
          auto &[sleepMark, longMark] = marks[i];
          if ((wg.sleeps != sleeps && wg.executed >= sleepMark) ||
              wg.executed >= longMark) {
            waiting = true;
            sleepMark = wg.executed + kSleepRun;
            longMark = wg.executed + kLongRun;
          }
          ++i;
          continue;
        }
        if (!wg.error.empty() && out.error.empty()) {
          out.error = wg.error;
          out.errorWorkgroup = wg.linearId;
        }
        idle.push_back(&wg);
        active.erase(active.begin() + ptrdiff_t(i));
        marks.erase(marks.begin() + ptrdiff_t(i));
      }
      if (!out.error.empty())
        break;
      if (more && (active.empty() || (waiting && active.size() < kMaxResident)))
        more = claim();
    }
    for (const std::unique_ptr<Workgroup> &wg : owned) {
      wg->flushLdsStats();
      out.counters.merge(wg->counters);
      out.reportCount += wg->reportCount;
      for (SanitizerReport &r : wg->reports)
        out.reports.push_back(std::move(r));
    }
  };
  if (threads <= 1) {
    worker(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back(worker, t);
    for (std::thread &thread : pool)
      thread.join();
  }

  LaunchResult result;
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const Outcome *failed = nullptr;
  result.counters.merge(timed.counters);
  result.totalReports += timed.reportCount;
  for (SanitizerReport &r : timed.reports)
    result.reports.push_back(std::move(r));
  for (Outcome &out : outcomes) {
    if (!out.error.empty() &&
        (!failed || out.errorWorkgroup < failed->errorWorkgroup))
      failed = &out;
    result.counters.merge(out.counters);
    result.totalReports += out.reportCount;
    for (SanitizerReport &r : out.reports)
      result.reports.push_back(std::move(r));
  }
  if (failed)
    return makeError(failed->error);
  if (checks.checksRaces())
    checks.collectRaces(result.reports, result.totalReports);
  result.reports =
      canonicalReports(std::move(result.reports), options.maxReports);
  result.workgroupsRun = toRun ? toRun : timed.ran.size();
  result.timing = std::move(prediction);
  return result;
}

// Counters
// ----------------------------------------------------------------------

llvm::StringRef hk::emu::stringifyInstrClass(InstrClass c) {
  static const char *names[] = {"salu", "valu", "mfma",    "lds",    "vmem",
                                "smem", "wait", "barrier", "branch", "other"};
  return c < InstrClass::Count ? names[size_t(c)] : "?";
}

llvm::StringRef hk::emu::stringifyReportKind(SanitizerReport::Kind kind) {
  switch (kind) {
  case SanitizerReport::GlobalOutOfBounds:
    return "global-out-of-bounds";
  case SanitizerReport::LdsOutOfBounds:
    return "lds-out-of-bounds";
  case SanitizerReport::ScratchOutOfBounds:
    return "scratch-out-of-bounds";
  case SanitizerReport::ReadBeforeWait:
    return "read-before-wait";
  case SanitizerReport::LdsRace:
    return "lds-race";
  case SanitizerReport::BarrierImbalance:
    return "barrier-imbalance";
  case SanitizerReport::SharedTileOutOfBounds:
    return "shared-tile-out-of-bounds";
  case SanitizerReport::GlobalRace:
    return "global-race";
  }
  return "?";
}

void KernelCounters::merge(const KernelCounters &other) {
  for (size_t i = 0; i < mix.size(); ++i)
    mix[i] += other.mix[i];
  globalReadBytes += other.globalReadBytes;
  globalWriteBytes += other.globalWriteBytes;
  ldsReadBytes += other.ldsReadBytes;
  ldsWriteBytes += other.ldsWriteBytes;
  directToLdsBytes += other.directToLdsBytes;
  scalarReadBytes += other.scalarReadBytes;
  mfmaCount += other.mfmaCount;
  mfmaFlops += other.mfmaFlops;
  for (const auto &[pc, stats] : other.ldsConflicts) {
    LdsConflictStats &mine = ldsConflicts[pc];
    mine.mnemonic = stats.mnemonic;
    mine.executions += stats.executions;
    mine.phases += stats.phases;
    mine.extraCycles += stats.extraCycles;
  }
  waveInstructions = 0;
  for (uint64_t count : mix)
    waveInstructions += count;
}

uint64_t KernelCounters::ldsConflictCycles() const {
  uint64_t total = 0;
  for (const auto &entry : ldsConflicts)
    total += entry.second.extraCycles;
  return total;
}

llvm::json::Object KernelCounters::toJson() const {
  llvm::json::Object mixJson;
  for (size_t i = 0; i < mix.size(); ++i)
    mixJson[stringifyInstrClass(InstrClass(i))] = mix[i];
  llvm::json::Array conflicts;
  for (const auto &[pc, stats] : ldsConflicts)
    conflicts.push_back(
        llvm::json::Object{{"pc", hex(pc)},
                           {"mnemonic", stats.mnemonic},
                           {"executions", stats.executions},
                           {"phases", stats.phases},
                           {"conflict_cycles", stats.extraCycles}});
  return llvm::json::Object{
      {"wave_instructions", waveInstructions},
      {"mix", std::move(mixJson)},
      {"bytes", llvm::json::Object{{"global_read", globalReadBytes},
                                   {"global_write", globalWriteBytes},
                                   {"scalar_read", scalarReadBytes},
                                   {"lds_read", ldsReadBytes},
                                   {"lds_write", ldsWriteBytes},
                                   {"direct_to_lds", directToLdsBytes}}},
      {"mfma", llvm::json::Object{{"count", mfmaCount}, {"flops", mfmaFlops}}},
      {"lds_bank_conflict_cycles", ldsConflictCycles()},
      {"lds_instructions", std::move(conflicts)}};
}

void KernelCounters::print(llvm::raw_ostream &os) const {
  os << "wave-instructions: " << waveInstructions << "\n  mix:";
  for (size_t i = 0; i < mix.size(); ++i)
    if (mix[i])
      os << " " << stringifyInstrClass(InstrClass(i)) << "=" << mix[i];
  os << "\n";
  os << "bytes: global read " << globalReadBytes << ", global write "
     << globalWriteBytes << ", scalar read " << scalarReadBytes << ", LDS read "
     << ldsReadBytes << ", LDS write " << ldsWriteBytes << ", direct-to-LDS "
     << directToLdsBytes << "\n";
  os << "mfma: " << mfmaCount << " instructions, " << mfmaFlops << " flops\n";
  os << "lds bank conflicts: " << ldsConflictCycles() << " extra cycles\n";
  for (const auto &[pc, stats] : ldsConflicts)
    os << "  " << hex(pc) << " " << stats.mnemonic << ": " << stats.executions
       << " executions, " << stats.phases << " phases, " << stats.extraCycles
       << " conflict cycles\n";
}
