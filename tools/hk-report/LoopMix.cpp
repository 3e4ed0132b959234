//===- LoopMix.cpp - Loops and instruction mix of a kernel's code ---------===//

#include "LoopMix.h"

#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace hk;
using namespace hk::report;
using emu::DecodedInstruction;
using emu::InstrClass;
using emu::WaitLimits;
using Mix = InstructionMix;

llvm::ArrayRef<Mix::Category> Mix::categories() {
  static const Category list[] = {
      {"valu", &Mix::valu},
      {"salu", &Mix::salu},
      {"smem", &Mix::smem},
      {"mfma", &Mix::mfma},
      {"ds_read", &Mix::dsRead},
      {"ds_write", &Mix::dsWrite},
      {"ds_other", &Mix::dsOther},
      {"buffer_load", &Mix::bufferLoad},
      {"buffer_load_lds", &Mix::bufferLoadLds},
      {"global_load", &Mix::globalLoad},
      {"global_load_lds", &Mix::globalLoadLds},
      {"buffer_store", &Mix::bufferStore},
      {"global_store", &Mix::globalStore},
      {"flat_load", &Mix::flatLoad},
      {"flat_store", &Mix::flatStore},
      {"scratch_load", &Mix::scratchLoad},
      {"scratch_store", &Mix::scratchStore},
      {"vmem_atomic", &Mix::vmemAtomic},
      {"vmem_other", &Mix::vmemOther},
      {"s_barrier", &Mix::barrier},
      {"s_setprio", &Mix::setprio},
      {"s_waitcnt", &Mix::waitcnt},
      {"s_nop", &Mix::nop},
      {"branch", &Mix::branch},
      {"other", &Mix::other},
  };
  return list;
}

/// The counter of a vector-memory instruction, from its mnemonic.
static uint64_t Mix::*vmemCategory(const DecodedInstruction &in) {
  llvm::StringRef m = in.mnemonic;
  if (m.contains("_atomic"))
    return &Mix::vmemAtomic;
  if (m.starts_with("buffer_load") || m.starts_with("tbuffer_load"))
    return in.directToLds ? &Mix::bufferLoadLds : &Mix::bufferLoad;
  if (m.starts_with("global_load"))
    return in.directToLds ? &Mix::globalLoadLds : &Mix::globalLoad;
  if (m.starts_with("buffer_store") || m.starts_with("tbuffer_store"))
    return &Mix::bufferStore;
  if (m.starts_with("global_store"))
    return &Mix::globalStore;
  if (m.starts_with("flat_load"))
    return &Mix::flatLoad;
  if (m.starts_with("flat_store"))
    return &Mix::flatStore;
  if (m.starts_with("scratch_load"))
    return &Mix::scratchLoad;
  if (m.starts_with("scratch_store"))
    return &Mix::scratchStore;
  return &Mix::vmemOther;
}

/// The one counter `in` adds to.
static uint64_t Mix::*categoryOf(const DecodedInstruction &in) {
  llvm::StringRef m = in.mnemonic;
  switch (in.cls) {
  case InstrClass::Valu:
    return &Mix::valu;
  case InstrClass::Salu:
    return &Mix::salu;
  case InstrClass::Smem:
    return &Mix::smem;
  case InstrClass::Mfma:
    return &Mix::mfma;
  case InstrClass::Lds:
    if (m.starts_with("ds_read"))
      return &Mix::dsRead;
    if (m.starts_with("ds_write"))
      return &Mix::dsWrite;
    return &Mix::dsOther;
  case InstrClass::Vmem:
    return vmemCategory(in);
  case InstrClass::Wait:
    return in.wait ? &Mix::waitcnt : &Mix::other;
  case InstrClass::Barrier:
    return m == "s_barrier" ? &Mix::barrier : &Mix::other;
  case InstrClass::Branch:
    return in.branchTarget ? &Mix::branch : &Mix::other;
  case InstrClass::Other:
  case InstrClass::Count:
    break;
  }
  if (m == "s_setprio")
    return &Mix::setprio;
  if (m == "s_nop")
    return &Mix::nop;
  return &Mix::other;
}

void Mix::add(const DecodedInstruction &in) {
  ++instructions;
  ++(this->*categoryOf(in));
  std::string key = in.mnemonic;
  // buffer_load_dwordx4 writes registers or, with `lds`, LDS: keep apart.
  if (in.directToLds && !llvm::StringRef(key).contains("_lds"))
    key += " lds";
  ++mnemonics[key];
  if (in.cls == InstrClass::Mfma) {
    if (in.mfma)
      mfmaFlops += in.mfma->flops();
    else
      ++unknownMfmas;
  }
  if (in.mnemonic == "s_setprio")
    priorities.insert(in.immediate);
  if (in.wait) {
    vmcntDrains += in.wait->drainsVmcnt();
    lgkmcntDrains += in.wait->drainsLgkmcnt();
    if (in.wait->vmcnt < WaitLimits::kVmcntMax)
      ++vmcntLimits[in.wait->vmcnt];
    if (in.wait->lgkmcnt < WaitLimits::kLgkmcntMax)
      ++lgkmcntLimits[in.wait->lgkmcnt];
  }
}

