//===- Simulator.cpp - The compute units of one XCD, cycle by issue slot --===//
//
// A discrete-event simulation of one XCD running a sample of a grid. Each
// SIMD is visited at its issue slots (once per `issueCadence` cycles); at a
// visit its resident waves are considered highest s_setprio first, oldest
// first, and each may issue its next instruction when
//   - no other wave issued to the same unit type at this slot,
//   - the registers it reads are written (a scoreboard: VALU, SALU,
//     transcendental and MFMA results; an MFMA accumulating into the
//     registers the previous MFMA wrote chains without waiting),
//   - its unit is free (the matrix pipe for MFMA, the VALU for VALU),
//   - for s_waitcnt, the outstanding counts are down to the limits.
// The functional core executes the instruction at that moment; memory
// instructions then get their completion time from the memory model (LDS
// pipe with the bank model's phases and conflict cycles; vector memory
// through L1, the XCD's L2, Infinity Cache and HBM). A SIMD with nothing to
// issue sleeps until the earliest moment one of its waves could.
//
// Each SIMD's cycles are attributed to one category at a time (matrix pipe
// busy first, then VALU busy, then issue, then the reason the first wave in
// arbitration order could not issue) and to the loop that wave was in.
//
//===----------------------------------------------------------------------===//

#include "Simulator.h"

#include "hk/ISA/InstrDesc.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <deque>
#include <queue>

using namespace hk;
using namespace hk::timing;
using isa::Unit;

