//===- LoopMix.cpp - Loops and instruction mix of a kernel's code ---------===//

#include "LoopMix.h"

#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace hk;
using namespace hk::report;
using isa::Unit;
using isa::WaitLimits;
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

/// The counter of a vector-memory instruction, from its table entry.
static uint64_t Mix::*vmemCategory(const isa::Instruction &in) {
  const isa::InstrDesc &d = *in.desc;
  Unit unit = in.unit();
  if (unit == Unit::VmemAtomic)
    return &Mix::vmemAtomic;
  bool load = unit == Unit::VmemLoad || unit == Unit::DirectToLds;
  bool store = unit == Unit::VmemStore && d.mem.kind == isa::MemKind::Store;
  switch (d.family) {
  case isa::Family::MUBUF:
  case isa::Family::MTBUF:
    if (load)
      return unit == Unit::DirectToLds ? &Mix::bufferLoadLds : &Mix::bufferLoad;
    return store ? &Mix::bufferStore : &Mix::vmemOther;
  case isa::Family::GLOBAL:
    if (load)
      return unit == Unit::DirectToLds ? &Mix::globalLoadLds : &Mix::globalLoad;
    return store ? &Mix::globalStore : &Mix::vmemOther;
  case isa::Family::FLAT:
    return load ? &Mix::flatLoad : store ? &Mix::flatStore : &Mix::vmemOther;
  case isa::Family::SCRATCH:
    return load    ? &Mix::scratchLoad
           : store ? &Mix::scratchStore
                   : &Mix::vmemOther;
  default:
    return &Mix::vmemOther;
  }
}

/// The one counter `in` adds to.
static uint64_t Mix::*categoryOf(const isa::Instruction &in) {
  if (!in.desc)
    return &Mix::other;
  llvm::StringRef m = in.mnemonic();
  switch (in.unit()) {
  case Unit::Valu:
  case Unit::Trans:
    return &Mix::valu;
  case Unit::Salu:
    return &Mix::salu;
  case Unit::Smem:
    return &Mix::smem;
  case Unit::Mfma:
    return &Mix::mfma;
  case Unit::Lds:
    if (in.desc->mem.kind == isa::MemKind::Load)
      return &Mix::dsRead;
    if (in.desc->mem.kind == isa::MemKind::Store)
      return &Mix::dsWrite;
    return &Mix::dsOther;
  case Unit::VmemLoad:
  case Unit::VmemStore:
  case Unit::VmemAtomic:
  case Unit::DirectToLds:
    return vmemCategory(in);
  case Unit::Wait:
    return &Mix::waitcnt;
  case Unit::Barrier:
    return &Mix::barrier;
  case Unit::Branch:
    return in.isDirectBranch() ? &Mix::branch : &Mix::other;
  case Unit::Hint:
    if (m == "s_setprio")
      return &Mix::setprio;
    if (m == "s_nop")
      return &Mix::nop;
    return &Mix::other;
  case Unit::Message:
  case Unit::EndProgram:
  case Unit::Count:
    break;
  }
  return &Mix::other;
}

void Mix::add(const isa::Instruction &in) {
  ++instructions;
  ++(this->*categoryOf(in));
  std::string key = in.mnemonic().str();
  // buffer_load_dwordx4 writes registers or, with `lds`, LDS: keep apart.
  if (in.isDirectToLds() && !llvm::StringRef(key).contains("_lds"))
    key += " lds";
  MnemonicCount &entry = mnemonics[key];
  ++entry.count;
  entry.unit = in.desc ? in.unit() : Unit::Hint;
  if (in.desc && in.unit() == Unit::Mfma) {
    if (in.mfma)
      mfmaFlops += in.mfma->flops();
    else
      ++unknownMfmas;
  }
  if (in.mnemonic() == "s_setprio")
    priorities.insert(in.simm);
  if (in.desc && in.unit() == Unit::Wait) {
    vmcntDrains += in.wait.drainsVmcnt();
    lgkmcntDrains += in.wait.drainsLgkmcnt();
    if (in.wait.vmcnt < WaitLimits::kVmcntMax)
      ++vmcntLimits[in.wait.vmcnt];
    if (in.wait.lgkmcnt < WaitLimits::kLgkmcntMax)
      ++lgkmcntLimits[in.wait.lgkmcnt];
  }
}

