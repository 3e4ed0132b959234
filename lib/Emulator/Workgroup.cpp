//===- Workgroup.cpp - Running a workgroup's waves and watching them ------===//
//
// Waves of a workgroup run in a fixed round-robin order, each for a slice of
// instructions or until it reaches s_barrier or s_endpgm, so results are
// deterministic. The sanitizers (bounds, wait counts, LDS races, barrier
// balance) and the per-instruction counters live here too.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"
#include "LaunchChecks.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cstring>
#include <optional>

using namespace hk;
using namespace hk::emu;

static std::string hex(uint64_t value) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format_hex(value, 2);
  return s;
}

void Wave::fault(const Instr &in, const llvm::Twine &message) {
  state = Faulted;
  if (!wg->error.empty())
    return;
  std::string where =
      wg->launch->checks ? wg->launch->checks->where(in.pc) : std::string();
  wg->error = ("kernel '" + wg->launch->kernel->name + "', workgroup " +
               llvm::Twine(wg->linearId) + ", wave " + llvm::Twine(id) + ", " +
               where + in.describe() + ": " + message)
                  .str();
  wg->errorPc = in.pc;
  wg->launch->noteFailure(wg->linearId);
}

void Workgroup::flushLdsStats() {
  for (auto &entry : ldsStats) {
    LdsConflictStats &total = counters.ldsConflicts[entry.first];
    total.mnemonic = entry.second.mnemonic;
    total.executions += entry.second.executions;
    total.phases += entry.second.phases;
    total.extraCycles += entry.second.extraCycles;
  }
  ldsStats.clear();
}

void Workgroup::report(SanitizerReport::Kind kind, const Wave &w, uint64_t pc,
                       int lane, uint64_t address, const llvm::Twine &message) {
  ++reportCount;
  if (!reported.insert({unsigned(kind), pc}).second)
    return;
  if (reports.size() >= launch->maxReports)
    return;
  SanitizerReport r;
  r.kind = kind;
  r.kernel = launch->kernel->name;
  r.pc = pc;
  r.workgroup = linearId;
  r.wave = w.id;
  r.lane = lane;
  r.address = address;
  std::string where = "kernel '" + r.kernel + "' " +
                      (launch->checks ? launch->checks->where(pc) : "") +
                      "pc " + hex(pc) + " workgroup " +
                      std::to_string(linearId) + " wave " +
                      std::to_string(w.id);
  if (lane >= 0)
    where += " lane " + std::to_string(lane);
  r.message = (stringifyReportKind(kind) + ": " + where + ": " + message).str();
  reports.push_back(std::move(r));
}

// Memory ----------------------------------------------------------------------

uint8_t *hk::emu::globalAccess(Wave &w, const Instr &in, uint64_t address,
                               unsigned size, int lane, bool write) {
  LaunchChecks *checks = w.wg->launch->checks;
  if (checks && checks->checksRaces())
    checks->noteGlobalAccess(w, in, address, size, write);
  if (address >= w.cacheLo && address + size <= w.cacheHi)
    return w.cacheHost + (address - w.cacheLo);
  const Allocation *alloc = w.wg->launch->memory->find(address, size);
  if (alloc) {
    w.cacheLo = alloc->base;
    w.cacheHi = alloc->base + alloc->size;
    w.cacheHost = alloc->data.get();
    return w.cacheHost + (address - w.cacheLo);
  }
  if (w.wg->launch->sanitize.memoryBounds)
    w.wg->report(SanitizerReport::GlobalOutOfBounds, w, in.pc, lane, address,
                 llvm::Twine(write ? "write" : "read") + " of " +
                     llvm::Twine(size) + " bytes at " + hex(address) +
                     " outside every device allocation (" + in.mnemonic() +
                     ")");
  return nullptr;
}

