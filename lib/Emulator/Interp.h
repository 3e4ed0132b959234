//===- Interp.h - The interpreter's internal state -----------------*- C++
//-*-===//
//
// Decoded instructions, wave and workgroup state, and the helpers the
// instruction handlers share. Internal to lib/Emulator.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_EMULATOR_INTERP_H
#define HK_LIB_EMULATOR_INTERP_H

#include "hk/Emulator/Device.h"
#include "hk/Emulator/Disassembly.h"
#include "hk/Emulator/Numerics.h"
#include "hk/ISA/Instruction.h"
#include "hk/Support/ChipInfo.h"
#include "hk/Timing/Timing.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <set>
#include <string>
#include <vector>

namespace hk::emu {

constexpr unsigned kWaveSize = 64;
using isa::kAgprBase;
using isa::kExecLo;
using isa::kFlatScratchLo;
using isa::kM0;
using isa::kNumSgprs;
using isa::kNumVgprs;
using isa::kPrivateAperture;
using isa::kSharedAperture;
using isa::kTtmp0;
using isa::kVccLo;
using isa::kXnackMaskLo;
using isa::Operand;
using isa::OpKind;

struct Wave;
struct Instr;
using Handler = void (*)(Wave &, const Instr &);

/// The coarse class an executed instruction is counted under.
InstrClass classOf(isa::Unit unit);

/// A decoded instruction bound to its semantics.
struct Instr : isa::Instruction {
  Handler fn = nullptr;
  InstrClass cls = InstrClass::Other;
};

/// One line of a .def file as the emulator sees it: the semantics of the
/// instruction `mnemonic`.
struct Binding {
  const char *mnemonic;
  Handler fn;
};
llvm::ArrayRef<Binding> scalarBindings();
llvm::ArrayRef<Binding> vectorBindings();
llvm::ArrayRef<Binding> matrixBindings();
llvm::ArrayRef<Binding> memoryBindings();

/// The semantics of every listed instruction, by InstrDesc::index.
llvm::ArrayRef<Handler> handlerTable();

/// All instructions of a code object's executable segments, decoded once at
/// load time and indexed by address.
class DecodedProgram {
public:
  static llvm::Expected<std::unique_ptr<DecodedProgram>>
  decode(const CodeObject &object);
  const Instr *at(uint64_t pc) const {
    if (pc < base || pc >= end || (pc & 3))
      return nullptr;
    int32_t index = byWord[(pc - base) >> 2];
    return index < 0 ? nullptr : &instrs[index];
  }
  const std::vector<Instr> &all() const { return instrs; }

private:
  uint64_t base = 0, end = 0;
  std::vector<Instr> instrs;
  std::vector<int32_t> byWord;
};

struct LaunchState;
struct Workgroup;
class LaunchChecks;

/// One outstanding memory operation, tracked for the wait-count sanitizer
/// and the LDS race checker.
struct PendingOp {
  uint32_t id = 0;
  uint16_t firstReg = 0;
  uint16_t numRegs = 0;
  bool sgpr = false;
  bool ldsWrite = false;  ///< Its LDS ranges are writes (else reads).
  bool ldsAtomic = false; ///< ... read-modify-writes of an atomic.
  bool dma = false;       ///< Direct-to-LDS load.
  uint64_t pc = 0;
  /// LDS byte ranges (address, size) the operation touches.
  std::vector<std::pair<uint32_t, uint32_t>> ldsRanges;
};

struct Wave {
  uint32_t v[kNumVgprs][kWaveSize];
  uint32_t s[kNumSgprs];
  bool scc = false;
  /// VGPR indexing mode (s_set_gpr_idx_on/off) is on.
  bool gprIndexing = false;
  /// The MODE hardware register (see ModeRegister): float rounding and
  /// denormal modes, from the kernel descriptor, changed by s_setreg.
  uint32_t mode = 0;
  uint64_t pc = 0;
  enum State : uint8_t { Running, AtBarrier, Ended, Faulted } state = Running;
  unsigned id = 0;
  unsigned barriers = 0;
  uint64_t executed = 0;
  Workgroup *wg = nullptr;
  // Last global allocation hit (translation cache).
  uint64_t cacheLo = 1, cacheHi = 0;
  uint8_t *cacheHost = nullptr;

  // Wait-count tracking.
  uint32_t nextOpId = 1;
  uint32_t pendingReg[kNumVgprs + kNumSgprs];
  unsigned pendingCount = 0; ///< Registers with a load in flight.
  std::deque<PendingOp> vmemOps, ldsOps;
  std::vector<PendingOp> smemOps;

