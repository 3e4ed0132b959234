//===- ChipInfo.h - Facts about the AMD Instinct chips HK targets -*- C++
//-*-===//
//
// The one place that knows what gfx942 and gfx950 can do. Verifiers, passes,
// the code-object tools and the emulator all query this table instead of
// comparing chip names.
//
//===----------------------------------------------------------------------===//

#ifndef HK_SUPPORT_CHIPINFO_H
#define HK_SUPPORT_CHIPINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace hk {

/// Element kinds an MFMA reads or writes.
enum class MfmaElement : uint8_t {
  F64,
  F32,
  XF32,
  F16,
  BF16,
  I8,
  I32,
  Fp8,   ///< E4M3 in the chip's fp8 format (FNUZ on gfx942, OCP on gfx950).
  Bf8,   ///< E5M2 in the chip's fp8 format.
  F8F6F4 ///< gfx950 scaled MFMA: operand format chosen per instruction.
};

llvm::StringRef stringifyMfmaElement(MfmaElement e);

/// Bits one element of the kind occupies in a VGPR (F8F6F4 reported as 8).
unsigned mfmaElementBits(MfmaElement e);

/// One dense matrix-core instruction: D(MxN) = C + A(MxK) * B(KxN), repeated
/// over `blocks` independent blocks.
struct MfmaInstr {
  llvm::StringRef mnemonic;
  MfmaElement a, b, acc;
  unsigned m, n, k, blocks;
  bool scaled = false; ///< gfx950 v_mfma_scale_* with per-block scales.

  /// Floating-point (or integer) operations of one instruction.
  uint64_t flops() const { return 2ull * m * n * k * blocks; }
  /// A/B elements each lane holds for a single-block instruction.
  unsigned kPerLane() const { return k * m * blocks / 64; }
  /// 32-bit registers per lane for the A (and B) operand.
  unsigned operandRegs() const;
  /// 32-bit registers per lane for the C/D operand.
  unsigned accRegs() const { return m * n * blocks / 64; }
};

enum class Fp8Format : uint8_t { FNUZ, OCP };

/// One ds_* instruction of a wave as the LDS bank model sees it: lane L,
/// when bit L of `activeLanes` is set, accesses `bytesPerAddress` bytes at
/// byte address `first[L]` and, for the two-address forms (ds_read2*,
/// ds_write2*), as many at `second[L]`. Only active lanes' entries are read.
struct LdsWaveAccess {
  const uint32_t *first = nullptr;
  const uint32_t *second = nullptr;
  uint64_t activeLanes = 0;
  unsigned bytesPerAddress = 4;
  bool isWrite = false;
};

/// What one ds_* instruction costs the LDS.
struct LdsAccessCost {
  unsigned phases = 0;         ///< Phases holding at least one active lane.
  unsigned conflictCycles = 0; ///< Cycles lost to bank conflicts.
};

/// LDS bank model: how many lanes of a wave the LDS serves per phase for a
/// given access width. Lanes in one phase conflict when they touch different
/// dwords in the same bank. The compiler (hk-lds-layout) and the emulator
/// (its bank-conflict counters) both cost accesses with it, so a swizzle
/// the compiler calls conflict-free is conflict-free in hk-emu.
struct LdsBankModel {
  /// Banks `cost` handles (every chip in the table has at most this many).
  static constexpr unsigned kMaxBanks = 64;

  unsigned banks;
  unsigned bankWidthBytes;
  unsigned readLanesPerPhase(unsigned bytesPerLane) const;
  unsigned writeLanesPerPhase(unsigned bytesPerLane) const;
  // Measured exceptions to "phase = banks*width / bytesPerLane".
  unsigned write64LanesPerPhase;
  /// Lanes per phase of a 12-byte read (ds_read_b96), when measured.
  unsigned read96LanesPerPhase;
  /// The order in which a single-address read of 16 bytes per lane
  /// (ds_read_b128), and of 12 where `read96LanesPerPhase` is set, takes
  /// its lanes into phases, in quads of lanes (quad q is lanes 4q to
  /// 4q+3): not lane order on CDNA3 and CDNA4. Empty: lane order.
  llvm::ArrayRef<uint8_t> wideReadQuadOrder;

  /// Whether `access`, served `lanesPerPhase` lanes a phase, takes its
  /// lanes in `wideReadQuadOrder`.
  bool usesQuadOrder(const LdsWaveAccess &access, unsigned lanesPerPhase) const;
  /// The lanes phase `phase` of an access in `wideReadQuadOrder` serves
  /// (active or not), for `lanesPerPhase` lanes per phase.
  uint64_t quadOrderPhaseLanes(unsigned lanesPerPhase, unsigned phase) const;