/// One loop per back-edge target, spanning to its farthest back edge:
/// a loop whose latch branches back from several places (a rotated loop
/// with an early `continue`) is still one loop.
static std::vector<Loop>
collectBackEdges(llvm::ArrayRef<DecodedInstruction> instructions,
                 uint64_t start) {
  std::map<uint64_t, Loop> byTarget;
  for (const DecodedInstruction &in : instructions) {
    if (!in.branchTarget || *in.branchTarget > in.address ||
        *in.branchTarget < start)
      continue;
    Loop &loop = byTarget[*in.branchTarget];
    loop.start = *in.branchTarget;
    loop.end = std::max(loop.end, in.address);
    ++loop.backEdges;
  }
  std::vector<Loop> loops;
  for (auto &entry : byTarget)
    loops.push_back(std::move(entry.second));
  return loops;
}

/// Whether a branch from outside `outer` lands inside `inner`.
static bool enteredFromOutside(const Loop &inner, const Loop &outer,
                               llvm::ArrayRef<DecodedInstruction> code) {
  return llvm::any_of(code, [&](const DecodedInstruction &in) {
    return in.branchTarget && inner.contains(*in.branchTarget) &&
           !outer.contains(in.address);
  });
}

/// Whether `a` and `b` are two back edges of one cycle rather than two
/// loops: their ranges overlap without one holding the other, or `b` lies
/// inside `a` but the code enters `b` from outside `a`. The second is how
/// LLVM lays out a rotated loop whose body ends in a conditional block:
/// the preheader jumps into the middle of the body, one back edge skips
/// the block and one runs it, and the two targets differ by an exec-mask
/// restore. A loop truly nested in `a` is only reached through `a`.
static bool sameCycle(const Loop &a, const Loop &b,
                      llvm::ArrayRef<DecodedInstruction> code) {
  bool overlap = a.start < b.start && b.start <= a.end && a.end < b.end;
  bool inside = a.start < b.start && b.end <= a.end;
  return overlap || (inside && enteredFromOutside(b, a, code));
}

/// The loops of `code`, back edges of one cycle merged.
static std::vector<Loop> findLoops(llvm::ArrayRef<DecodedInstruction> code,
                                   uint64_t start) {
  std::vector<Loop> loops = collectBackEdges(code, start);
  bool merged = true;
  while (merged) {
    merged = false;
    for (unsigned i = 0; i < loops.size() && !merged; ++i)
      for (unsigned j = 0; j < loops.size() && !merged; ++j) {
        if (i == j || !sameCycle(loops[i], loops[j], code))
          continue;
        loops[i].end = std::max(loops[i].end, loops[j].end);
        loops[i].backEdges += loops[j].backEdges;
        loops.erase(loops.begin() + j);
        merged = true;
      }
  }
  return loops;
}

/// The parent of each loop is the smallest other loop holding its whole
/// range; loops are sorted by start, so parents come first.
static void nestLoops(std::vector<Loop> &loops) {
  for (unsigned i = 0; i < loops.size(); ++i) {
    Loop &loop = loops[i];
    for (unsigned j = 0; j < loops.size(); ++j) {
      const Loop &outer = loops[j];
      if (j == i || outer.start > loop.start || outer.end < loop.end)
        continue;
      if (!loop.parent ||
          outer.end - outer.start <
              loops[*loop.parent].end - loops[*loop.parent].start)
        loop.parent = j;
    }
    if (!loop.parent)
      continue;
    loop.depth = loops[*loop.parent].depth + 1;
    loops[*loop.parent].nested.push_back(i);
  }
}

std::optional<unsigned> KernelCode::innermostLoop(uint64_t address) const {
  std::optional<unsigned> best;
  for (unsigned i = 0; i < loops.size(); ++i) {
    if (!loops[i].contains(address))
      continue;
    if (!best ||
        loops[i].end - loops[i].start < loops[*best].end - loops[*best].start)
      best = i;
  }
  return best;
}

KernelCode hk::report::analyzeKernelCode(llvm::ArrayRef<DecodedInstruction> all,
                                         uint64_t start, uint64_t end) {
  KernelCode code;
  code.start = start;
  code.end = end;
  for (const DecodedInstruction &in : all)
    if (in.address >= start && in.address < end)
      code.instructions.push_back(in);
  code.loops = findLoops(code.instructions, start);
  nestLoops(code.loops);
  for (const DecodedInstruction &in : code.instructions) {
    code.total.add(in);
    std::optional<unsigned> loop = code.innermostLoop(in.address);
    (loop ? code.loops[*loop].mix : code.outsideLoops).add(in);
  }
  return code;
}