namespace {

using Cycle = uint64_t;
constexpr Cycle kNever = ~Cycle(0);

/// Issue categories: at most one instruction of each per SIMD per slot.
enum class IssueKind : uint8_t {
  VectorAlu, ///< VALU, transcendental and MFMA.
  Scalar,    ///< SALU and scalar memory.
  VectorMemory,
  Lds,
  Branch,
  Message,
  Internal, ///< s_waitcnt, s_barrier, s_nop, ...: the sequencer's own.
};

IssueKind issueKindOf(Unit unit) {
  switch (unit) {
  case Unit::Valu:
  case Unit::Trans:
  case Unit::Mfma:
    return IssueKind::VectorAlu;
  case Unit::Salu:
  case Unit::Smem:
    return IssueKind::Scalar;
  case Unit::VmemLoad:
  case Unit::VmemStore:
  case Unit::VmemAtomic:
  case Unit::DirectToLds:
    return IssueKind::VectorMemory;
  case Unit::Lds:
    return IssueKind::Lds;
  case Unit::Branch:
    return IssueKind::Branch;
  case Unit::Message:
    return IssueKind::Message;
  default:
    return IssueKind::Internal;
  }
}

struct MemOp {
  Cycle done;
  uint32_t conflict; ///< LDS bank-conflict cycles in it.
};

struct SimWave {
  unsigned slot = 0, index = 0, cu = 0, simd = 0;
  uint64_t age = 0;
  unsigned prio = 0;
  const isa::Instruction *next = nullptr;
  Cycle notBefore = 0;
  bool atBarrier = false, ended = false;
  std::deque<MemOp> vm; ///< In issue order, `done` non-decreasing.
  std::vector<MemOp> lgkm;
  /// LDS conflict cycles not yet attributed to a wait.
  uint64_t conflictBudget = 0;
  Cycle lastMemoryDone = 0;
  std::array<Cycle, isa::kNumVgprs> vgprReady{};
  std::array<Cycle, isa::kNumSgprs> sgprReady{};
  std::bitset<isa::kNumVgprs> fromMfma;
};

struct SimWorkgroup {
  size_t order = 0; ///< Its place in the sample's ids.
  Cycle dispatched = 0;
  unsigned cu = 0;
  std::vector<SimWave *> waves;
  unsigned ended = 0, atBarrier = 0;
  bool live = false;
};

struct Simd {
  std::vector<SimWave *> waves;
  Cycle mfmaBusy = 0, valuBusy = 0;
  unsigned mfmaLoop = 0, valuLoop = 0;
  Cycle accounted = 0;
  Cycle scheduled = kNever;
  // What the last visit left for the interval up to the next one.
  bool issuedOther = false;
  unsigned issueLoop = 0;
  Stall stall = Stall::NoWave;
  unsigned stallLoop = 0;
  SimWave *stallWave = nullptr;
};

struct ComputeUnit {
  std::array<Simd, 4> simds;
  std::array<unsigned, 4> wavesOn{};
  Cycle ldsBusy = 0;
  double vmemBusy = 0;
  Cache l1, scalar;
  unsigned workgroups = 0;
  unsigned nextSimd = 0;
  bool used = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Loops and occupancy
//===----------------------------------------------------------------------===//

LoopTable::LoopTable(llvm::ArrayRef<const isa::Instruction *> program) {
  // A backward direct branch closes a loop from its target to itself.
  for (const isa::Instruction *in : program)
    if (in && in->isDirectBranch() && in->branchTarget() <= in->pc)
      loops.push_back({in->branchTarget(), in->pc});
  // Branches back to one header (a loop's continue edges) close one loop,
  // which ends at the last of them.
  llvm::sort(loops);
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (const auto &loop : loops) {
    if (!merged.empty() && merged.back().first == loop.first)
      merged.back().second = std::max(merged.back().second, loop.second);
    else
      merged.push_back(loop);
  }
  loops = std::move(merged);
  for (const isa::Instruction *in : program) {
    if (!in)
      continue;
    // The innermost loop holding the instruction.
    unsigned best = outside();
    uint64_t bestSize = ~0ull;
    for (unsigned i = 0; i < loops.size(); ++i)
      if (loops[i].first <= in->pc && in->pc <= loops[i].second &&
          loops[i].second - loops[i].first < bestSize) {
        best = i;
        bestSize = loops[i].second - loops[i].first;
      }
    byPc[in->pc] = best;
  }
}

unsigned LoopTable::loopOf(uint64_t pc) const {
  auto it = byPc.find(pc);
  return it == byPc.end() ? outside() : it->second;
}

Occupancy hk::timing::computeOccupancy(const DeviceModel &device,
                                       const LaunchShape &shape) {
  Occupancy o;
  unsigned simds = device.chip().simdsPerCU;
  unsigned vgprs = llvm::alignTo(std::max(shape.vgprs, 1u), device.vgprGranule);
  unsigned byVgpr = device.vgprsPerSimdLane / vgprs;
  // .sgpr_count already includes VCC and the other reserved SGPRs.
  unsigned sgprs = llvm::alignTo(std::max(shape.sgprs, 1u), device.sgprGranule);
  unsigned bySgpr = device.sgprsPerSimd / sgprs;
  o.wavesPerSimd = std::min({device.maxWavesPerSimd, byVgpr, bySgpr});
  o.limit = o.wavesPerSimd == device.maxWavesPerSimd ? "waves per SIMD"
            : byVgpr <= bySgpr                       ? "VGPRs"
                                                     : "SGPRs";
  unsigned waves = std::max(shape.wavesPerWorkgroup, 1u);
  // Waves go round-robin over the SIMDs with room, so workgroups of fewer
  // waves than SIMDs share them: the CU holds simds x wavesPerSimd waves.
  o.workgroupsPerCu = simds * o.wavesPerSimd / waves;
  if (waves > 1 && device.maxWorkgroupsPerCu < o.workgroupsPerCu) {
    o.workgroupsPerCu = device.maxWorkgroupsPerCu;
    o.limit = "workgroups per CU";
  }
  if (shape.ldsBytes) {
    unsigned byLds = device.ldsBytesPerCu / shape.ldsBytes;
    if (byLds < o.workgroupsPerCu) {
      o.workgroupsPerCu = byLds;
      o.limit = "LDS";
    }
  }
  o.wavesPerSimdPlaced =
      std::min(o.wavesPerSimd, (o.workgroupsPerCu * waves + simds - 1) / simds);
  return o;
}

//===----------------------------------------------------------------------===//
// The simulation
//===----------------------------------------------------------------------===//

namespace {

class Simulation {
public:
  Simulation(const DeviceModel &device, ExecutionCore &core,
             const Occupancy &occupancy, const LoopTable &loops,
             double engineClockMHz);
  llvm::Expected<SampleResult> run(llvm::ArrayRef<uint64_t> ids);

private:
  const DeviceModel &device;
  ExecutionCore &core;
  Occupancy occupancy;
  const LoopTable &loopTable;
  XcdMemory memory;
  std::vector<ComputeUnit> cus;
  std::vector<std::unique_ptr<SimWave>> wavePool;
  std::vector<SimWorkgroup> slots;
  std::vector<unsigned> freeSlots;
  llvm::ArrayRef<uint64_t> ids;
  /// Places in `ids` of the workgroups waiting for a free slot.
  std::deque<size_t> pending;
  std::priority_queue<std::pair<Cycle, unsigned>,
                      std::vector<std::pair<Cycle, unsigned>>,
                      std::greater<std::pair<Cycle, unsigned>>>
      events;
  uint64_t nextAge = 0;
  /// The SIMD whose issued instructions are printed (HK_TIMING_TRACE), or
  /// -1.
  int traceSimd = -1;
  unsigned live = 0;
  StepEffects effects;
  SampleResult result;
  // Special hints, by table entry.
  const isa::InstrDesc *sNop, *sSleep, *sSetprio;
  llvm::DenseMap<const MfmaInstr *, std::pair<double, unsigned>> mfmaUse;