// The control-flow graph ------------------------------------------------------

namespace {
struct Block {
  unsigned first = 0, last = 0; ///< Instruction indices, inclusive.
  std::vector<unsigned> successors, predecessors;
};

struct Cfg {
  std::vector<Block> blocks;
  std::vector<unsigned> blockOf; ///< Instruction index -> block.
};
} // namespace

/// Whether execution never continues to the next instruction.
static bool endsFlow(const isa::Instruction &in) {
  if (!in.desc)
    return false;
  llvm::StringRef m = in.mnemonic();
  return m == "s_branch" || m == "s_setpc_b64" || m == "s_endpgm" ||
         m == "s_trap";
}

static Cfg buildCfg(llvm::ArrayRef<isa::Instruction> code) {
  Cfg cfg;
  std::map<uint64_t, unsigned> indexOf;
  for (unsigned i = 0; i < code.size(); ++i)
    indexOf[code[i].pc] = i;
  auto targetIndex =
      [&](const isa::Instruction &in) -> std::optional<unsigned> {
    if (!in.isDirectBranch())
      return std::nullopt;
    auto it = indexOf.find(in.branchTarget());
    if (it == indexOf.end())
      return std::nullopt;
    return it->second;
  };
  std::vector<bool> leader(code.size(), false);
  if (!code.empty())
    leader[0] = true;
  for (unsigned i = 0; i < code.size(); ++i) {
    if (std::optional<unsigned> target = targetIndex(code[i]))
      leader[*target] = true;
    if ((code[i].isDirectBranch() || endsFlow(code[i])) && i + 1 < code.size())
      leader[i + 1] = true;
  }
  cfg.blockOf.assign(code.size(), 0);
  for (unsigned i = 0; i < code.size(); ++i) {
    if (leader[i])
      cfg.blocks.push_back(Block{i, i, {}, {}});
    cfg.blocks.back().last = i;
    cfg.blockOf[i] = unsigned(cfg.blocks.size() - 1);
  }
  for (unsigned b = 0; b < cfg.blocks.size(); ++b) {
    Block &block = cfg.blocks[b];
    const isa::Instruction &last = code[block.last];
    if (std::optional<unsigned> target = targetIndex(last))
      block.successors.push_back(cfg.blockOf[*target]);
    if (!endsFlow(last) && b + 1 < cfg.blocks.size() &&
        !llvm::is_contained(block.successors, b + 1))
      block.successors.push_back(b + 1);
  }
  for (unsigned b = 0; b < cfg.blocks.size(); ++b)
    for (unsigned s : cfg.blocks[b].successors)
      cfg.blocks[s].predecessors.push_back(b);
  return cfg;
}

/// Immediate dominators (Cooper, Harvey and Kennedy, "A Simple, Fast
/// Dominance Algorithm"); blocks unreachable from the entry get none.
static std::vector<int> dominators(const Cfg &cfg) {
  unsigned n = cfg.blocks.size();
  std::vector<int> postorder, order(n, -1);
  std::vector<bool> seen(n, false);
  // Iterative depth-first search for the postorder.
  std::vector<std::pair<unsigned, unsigned>> stack;
  if (n) {
    stack.push_back({0, 0});
    seen[0] = true;
  }
  while (!stack.empty()) {
    auto &[block, next] = stack.back();
    const std::vector<unsigned> &succ = cfg.blocks[block].successors;
    if (next < succ.size()) {
      unsigned s = succ[next++];
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back({s, 0});
      }
      continue;
    }
    order[block] = int(postorder.size());
    postorder.push_back(int(block));
    stack.pop_back();
  }
  std::vector<int> idom(n, -1);
  if (!n)
    return idom;
  idom[0] = 0;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (order[a] < order[b])
        a = idom[a];
      while (order[b] < order[a])
        b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = postorder.rbegin(); it != postorder.rend(); ++it) {
      int b = *it;
      if (b == 0)
        continue;
      int dom = -1;
      for (unsigned p : cfg.blocks[b].predecessors)
        if (idom[p] >= 0)
          dom = dom < 0 ? int(p) : intersect(int(p), dom);
      if (dom >= 0 && idom[b] != dom) {
        idom[b] = dom;
        changed = true;
      }
    }
  }
  return idom;
}

