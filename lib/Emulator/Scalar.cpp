//===- Scalar.cpp - Scalar ALU, program control and scalar memory ---------===//

#include "Interp.h"

#include <algorithm>
#include <chrono>

using namespace hk;
using namespace hk::emu;

// SOP2 / SOPK / SOP1 / SOPC
// ----------------------------------------------------------

/// Result and SCC of a 32-bit scalar operation.
struct S32 {
  uint32_t value;
  int scc; ///< -1 leaves SCC unchanged.
};

template <typename F> static void sop32(Wave &w, const Instr &in, F f) {
  uint32_t a = in.numOps > 1 ? readScalar(w, in.ops[1]) : 0;
  uint32_t b = in.numOps > 2 ? readScalar(w, in.ops[2]) : 0;
  S32 r = f(w, a, b);
  writeSgpr(w, in.ops[0], 0, r.value);
  if (r.scc >= 0)
    w.scc = r.scc;
}

struct S64 {
  uint64_t value;
  int scc;
};

template <typename F> static void sop64(Wave &w, const Instr &in, F f) {
  uint64_t a = in.numOps > 1 ? readScalar64(w, in.ops[1]) : 0;
  uint64_t b = in.numOps > 2 ? readScalar64(w, in.ops[2]) : 0;
  S64 r = f(w, a, b);
  writeSgpr(w, in.ops[0], 0, uint32_t(r.value));
  writeSgpr(w, in.ops[0], 1, uint32_t(r.value >> 32));
  if (r.scc >= 0)
    w.scc = r.scc;
}

#define SOP32(expr, scc)                                                       \
  [](Wave &w, const Instr &in) {                                               \
    sop32(w, in, [](Wave &w, uint32_t a, uint32_t b) -> S32 {                  \
      (void)w;                                                                 \
      (void)a;                                                                 \
      (void)b;                                                                 \
      uint32_t d = uint32_t(expr);                                             \
      return {d, int(scc)};                                                    \
    });                                                                        \
  }
#define SOP64(expr, scc)                                                       \
  [](Wave &w, const Instr &in) {                                               \
    sop64(w, in, [](Wave &w, uint64_t a, uint64_t b) -> S64 {                  \
      (void)w;                                                                 \
      (void)a;                                                                 \
      (void)b;                                                                 \
      uint64_t d = uint64_t(expr);                                             \
      return {d, int(scc)};                                                    \
    });                                                                        \
  }
#define SOPC(expr)                                                             \
  [](Wave &w, const Instr &in) {                                               \
    uint32_t a = readScalar(w, in.ops[0]);                                     \
    uint32_t b = readScalar(w, in.ops[1]);                                     \
    (void)a;                                                                   \
    (void)b;                                                                   \
    w.scc = (expr);                                                            \
  }
#define SOPC64(expr)                                                           \
  [](Wave &w, const Instr &in) {                                               \
    uint64_t a = readScalar64(w, in.ops[0]);                                   \
    uint64_t b = readScalar64(w, in.ops[1]);                                   \
    w.scc = (expr);                                                            \
  }

/// A 32-bit result of a 64-bit source.
#define SOP64TO32(expr, newScc)                                                \
  [](Wave &w, const Instr &in) {                                               \
    uint64_t a = readScalar64(w, in.ops[1]);                                   \
    uint32_t d = uint32_t(expr);                                               \
    writeSgpr(w, in.ops[0], 0, d);                                             \
    if (int(newScc) >= 0)                                                      \
      w.scc = int(newScc);                                                     \
  }

static bool addOverflows(int32_t a, int32_t b) {
  int32_t r;
  return __builtin_add_overflow(a, b, &r);
}
static bool subOverflows(int32_t a, int32_t b) {
  int32_t r;
  return __builtin_sub_overflow(a, b, &r);
}

static uint32_t bfeU32(uint32_t a, uint32_t b) {
  unsigned offset = b & 31, width = (b >> 16) & 0x7f;
  if (width == 0)
    return 0;
  uint64_t v = uint64_t(a) >> offset;
  return width >= 32 ? uint32_t(v) : uint32_t(v & ((1ull << width) - 1));
}
static uint32_t bfeI32(uint32_t a, uint32_t b) {
  unsigned offset = b & 31, width = (b >> 16) & 0x7f;
  if (width == 0)
    return 0;
  if (width >= 32)
    return uint32_t(int32_t(a) >> offset);
  uint32_t v = (a >> offset) & ((1u << width) - 1);
  return uint32_t(int32_t(v << (32 - width)) >> (32 - width));
}
static uint64_t bfeU64(uint64_t a, uint32_t b) {
  unsigned offset = b & 63, width = (b >> 16) & 0x7f;
  if (width == 0)
    return 0;
  uint64_t v = a >> offset;
  return width >= 64 ? v : v & ((1ull << width) - 1);
}

