//===- CodeObject.h - Reading AMDHSA code objects -----------------*- C++
//-*-===//
//
// Reads what a loader needs from an AMDHSA code object (hsaco) for gfx942 or
// gfx950, ours or anyone's: the target, every kernel's metadata (arguments,
// segment sizes, register counts) and its 64-byte kernel descriptor, the
// loadable segments (code, constants, initialised and zeroed data), the
// symbols and the dynamic relocations, and lays out the image a device
// loads.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_CODEOBJECT_H
#define HK_RUNTIME_CODEOBJECT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hk {

struct ChipInfo;

/// One kernel argument, as the metadata note describes it.
struct KernelArg {
  std::string name;
  std::string valueKind; ///< "global_buffer", "by_value", "hidden_...".
  std::string addressSpace;
  uint32_t offset = 0;
  uint32_t size = 0;
};

struct KernelInfo {
  std::string name;
  std::string symbol; ///< The descriptor symbol, "<name>.kd".
  std::vector<KernelArg> args;
  uint32_t kernargSegmentSize = 0;
  uint32_t kernargSegmentAlign = 0;
  uint32_t groupSegmentFixedSize = 0;   ///< Static LDS bytes.
  uint32_t privateSegmentFixedSize = 0; ///< Scratch bytes per lane.
  uint32_t sgprCount = 0;
  /// `.vgpr_count`: on gfx90a and later (every chip HK knows) the unified
  /// register count, the architectural VGPRs rounded up to 4 plus the
  /// AGPRs (`.agpr_count`), which it therefore already includes.
  uint32_t vgprCount = 0;
  uint32_t agprCount = 0;
  uint32_t sgprSpillCount = 0;
  uint32_t vgprSpillCount = 0;
  uint32_t wavefrontSize = 64;
  uint32_t maxFlatWorkgroupSize = 0;
  /// `.reqd_workgroup_size`: the block size every launch must use (the
  /// code may rely on it), or all zero when the kernel requires none.
  std::array<uint32_t, 3> reqdWorkgroupSize{};
  bool usesDynamicStack = false;
  /// Virtual address of the kernel descriptor and its raw bytes.
  uint64_t descriptorAddress = 0;
  std::array<uint8_t, 64> descriptor{};
  /// Virtual address of the first instruction (descriptor address plus
  /// kernel_code_entry_byte_offset).
  uint64_t entryAddress = 0;

  /// Architectural VGPRs (rounded up to 4): the unified count less the
  /// AGPRs.
  uint32_t archVgprCount() const {
    return vgprCount - std::min(vgprCount, agprCount);
  }

  /// Whether the kernel spills registers: to other registers (VGPR lanes
  /// for SGPRs, AGPRs) or to scratch.
  bool spills() const {
    return vgprSpillCount || sgprSpillCount || privateSegmentFixedSize;
  }

  /// Explicit (non-hidden) arguments.
  std::vector<const KernelArg *> explicitArgs() const;
};

/// A loaded segment of the code object's address space.
struct Segment {
  uint64_t address = 0;
  uint64_t memorySize = 0;
  /// The file's bytes of the segment (its first bytes.size() bytes); the
  /// rest, up to memorySize, is zero-filled when loaded.
  std::string bytes;
  bool executable = false;
};

/// A symbol of the code object (its symbol tables, names unique).
struct Symbol {
  std::string name;
  uint64_t address = 0; ///< Virtual address in the code object.
  uint64_t size = 0;
  bool defined = false;
  bool isData = false; ///< An object (a variable or constant), not code.
};

/// A dynamic relocation: what a loader patches after placing the code
/// object in memory (global pointers, GOT entries).
struct Relocation {
  uint64_t offset = 0; ///< Virtual address of the patched bytes.
  uint32_t type = 0;   ///< llvm::ELF::R_AMDGPU_*.
  int64_t addend = 0;
  std::string symbol; ///< Empty for relative relocations.
  bool symbolDefined = false;
  uint64_t symbolAddress = 0;
};

/// The largest loaded image a code object may describe: 2 GiB, the reach of
/// the 32-bit PC-relative offsets with which code addresses its data.
inline constexpr uint64_t kMaxImageBytes = 2ull << 30;
/// The largest single segment: 256 MiB (code objects are kilobytes to
/// megabytes; more is a corrupt header).
inline constexpr uint64_t kMaxSegmentBytes = 256ull << 20;

class CodeObject {
public:
  /// Parses a code object from memory; rejects anything that is not an
  /// AMDHSA code object (v4 to v6) for a chip HK supports.
  static llvm::Expected<CodeObject> parse(llvm::StringRef bytes);
  static llvm::Expected<CodeObject> load(llvm::StringRef path);

  const ChipInfo &getChip() const { return *chip; }
  /// The metadata's `amdhsa.target`, e.g. "amdgcn-amd-amdhsa--gfx942".
  llvm::StringRef getTarget() const { return target; }
  unsigned getCodeObjectVersion() const { return codeObjectVersion; }
  const std::vector<KernelInfo> &getKernels() const { return kernels; }
  const std::vector<Segment> &getSegments() const { return segments; }
  const std::vector<Relocation> &getRelocations() const { return relocations; }
  /// The symbol called `name`, or null.
  const Symbol *findSymbol(llvm::StringRef name) const;
  /// Bytes from virtual address 0 to the end of the last segment: the size
  /// of the loaded image (at most kMaxImageBytes).
  uint64_t getImageSize() const { return imageSize; }
  /// Lays the segments out in `image` (getImageSize() zero-filled bytes),
  /// as loaded at device address `base`, and applies the dynamic
  /// relocations. An error names a relocation the loader cannot apply (an
  /// undefined symbol, an unsupported type, a patch of code).
  llvm::Error loadImage(llvm::MutableArrayRef<uint8_t> image,
                        uint64_t base) const;
  /// Whether this is an unlinked relocatable object (clang -c): readable,
  /// with its sections laid out as segments, but its code and descriptors
  /// still await relocation, so it cannot run.
  bool isRelocatable() const { return relocatable; }
  /// The kernel called `name`, or null.
  const KernelInfo *findKernel(llvm::StringRef name) const;

private:
  const ChipInfo *chip = nullptr;
  std::string target;
  unsigned codeObjectVersion = 0;
  bool relocatable = false;
  std::vector<KernelInfo> kernels;
  std::vector<Segment> segments;
  std::vector<Relocation> relocations;
  std::vector<Symbol> symbols; ///< Sorted by name.
  uint64_t imageSize = 0;
};

} // namespace hk

#endif // HK_RUNTIME_CODEOBJECT_H