  uint64_t exec() const {
    return s[kExecLo] | (uint64_t(s[kExecLo + 1]) << 32);
  }
  void setExec(uint64_t m) {
    s[kExecLo] = uint32_t(m);
    s[kExecLo + 1] = uint32_t(m >> 32);
  }
  uint64_t vcc() const { return s[kVccLo] | (uint64_t(s[kVccLo + 1]) << 32); }
  void setVcc(uint64_t m) {
    s[kVccLo] = uint32_t(m);
    s[kVccLo + 1] = uint32_t(m >> 32);
  }
  /// src_vccz, src_execz, src_scc (in that order).
  uint32_t condition(unsigned which) const {
    return which == 0 ? vcc() == 0 : which == 1 ? exec() == 0 : scc;
  }
  uint64_t sgpr64(unsigned reg) const {
    return s[reg] | (uint64_t(s[reg + 1]) << 32);
  }
  void setSgpr64(unsigned reg, uint64_t value) {
    s[reg] = uint32_t(value);
    s[reg + 1] = uint32_t(value >> 32);
  }

  /// Stops the wave (and the launch) with an error about `in`.
  void fault(const Instr &in, const llvm::Twine &message);
};

/// Fields of the MODE hardware register (AMD GFX9 ISA, "MODE"): the round
/// modes and the denormal modes of f32 and of f16/f64 (values of
/// llvm::amdhsa's FLOAT_ROUND_MODE_* and FLOAT_DENORM_MODE_*).
namespace ModeRegister {
constexpr unsigned kRound32Shift = 0, kRound16_64Shift = 2, kDenorm32Shift = 4,
                   kDenorm16_64Shift = 6;
constexpr uint32_t kRoundMask = 0xf;
/// Denormal modes: 0 flushes sources and results, 1 results, 2 sources,
/// 3 neither.
constexpr unsigned kFlushNone = 3;
inline bool flushesSources(unsigned denorm) {
  return denorm == 0 || denorm == 2;
}
inline bool flushesResults(unsigned denorm) {
  return denorm == 0 || denorm == 1;
}
} // namespace ModeRegister

/// Read-only facts of one launch shared by all workgroups.
struct LaunchState {
  const ChipInfo *chip = nullptr;
  const DecodedProgram *program = nullptr;
  const GlobalMemory *memory = nullptr;
  const KernelInfo *kernel = nullptr;
  Dim3 grid, block;
  uint32_t ldsBytes = 0;
  uint64_t kernargAddress = 0;
  uint64_t dispatchAddress = 0;
  uint64_t entryPc = 0;
  /// Device address of the code object's image. Program counters are
  /// addresses in the code object (as llvm-objdump shows them); what the
  /// kernel sees of them (s_getpc_b64, s_setpc_b64, s_swappc_b64) is
  /// offset by this base.
  uint64_t codeBase = 0;
  /// MODE at wave start (from the kernel descriptor's COMPUTE_PGM_RSRC1).
  uint32_t initialMode =
      (ModeRegister::kFlushNone << ModeRegister::kDenorm32Shift) |
      (ModeRegister::kFlushNone << ModeRegister::kDenorm16_64Shift);
  SanitizerOptions sanitize;
  /// Source locations, shared-tile bounds and global races.
  LaunchChecks *checks = nullptr;
  uint64_t watchdog = 0;
  unsigned maxReports = 64;
  bool trace = false;
  // Initial state from the kernel descriptor.
  unsigned userSgprCount = 0;
  bool enableDispatchPtr = false, enableQueuePtr = false,
       enableKernargPtr = false, enableDispatchId = false,
       enableFlatScratchInit = false, enablePrivateSegmentSize = false,
       enablePrivateSegmentBuffer = false;
  bool enableWgId[3] = {false, false, false};
  bool enableWgInfo = false;
  unsigned workitemIdDims = 1; ///< VGPR workitem ids enabled (x, xy, xyz).
  bool packedWorkitemIds = true;
  unsigned preloadSgprs = 0, preloadOffsetDwords = 0;
  /// Lowest linear id of a workgroup that failed. Workgroups with higher
  /// ids stop early; lower ones still run, so the error reported is the
  /// same whatever the thread count.
  std::atomic<uint64_t> firstFailure{~0ull};
  void noteFailure(uint64_t workgroup) {
    uint64_t seen = firstFailure.load();
    while (workgroup < seen &&
           !firstFailure.compare_exchange_weak(seen, workgroup)) {
    }
  }
  bool shouldStop(uint64_t workgroup) const {
    return firstFailure.load(std::memory_order_relaxed) < workgroup;
  }
};

/// Per-byte LDS shadow for the race checker (16 bytes: a workgroup has at
/// most 16 waves).
struct LdsShadow {
  uint32_t writeEpoch = 0;  ///< Epoch + 1 of the last write (0: none).
  uint32_t readEpoch = 0;   ///< Epoch + 1 of the reads in `readers`.
  uint32_t atomicEpoch = 0; ///< Epoch + 1 of the atomics in `atomics`.
  uint32_t writerPc = 0;    ///< Low bits of the writing instruction's pc.
  uint16_t readers = 0;     ///< Bit per wave.
  uint16_t atomics = 0;     ///< Bit per wave.
  uint8_t writer = 0;
};

/// How an instruction touches an LDS byte, for the race checker: atomics
/// of different waves do not race with each other, only with plain reads
/// and writes.
enum class LdsAccess : uint8_t { Read, Write, Atomic };

struct Workgroup {
  LaunchState *launch = nullptr;
  uint64_t linearId = 0;
  uint32_t id[3] = {0, 0, 0};
  std::vector<uint8_t> lds;
  std::vector<LdsShadow> shadow;
  /// End of the LDS bytes touched since the workgroup started: only those
  /// need clearing before the next workgroup runs on this thread.
  uint32_t ldsDirtyEnd = 0;
  /// Per LDS dword: id+1 of the wave whose direct-to-LDS load still writes
  /// it (0: none).
  std::vector<uint16_t> dmaPending;
  /// Private (scratch) memory: scratchPerLane bytes for each lane of each
  /// wave, zeroed per workgroup.
  std::vector<uint8_t> scratch;
  uint32_t scratchPerLane = 0;
  /// Direct-to-LDS loads of any wave not yet retired (0: skip the checks).
  unsigned dmaOutstanding = 0;
  std::vector<std::unique_ptr<Wave>> waves;
  unsigned numWaves = 0;
  KernelCounters counters;
  /// Bank-conflict figures by ds_* pc (a hash map: looked up on every LDS
  /// instruction); folded into `counters` by flushLdsStats.
  llvm::DenseMap<uint64_t, LdsConflictStats> ldsStats;
  std::vector<SanitizerReport> reports;
  uint64_t reportCount = 0;
  std::string error;
  uint64_t errorPc = 0;
  /// (kind, pc) pairs already reported: one report per instruction.
  std::set<std::pair<unsigned, uint64_t>> reported;
  /// Set while a timing model drives the workgroup: the instruction being
  /// executed records its memory addresses and LDS cost here.
  timing::StepEffects *probe = nullptr;
  /// Wave-instructions executed since the workgroup started.
  uint64_t executed = 0;
  /// s_sleep instructions executed since the workgroup started: a wave
  /// that sleeps is waiting for something (a spin loop's hint).
  uint64_t sleeps = 0;