static bool dominates(const std::vector<int> &idom, unsigned a, unsigned b) {
  if (idom[b] < 0)
    return false;
  for (int x = int(b);; x = idom[x]) {
    if (x == int(a))
      return true;
    if (x == 0)
      return false;
  }
}

/// The natural loops of `code`: back edges to one header form one loop.
static std::vector<Loop> findLoops(llvm::ArrayRef<isa::Instruction> code) {
  Cfg cfg = buildCfg(code);
  std::vector<int> idom = dominators(cfg);
  std::map<unsigned, std::vector<unsigned>> latchesOf;
  for (unsigned b = 0; b < cfg.blocks.size(); ++b)
    for (unsigned s : cfg.blocks[b].successors)
      if (dominates(idom, s, b))
        latchesOf[s].push_back(b);
  std::vector<Loop> loops;
  for (const auto &[header, latches] : latchesOf) {
    std::vector<bool> inLoop(cfg.blocks.size(), false);
    inLoop[header] = true;
    std::vector<unsigned> work(latches.begin(), latches.end());
    while (!work.empty()) {
      unsigned b = work.back();
      work.pop_back();
      if (inLoop[b])
        continue;
      inLoop[b] = true;
      for (unsigned p : cfg.blocks[b].predecessors)
        work.push_back(p);
    }
    Loop loop;
    loop.backEdges = unsigned(latches.size());
    for (unsigned b = 0; b < cfg.blocks.size(); ++b)
      if (inLoop[b])
        for (unsigned i = cfg.blocks[b].first; i <= cfg.blocks[b].last; ++i)
          loop.body.push_back(i);
    loop.start = code[cfg.blocks[header].first].pc;
    loop.end = code[loop.body.back()].pc;
    loops.push_back(std::move(loop));
  }
  llvm::sort(loops, [](const Loop &a, const Loop &b) {
    return a.start != b.start ? a.start < b.start
                              : a.body.size() > b.body.size();
  });
  return loops;
}

/// The parent of each loop is the smallest other loop whose body holds its
/// header.
static void nestLoops(std::vector<Loop> &loops) {
  for (unsigned i = 0; i < loops.size(); ++i) {
    Loop &loop = loops[i];
    unsigned header = loop.body.front();
    for (unsigned j = 0; j < loops.size(); ++j) {
      const Loop &outer = loops[j];
      if (j == i || outer.body.size() <= loop.body.size() ||
          !outer.contains(header))
        continue;
      if (!loop.parent || outer.body.size() < loops[*loop.parent].body.size())
        loop.parent = j;
    }
  }
  // Depths after all parents are known (a parent may come later in order).
  for (Loop &loop : loops) {
    loop.depth = 1;
    for (std::optional<unsigned> p = loop.parent; p; p = loops[*p].parent)
      ++loop.depth;
  }
  for (unsigned i = 0; i < loops.size(); ++i)
    if (loops[i].parent)
      loops[*loops[i].parent].nested.push_back(i);
}

std::optional<unsigned> KernelCode::innermostLoop(unsigned index) const {
  std::optional<unsigned> best;
  for (unsigned i = 0; i < loops.size(); ++i) {
    if (!loops[i].contains(index))
      continue;
    if (!best || loops[i].body.size() < loops[*best].body.size())
      best = i;
  }
  return best;
}

KernelCode hk::report::analyzeKernelCode(llvm::ArrayRef<isa::Instruction> all,
                                         uint64_t start, uint64_t end) {
  KernelCode code;
  code.start = start;
  code.end = end;
  for (const isa::Instruction &in : all)
    if (in.pc >= start && in.pc < end)
      code.instructions.push_back(in);
  code.loops = findLoops(code.instructions);
  nestLoops(code.loops);
  for (unsigned i = 0; i < code.instructions.size(); ++i) {
    const isa::Instruction &in = code.instructions[i];
    code.total.add(in);
    std::optional<unsigned> loop = code.innermostLoop(i);
    (loop ? code.loops[*loop].mix : code.outsideLoops).add(in);
  }
  return code;
}