uint8_t *hk::emu::ldsAccess(Wave &w, const Instr &in, uint32_t address,
                            unsigned size, int lane, bool write) {
  Workgroup &wg = *w.wg;
  if (uint64_t(address) + size <= wg.lds.size()) {
    wg.ldsDirtyEnd = std::max(wg.ldsDirtyEnd, address + size);
    LaunchChecks *checks = wg.launch->checks;
    if (checks && checks->checksTiles())
      checks->checkTileAccess(w, in, address, size, lane, write);
    return wg.lds.data() + address;
  }
  if (wg.launch->sanitize.memoryBounds)
    wg.report(SanitizerReport::LdsOutOfBounds, w, in.pc, lane, address,
              llvm::Twine(write ? "write" : "read") + " of " +
                  llvm::Twine(size) + " bytes at LDS address " + hex(address) +
                  " beyond the workgroup's " + llvm::Twine(wg.lds.size()) +
                  " bytes of LDS (" + in.mnemonic() + ")");
  return nullptr;
}

uint8_t *hk::emu::scratchAccess(Wave &w, const Instr &in, uint32_t address,
                                unsigned size, unsigned lane, bool write) {
  Workgroup &wg = *w.wg;
  uint64_t perLane = wg.scratchPerLane;
  if (uint64_t(address) + size <= perLane)
    return wg.scratch.data() + (uint64_t(w.id) * kWaveSize + lane) * perLane +
           address;
  // Past a dynamic stack, return addresses and saved registers are lost:
  // the wave cannot go on.
  if (wg.launch->kernel->usesDynamicStack) {
    w.fault(in, "stack overflow: " + llvm::Twine(write ? "write" : "read") +
                    " of " + llvm::Twine(size) + " bytes at scratch offset " +
                    hex(address) + " beyond the " + llvm::Twine(perLane) +
                    " bytes of stack per work-item (raise it with "
                    "--stack-size)");
    return nullptr;
  }
  if (wg.launch->sanitize.memoryBounds)
    wg.report(SanitizerReport::ScratchOutOfBounds, w, in.pc, int(lane), address,
              llvm::Twine(write ? "write" : "read") + " of " +
                  llvm::Twine(size) + " bytes at scratch offset " +
                  hex(address) + " beyond the kernel's " +
                  llvm::Twine(perLane) + " bytes of scratch per lane (" +
                  in.mnemonic() + ")");
  return nullptr;
}

// Wait counts
// -------------------------------------------------------------------

static bool tracking(const Wave &w) {
  const SanitizerOptions &s = w.wg->launch->sanitize;
  return s.waitcnt || s.ldsRace;
}

PendingOp *hk::emu::issueOp(Wave &w, const Instr &in, WaitCounter counter) {
  if (!tracking(w))
    return nullptr;
  PendingOp op;
  op.id = w.nextOpId++;
  if (w.nextOpId == 0)
    w.nextOpId = 1;
  op.pc = in.pc;
  switch (counter) {
  case WaitCounter::Vm:
    return &w.vmemOps.emplace_back(std::move(op));
  case WaitCounter::Lds:
    return &w.ldsOps.emplace_back(std::move(op));
  case WaitCounter::Smem:
    w.smemOps.push_back(std::move(op));
    return &w.smemOps.back();
  }
  return nullptr;
}

void hk::emu::markPendingDst(Wave &w, PendingOp &op, const Operand &dst,
                             unsigned numRegs) {
  if (!w.wg->launch->sanitize.waitcnt)
    return;
  unsigned base = dst.kind == OpKind::Sgpr ? kNumVgprs : 0;
  if (dst.kind != OpKind::Sgpr && dst.kind != OpKind::Vgpr)
    return;
  op.firstReg = dst.reg;
  op.numRegs = numRegs;
  op.sgpr = dst.kind == OpKind::Sgpr;
  for (unsigned i = 0; i < numRegs; ++i) {
    uint32_t &slot =
        w.pendingReg[base + ((dst.reg + i) &
                             (op.sgpr ? kNumSgprs - 1 : kNumVgprs - 1))];
    if (!slot)
      ++w.pendingCount;
    slot = op.id;
  }
}