  /// Moves the per-pc LDS figures into `counters`.
  void flushLdsStats();

  void report(SanitizerReport::Kind kind, const Wave &w, uint64_t pc, int lane,
              uint64_t address, const llvm::Twine &message);
};

// Operand access -----------------------------------------------------------

/// A per-lane view of one 32-bit source: VGPRs advance by lane, scalars and
/// constants do not.
struct SrcView {
  const uint32_t *p;
  unsigned stride;
  uint32_t operator[](unsigned lane) const { return p[lane * stride]; }
};

/// Reads a scalar operand's 32-bit word `word` (SGPR or constant).
inline uint32_t readScalar(const Wave &w, const Operand &op,
                           unsigned word = 0) {
  if (op.kind == OpKind::Sgpr)
    return w.s[(op.reg + word) & (kNumSgprs - 1)];
  if (op.kind == OpKind::Imm)
    return uint32_t(op.imm >> (32 * word));
  if (op.kind == OpKind::Cond && word == 0)
    return w.condition(op.reg);
  return 0;
}
inline uint64_t readScalar64(const Wave &w, const Operand &op) {
  if (op.kind == OpKind::Imm)
    return op.imm;
  return readScalar(w, op, 0) | (uint64_t(readScalar(w, op, 1)) << 32);
}

/// A lane view of `op`'s word `word`; `tmp` backs scalar values.
inline SrcView viewOf(const Wave &w, const Operand &op, unsigned word,
                      uint32_t &tmp) {
  if (op.kind == OpKind::Vgpr)
    return {w.v[(op.reg + word) & (kNumVgprs - 1)], 1};
  tmp = readScalar(w, op, word);
  return {&tmp, 0};
}

inline void writeSgpr(Wave &w, const Operand &op, unsigned word,
                      uint32_t value) {
  if (op.kind == OpKind::Sgpr)
    w.s[(op.reg + word) & (kNumSgprs - 1)] = value;
}

/// Iterates the set lanes of `mask`.
template <typename F> inline void forEachLane(uint64_t mask, F f) {
  while (mask) {
    unsigned lane = __builtin_ctzll(mask);
    f(lane);
    mask &= mask - 1;
  }
}

inline uint32_t vgprIndex(const Operand &op, unsigned word) {
  return (op.reg + word) & (kNumVgprs - 1);
}

// Shared helpers implemented in Workgroup.cpp --------------------------------

/// Host address of global [address, address+size) or null (reported when
/// the memory sanitizer is on).
uint8_t *globalAccess(Wave &w, const Instr &in, uint64_t address, unsigned size,
                      int lane, bool write);
/// Host address of lane `lane`'s scratch [address, address+size) or null
/// (reported).
uint8_t *scratchAccess(Wave &w, const Instr &in, uint32_t address,
                       unsigned size, unsigned lane, bool write);
/// Host address of LDS [address, address+size) or null (reported).
uint8_t *ldsAccess(Wave &w, const Instr &in, uint32_t address, unsigned size,
                   int lane, bool write);
enum class WaitCounter : uint8_t { Vm, Lds, Smem };
/// Starts tracking a memory operation under `counter`; null when neither
/// the wait-count nor the race sanitizer needs it.
PendingOp *issueOp(Wave &w, const Instr &in, WaitCounter counter);
/// Marks `numRegs` registers of `dst` as written when `op` completes.
void markPendingDst(Wave &w, PendingOp &op, const Operand &dst,
                    unsigned numRegs);
/// Applies s_waitcnt limits.
void retireWaits(Wave &w, unsigned vmcnt, unsigned lgkmcnt);
/// Reports a read of a register whose load has not been waited for.
void checkPendingRead(Wave &w, const Instr &in, const Operand &op);
/// Race bookkeeping of an LDS access by `w` of [address, address+size).
void noteLdsAccess(Wave &w, uint64_t pc, uint32_t address, unsigned size,
                   LdsAccess access, int lane);
/// Bank-conflict accounting of one ds_* instruction: lane L accesses
/// `bytes` at addr0[L] (and at addr1[L] when addr1 is given).
void countLdsBankConflicts(Wave &w, const Instr &in, const uint32_t *addr0,
                           const uint32_t *addr1, uint64_t mask, unsigned bytes,
                           bool write);
/// Runs one workgroup to completion (or to a fault).
void runWorkgroup(Workgroup &wg);
/// One round of a prepared workgroup: each running wave executes up to a
/// slice of instructions, then a barrier every wave waits at is released.
/// Returns true once the workgroup has ended or faulted.
bool runWorkgroupRound(Workgroup &wg);
/// Puts a workgroup (linearId and id[] set) in its initial state: LDS and
/// scratch cleared, every wave at the entry point.
void prepareWorkgroup(Workgroup &wg);
/// Executes the instruction at w.pc (a timing model's step).
void stepWave(Wave &w);
/// Lets the waves waiting at s_barrier go on.
void releaseBarrier(Workgroup &wg);
/// Reports unbalanced barrier counts once every wave has ended.
void checkBarrierBalance(Workgroup &wg);
/// The watchdog's fault when a workgroup exceeds its instruction budget.
void faultOnWatchdog(Workgroup &wg);

/// What the workgroups the timing model ran left behind.
struct TimedOutcome {
  KernelCounters counters;
  std::vector<SanitizerReport> reports;
  uint64_t reportCount = 0;
  std::vector<uint64_t> ran; ///< Linear ids, sorted.
  std::string error;         ///< The fault that stopped the sample.
};
/// Runs the timing model's sample of the launch (`selected` when given,
/// else the model's default sample) with the emulator as its functional
/// core.
llvm::Expected<timing::Prediction>
runTimedSample(LaunchState &L, const KernelInfo &kernel,
               const LaunchOptions &options, llvm::ArrayRef<uint64_t> selected,
               TimedOutcome &outcome);

// Timing-model probes: what the executing instruction did, recorded only
// while a timing model drives the workgroup.

/// A vector-memory instruction's lanes: `address(lane)` for each lane of
/// `lanes`, `bytes` each.
template <typename AddressOf>
inline void probeVectorMemory(const Wave &w, uint64_t lanes, unsigned bytes,
                              bool scratch, AddressOf address) {
  timing::StepEffects *p = w.wg->probe;
  if (!p)
    return;
  p->vmem = true;
  p->vmemScratch = scratch;
  p->vmemBytes = bytes;
  p->vmemLanes = lanes;
  forEachLane(lanes, [&](unsigned l) { p->vmemAddress[l] = address(l); });
}
inline void probeScalarMemory(const Wave &w, uint64_t address, unsigned bytes) {
  if (timing::StepEffects *p = w.wg->probe) {
    p->smem = true;
    p->smemAddress = address;
    p->smemBytes = bytes;
  }
}
/// Records a direct-to-LDS write whose data is not there until vmcnt
/// retires it.
void noteDmaWrite(Wave &w, PendingOp &op, uint32_t address, unsigned size);
/// Reports a read of LDS bytes a direct-to-LDS load has not yet written.
void checkDmaPendingRead(Wave &w, const Instr &in, uint32_t address,
                         unsigned size, int lane);

} // namespace hk::emu

#endif // HK_LIB_EMULATOR_INTERP_H
