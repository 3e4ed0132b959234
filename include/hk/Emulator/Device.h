//===- Device.h - The hk-emu host API ------------------------------*- C++
//-*-===//
//
// A CPU-side AMD Instinct device (gfx942 or gfx950) shaped like HIP's module
// API. Typical use:
//
//   hk::emu::Device dev(*hk::ChipInfo::lookup("gfx950"));
//   hk::emu::DevicePtr a = dev.malloc(bytes);
//   if (auto err = dev.memcpyHtoD(a, host, bytes)) ...;
//   auto mod = dev.loadModule(hsacoBytes);          // Expected<Module>
//   hk::emu::KernargBuilder args(*mod->findKernel("gemm"));
//   args.addPointer(a); args.addU32(1024);          // explicit args, in order
//   hk::emu::LaunchOptions opts;                    // sanitizers on by default
//   auto result = dev.launch(*mod, "gemm", {64, 1, 1}, {256, 1, 1},
//                            args.bytes(), opts);  // Expected<LaunchResult>
//   dev.memcpyDtoH(host, a, bytes);
//
// `launch` runs the whole grid (or only `onlyWorkgroups`) to completion,
// workgroups in parallel on host threads, and returns the counters and the
// sanitizer reports. The COV5 hidden kernel arguments (block counts, group
// sizes, remainders, dynamic LDS size...) are filled by `launch` at the
// offsets the metadata gives, as the HIP runtime does: callers pass only the
// explicit arguments.
//
// Everything a user can get wrong (unknown kernel, too-small kernarg buffer,
// workgroup too large, LDS beyond the chip's limit) is an llvm::Error whose
// message says what was expected and what was found. A kernel that executes
// an instruction the emulator does not implement stops with an error that
// names its address, encoding and mnemonic.
//
//===----------------------------------------------------------------------===//

#ifndef HK_EMULATOR_DEVICE_H
#define HK_EMULATOR_DEVICE_H

#include "hk/Emulator/Counters.h"
#include "hk/Runtime/CodeObject.h"
#include "hk/Runtime/SourceInfo.h"
#include "hk/Timing/Timing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hk {
struct ChipInfo;

namespace emu {

/// A device address (what a kernel sees in its pointer arguments).
using DevicePtr = uint64_t;

// Sizes the emulator refuses, so that a malformed code object or request
// gets an error instead of exhausting the host.

/// One device allocation: 4 GiB, the most a buffer resource (V#) spans.
inline constexpr uint64_t kMaxAllocationBytes = 4ull << 30;
/// A kernel's kernarg segment (metadata .kernarg_segment_size): 1 MiB.
inline constexpr uint32_t kMaxKernargSegmentBytes = 1u << 20;
/// Scratch per work-item (.private_segment_fixed_size): 131,056 bytes, a
/// wave64 lane's share of the largest wave scratch COMPUTE_TMPRING_SIZE
/// describes on gfx9 chips (13 bits of 1 KiB). LLVM compiles no larger
/// frame.
inline constexpr uint32_t kMaxPrivateSegmentBytes = 8191u * 1024 / 64;
/// Stack per work-item of a kernel with a dynamic stack (recursion, calls
/// through pointers, calls LLVM did not size): 1024 bytes, the HIP
/// runtime's default (ROCm CLR, rocclr/device/device.hpp, `stack_size_`,
/// hipLimitStackSize), which it likewise raises to the kernel's fixed
/// private segment size when that is larger.
inline constexpr uint32_t kDefaultStackBytes = 1024;

/// Work-items of a grid in one dimension: the dispatch packet's
/// grid_size_x/y/z are 32-bit counts of work-items (so HIP's gridDim times
/// blockDim must fit 32 bits in each dimension).
inline constexpr uint64_t kMaxGridWorkitemsPerDim = 0xffffffffull;
/// Work-items per workgroup in one dimension (HIP's maxThreadsDim; the
/// packed work-item ids have 10 bits per dimension).
inline constexpr uint32_t kMaxBlockDim = 1024;
/// Workgroups one launch runs: an emulator limit, 2^24 (16,777,216; even
/// trivial workgroups take microseconds each on a CPU, so a larger launch
/// would run for hours). A larger grid can run a selection of its
/// workgroups (LaunchOptions::onlyWorkgroups).
inline constexpr uint64_t kMaxLaunchWorkgroups = 1ull << 24;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  /// x*y*z, saturated at UINT64_MAX.
  uint64_t count() const;
};

class DecodedProgram;

/// A loaded code object: its metadata plus the decoded instructions. Its
/// image (code, constants, initialised and zeroed data, with the dynamic
/// relocations applied) is placed in a device's memory by the Device that
/// loads it, and in another device's on that device's first launch of it;
/// device globals keep their values across launches on one device.
class Module {
public:
  ~Module();
  const CodeObject &getCodeObject() const { return object; }
  /// A number no other Module of the process has.
  uint64_t getSerial() const { return serial; }
  const KernelInfo *findKernel(llvm::StringRef name) const {
    return object.findKernel(name);
  }
  const DecodedProgram &getProgram() const { return *program; }
  /// Source lines (DWARF line table) and HK's shared-tile records.
  const SourceInfo &getSourceInfo() const { return source; }
  /// Instructions of the code object the emulator cannot execute, one per
  /// distinct mnemonic: (address, description). Executing one stops a run.
  std::vector<std::pair<uint64_t, std::string>> unsupportedInstructions() const;

private:
  friend class Device;
  Module(CodeObject object, std::unique_ptr<DecodedProgram> program);
  CodeObject object;
  std::unique_ptr<DecodedProgram> program;
  SourceInfo source;
  uint64_t serial;
};