static void retire(Wave &w, const PendingOp &op) {
  unsigned base = op.sgpr ? kNumVgprs : 0;
  for (unsigned i = 0; i < op.numRegs; ++i) {
    uint32_t &slot =
        w.pendingReg[base + ((op.firstReg + i) &
                             (op.sgpr ? kNumSgprs - 1 : kNumVgprs - 1))];
    if (slot == op.id) {
      slot = 0;
      --w.pendingCount;
    }
  }
  if (op.dma) {
    --w.wg->dmaOutstanding;
    std::vector<uint16_t> &pending = w.wg->dmaPending;
    for (auto [address, size] : op.ldsRanges)
      for (uint32_t d = address / 4;
           d < (address + size + 3) / 4 && d < pending.size(); ++d)
        if (pending[d] == w.id + 1)
          pending[d] = 0;
  }
}

void hk::emu::retireWaits(Wave &w, unsigned vmcnt, unsigned lgkmcnt) {
  while (w.vmemOps.size() > vmcnt) {
    retire(w, w.vmemOps.front());
    w.vmemOps.pop_front();
  }
  while (w.ldsOps.size() > lgkmcnt) {
    retire(w, w.ldsOps.front());
    w.ldsOps.pop_front();
  }
  // Scalar loads return out of order: only lgkmcnt(0) proves one is done.
  if (lgkmcnt == 0) {
    for (const PendingOp &op : w.smemOps)
      retire(w, op);
    w.smemOps.clear();
  }
}

static const PendingOp *findOp(const Wave &w, uint32_t id,
                               llvm::StringRef &counter) {
  for (const PendingOp &op : w.vmemOps)
    if (op.id == id) {
      counter = "vmcnt";
      return &op;
    }
  for (const PendingOp &op : w.ldsOps)
    if (op.id == id) {
      counter = "lgkmcnt";
      return &op;
    }
  for (const PendingOp &op : w.smemOps)
    if (op.id == id) {
      counter = "lgkmcnt(0)";
      return &op;
    }
  return nullptr;
}

void hk::emu::checkPendingRead(Wave &w, const Instr &in, const Operand &op) {
  if (op.kind != OpKind::Vgpr && op.kind != OpKind::Sgpr)
    return;
  bool sgpr = op.kind == OpKind::Sgpr;
  for (unsigned i = 0; i < op.count; ++i) {
    unsigned reg = (op.reg + i) & (sgpr ? kNumSgprs - 1 : kNumVgprs - 1);
    uint32_t id = w.pendingReg[(sgpr ? kNumVgprs : 0) + reg];
    if (!id)
      continue;
    llvm::StringRef counter = "?";
    const PendingOp *load = findOp(w, id, counter);
    std::string name = sgpr ? "s" + std::to_string(reg)
                       : reg >= kAgprBase
                           ? "a" + std::to_string(reg - kAgprBase)
                           : "v" + std::to_string(reg);
    w.wg->report(SanitizerReport::ReadBeforeWait, w, in.pc, -1, 0,
                 in.mnemonic() + " reads " + name + " before the load at pc " +
                     hex(load ? load->pc : 0) +
                     " that writes it was waited for (needs s_waitcnt " +
                     counter + ")");
    return;
  }
}

void hk::emu::noteDmaWrite(Wave &w, PendingOp &op, uint32_t address,
                           unsigned size) {
  if (!op.dma)
    ++w.wg->dmaOutstanding;
  op.dma = true;
  if (!op.ldsRanges.empty() &&
      op.ldsRanges.back().first + op.ldsRanges.back().second == address)
    op.ldsRanges.back().second += size;
  else
    op.ldsRanges.push_back({address, size});
  if (!w.wg->launch->sanitize.waitcnt)
    return;
  std::vector<uint16_t> &pending = w.wg->dmaPending;
  for (uint32_t d = address / 4;
       d < (address + size + 3) / 4 && d < pending.size(); ++d)
    pending[d] = uint16_t(w.id + 1);
}

void hk::emu::checkDmaPendingRead(Wave &w, const Instr &in, uint32_t address,
                                  unsigned size, int lane) {
  const std::vector<uint16_t> &pending = w.wg->dmaPending;
  for (uint32_t d = address / 4;
       d < (address + size + 3) / 4 && d < pending.size(); ++d) {
    if (!pending[d])
      continue;
    w.wg->report(SanitizerReport::ReadBeforeWait, w, in.pc, lane, address,
                 in.mnemonic() + " reads LDS address " + hex(d * 4) +
                     " that a direct-to-LDS load of wave " +
                     llvm::Twine(pending[d] - 1) +
                     " has not been waited for (needs s_waitcnt vmcnt "
                     "before the read, and a barrier if another wave "
                     "issued the load)");
    return;
  }
}