static uint64_t bfeI64(uint64_t a, uint32_t b) {
  unsigned offset = b & 63, width = (b >> 16) & 0x7f;
  if (width == 0)
    return 0;
  // A field reaching past bit 63 is the arithmetic shift's result.
  if (width >= 64)
    return uint64_t(int64_t(a) >> offset);
  uint64_t v = bfeU64(a, b);
  return uint64_t(int64_t(v << (64 - width)) >> (64 - width));
}

// Saveexec: sdst = exec; exec = f(src, exec); scc = exec != 0.
template <typename F> static void saveexec(Wave &w, const Instr &in, F f) {
  uint64_t old = w.exec();
  uint64_t src = readScalar64(w, in.ops[1]);
  uint64_t mask = f(src, old);
  writeSgpr(w, in.ops[0], 0, uint32_t(old));
  writeSgpr(w, in.ops[0], 1, uint32_t(old >> 32));
  w.setExec(mask);
  w.scc = mask != 0;
}
#define SAVEEXEC(expr)                                                         \
  [](Wave &w, const Instr &in) {                                               \
    saveexec(w, in, [](uint64_t s, uint64_t e) { return uint64_t(expr); });    \
  }

/// Wrexec: exec = f(src, exec); sdst = exec; scc = exec != 0.
#define WREXEC(expr)                                                           \
  [](Wave &w, const Instr &in) {                                               \
    uint64_t s = readScalar64(w, in.ops[1]), e = w.exec();                     \
    uint64_t r = (expr);                                                       \
    w.setExec(r);                                                              \
    w.setSgpr64(in.ops[0].reg, r);                                             \
    w.scc = r != 0;                                                            \
  }

static void sCmovB32(Wave &w, const Instr &in) {
  if (w.scc)
    writeSgpr(w, in.ops[0], 0, readScalar(w, in.ops[1]));
}
static void sCmovB64(Wave &w, const Instr &in) {
  if (w.scc)
    w.setSgpr64(in.ops[0].reg, readScalar64(w, in.ops[1]));
}
template <bool Set> static void sBitset(Wave &w, const Instr &in) {
  uint32_t bit = 1u << (readScalar(w, in.ops[1]) & 31);
  uint32_t &d = w.s[in.ops[0].reg & (kNumSgprs - 1)];
  d = Set ? d | bit : d & ~bit;
}
/// s_bitset{0,1}_b64: D.u64[S0.u32[5:0]] = 0 or 1; the other bits kept.
template <bool Set> static void sBitset64(Wave &w, const Instr &in) {
  uint64_t bit = 1ull << (readScalar(w, in.ops[1]) & 63);
  uint64_t d = readScalar64(w, in.ops[0]);
  d = Set ? d | bit : d & ~bit;
  writeSgpr(w, in.ops[0], 0, uint32_t(d));
  writeSgpr(w, in.ops[0], 1, uint32_t(d >> 32));
}
/// s_movrels_b{32,64} D, S: D = SGPR[S + M0]; s_movreld_b{32,64} D, S:
/// SGPR[D + M0] = S. The relative index counts SGPRs (the 64-bit forms
/// move the pair starting there); like every SGPR access here it wraps
/// around the register file.
template <unsigned Words, bool Source>
static void sMovrel(Wave &w, const Instr &in) {
  uint32_t offset = w.s[isa::kM0];
  for (unsigned i = 0; i < Words; ++i) {
    if (Source) {
      uint32_t value = w.s[(in.ops[1].reg + offset + i) & (kNumSgprs - 1)];
      writeSgpr(w, in.ops[0], i, value);
    } else {
      w.s[(in.ops[0].reg + offset + i) & (kNumSgprs - 1)] =
          readScalar(w, in.ops[1], i);
    }
  }
}