/// Which checks run during a launch (all on by default).
struct SanitizerOptions {
  bool memoryBounds = true; ///< Global and LDS accesses outside allocations.
  bool waitcnt = true;      ///< Reads of load results before s_waitcnt.
  bool ldsRace = true;      ///< LDS accesses of two waves with no barrier.
  bool barrier = true;      ///< Barrier imbalance between waves.
  /// LDS accesses outside the shared tile the op addresses (code objects
  /// with HK's `.hk.source` section).
  bool tileBounds = true;
  /// Workgroups writing bytes others write or read, without atomics.
  bool globalRace = true;

  static SanitizerOptions none() {
    SanitizerOptions options;
    options.memoryBounds = options.waitcnt = options.ldsRace = options.barrier =
        options.tileBounds = options.globalRace = false;
    return options;
  }
};

/// Predicting the launch's time with the timing model (hk/Timing).
struct TimingRequest {
  /// The device to predict for; null: the chip's default (MI300X for
  /// gfx942, MI355X for gfx950).
  const timing::DeviceModel *device = nullptr;
  /// Run only the workgroups the model simulates, not the rest of the
  /// grid (for grids too large to emulate whole).
  bool sampleOnly = false;
  /// The engine clock in MHz (as under a frequency cap); 0: the clock the
  /// device model predicts for the launch's load.
  double clockMHz = 0;
};

/// The timing request of a tool's `--timing`, `--device=NAME` and
/// `--clock=MHz` options (`device` empty and `clockMHz` nullopt when not
/// given): nullopt without `timing`; an error naming the option when one
/// needs `--timing`, names no known device or asks for a zero clock.
/// Whether the device runs the code object's chip is the tool's to check.
llvm::Expected<std::optional<TimingRequest>>
makeTimingRequest(bool timing, llvm::StringRef device,
                  std::optional<unsigned> clockMHz);

struct LaunchOptions {
  /// Bytes of LDS allocated at launch on top of the kernel's static LDS.
  uint32_t dynamicLdsBytes = 0;
  /// Linear workgroup ids (x fastest) to run; empty runs the whole grid.
  std::vector<uint64_t> onlyWorkgroups;
  SanitizerOptions sanitizers;
  /// Host threads running workgroups; 0 means one per core.
  unsigned threads = 0;
  /// Wave-instructions one workgroup may execute before the watchdog stops
  /// the launch as a hang.
  uint64_t watchdogInstructions = 200'000'000;
  /// Sanitizer reports kept (all are counted).
  unsigned maxReports = 64;
  /// Prints every instruction wave 0 of the first workgroup executes, with
  /// lane 0 of its first destination, to stderr (debugging aid).
  bool trace = false;
  /// Stack bytes per work-item for a kernel with a dynamic stack (at least
  /// its fixed private segment size is given; at most
  /// kMaxPrivateSegmentBytes). A stack overflow is reported as a scratch
  /// access out of bounds.
  uint32_t stackBytes = kDefaultStackBytes;
  /// Predicts the launch's time. The model runs its sample of workgroups
  /// (or `onlyWorkgroups`, when given) itself, one instruction at a time;
  /// they compute exactly what an untimed run computes, and the rest of
  /// the selection runs as usual.
  std::optional<TimingRequest> timing;
};

struct LaunchResult {
  KernelCounters counters;
  std::vector<SanitizerReport> reports;
  uint64_t totalReports = 0;
  uint64_t workgroupsRun = 0;
  double seconds = 0;
  /// The model's prediction, when LaunchOptions::timing asked for one.
  std::optional<timing::Prediction> timing;
};

/// Builds the explicit part of a kernel's kernarg segment at the offsets the
/// metadata gives. Each add* call fills the next explicit argument and
/// checks its size.
class KernargBuilder {
public:
  explicit KernargBuilder(const KernelInfo &kernel);
  llvm::Error addPointer(DevicePtr ptr) { return addBytes(&ptr, 8, "pointer"); }
  llvm::Error addU32(uint32_t v) { return addBytes(&v, 4, "32-bit value"); }
  llvm::Error addI32(int32_t v) { return addBytes(&v, 4, "32-bit value"); }
  llvm::Error addF32(float v) { return addBytes(&v, 4, "32-bit value"); }
  llvm::Error addU64(uint64_t v) { return addBytes(&v, 8, "64-bit value"); }
  /// Fills the next explicit argument with `size` raw bytes.
  llvm::Error addBytes(const void *data, size_t size, llvm::StringRef what);
  /// Number of explicit arguments filled so far / expected.
  unsigned filled() const { return next; }
  unsigned expected() const { return explicitArgs.size(); }
  /// The kernarg bytes; an error if some explicit argument was not filled.
  llvm::Expected<std::vector<uint8_t>> finish() const;

private:
  const KernelInfo &kernel;
  std::vector<const KernelArg *> explicitArgs;
  std::vector<uint8_t> buffer;
  unsigned next = 0;
};