// LDS races
// ---------------------------------------------------------------------

void hk::emu::noteLdsAccess(Wave &w, uint64_t pc, uint32_t address,
                            unsigned size, LdsAccess access, int lane) {
  Workgroup &wg = *w.wg;
  if (!wg.launch->sanitize.ldsRace)
    return;
  uint32_t epoch = w.barriers + 1;
  uint16_t self = uint16_t(1u << (w.id & 15));
  bool write = access != LdsAccess::Read;
  uint32_t end = std::min<uint64_t>(uint64_t(address) + size, wg.shadow.size());
  wg.ldsDirtyEnd = std::max(wg.ldsDirtyEnd, end);
  for (uint32_t b = address; b < end; ++b) {
    LdsShadow &sh = wg.shadow[b];
    const char *conflict = nullptr;
    unsigned other = 0;
    uint16_t otherAtomics = sh.atomicEpoch == epoch ? sh.atomics & ~self : 0;
    if (sh.writeEpoch == epoch && sh.writer != w.id) {
      conflict = access == LdsAccess::Atomic ? "atomic after write"
                 : write                     ? "write after write"
                                             : "read after write";
      other = sh.writer;
    } else if (write && sh.readEpoch == epoch && (sh.readers & ~self)) {
      conflict = access == LdsAccess::Atomic ? "atomic after read"
                                             : "write after read";
      other = __builtin_ctz(unsigned(sh.readers & ~self));
    } else if (access != LdsAccess::Atomic && otherAtomics) {
      conflict = write ? "write after atomic" : "read after atomic";
      other = __builtin_ctz(unsigned(otherAtomics));
    }
    if (conflict) {
      wg.report(SanitizerReport::LdsRace, w, pc, lane, b,
                llvm::Twine(conflict) + " on LDS address " + hex(b) +
                    " between wave " + llvm::Twine(w.id) + " and wave " +
                    llvm::Twine(other) +
                    (sh.writeEpoch == epoch && sh.writer != w.id
                         ? " (write at pc " + hex(sh.writerPc) + ")"
                         : std::string()) +
                    " with no s_barrier between them");
      return;
    }
    if (access == LdsAccess::Atomic) {
      if (sh.atomicEpoch != epoch) {
        sh.atomicEpoch = epoch;
        sh.atomics = 0;
      }
      sh.atomics |= self;
    } else if (write) {
      sh.writeEpoch = epoch;
      sh.writer = uint8_t(w.id);
      sh.writerPc = uint32_t(pc);
    } else {
      if (sh.readEpoch != epoch) {
        sh.readEpoch = epoch;
        sh.readers = 0;
      }
      sh.readers |= self;
    }
  }
}

// Bank conflicts
// ------------------------------------------------------------------

void hk::emu::countLdsBankConflicts(Wave &w, const Instr &in,
                                    const uint32_t *addr0,
                                    const uint32_t *addr1, uint64_t mask,
                                    unsigned bytes, bool write) {
  // The compiler's hk-lds-layout pass costs swizzles with the same model.
  LdsAccessCost cost =
      w.wg->launch->chip->lds.cost({addr0, addr1, mask, bytes, write});
  if (timing::StepEffects *p = w.wg->probe) {
    p->lds = true;
    p->ldsPhases += cost.phases;
    p->ldsConflictCycles += cost.conflictCycles;
  }
  LdsConflictStats &stats = w.wg->ldsStats[in.pc];
  if (stats.mnemonic.empty())
    stats.mnemonic = in.mnemonic().str();
  ++stats.executions;
  stats.phases += cost.phases;
  stats.extraCycles += cost.conflictCycles;
}

// Initial state and scheduling
// -----------------------------------------------------