  /// The cost of one ds_* instruction: the lanes are served in phases
  /// (lanes per phase by the bytes each lane moves, both addresses of a
  /// two-address form together), and a phase takes as many cycles as the
  /// most distinct bank words any one bank holds (the same word twice is a
  /// broadcast); cycles beyond one per phase are conflict cycles. Allocates
  /// nothing: the emulator calls it for every LDS instruction it runs.
  /// A bank's distinct words are counted up to 64 per phase, which no ds_*
  /// instruction reaches (a phase moves at most banks * bankWidthBytes
  /// bytes).
  LdsAccessCost cost(const LdsWaveAccess &access) const;

  /// Conflict cycles of one single-address ds_* instruction: `addresses`
  /// holds each lane's first byte address (UINT32_MAX for an inactive lane),
  /// `bytesPerLane` is the access width. Addresses past the 64th are
  /// further waves.
  unsigned conflictCycles(llvm::ArrayRef<uint32_t> addresses,
                          unsigned bytesPerLane, bool isWrite) const;
};

struct ChipInfo {
  llvm::StringRef name;       ///< "gfx942"
  llvm::StringRef products;   ///< "MI300X/MI325X"
  llvm::StringRef generation; ///< "CDNA3"
  unsigned elfMach;           ///< EF_AMDGPU_MACH_* value in e_flags.
  unsigned ldsBytesPerWorkgroup;
  LdsBankModel lds;
  Fp8Format fp8Format;
  /// Bytes per lane a buffer load can move straight into LDS.
  llvm::ArrayRef<unsigned> directToLdsBytes;
  /// Every dense MFMA the chip executes.
  llvm::ArrayRef<MfmaInstr> mfmaInstrs;
  bool hasLdsTransposeRead;
  bool hasPermlaneSwap;
  bool hasPackedBf16Convert;
  unsigned computeUnits;
  unsigned xcds;
  /// LLVM target features a user may switch on or off (`hk-translate
  /// --features=+name,-name`) without changing what the code means or which
  /// instructions the chip has: the target-id modes (xnack, sramecc), the
  /// memory-model mode tgsplit and precise-memory (a wait after every memory
  /// instruction). Any other feature changes the instruction set LLVM
  /// assumes and can crash its backend or drop every kernel.
  llvm::ArrayRef<llvm::StringRef> toggleableFeatures;
  unsigned simdsPerCU = 4;
  unsigned waveSize = 64;
  unsigned maxWavesPerSimd = 8;
  /// Architectural + accumulation VGPRs addressable by one wave.
  unsigned maxVgprsPerWave = 512;
  /// Unified VGPR file per SIMD lane (arch + acc), in registers.
  unsigned vgprsPerSimdLane = 512;
  unsigned maxSgprsPerWave = 102;
  /// Work-item ids arrive packed in v0 (x, y, z in 10 bits each) instead of
  /// one VGPR per dimension (gfx90a and later).
  bool packedWorkitemIds = true;
  /// Word 3 of a raw buffer resource (32-bit data format, identity
  /// component selects) as the CDNA chips expect it.
  uint32_t bufferResourceFlags = 0x00027000;

  /// Returns the chip called `name`, or null.
  static const ChipInfo *lookup(llvm::StringRef name);
  /// Returns the chip whose code objects carry `mach` in e_flags, or null.
  static const ChipInfo *lookupElfMach(unsigned mach);
  static llvm::ArrayRef<ChipInfo> all();
  /// "gfx942, gfx950": for diagnostics.
  static std::string knownChipNames();

  bool supportsDirectToLds(unsigned bytesPerLane) const;
  /// The widest direct-to-LDS buffer load, in bytes per lane.
  unsigned maxDirectToLdsBytes() const;

  /// Single-block dense MFMA with A/B of kind `ab`, or null.
  const MfmaInstr *findMfma(MfmaElement ab, unsigned m, unsigned n,
                            unsigned k) const;
  const MfmaInstr *findMfma(llvm::StringRef mnemonic) const;

  /// Waves per SIMD that fit the given per-wave resources (0 if none fit).
  /// `vgprs` counts the whole unified allocation of a wave: the arch VGPRs
  /// rounded up to 4 plus the AGPRs, as a code object's .vgpr_count does on
  /// these chips (never add .agpr_count to it).
  unsigned occupancy(unsigned vgprs, unsigned ldsBytes,
                     unsigned wavesPerWorkgroup) const;
};

} // namespace hk

#endif // HK_SUPPORT_CHIPINFO_H