static void sCmovkI32(Wave &w, const Instr &in) {
  if (w.scc)
    writeSgpr(w, in.ops[0], 0, int32_t(int16_t(readScalar(w, in.ops[1]))));
}
static void sAddkI32(Wave &w, const Instr &in) {
  int32_t a = int32_t(w.s[in.ops[0].reg]);
  int32_t b = int16_t(readScalar(w, in.ops[1]));
  w.scc = addOverflows(a, b);
  w.s[in.ops[0].reg] = uint32_t(a) + uint32_t(b);
}
static void sMulkI32(Wave &w, const Instr &in) {
  w.s[in.ops[0].reg] *= uint32_t(int32_t(int16_t(readScalar(w, in.ops[1]))));
}

// VGPR indexing mode (GFX9): M0[7:0] holds the index added to the VGPR
// numbers of the VALU operands M0[15:12] enables (src0, src1, src2, dst)
// while the mode is on; see runSlice.
static void sSetGprIdxOn(Wave &w, const Instr &in) {
  uint32_t index = readScalar(w, in.ops[0]) & 0xff;
  w.s[kM0] = (w.s[kM0] & ~0xf0ffu) | index | ((uint32_t(in.simm) & 0xf) << 12);
  w.gprIndexing = true;
}
static void sSetGprIdxOff(Wave &w, const Instr &) { w.gprIndexing = false; }
static void sSetGprIdxIdx(Wave &w, const Instr &in) {
  w.s[kM0] = (w.s[kM0] & ~0xffu) | (readScalar(w, in.ops[0]) & 0xff);
}
static void sSetGprIdxMode(Wave &w, const Instr &in) {
  w.s[kM0] = (w.s[kM0] & ~0xf000u) | ((uint32_t(in.simm) & 0xf) << 12);
}

// The kernel sees device addresses of its code (LaunchState::codeBase).
static void sGetpc(Wave &w, const Instr &in) {
  uint64_t pc = w.pc + w.wg->launch->codeBase;
  writeSgpr(w, in.ops[0], 0, uint32_t(pc));
  writeSgpr(w, in.ops[0], 1, uint32_t(pc >> 32));
}
static void sSetpc(Wave &w, const Instr &in) {
  w.pc = readScalar64(w, in.ops[0]) - w.wg->launch->codeBase;
}
static void sSwappc(Wave &w, const Instr &in) {
  uint64_t target = readScalar64(w, in.ops[1]);
  uint64_t pc = w.pc + w.wg->launch->codeBase;
  writeSgpr(w, in.ops[0], 0, uint32_t(pc));
  writeSgpr(w, in.ops[0], 1, uint32_t(pc >> 32));
  w.pc = target - w.wg->launch->codeBase;
}

// SOPP
// ------------------------------------------------------------------------------

static void sBranch(Wave &w, const Instr &in) { w.pc = in.branchTarget(); }

enum class BranchIf {
  SccZero,
  SccOne,
  VccZero,
  VccNonZero,
  ExecZero,
  ExecNonZero
};

template <BranchIf Condition> static void sCbranch(Wave &w, const Instr &in) {
  bool taken = false;
  switch (Condition) {
  case BranchIf::SccZero:
    taken = !w.scc;
    break;
  case BranchIf::SccOne:
    taken = w.scc;
    break;
  case BranchIf::VccZero:
    taken = w.vcc() == 0;
    break;
  case BranchIf::VccNonZero:
    taken = w.vcc() != 0;
    break;
  case BranchIf::ExecZero:
    taken = w.exec() == 0;
    break;
  case BranchIf::ExecNonZero:
    taken = w.exec() != 0;
    break;
  }
  if (taken)
    w.pc = in.branchTarget();
}

static void sEndpgm(Wave &w, const Instr &) { w.state = Wave::Ended; }

static void sBarrier(Wave &w, const Instr &) { w.state = Wave::AtBarrier; }

static void sWaitcnt(Wave &w, const Instr &in) {
  retireWaits(w, in.wait.vmcnt, in.wait.lgkmcnt);
}

static void sNop(Wave &, const Instr &) {}
/// s_sleep: nothing to wait for here, but a wave that sleeps is polling for
/// another's progress; the workgroup counts it (docs/emulator.md,
/// "Scheduling").
static void sSleep(Wave &w, const Instr &) { ++w.wg->sleeps; }

static void sTrap(Wave &w, const Instr &in) {
  w.fault(in, "s_trap " + llvm::Twine(in.simm) +
                  ": the kernel trapped (an abort or a failed assertion)");
}