static void initializeWave(Workgroup &wg, Wave &w, unsigned index) {
  const LaunchState &L = *wg.launch;
  std::memset(w.s, 0, sizeof(w.s));
  std::memset(w.pendingReg, 0, sizeof(w.pendingReg));
  w.pendingCount = 0;
  w.vmemOps.clear();
  w.ldsOps.clear();
  w.smemOps.clear();
  w.scc = false;
  w.gprIndexing = false;
  w.mode = L.initialMode;
  w.state = Wave::Running;
  w.id = index;
  w.barriers = 0;
  w.executed = 0;
  w.wg = &wg;
  w.cacheLo = 1;
  w.cacheHi = 0;
  w.pc = L.entryPc;

  // Registers the kernel uses start at zero so that results never depend on
  // which workgroup ran on this host thread before.
  unsigned vgprs = std::min(L.kernel->vgprCount + 8, kAgprBase);
  unsigned agprs = std::min(L.kernel->agprCount + 8, kNumVgprs - kAgprBase);
  std::memset(w.v, 0, sizeof(w.v[0]) * vgprs);
  std::memset(w.v[kAgprBase], 0, sizeof(w.v[0]) * agprs);

  unsigned sgpr = 0;
  if (L.enablePrivateSegmentBuffer)
    sgpr += 4; // No scratch: the resource stays zero.
  if (L.enableDispatchPtr) {
    w.setSgpr64(sgpr, L.dispatchAddress);
    sgpr += 2;
  }
  if (L.enableQueuePtr)
    sgpr += 2;
  if (L.enableKernargPtr) {
    w.setSgpr64(sgpr, L.kernargAddress);
    sgpr += 2;
  }
  if (L.enableDispatchId)
    sgpr += 2;
  if (L.enableFlatScratchInit)
    sgpr += 2;
  if (L.enablePrivateSegmentSize)
    sgpr += 1;
  if (L.preloadSgprs) {
    const uint8_t *kernarg = L.memory->translate(
        L.kernargAddress, 4 * (L.preloadOffsetDwords + L.preloadSgprs));
    for (unsigned i = 0; i < L.preloadSgprs && kernarg && sgpr + i < 100; ++i)
      std::memcpy(&w.s[sgpr + i], kernarg + 4 * (L.preloadOffsetDwords + i), 4);
  }
  sgpr = L.userSgprCount;
  for (unsigned dim = 0; dim < 3; ++dim)
    if (L.enableWgId[dim])
      w.s[sgpr++] = wg.id[dim];
  if (L.enableWgInfo)
    w.s[sgpr++] = 0;

  uint64_t lanes = L.block.count();
  uint64_t firstThread = uint64_t(index) * kWaveSize;
  uint64_t active = std::min<uint64_t>(kWaveSize, lanes - firstThread);
  w.setExec(active >= 64 ? ~0ull : ((1ull << active) - 1));
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    uint64_t t = firstThread + lane;
    uint32_t x = t % L.block.x;
    uint32_t y = (t / L.block.x) % L.block.y;
    uint32_t z = t / (uint64_t(L.block.x) * L.block.y);
    if (lane >= active)
      x = y = z = 0;
    if (L.packedWorkitemIds) {
      w.v[0][lane] = x | (y << 10) | (z << 20);
    } else {
      // One VGPR per dimension the descriptor enables.
      w.v[0][lane] = x;
      if (L.workitemIdDims > 1)
        w.v[1][lane] = y;
      if (L.workitemIdDims > 2)
        w.v[2][lane] = z;
    }
  }
}

static void traceInstruction(const Wave &w, const Instr &in) {
  llvm::errs() << llvm::format_hex(in.pc, 8) << "  " << in.text;
  if (in.numOps > 0 && in.numDsts > 0) {
    const Operand &d = in.ops[0];
    if (d.kind == OpKind::Vgpr)
      llvm::errs() << "    ; lane0 = " << llvm::format_hex(w.v[d.reg][0], 10);
    else if (d.kind == OpKind::Sgpr)
      llvm::errs() << "    ; = " << llvm::format_hex(w.s[d.reg], 10);
  }
  llvm::errs() << "  exec=" << llvm::format_hex(w.exec(), 18) << "\n";
}

