//===- LoopMix.h - Loops and instruction mix of a kernel's code -*- C++ -*-===//
//
// hk-report's static view of a kernel's machine code: the loops found from
// back edges and, per loop and for the code outside loops, how many
// instructions of each kind it holds. Counts are static (each instruction
// of the range counted once), not executed instructions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HK_REPORT_LOOPMIX_H
#define HK_TOOLS_HK_REPORT_LOOPMIX_H

#include "hk/Emulator/Disassembly.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hk::report {

/// How many instructions of each kind a stretch of code holds. Every
/// instruction lands in exactly one of the counters listed by
/// `categories()`, so they add up to `instructions`.
struct InstructionMix {
  uint64_t instructions = 0;
  uint64_t valu = 0;       ///< Vector ALU (v_*), MFMA excluded.
  uint64_t salu = 0;       ///< Scalar ALU.
  uint64_t smem = 0;       ///< Scalar memory (s_load_*, s_buffer_load_*, ...).
  uint64_t mfma = 0;       ///< Matrix-core instructions (v_mfma_*, v_smfmac_*).
  uint64_t dsRead = 0;     ///< ds_read* (any width, read2, transpose reads).
  uint64_t dsWrite = 0;    ///< ds_write* (any width, write2).
  uint64_t dsOther = 0;    ///< Other LDS instructions (permutes, atomics...).
  uint64_t bufferLoad = 0; ///< buffer_load_* into registers.
  uint64_t bufferLoadLds = 0; ///< buffer_load_* ... lds (direct-to-LDS).
  uint64_t globalLoad = 0;    ///< global_load_* into registers.
  uint64_t globalLoadLds = 0; ///< global_load_lds_* (direct-to-LDS).
  uint64_t bufferStore = 0;
  uint64_t globalStore = 0;
  uint64_t flatLoad = 0;
  uint64_t flatStore = 0;
  uint64_t scratchLoad = 0;
  uint64_t scratchStore = 0;
  uint64_t vmemAtomic = 0; ///< buffer/global/flat atomics.
  uint64_t vmemOther = 0;  ///< Other vector-memory instructions.
  uint64_t barrier = 0;    ///< s_barrier.
  uint64_t setprio = 0;    ///< s_setprio.
  uint64_t waitcnt = 0;    ///< s_waitcnt.
  uint64_t nop = 0;        ///< s_nop.
  uint64_t branch = 0;     ///< s_branch and s_cbranch_*.
  uint64_t other = 0;      ///< Everything else (s_endpgm, s_sleep, s_getpc...).

  /// s_waitcnt instructions that wait for vmcnt (lgkmcnt) to reach zero.
  uint64_t vmcntDrains = 0;
  uint64_t lgkmcntDrains = 0;
  /// FLOPs of the MFMAs (one pass through the code).
  uint64_t mfmaFlops = 0;
  /// MFMAs the chip table does not describe (no FLOPs counted for them).
  uint64_t unknownMfmas = 0;
  /// Priorities s_setprio sets.
  std::set<int64_t> priorities;
  /// s_waitcnt limits below the counter's maximum -> how many wait so.
  std::map<unsigned, uint64_t> vmcntLimits, lgkmcntLimits;
  /// Instructions by mnemonic; direct-to-LDS loads get a " lds" suffix.
  std::map<std::string, uint64_t> mnemonics;

  void add(const emu::DecodedInstruction &instruction);

  /// The disjoint counters with their report names ("valu", "ds_read",
  /// ...), in report order.
  struct Category {
    llvm::StringLiteral name;
    uint64_t InstructionMix::*count;
  };
  static llvm::ArrayRef<Category> categories();
};

/// A loop: the code from a back edge's target to the last branch going back
/// to it.
struct Loop {
  uint64_t start = 0; ///< Address of the first instruction (the target).
  uint64_t end = 0;   ///< Address of the last back-edge branch (inclusive).
  unsigned backEdges = 0;
  unsigned depth = 1;             ///< 1 for an outermost loop.
  std::optional<unsigned> parent; ///< Index of the enclosing loop.
  std::vector<unsigned> nested;   ///< Indices of directly nested loops.
  /// Instructions of the loop that are not inside a nested loop.
  InstructionMix mix;

  bool contains(uint64_t address) const {
    return address >= start && address <= end;
  }
};

/// A kernel's code and its loop structure.
struct KernelCode {
  uint64_t start = 0, end = 0; ///< [start, end) in the code object.
  std::vector<emu::DecodedInstruction> instructions;
  std::vector<Loop> loops; ///< By start address, outer before inner.
  InstructionMix outsideLoops;
  InstructionMix total;

  /// Index of the innermost loop holding `address`, if any.
  std::optional<unsigned> innermostLoop(uint64_t address) const;
};

/// Finds the loops of the instructions in [start, end) and counts their mix.
/// A back edge is a direct branch, conditional or not, whose target is at or
/// before it and inside the kernel; back edges to one target form one loop.
/// Loops nest by address range; each instruction is counted in the
/// innermost loop holding it, or outside loops.
KernelCode analyzeKernelCode(llvm::ArrayRef<emu::DecodedInstruction> all,
                             uint64_t start, uint64_t end);

} // namespace hk::report

#endif // HK_TOOLS_HK_REPORT_LOOPMIX_H