/// The fields of an s_getreg/s_setreg hwreg operand: register id in bits
/// 5:0, the field's offset in 10:6 and its size minus one in 15:11.
struct HwregField {
  unsigned id, offset, size;
  explicit HwregField(int64_t simm16)
      : id(simm16 & 0x3f), offset((simm16 >> 6) & 0x1f),
        size(((simm16 >> 11) & 0x1f) + 1) {}
  uint32_t mask() const {
    return uint32_t(((uint64_t(1) << size) - 1) << offset);
  }
};
constexpr unsigned kHwRegMode = 1;

/// MODE reads back what the wave holds; hardware ids and status read as
/// zero (the emulator has one virtual CU).
static void sGetreg(Wave &w, const Instr &in) {
  HwregField f(in.simm);
  uint32_t value = f.id == kHwRegMode ? (w.mode & f.mask()) >> f.offset : 0;
  writeSgpr(w, in.ops[0], 0, value);
}

/// s_setreg*: MODE's denormal fields take effect; the other registers
/// hold nothing the emulator models.
static void sSetreg(Wave &w, const Instr &in) {
  HwregField f(in.simm);
  if (f.id != kHwRegMode)
    return;
  uint32_t value = readScalar(w, in.ops[0]);
  uint32_t mode = (w.mode & ~f.mask()) | ((value << f.offset) & f.mask());
  if (mode & ModeRegister::kRoundMask) {
    w.fault(in, "sets a float rounding mode other than round-to-nearest-"
                "even, which hk-emu does not emulate");
    return;
  }
  w.mode = mode;
}

static void sMemtime(Wave &w, const Instr &in) {
  uint64_t t = w.executed;
  writeSgpr(w, in.ops[0], 0, uint32_t(t));
  writeSgpr(w, in.ops[0], 1, uint32_t(t >> 32));
}

// SMEM
// ------------------------------------------------------------------------------

/// s_load_dword{,x2,x4,x8,x16} sdst, sbase, offset and s_buffer_load_*.
template <unsigned Dwords, bool Buffer>
static void sLoad(Wave &w, const Instr &in) {
  constexpr unsigned dwords = Dwords;
  constexpr bool buffer = Buffer;
  const Operand &dst = in.ops[0];
  uint64_t base = readScalar64(w, in.ops[1]) & 0xffffffffffffull;
  uint64_t offset = 0;
  if (in.numOps > 2)
    offset = in.ops[2].kind == OpKind::Imm
                 ? uint64_t(int64_t(int32_t(in.ops[2].imm)))
                 : readScalar(w, in.ops[2]);
  uint64_t address = base + offset + int64_t(in.offset);
  probeScalarMemory(w, address, 4 * dwords);
  uint32_t numRecords = buffer ? readScalar(w, in.ops[1], 2) : ~0u;
  uint8_t *host = nullptr;
  bool inRange =
      !buffer || offset + int64_t(in.offset) + 4 * dwords <= numRecords;
  if (inRange)
    host = globalAccess(w, in, address & ~3ull, 4 * dwords, -1, false);
  for (unsigned i = 0; i < dwords; ++i) {
    uint32_t v = 0;
    if (host)
      std::memcpy(&v, host + 4 * i, 4);
    writeSgpr(w, dst, i, v);
  }
  w.wg->counters.scalarReadBytes += 4 * dwords;
  if (PendingOp *op = issueOp(w, in, WaitCounter::Smem))
    markPendingDst(w, *op, dst, dwords);
}

llvm::ArrayRef<Binding> hk::emu::scalarBindings() {
  static const Binding bindings[] = {
#define HK_SOP1(name, unit, dsts, sem) {#name, sem},
#define HK_SOP2(name, unit, dsts, sem) {#name, sem},
#define HK_SOPK(name, unit, dsts, sem) {#name, sem},
#define HK_SOPC(name, unit, sem) {#name, sem},
#define HK_SOPP(name, unit, sem) {#name, sem},
#define HK_SMEM(name, kind, bytes, dsts, sem) {#name, sem},
#include "hk/ISA/Instructions/SMEM.def"
#include "hk/ISA/Instructions/SOP1.def"
#include "hk/ISA/Instructions/SOP2.def"
#include "hk/ISA/Instructions/SOPC.def"
#include "hk/ISA/Instructions/SOPK.def"
#include "hk/ISA/Instructions/SOPP.def"
  };
  return bindings;
}