/// `in` with the VGPR operands VGPR indexing mode enables (M0[15:12]: src0,
/// src1, src2, dst) moved up by the index in M0[7:0] (AMD GFX9 ISA, "VGPR
/// Indexing").
static Instr withIndexedVgprs(const Wave &w, const Instr &in) {
  Instr indexed = in;
  uint32_t index = w.s[kM0] & 0xff, mode = (w.s[kM0] >> 12) & 0xf;
  auto move = [&](unsigned op) {
    if (op < indexed.numOps && indexed.ops[op].kind == OpKind::Vgpr)
      indexed.ops[op].reg = uint16_t(indexed.ops[op].reg + index);
  };
  if ((mode & 8) && in.numDsts > 0)
    move(0);
  for (unsigned i = 0; i < 3; ++i)
    if ((mode >> i) & 1)
      move(in.numDsts + i);
  return indexed;
}

/// Executes the instruction at w.pc: the body of every scheduler's loop.
LLVM_ATTRIBUTE_ALWAYS_INLINE static void
executeInstruction(Wave &w, const DecodedProgram &program, bool checkWaits) {
  const Instr *in = program.at(w.pc);
  if (!in) {
    Instr where;
    where.pc = w.pc;
    where.text = "<no instruction>";
    w.fault(where, "execution reached an address that holds no decoded "
                   "instruction");
    return;
  }
  w.pc = in->pc + in->size;
  std::optional<Instr> indexed;
  if (LLVM_UNLIKELY(w.gprIndexing) && isa::isVectorAlu(in->unit()))
    in = &indexed.emplace(withIndexedVgprs(w, *in));
  if (checkWaits && w.pendingCount)
    for (unsigned i = in->numDsts; i < in->numOps; ++i)
      checkPendingRead(w, *in, in->ops[i]);
  in->fn(w, *in);
  if (w.wg->launch->trace && w.id == 0 && w.wg->linearId == 0)
    traceInstruction(w, *in);
  ++w.wg->counters.mix[size_t(in->cls)];
  ++w.executed;
}

static void runSlice(Wave &w, const DecodedProgram &program, unsigned budget,
                     bool checkWaits) {
  while (budget-- && w.state == Wave::Running)
    executeInstruction(w, program, checkWaits);
}

void hk::emu::stepWave(Wave &w) {
  const LaunchState &L = *w.wg->launch;
  executeInstruction(w, *L.program, L.sanitize.waitcnt);
  if (++w.wg->executed > L.watchdog && w.state != Wave::Faulted)
    faultOnWatchdog(*w.wg);
}

/// Outstanding LDS accesses still complete after the wave passes a barrier:
/// they belong to the next barrier interval too.
static void carryOutstandingLdsAccesses(Wave &w) {
  for (const std::deque<PendingOp> *queue : {&w.ldsOps, &w.vmemOps})
    for (const PendingOp &op : *queue)
      for (auto [address, size] : op.ldsRanges)
        noteLdsAccess(w, op.pc, address, size,
                      op.ldsAtomic            ? LdsAccess::Atomic
                      : op.ldsWrite || op.dma ? LdsAccess::Write
                                              : LdsAccess::Read,
                      -1);
}

void hk::emu::releaseBarrier(Workgroup &wg) {
  unsigned waiting = 0, ended = 0;
  for (unsigned i = 0; i < wg.numWaves; ++i) {
    Wave &w = *wg.waves[i];
    waiting += w.state == Wave::AtBarrier;
    ended += w.state == Wave::Ended;
  }
  Wave *first = nullptr;
  for (unsigned i = 0; i < wg.numWaves; ++i) {
    Wave &w = *wg.waves[i];
    if (w.state != Wave::AtBarrier)
      continue;
    if (!first)
      first = &w;
    w.state = Wave::Running;
    ++w.barriers;
    carryOutstandingLdsAccesses(w);
  }
  if (ended && first && wg.launch->sanitize.barrier) {
    const Instr *in = wg.launch->program->at(first->pc - 4);
    wg.report(SanitizerReport::BarrierImbalance, *first, in ? in->pc : 0, -1, 0,
              llvm::Twine(waiting) + " wave(s) wait at s_barrier #" +
                  llvm::Twine(first->barriers) + " while " +
                  llvm::Twine(ended) +
                  " wave(s) of the workgroup already ended: those waves "
                  "can never meet them");
  }
}