/// One device allocation.
struct Allocation {
  DevicePtr base = 0;
  uint64_t size = 0;
  /// calloc'ed: a failed allocation returns null instead of aborting, and
  /// the zero pages are only backed when touched.
  std::unique_ptr<uint8_t[], void (*)(void *)> data{nullptr, std::free};
  std::string label;
};

/// Where an allocation is placed. The runtime's own objects (code objects,
/// kernarg segments, dispatch packets) come from a range of their own, so
/// that the addresses of a program's buffers depend on its buffers alone:
/// the timing model's caches see the same addresses whatever size the code
/// object has or however many launches came before.
enum class MemoryRegion { Data, Runtime };

/// The device's global memory: allocations at distinct addresses with
/// unmapped guard gaps between them, so that an access running off the end
/// of one buffer lands nowhere instead of in the next.
class GlobalMemory {
public:
  /// 0 when `size` exceeds kMaxAllocationBytes, the region's addresses are
  /// used up or the host has no memory.
  DevicePtr allocate(uint64_t size, llvm::StringRef label,
                     MemoryRegion region = MemoryRegion::Data);
  bool release(DevicePtr base);
  /// The allocation holding [address, address+size), or null.
  const Allocation *find(uint64_t address, uint64_t size) const;
  /// The host address of [address, address+size), or null when the range
  /// is not inside one allocation.
  uint8_t *translate(uint64_t address, uint64_t size) const;

  /// A copy of every allocation's bytes, for restore() to put back (the
  /// timing model runs its sample a second time from the same start).
  using Contents = std::vector<std::unique_ptr<uint8_t[]>>;
  /// False when the host has no memory for the copy.
  bool save(Contents &contents) const;
  /// Puts back the bytes save() copied; the allocations must be the same.
  void restore(const Contents &contents) const;

private:
  std::map<DevicePtr, Allocation> allocations;
  /// Runtime objects take [8 TiB, 16 TiB), buffers [16 TiB, 256 TiB): a
  /// range that is used up fails the allocation (addresses are not reused).
  static constexpr DevicePtr kRuntimeBase = 0x0000080000000000ull;
  static constexpr DevicePtr kDataBase = 0x0000100000000000ull;
  static constexpr DevicePtr kDataEnd = 0x0001000000000000ull;
  DevicePtr nextBase = kDataBase;
  DevicePtr nextRuntimeBase = kRuntimeBase;
  mutable std::mutex mutex;
};

class Device {
public:
  explicit Device(const ChipInfo &chip);
  ~Device();

  const ChipInfo &getChip() const { return chip; }

  /// Allocates zero-filled device memory (256-byte aligned). A zero-byte
  /// request still gets a distinct address. Returns 0, which no allocation
  /// has, when `bytes` exceeds kMaxAllocationBytes or the host cannot
  /// provide the memory.
  DevicePtr malloc(uint64_t bytes, llvm::StringRef label = "");
  llvm::Error free(DevicePtr ptr);
  llvm::Error memcpyHtoD(DevicePtr dst, const void *src, uint64_t bytes);
  llvm::Error memcpyDtoH(void *dst, DevicePtr src, uint64_t bytes);
  llvm::Error memset(DevicePtr dst, uint8_t value, uint64_t bytes);

  /// Loads a code object for this device's chip and places its image in
  /// this device's memory.
  llvm::Expected<std::unique_ptr<Module>> loadModule(llvm::StringRef bytes);

  /// Device address of `module`'s image in this device's memory (placed on
  /// first use): the base its code and data addresses are relative to.
  llvm::Expected<DevicePtr> getImageBase(const Module &module);
  /// Device address and size of the global variable `name` of `module`
  /// (hipModuleGetGlobal).
  llvm::Expected<std::pair<DevicePtr, uint64_t>>
  getGlobal(const Module &module, llvm::StringRef name);

  /// Runs `kernel` over `grid` workgroups of `block` work-items. `kernargs`
  /// holds the explicit arguments (see KernargBuilder); hidden arguments are
  /// filled here.
  llvm::Expected<LaunchResult>
  launch(const Module &module, llvm::StringRef kernel, Dim3 grid, Dim3 block,
         llvm::ArrayRef<uint8_t> kernargs, const LaunchOptions &options = {});

  GlobalMemory &getMemory() { return memory; }

private:
  const ChipInfo &chip;
  GlobalMemory memory;
  /// Image base of each module placed in this device's memory, by serial.
  std::map<uint64_t, DevicePtr> images;
  std::mutex imagesMutex;
};

} // namespace emu
} // namespace hk

#endif // HK_EMULATOR_DEVICE_H