  Simd &simdAt(unsigned global) { return cus[global / 4].simds[global % 4]; }
  Cycle slotAtOrAfter(Cycle t, unsigned simd) const {
    unsigned cadence = device.issueCadence;
    unsigned phase = simd % cadence;
    Cycle r = t % cadence;
    return t + (phase + cadence - r) % cadence;
  }
  void schedule(unsigned cu, unsigned simd, Cycle t);
  llvm::Error dispatch(size_t order, unsigned cu, Cycle t);
  llvm::Error visit(unsigned global, Cycle t);
  llvm::Error readTraceSimd();
  Cycle readyTime(SimWave &w, const isa::Instruction &in, const Simd &simd,
                  Cycle t, Stall &why);
  llvm::Error issue(SimWave &w, const isa::Instruction &in, Cycle t);
  Cycle vectorMemory(SimWave &w, const isa::Instruction &in, Cycle t);
  Cycle scalarMemory(SimWave &w, Cycle t);
  void arriveAtBarrier(SimWorkgroup &wg, Cycle t);
  llvm::Error finishWorkgroup(SimWorkgroup &wg, Cycle t);
  void account(Simd &simd, Cycle t);
  LoopBreakdown &loop(unsigned index) { return result.loops[index]; }
};

Simulation::Simulation(const DeviceModel &device, ExecutionCore &core,
                       const Occupancy &occupancy, const LoopTable &loops,
                       double engineClockMHz)
    : device(device), core(core), occupancy(occupancy), loopTable(loops),
      memory(device, engineClockMHz) {
  cus.resize(device.cusPerXcd);
  for (ComputeUnit &cu : cus) {
    for (Simd &simd : cu.simds)
      simd.stallLoop = simd.mfmaLoop = simd.valuLoop = simd.issueLoop =
          loops.outside();
    cu.l1 = Cache(device.l1.bytes, device.l1.lineBytes, device.l1.ways);
    cu.scalar = Cache(device.scalarCache.bytes, device.scalarCache.lineBytes,
                      device.scalarCache.ways);
  }
  result.loops.resize(loops.size());
  for (unsigned i = 0; i < loops.size(); ++i) {
    if (i == loops.outside()) {
      result.loops[i].outsideLoops = true;
      continue;
    }
    result.loops[i].startPc = loops.range(i).first;
    result.loops[i].endPc = loops.range(i).second;
  }
  sNop = isa::lookupInstr("s_nop");
  sSleep = isa::lookupInstr("s_sleep");
  sSetprio = isa::lookupInstr("s_setprio");
}

void Simulation::schedule(unsigned cu, unsigned simd, Cycle t) {
  Simd &s = cus[cu].simds[simd];
  Cycle at = slotAtOrAfter(t, simd);
  if (s.scheduled <= at)
    return;
  s.scheduled = at;
  events.push({at, cu * 4 + simd});
}

llvm::Error Simulation::dispatch(size_t order, unsigned cuIndex, Cycle t) {
  unsigned slot;
  if (!freeSlots.empty()) {
    slot = freeSlots.back();
    freeSlots.pop_back();
  } else {
    slot = unsigned(slots.size());
    slots.emplace_back();
  }
  auto waves = core.startWorkgroup(slot, ids[order]);
  if (!waves)
    return waves.takeError();
  ComputeUnit &cu = cus[cuIndex];
  cu.used = true;
  ++cu.workgroups;
  SimWorkgroup &wg = slots[slot];
  wg = SimWorkgroup();
  wg.order = order;
  wg.dispatched = t;
  wg.cu = cuIndex;
  wg.live = true;
  ++live;
  Cycle start = t + device.workgroupLaunchCycles;
  for (unsigned i = 0; i < *waves; ++i) {
    // Round-robin over the SIMDs with room.
    unsigned simd = cu.nextSimd;
    for (unsigned tries = 0; tries < 4; ++tries) {
      if (cu.wavesOn[(cu.nextSimd + tries) % 4] < occupancy.wavesPerSimd) {
        simd = (cu.nextSimd + tries) % 4;
        break;
      }
    }
    cu.nextSimd = (simd + 1) % 4;
    ++cu.wavesOn[simd];
    auto w = std::make_unique<SimWave>();
    w->slot = slot;
    w->index = i;
    w->cu = cuIndex;
    w->simd = simd;
    w->age = nextAge++;
    w->notBefore = start;
    w->next = core.next(slot, i);
    w->ended = w->next == nullptr;
    wg.ended += w->ended;
    cu.simds[simd].waves.push_back(w.get());
    wg.waves.push_back(w.get());
    wavePool.push_back(std::move(w));
    schedule(cuIndex, simd, start);
  }
  if (wg.ended == wg.waves.size())
    return finishWorkgroup(wg, start);
  return llvm::Error::success();
}

Cycle Simulation::readyTime(SimWave &w, const isa::Instruction &in,
                            const Simd &simd, Cycle t, Stall &why) {
  Unit unit = in.unit();
  if (unit == Unit::Wait) {
    while (!w.vm.empty() && w.vm.front().done <= t)
      w.vm.pop_front();
    llvm::erase_if(w.lgkm, [&](const MemOp &op) { return op.done <= t; });
    if (w.lgkm.empty())
      w.conflictBudget = 0;
    Cycle vmReady = t, lgkmReady = t;
    if (w.vm.size() > in.wait.vmcnt)
      vmReady = w.vm[w.vm.size() - in.wait.vmcnt - 1].done;
    if (w.lgkm.size() > in.wait.lgkmcnt) {
      // Scalar loads return out of order: the wait ends when enough of
      // the outstanding operations, whichever, are done.
      llvm::SmallVector<Cycle, 16> done;
      for (const MemOp &op : w.lgkm)
        done.push_back(op.done);
      llvm::sort(done);
      lgkmReady = done[done.size() - in.wait.lgkmcnt - 1];
    }
    why = vmReady >= lgkmReady ? Stall::Vmcnt : Stall::Lgkmcnt;
    return std::max(vmReady, lgkmReady);
  }
  why = Stall::Dependency;
  Cycle ready = t;
  for (unsigned i = in.numDsts; i < in.numOps; ++i) {
    const isa::Operand &op = in.ops[i];
    if (op.kind == isa::OpKind::Vgpr) {
      // The accumulator of an MFMA chained on the previous MFMA's result
      // is forwarded inside the matrix pipe.
      bool chained = unit == Unit::Mfma && i == unsigned(in.numDsts) + 2;
      for (unsigned r = 0; r < op.count; ++r) {
        unsigned reg = (op.reg + r) & (isa::kNumVgprs - 1);
        if (chained && w.fromMfma[reg])
          continue;
        ready = std::max(ready, w.vgprReady[reg]);
      }
    } else if (op.kind == isa::OpKind::Sgpr) {
      for (unsigned r = 0; r < op.count; ++r)
        ready =
            std::max(ready, w.sgprReady[(op.reg + r) & (isa::kNumSgprs - 1)]);
    }
  }
  if (unit == Unit::Mfma)
    ready = std::max(ready, simd.mfmaBusy);
  else if (isa::isVectorAlu(unit))
    ready = std::max(ready, simd.valuBusy);
  return ready;
}

/// The distinct lines `effects`' lanes touch, in lane order.
static void collectLines(const StepEffects &effects, unsigned lineBytes,
                         llvm::SmallVectorImpl<uint64_t> &lines) {
  uint64_t lanes = effects.vmemLanes;
  unsigned bytes = std::max(1u, effects.vmemBytes);
  while (lanes) {
    unsigned lane = unsigned(llvm::countr_zero(lanes));
    lanes &= lanes - 1;
    uint64_t first = effects.vmemAddress[lane] / lineBytes;
    uint64_t last = (effects.vmemAddress[lane] + bytes - 1) / lineBytes;
    for (uint64_t line = first; line <= last; ++line)
      if (lines.empty() || lines.back() != line)
        lines.push_back(line);
  }
  llvm::sort(lines);
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
}

Cycle Simulation::vectorMemory(SimWave &w, const isa::Instruction &in,
                               Cycle t) {
  ComputeUnit &cu = cus[w.cu];
  Unit unit = in.unit();
  llvm::SmallVector<uint64_t, 128> lines;
  unsigned lineBytes = device.l1.lineBytes;
  if (effects.vmem && effects.vmemScratch) {
    // Scratch is interleaved by dword across the lanes of a wave, in a
    // region of its own per wave.
    uint64_t base = (0xfull << 60) | (w.age << 28);
    for (unsigned lane = 0; lane < 64; ++lane)
      if ((effects.vmemLanes >> lane) & 1)
        effects.vmemAddress[lane] =
            base + (effects.vmemAddress[lane] / 4) * 256 + lane * 4;
  }
  if (effects.vmem)
    collectLines(effects, lineBytes, lines);
  uint64_t laneBytes =
      uint64_t(llvm::popcount(effects.vmemLanes)) * effects.vmemBytes;
  if (effects.vmem && !effects.vmemScratch) {
    bool writes = unit == Unit::VmemStore || unit == Unit::VmemAtomic;
    bool reads = unit != Unit::VmemStore;
    result.globalBytes += double(laneBytes) * (reads + writes);
  }
  // The CU's vector-memory path: address processing, then the L1's
  // bytes per cycle.
  double start = std::max(double(t), cu.vmemBusy);
  double perLine = double(lineBytes) / device.l1BytesPerCycle;
  cu.vmemBusy = start + std::max<double>(device.vmemAddressCycles,
                                         perLine * lines.size());
  double done = start + device.vmemAddressCycles;
  for (auto [i, line] : llvm::enumerate(lines)) {
    double at = start + perLine * i;
    uint64_t address = line * lineBytes;
    double ready;
    if (unit == Unit::VmemStore) {
      ready = memory.write(at, address);
    } else if (unit == Unit::VmemAtomic) {
      ready = memory.atomic(at, address);
    } else if (cu.l1.access(line, false)) {
      ready = std::max(at + device.l1.latency, cu.l1.lastFill());
    } else {
      Level from;
      ready = memory.read(at, address, from);
      cu.l1.setLastFill(ready);
    }
    done = std::max(done, ready);
  }
  // Direct-to-LDS data is written into LDS as it arrives (assumption: at
  // the LDS's write width, without holding the LDS pipe for reads).
  if (unit == Unit::DirectToLds)
    done += double(laneBytes) /
            (device.chip().lds.banks * device.chip().lds.bankWidthBytes);
  return Cycle(std::ceil(done));
}

Cycle Simulation::scalarMemory(SimWave &w, Cycle t) {
  ComputeUnit &cu = cus[w.cu];
  if (!effects.smem)
    return t + device.scalarCache.latency;
  uint64_t line = effects.smemAddress / device.scalarCache.lineBytes;
  uint64_t last = (effects.smemAddress + std::max(1u, effects.smemBytes) - 1) /
                  device.scalarCache.lineBytes;
  Cycle done = t + device.scalarCache.latency;
  for (; line <= last; ++line) {
    if (cu.scalar.access(line, false)) {
      done = std::max(done, Cycle(std::ceil(cu.scalar.lastFill())));
      continue;
    }
    Level from;
    double ready = memory.read(t, line * device.scalarCache.lineBytes, from);
    cu.scalar.setLastFill(ready);
    done = std::max(done, Cycle(std::ceil(ready)));
  }
  return done;
}

void Simulation::arriveAtBarrier(SimWorkgroup &wg, Cycle t) {
  if (wg.atBarrier == 0 || wg.atBarrier + wg.ended < wg.waves.size())
    return;
  core.releaseBarrier(unsigned(&wg - slots.data()));
  Cycle release = t + device.barrierLatency;
  for (SimWave *w : wg.waves) {
    if (!w->atBarrier)
      continue;
    w->atBarrier = false;
    w->notBefore = std::max(w->notBefore, release);
    schedule(w->cu, w->simd, release);
  }
  wg.atBarrier = 0;
}

llvm::Error Simulation::finishWorkgroup(SimWorkgroup &wg, Cycle t) {
  unsigned slot = unsigned(&wg - slots.data());
  core.finishWorkgroup(slot);
  ComputeUnit &cu = cus[wg.cu];
  Cycle end = t;
  for (SimWave *w : wg.waves) {
    end = std::max(end, w->lastMemoryDone);
    --cu.wavesOn[w->simd];
    llvm::erase(cu.simds[w->simd].waves, w);
  }
  result.residency[wg.order] = t - wg.dispatched;
  wg.live = false;
  --live;
  --cu.workgroups;
  result.end = std::max(result.end, end);
  freeSlots.push_back(slot);
  if (!pending.empty()) {
    size_t next = pending.front();
    pending.pop_front();
    return dispatch(next, wg.cu, t);
  }
  return llvm::Error::success();
}

llvm::Error Simulation::issue(SimWave &w, const isa::Instruction &in, Cycle t) {
  effects.clear();
  if (!core.step(w.slot, w.index, effects))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the functional core stopped");
  ++result.instructions;
  Simd &simd = cus[w.cu].simds[w.simd];
  SimWorkgroup &wg = slots[w.slot];
  unsigned where = loopTable.loopOf(in.pc);
  w.notBefore = t + 1;
  Unit unit = in.unit();
  auto writeDsts = [&](Cycle ready, bool mfma) {
    for (unsigned i = 0; i < in.numDsts && i < in.numOps; ++i) {
      const isa::Operand &op = in.ops[i];
      for (unsigned r = 0; r < op.count; ++r) {
        if (op.kind == isa::OpKind::Vgpr) {
          unsigned reg = (op.reg + r) & (isa::kNumVgprs - 1);
          w.vgprReady[reg] = ready;
          w.fromMfma[reg] = mfma;
        } else if (op.kind == isa::OpKind::Sgpr) {
          w.sgprReady[(op.reg + r) & (isa::kNumSgprs - 1)] = ready;
        }
      }
    }
  };
  auto pushLgkm = [&](Cycle done, uint32_t conflict) {
    w.lgkm.push_back({done, conflict});
    w.conflictBudget += conflict;
    w.lastMemoryDone = std::max(w.lastMemoryDone, done);
  };
  auto pushVm = [&](Cycle done) {
    if (!w.vm.empty())
      done = std::max(done, w.vm.back().done);
    w.vm.push_back({done, 0});
    w.lastMemoryDone = std::max(w.lastMemoryDone, done);
  };

  switch (unit) {
  case Unit::Salu:
    writeDsts(t + device.saluLatency, false);
    break;
  case Unit::Valu:
    simd.valuBusy = t + device.valuCycles;
    simd.valuLoop = where;
    writeDsts(t + device.valuCycles, false);
    break;
  case Unit::Trans:
    simd.valuBusy = t + device.transCycles;
    simd.valuLoop = where;
    writeDsts(t + device.transLatency, false);
    break;
  case Unit::Mfma: {
    unsigned cycles = 16;
    if (in.mfma) {
      cycles = device.mfmaCycles(*in.mfma, in.cbsz, in.blgp);
      if (!cycles) // Not in the table: the chip's 16-bit rate.
        cycles = unsigned(std::max<uint64_t>(4, in.mfma->flops() / 512));
      auto &use = mfmaUse[in.mfma];
      use.first += double(in.mfma->flops());
      use.second = unsigned(in.cbsz) << 8 | in.blgp;
      result.flops += double(in.mfma->flops());
    }
    simd.mfmaBusy = t + cycles;
    simd.mfmaLoop = where;
    writeDsts(t + cycles, true);
    break;
  }
  case Unit::Lds: {
    unsigned cycles =
        effects.lds
            ? std::max(1u, effects.ldsPhases + effects.ldsConflictCycles)
            : 2; // ds_bpermute, ds_swizzle: assumption, two passes.
    ComputeUnit &cu = cus[w.cu];
    Cycle start = std::max(t, cu.ldsBusy);
    cu.ldsBusy = start + cycles;
    pushLgkm(cu.ldsBusy + device.ldsLatency,
             effects.lds ? effects.ldsConflictCycles : 0);
    result.ldsConflictCycles += effects.lds ? effects.ldsConflictCycles : 0;
    break;
  }
  case Unit::VmemLoad:
  case Unit::VmemStore:
  case Unit::VmemAtomic:
  case Unit::DirectToLds: {
    Cycle done = vectorMemory(w, in, t);
    if (in.desc->counter == isa::Counter::Lgkm)
      pushLgkm(done, 0);
    else
      pushVm(done);
    // Flat instructions count on both counters.
    if (in.desc->counter == isa::Counter::VmLgkm)
      pushLgkm(done, 0);
    break;
  }
  case Unit::Smem:
    pushLgkm(scalarMemory(w, t), 0);
    break;
  case Unit::Message:
    if (in.desc->counter == isa::Counter::Lgkm)
      pushLgkm(t + device.saluLatency, 0);
    break;
  case Unit::Branch: {
    const isa::Instruction *next = core.next(w.slot, w.index);
    if (next && next->pc != in.pc + in.size)
      w.notBefore = t + device.branchTakenPenalty;
    break;
  }
  case Unit::Hint:
    if (in.desc == sNop)
      w.notBefore = t + (in.simm & 0xf) + 1;
    else if (in.desc == sSleep)
      w.notBefore = t + Cycle(in.simm & 0x7f) * device.sleepUnitCycles;
    else if (in.desc == sSetprio)
      w.prio = unsigned(in.simm & 3);
    break;
  case Unit::Barrier:
    w.atBarrier = true;
    ++wg.atBarrier;
    arriveAtBarrier(wg, t);
    break;
  case Unit::EndProgram:
    break;
  default:
    break;
  }

  w.next = core.next(w.slot, w.index);
  if (!w.next && !w.ended) {
    w.ended = true;
    ++wg.ended;
    if (w.atBarrier) { // A wave cannot end at a barrier; keep counts sane.
      w.atBarrier = false;
      --wg.atBarrier;
    }
    arriveAtBarrier(wg, t);
    if (wg.ended == wg.waves.size())
      return finishWorkgroup(wg, t + 1);
  }
  return llvm::Error::success();
}

void Simulation::account(Simd &simd, Cycle t) {
  Cycle a = simd.accounted;
  if (t <= a)
    return;
  Cycle rest = t - a;
  Cycle m = simd.mfmaBusy > a ? std::min(rest, simd.mfmaBusy - a) : 0;
  loop(simd.mfmaLoop).cycles[size_t(Stall::Mfma)] += m;
  rest -= m;
  Cycle from = a + m;
  Cycle v = simd.valuBusy > from ? std::min(rest, simd.valuBusy - from) : 0;
  loop(simd.valuLoop).cycles[size_t(Stall::Valu)] += v;
  rest -= v;
  if (rest && simd.issuedOther) {
    Cycle x = std::min<Cycle>(rest, device.issueCadence);
    loop(simd.issueLoop).cycles[size_t(Stall::Issue)] += x;
    rest -= x;
  }
  if (rest && simd.stall == Stall::Lgkmcnt && simd.stallWave) {
    Cycle x = std::min<Cycle>(rest, simd.stallWave->conflictBudget);
    simd.stallWave->conflictBudget -= x;
    loop(simd.stallLoop).cycles[size_t(Stall::LdsConflict)] += x;
    rest -= x;
  }
  loop(simd.stallLoop).cycles[size_t(simd.stall)] += rest;
  simd.accounted = t;
}

llvm::Error Simulation::visit(unsigned global, Cycle t) {
  unsigned cuIndex = global / 4, simdIndex = global % 4;
  Simd &simd = cus[cuIndex].simds[simdIndex];
  account(simd, t);
  llvm::SmallVector<SimWave *, 16> order;
  for (SimWave *w : simd.waves)
    if (!w->ended && !w->atBarrier)
      order.push_back(w);
  llvm::sort(order, [](const SimWave *a, const SimWave *b) {
    return a->prio != b->prio ? a->prio > b->prio : a->age < b->age;
  });
  simd.issuedOther = false;
  simd.stallWave = nullptr;
  // No wave can issue: they wait at a barrier (in the loop of the first
  // waiting wave) or there are none.
  auto noteResting = [&] {
    auto waiting = llvm::find_if(simd.waves,
                                 [](const SimWave *w) { return w->atBarrier; });
    bool atBarrier = waiting != simd.waves.end();
    simd.stall = atBarrier ? Stall::Barrier : Stall::NoWave;
    simd.stallLoop = atBarrier && (*waiting)->next
                         ? loopTable.loopOf((*waiting)->next->pc)
                         : loopTable.outside();
  };
  simd.stall = Stall::Dependency;
  simd.stallLoop = loopTable.outside();
  if (order.empty())
    noteResting();
  bool stallFound = false;
  unsigned used = 0;
  Cycle wake = kNever;
  auto noteStall = [&](SimWave *w, Stall why) {
    if (stallFound)
      return;
    stallFound = true;
    simd.stall = why;
    simd.stallWave = w;
    simd.stallLoop = loopTable.loopOf(w->next->pc);
  };
  for (SimWave *w : order) {
    if (w->ended || w->atBarrier || !w->next)
      continue; // It ended or reached a barrier earlier in this visit.
    const isa::Instruction &in = *w->next;
    if (w->notBefore > t) {
      wake = std::min(wake, w->notBefore);
      noteStall(w, Stall::Dependency);
      continue;
    }
    IssueKind kind = issueKindOf(in.unit());
    unsigned bit = 1u << unsigned(kind);
    if (kind != IssueKind::Internal && (used & bit)) {
      wake = std::min(wake, t + 1);
      continue;
    }
    Stall why;
    Cycle ready = readyTime(*w, in, simd, t, why);
    if (ready > t) {
      wake = std::min(wake, ready);
      noteStall(w, why);
      continue;
    }
    if (kind != IssueKind::Internal)
      used |= bit;
    if (kind != IssueKind::VectorAlu) {
      simd.issuedOther = true;
      simd.issueLoop = loopTable.loopOf(in.pc);
    }
    if (traceSimd == int(global))
      llvm::errs() << t << " s" << w->slot << " w" << w->index << " p"
                   << w->prio << " " << in.text << "\n";
    if (llvm::Error error = issue(*w, in, t))
      return error;
    if (!w->ended && !w->atBarrier)
      wake = std::min(wake, t + 1);
  }
  // Every wave that could issued. If none of them can issue again (they
  // reached a barrier or their end on this visit), that holds the SIMD
  // until its next visit, which may be the barrier's release hundreds of
  // cycles on.
  if (!stallFound && llvm::all_of(simd.waves, [](const SimWave *w) {
        return w->ended || w->atBarrier;
      }))
    noteResting();
  if (wake != kNever)
    schedule(cuIndex, simdIndex, std::max(wake, t + 1));
  return llvm::Error::success();
}

/// HK_TIMING_TRACE, when set, names one SIMD of the sampled XCD by its
/// index (CU times 4 plus SIMD) whose issued instructions go to stderr.
llvm::Error Simulation::readTraceSimd() {
  const char *text = getenv("HK_TIMING_TRACE");
  if (!text)
    return llvm::Error::success();
  unsigned simds = device.cusPerXcd * 4, index;
  if (llvm::StringRef(text).getAsInteger(10, index) || index >= simds)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "HK_TIMING_TRACE: expected the index of one of the XCD's " +
            llvm::Twine(simds) + " SIMDs (0 to " + llvm::Twine(simds - 1) +
            "), got '" + text + "'");
  traceSimd = int(index);
  return llvm::Error::success();
}

llvm::Expected<SampleResult>
Simulation::run(llvm::ArrayRef<uint64_t> sampleIds) {
  if (llvm::Error error = readTraceSimd())
    return std::move(error);
  ids = sampleIds;
  result.residency.assign(ids.size(), 0);
  unsigned capacity = device.cusPerXcd * occupancy.workgroupsPerCu;
  // The first dispatch wave fills the CUs round-robin; the rest wait for a
  // workgroup to end, in order.
  for (size_t k = 0; k < ids.size(); ++k) {
    if (k < capacity) {
      if (llvm::Error error = dispatch(k, unsigned(k % device.cusPerXcd), 0))
        return std::move(error);
    } else {
      pending.push_back(k);
    }
  }
  while (!events.empty()) {
    auto [t, global] = events.top();
    events.pop();
    Simd &simd = simdAt(global);
    if (simd.scheduled != t)
      continue;
    simd.scheduled = kNever;
    if (llvm::Error error = visit(global, t))
      return std::move(error);
  }
  if (live) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the timing model stalled with " + llvm::Twine(live) +
            " workgroup(s) unfinished: their waves wait for each other");
  }
  // Attribute the SIMDs' cycles up to the end of the sample.
  for (ComputeUnit &cu : cus) {
    if (!cu.used)
      continue;
    for (Simd &simd : cu.simds) {
      simd.issuedOther = false;
      simd.stall = Stall::NoWave;
      simd.stallLoop = loopTable.outside();
      simd.stallWave = nullptr;
      account(simd, result.end);
      ++result.simds;
    }
  }
  result.flushEnd = Cycle(std::ceil(memory.writeBackAll(double(result.end))));
  result.hbmBytes = double(memory.hbmBytes());
  result.l2Reads = memory.l2Reads();
  result.l2Hits = memory.l2Hits();
  result.workgroups = ids.size();
  // The MFMA that did most of the work sets the peak.
  double best = 0;
  for (auto &[instr, use] : mfmaUse)
    if (use.first > best) {
      best = use.first;
      result.mainMfma = instr;
      result.mainMfmaFormats = use.second;
    }
  return std::move(result);
}

} // namespace

llvm::Expected<SampleResult>
hk::timing::simulateSample(const DeviceModel &device, ExecutionCore &core,
                           const Occupancy &occupancy, const LoopTable &loops,
                           llvm::ArrayRef<uint64_t> ids,
                           double engineClockMHz) {
  Simulation simulation(device, core, occupancy, loops, engineClockMHz);
  return simulation.run(ids);
}
