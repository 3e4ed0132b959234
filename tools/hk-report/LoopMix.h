//===- LoopMix.h - Loops and instruction mix of a kernel's code -*- C++ -*-===//
//
// hk-report's static view of a kernel's machine code: its control-flow
// graph, the natural loops of that graph (a back edge goes to a block that
// dominates its source) and, per loop and for the code outside loops, how
// many instructions of each kind it holds. Counts are static (each
// instruction counted once), not executed instructions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HK_REPORT_LOOPMIX_H
#define HK_TOOLS_HK_REPORT_LOOPMIX_H

#include "hk/ISA/Instruction.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
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
  /// Instructions by mnemonic, with their unit; direct-to-LDS loads get a
  /// " lds" suffix.
  struct MnemonicCount {
    uint64_t count = 0;
    isa::Unit unit = isa::Unit::Hint;
  };
  std::map<std::string, MnemonicCount> mnemonics;

  void add(const isa::Instruction &instruction);

  /// The disjoint counters with their report names ("valu", "ds_read",
  /// ...), in report order.
  struct Category {
    llvm::StringLiteral name;
    uint64_t InstructionMix::*count;
  };
  static llvm::ArrayRef<Category> categories();
};

/// A natural loop: its header block (the target of its back edges, which
/// dominates them) and every block that reaches a back edge without
/// passing through the header.
struct Loop {
  uint64_t start = 0; ///< Address of the header's first instruction.
  uint64_t end = 0;   ///< Address of the body's last instruction.
  unsigned backEdges = 0;
  unsigned depth = 1;             ///< 1 for an outermost loop.
  std::optional<unsigned> parent; ///< Index of the enclosing loop.
  std::vector<unsigned> nested;   ///< Indices of directly nested loops.
  /// Indices into KernelCode::instructions of the loop's instructions, in
  /// address order.
  std::vector<unsigned> body;
  /// Instructions of the loop that are not inside a nested loop.
  InstructionMix mix;

  bool contains(unsigned instruction) const {
    return std::binary_search(body.begin(), body.end(), instruction);
  }
};

/// A kernel's code and its loop structure.
struct KernelCode {
  uint64_t start = 0, end = 0; ///< [start, end) in the code object.
  std::vector<isa::Instruction> instructions;
  std::vector<Loop> loops; ///< By header address, outer before inner.
  InstructionMix outsideLoops;
  InstructionMix total;

  /// Index of the innermost loop holding instruction `index`, if any.
  std::optional<unsigned> innermostLoop(unsigned index) const;
};

/// Finds the loops of the instructions in [start, end) and counts their mix.
/// The control-flow graph has an edge for each direct branch and each
/// fall-through; back edges to one header form one loop, loops nest by
/// their bodies, and each instruction is counted in the innermost loop
/// holding it, or outside loops. Code reached only through indirect
/// branches (s_setpc) is outside loops; so is an irreducible cycle, which
/// has no header dominating it.
KernelCode analyzeKernelCode(llvm::ArrayRef<isa::Instruction> all,
                             uint64_t start, uint64_t end);

} // namespace hk::report

#endif // HK_TOOLS_HK_REPORT_LOOPMIX_H