void hk::emu::checkBarrierBalance(Workgroup &wg) {
  if (!wg.launch->sanitize.barrier || wg.numWaves < 2)
    return;
  unsigned lo = ~0u, hi = 0;
  const Wave *few = nullptr;
  for (unsigned i = 0; i < wg.numWaves; ++i) {
    const Wave &w = *wg.waves[i];
    if (w.barriers < lo) {
      lo = w.barriers;
      few = &w;
    }
    hi = std::max(hi, w.barriers);
  }
  if (lo == hi)
    return;
  wg.report(SanitizerReport::BarrierImbalance, *few, few->pc - 4, -1, 0,
            "wave " + llvm::Twine(few->id) + " reached s_endpgm after " +
                llvm::Twine(lo) + " barrier(s) while another wave passed " +
                llvm::Twine(hi) + ": barrier counts must match per wave");
}

void hk::emu::prepareWorkgroup(Workgroup &wg) {
  const LaunchState &L = *wg.launch;
  uint64_t threads = L.block.count();
  wg.numWaves = unsigned((threads + kWaveSize - 1) / kWaveSize);
  while (wg.waves.size() < wg.numWaves)
    wg.waves.push_back(std::make_unique<Wave>());
  // Only what the previous workgroup touched needs clearing.
  uint32_t dirty = std::min<uint64_t>(wg.ldsDirtyEnd, wg.lds.size());
  std::fill(wg.lds.begin(), wg.lds.begin() + dirty, 0);
  if (L.sanitize.ldsRace)
    std::fill(wg.shadow.begin(),
              wg.shadow.begin() + std::min<size_t>(dirty, wg.shadow.size()),
              LdsShadow());
  std::fill(wg.dmaPending.begin(),
            wg.dmaPending.begin() +
                std::min<size_t>((dirty + 3) / 4, wg.dmaPending.size()),
            0);
  wg.ldsDirtyEnd = 0;
  wg.dmaOutstanding = 0;
  wg.executed = 0;
  wg.sleeps = 0;
  wg.scratch.assign(size_t(wg.numWaves) * kWaveSize * wg.scratchPerLane, 0);
  for (unsigned i = 0; i < wg.numWaves; ++i)
    initializeWave(wg, *wg.waves[i], i);
}

void hk::emu::faultOnWatchdog(Workgroup &wg) {
  const LaunchState &L = *wg.launch;
  Wave &w = *wg.waves[0];
  const Instr *in = L.program->at(w.pc);
  Instr where;
  where.pc = w.pc;
  where.text = in ? in->text : "<no instruction>";
  w.fault(in ? *in : where,
          "watchdog: the workgroup executed more than " +
              llvm::Twine(L.watchdog) +
              " wave-instructions (a hang? raise the watchdog limit if "
              "the kernel is just long)");
}

bool hk::emu::runWorkgroupRound(Workgroup &wg) {
  const LaunchState &L = *wg.launch;
  constexpr unsigned kSlice = 512;
  bool checkWaits = L.sanitize.waitcnt;
  unsigned running = 0, atBarrier = 0;
  for (unsigned i = 0; i < wg.numWaves; ++i) {
    Wave &w = *wg.waves[i];
    if (w.state == Wave::Running) {
      uint64_t before = w.executed;
      runSlice(w, *L.program, kSlice, checkWaits);
      wg.executed += w.executed - before;
    }
    if (w.state == Wave::Faulted || L.shouldStop(wg.linearId))
      return true;
    running += w.state == Wave::Running;
    atBarrier += w.state == Wave::AtBarrier;
  }
  if (wg.executed > L.watchdog) {
    faultOnWatchdog(wg);
    return true;
  }
  if (running)
    return false;
  if (!atBarrier) {
    checkBarrierBalance(wg);
    return true;
  }
  releaseBarrier(wg);
  return false;
}

void hk::emu::runWorkgroup(Workgroup &wg) {
  prepareWorkgroup(wg);
  while (!runWorkgroupRound(wg)) {
  }
}
