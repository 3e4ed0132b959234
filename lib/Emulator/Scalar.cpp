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

static void sBranch(Wave &w, const Instr &in) { w.pc = branchTarget(in); }

static void sCbranch(Wave &w, const Instr &in) {
  bool taken = false;
  switch (in.sub) {
  case 0:
    taken = !w.scc;
    break;
  case 1:
    taken = w.scc;
    break;
  case 2:
    taken = w.vcc() == 0;
    break;
  case 3:
    taken = w.vcc() != 0;
    break;
  case 4:
    taken = w.exec() == 0;
    break;
  case 5:
    taken = w.exec() != 0;
    break;
  default:
    break;
  }
  if (taken)
    w.pc = branchTarget(in);
}

static void sEndpgm(Wave &w, const Instr &) { w.state = Wave::Ended; }

static void sBarrier(Wave &w, const Instr &) { w.state = Wave::AtBarrier; }

static void sWaitcnt(Wave &w, const Instr &in) {
  retireWaits(w, in.wait.vmcnt, in.wait.lgkmcnt);
}

static void sNop(Wave &, const Instr &) {}

static void sTrap(Wave &w, const Instr &in) {
  w.fault(in, "s_trap " + llvm::Twine(in.simm) +
                  ": the kernel trapped (an abort or a failed assertion)");
}

static void sGetreg(Wave &w, const Instr &in) {
  // Hardware ids, mode and status read as zero: the emulator has one
  // virtual CU and default modes.
  writeSgpr(w, in.ops[0], 0, 0);
}

static void sMemtime(Wave &w, const Instr &in) {
  uint64_t t = w.executed;
  writeSgpr(w, in.ops[0], 0, uint32_t(t));
  writeSgpr(w, in.ops[0], 1, uint32_t(t >> 32));
}

// SMEM
// ------------------------------------------------------------------------------

/// s_load_dword{,x2,x4,x8,x16} sdst, sbase, offset and s_buffer_load_*.
static void sLoad(Wave &w, const Instr &in) {
  unsigned dwords = in.sub & 0xff;
  bool buffer = in.sub & 0x100;
  const Operand &dst = in.ops[0];
  uint64_t base = readScalar64(w, in.ops[1]) & 0xffffffffffffull;
  uint64_t offset = 0;
  if (in.numOps > 2)
    offset = in.ops[2].kind == OpKind::Imm
                 ? uint64_t(int64_t(int32_t(in.ops[2].imm)))
                 : readScalar(w, in.ops[2]);
  uint64_t address = base + offset + int64_t(in.offset);
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

static void sDcache(Wave &, const Instr &) {}

void hk::emu::registerScalarHandlers(HandlerTable &t) {
  auto add = [&](llvm::StringRef name, Handler fn, InstrClass cls,
                 uint32_t sub = 0, uint8_t numDsts = 1, bool rawImm = false) {
    HandlerEntry e;
    e.fn = fn;
    e.cls = cls;
    e.sub = sub;
    e.numDsts = numDsts;
    e.rawImm = rawImm;
    t[name] = e;
  };
  auto salu = [&](llvm::StringRef name, Handler fn, uint8_t numDsts = 1) {
    add(name, fn, InstrClass::Salu, 0, numDsts);
  };

  // SOP2 32-bit.
  salu("s_add_u32", SOP32(a + b, (uint64_t(a) + b) >> 32));
  salu("s_sub_u32", SOP32(a - b, b > a));
  salu("s_add_i32", SOP32(a + b, addOverflows(a, b)));
  salu("s_sub_i32", SOP32(a - b, subOverflows(a, b)));
  salu("s_addc_u32", SOP32(a + b + w.scc, (uint64_t(a) + b + w.scc) >> 32));
  salu("s_subb_u32", SOP32(a - b - w.scc, uint64_t(b) + w.scc > a));
  salu("s_min_i32",
       SOP32(std::min(int32_t(a), int32_t(b)), int32_t(a) < int32_t(b)));
  salu("s_min_u32", SOP32(std::min(a, b), a < b));
  salu("s_max_i32",
       SOP32(std::max(int32_t(a), int32_t(b)), int32_t(a) > int32_t(b)));
  salu("s_max_u32", SOP32(std::max(a, b), a > b));
  salu("s_cselect_b32", SOP32(w.scc ? a : b, -1));
  salu("s_and_b32", SOP32(a & b, d != 0));
  salu("s_or_b32", SOP32(a | b, d != 0));
  salu("s_xor_b32", SOP32(a ^ b, d != 0));
  salu("s_andn2_b32", SOP32(a & ~b, d != 0));
  salu("s_orn2_b32", SOP32(a | ~b, d != 0));
  salu("s_nand_b32", SOP32(~(a & b), d != 0));
  salu("s_nor_b32", SOP32(~(a | b), d != 0));
  salu("s_xnor_b32", SOP32(~(a ^ b), d != 0));
  salu("s_lshl_b32", SOP32(a << (b & 31), d != 0));
  salu("s_lshr_b32", SOP32(a >> (b & 31), d != 0));
  salu("s_ashr_i32", SOP32(int32_t(a) >> (b & 31), d != 0));
  salu("s_bfm_b32", SOP32(((1ull << (a & 31)) - 1) << (b & 31), -1));
  salu("s_mul_i32", SOP32(a * b, -1));
  salu("s_mul_hi_u32", SOP32((uint64_t(a) * b) >> 32, -1));
  salu("s_mul_hi_i32", SOP32((int64_t(int32_t(a)) * int32_t(b)) >> 32, -1));
  salu("s_bfe_u32", SOP32(bfeU32(a, b), d != 0));
  salu("s_bfe_i32", SOP32(bfeI32(a, b), d != 0));
  salu("s_absdiff_i32", SOP32(int32_t(a) > int32_t(b) ? a - b : b - a, d != 0));
  salu("s_lshl1_add_u32", SOP32((a << 1) + b, ((uint64_t(a) << 1) + b) >> 32));
  salu("s_lshl2_add_u32", SOP32((a << 2) + b, ((uint64_t(a) << 2) + b) >> 32));
  salu("s_lshl3_add_u32", SOP32((a << 3) + b, ((uint64_t(a) << 3) + b) >> 32));
  salu("s_lshl4_add_u32", SOP32((a << 4) + b, ((uint64_t(a) << 4) + b) >> 32));
  salu("s_pack_ll_b32_b16", SOP32((a & 0xffff) | (b << 16), -1));
  salu("s_pack_lh_b32_b16", SOP32((a & 0xffff) | (b & 0xffff0000u), -1));
  salu("s_pack_hh_b32_b16", SOP32((a >> 16) | (b & 0xffff0000u), -1));

  // SOP2 64-bit.
  salu("s_and_b64", SOP64(a & b, d != 0));
  salu("s_or_b64", SOP64(a | b, d != 0));
  salu("s_xor_b64", SOP64(a ^ b, d != 0));
  salu("s_andn2_b64", SOP64(a & ~b, d != 0));
  salu("s_orn2_b64", SOP64(a | ~b, d != 0));
  salu("s_nand_b64", SOP64(~(a & b), d != 0));
  salu("s_nor_b64", SOP64(~(a | b), d != 0));
  salu("s_xnor_b64", SOP64(~(a ^ b), d != 0));
  salu("s_cselect_b64", SOP64(w.scc ? a : b, -1));
  salu("s_bfm_b64",
       SOP64(((a & 63) == 0 ? 0 : ((~0ull) >> (64 - (a & 63)))) << (b & 63),
             -1));
  // Shifts take a 32-bit amount.
  salu("s_lshl_b64", SOP64(a << (b & 63), d != 0));
  salu("s_lshr_b64", SOP64(a >> (b & 63), d != 0));
  salu("s_ashr_i64", SOP64(int64_t(a) >> (b & 63), d != 0));
  salu("s_bfe_u64", SOP64(bfeU64(a, uint32_t(b)), d != 0));
  salu("s_bfe_i64", [](Wave &w, const Instr &in) {
    uint64_t a = readScalar64(w, in.ops[1]);
    uint32_t b = readScalar(w, in.ops[2]);
    unsigned width = (b >> 16) & 0x7f;
    uint64_t v = bfeU64(a, b);
    if (width > 0 && width < 64)
      v = uint64_t(int64_t(v << (64 - width)) >> (64 - width));
    w.setSgpr64(in.ops[0].reg, v);
    w.scc = v != 0;
  });

  // SOP1.
  salu("s_mov_b32", SOP32(a, -1));
  salu("s_mov_b64", SOP64(a, -1));
  salu("s_cmov_b32", [](Wave &w, const Instr &in) {
    if (w.scc)
      writeSgpr(w, in.ops[0], 0, readScalar(w, in.ops[1]));
  });
  salu("s_cmov_b64", [](Wave &w, const Instr &in) {
    if (w.scc)
      w.setSgpr64(in.ops[0].reg, readScalar64(w, in.ops[1]));
  });
  salu("s_not_b32", SOP32(~a, d != 0));
  salu("s_not_b64", SOP64(~a, d != 0));
  salu("s_brev_b32", SOP32(__builtin_bitreverse32(a), -1));
  salu("s_bcnt0_i32_b32", SOP32(32 - __builtin_popcount(a), d != 0));
  salu("s_bcnt1_i32_b32", SOP32(__builtin_popcount(a), d != 0));
  salu("s_bcnt1_i32_b64", [](Wave &w, const Instr &in) {
    uint32_t d = __builtin_popcountll(readScalar64(w, in.ops[1]));
    writeSgpr(w, in.ops[0], 0, d);
    w.scc = d != 0;
  });
  salu("s_ff1_i32_b32", SOP32(a ? __builtin_ctz(a) : ~0u, -1));
  salu("s_ff1_i32_b64", [](Wave &w, const Instr &in) {
    uint64_t a = readScalar64(w, in.ops[1]);
    writeSgpr(w, in.ops[0], 0, a ? __builtin_ctzll(a) : ~0u);
  });
  salu("s_ff0_i32_b32", SOP32(~a ? __builtin_ctz(~a) : ~0u, -1));
  salu("s_flbit_i32_b32", SOP32(a ? __builtin_clz(a) : ~0u, -1));
  salu("s_flbit_i32_b64", [](Wave &w, const Instr &in) {
    uint64_t a = readScalar64(w, in.ops[1]);
    writeSgpr(w, in.ops[0], 0, a ? __builtin_clzll(a) : ~0u);
  });
  salu("s_sext_i32_i8", SOP32(int32_t(int8_t(a)), -1));
  salu("s_sext_i32_i16", SOP32(int32_t(int16_t(a)), -1));
  salu("s_abs_i32", SOP32(int32_t(a) < 0 ? 0u - a : a, d != 0));
  salu("s_bitset0_b32", [](Wave &w, const Instr &in) {
    w.s[in.ops[0].reg] &= ~(1u << (readScalar(w, in.ops[1]) & 31));
  });
  salu("s_bitset1_b32", [](Wave &w, const Instr &in) {
    w.s[in.ops[0].reg] |= 1u << (readScalar(w, in.ops[1]) & 31);
  });
  salu("s_and_saveexec_b64", SAVEEXEC(s & e));
  salu("s_or_saveexec_b64", SAVEEXEC(s | e));
  salu("s_xor_saveexec_b64", SAVEEXEC(s ^ e));
  salu("s_andn2_saveexec_b64", SAVEEXEC(s & ~e));
  salu("s_orn2_saveexec_b64", SAVEEXEC(s | ~e));
  salu("s_nand_saveexec_b64", SAVEEXEC(~(s & e)));
  salu("s_nor_saveexec_b64", SAVEEXEC(~(s | e)));
  salu("s_xnor_saveexec_b64", SAVEEXEC(~(s ^ e)));
  salu("s_andn1_saveexec_b64", SAVEEXEC(~s & e));
  salu("s_orn1_saveexec_b64", SAVEEXEC(~s | e));
  salu("s_andn1_wrexec_b64", [](Wave &w, const Instr &in) {
    uint64_t r = ~readScalar64(w, in.ops[1]) & w.exec();
    w.setExec(r);
    w.setSgpr64(in.ops[0].reg, r);
    w.scc = r != 0;
  });
  salu("s_andn2_wrexec_b64", [](Wave &w, const Instr &in) {
    uint64_t r = readScalar64(w, in.ops[1]) & ~w.exec();
    w.setExec(r);
    w.setSgpr64(in.ops[0].reg, r);
    w.scc = r != 0;
  });
  add("s_getpc_b64", sGetpc, InstrClass::Branch);
  add("s_setpc_b64", sSetpc, InstrClass::Branch, 0, 0);
  add("s_swappc_b64", sSwappc, InstrClass::Branch);

  // SOPK.
  salu("s_movk_i32", SOP32(int32_t(int16_t(a)), -1));
  salu("s_cmovk_i32", [](Wave &w, const Instr &in) {
    if (w.scc)
      writeSgpr(w, in.ops[0], 0, int32_t(int16_t(readScalar(w, in.ops[1]))));
  });
  salu("s_addk_i32", [](Wave &w, const Instr &in) {
    int32_t a = int32_t(w.s[in.ops[0].reg]);
    int32_t b = int16_t(readScalar(w, in.ops[1]));
    w.scc = addOverflows(a, b);
    w.s[in.ops[0].reg] = uint32_t(a) + uint32_t(b);
  });
  salu("s_mulk_i32", [](Wave &w, const Instr &in) {
    w.s[in.ops[0].reg] *= uint32_t(int32_t(int16_t(readScalar(w, in.ops[1]))));
  });
  add("s_getreg_b32", sGetreg, InstrClass::Salu);
  add("s_setreg_b32", sNop, InstrClass::Salu, 0, 0);
  add("s_setreg_imm32_b32", sNop, InstrClass::Salu, 0, 0);

  // SOPC (no destination).
  auto sopc = [&](llvm::StringRef name, Handler fn) {
    add(name, fn, InstrClass::Salu, 0, 0);
  };
  sopc("s_cmp_eq_i32", SOPC(a == b));
  sopc("s_cmp_lg_i32", SOPC(a != b));
  sopc("s_cmp_gt_i32", SOPC(int32_t(a) > int32_t(b)));
  sopc("s_cmp_ge_i32", SOPC(int32_t(a) >= int32_t(b)));
  sopc("s_cmp_lt_i32", SOPC(int32_t(a) < int32_t(b)));
  sopc("s_cmp_le_i32", SOPC(int32_t(a) <= int32_t(b)));
  sopc("s_cmp_eq_u32", SOPC(a == b));
  sopc("s_cmp_lg_u32", SOPC(a != b));
  sopc("s_cmp_gt_u32", SOPC(a > b));
  sopc("s_cmp_ge_u32", SOPC(a >= b));
  sopc("s_cmp_lt_u32", SOPC(a < b));
  sopc("s_cmp_le_u32", SOPC(a <= b));
  sopc("s_cmp_eq_u64", SOPC64(a == b));
  sopc("s_cmp_lg_u64", SOPC64(a != b));
  sopc("s_bitcmp0_b32", SOPC(((a >> (b & 31)) & 1) == 0));
  sopc("s_bitcmp1_b32", SOPC(((a >> (b & 31)) & 1) == 1));
  sopc("s_bitcmp0_b64", [](Wave &w, const Instr &in) {
    w.scc = ((readScalar64(w, in.ops[0]) >> (readScalar(w, in.ops[1]) & 63)) &
             1) == 0;
  });
  sopc("s_bitcmp1_b64", [](Wave &w, const Instr &in) {
    w.scc = ((readScalar64(w, in.ops[0]) >> (readScalar(w, in.ops[1]) & 63)) &
             1) == 1;
  });
  // s_cmpk_*: sdst compared with a 16-bit constant.
  sopc("s_cmpk_eq_i32", SOPC(int32_t(a) == int16_t(b)));
  sopc("s_cmpk_lg_i32", SOPC(int32_t(a) != int16_t(b)));
  sopc("s_cmpk_gt_i32", SOPC(int32_t(a) > int16_t(b)));
  sopc("s_cmpk_ge_i32", SOPC(int32_t(a) >= int16_t(b)));
  sopc("s_cmpk_lt_i32", SOPC(int32_t(a) < int16_t(b)));
  sopc("s_cmpk_le_i32", SOPC(int32_t(a) <= int16_t(b)));
  sopc("s_cmpk_eq_u32", SOPC(a == (b & 0xffff)));
  sopc("s_cmpk_lg_u32", SOPC(a != (b & 0xffff)));
  sopc("s_cmpk_gt_u32", SOPC(a > (b & 0xffff)));
  sopc("s_cmpk_ge_u32", SOPC(a >= (b & 0xffff)));
  sopc("s_cmpk_lt_u32", SOPC(a < (b & 0xffff)));
  sopc("s_cmpk_le_u32", SOPC(a <= (b & 0xffff)));

  // SOPP: immediates come from the MCInst.
  auto sopp = [&](llvm::StringRef name, Handler fn, InstrClass cls,
                  uint32_t sub = 0) { add(name, fn, cls, sub, 0, true); };
  sopp("s_branch", sBranch, InstrClass::Branch);
  sopp("s_cbranch_scc0", sCbranch, InstrClass::Branch, 0);
  sopp("s_cbranch_scc1", sCbranch, InstrClass::Branch, 1);
  sopp("s_cbranch_vccz", sCbranch, InstrClass::Branch, 2);
  sopp("s_cbranch_vccnz", sCbranch, InstrClass::Branch, 3);
  sopp("s_cbranch_execz", sCbranch, InstrClass::Branch, 4);
  sopp("s_cbranch_execnz", sCbranch, InstrClass::Branch, 5);
  sopp("s_endpgm", sEndpgm, InstrClass::Other);
  sopp("s_barrier", sBarrier, InstrClass::Barrier);
  sopp("s_waitcnt", sWaitcnt, InstrClass::Wait);
  sopp("s_nop", sNop, InstrClass::Other);
  sopp("s_sleep", sNop, InstrClass::Other);
  sopp("s_setprio", sNop, InstrClass::Other);
  sopp("s_sethalt", sNop, InstrClass::Other);
  sopp("s_sendmsg", sNop, InstrClass::Other);
  sopp("s_sendmsghalt", sNop, InstrClass::Other);
  sopp("s_icache_inv", sNop, InstrClass::Other);
  sopp("s_incperflevel", sNop, InstrClass::Other);
  sopp("s_decperflevel", sNop, InstrClass::Other);
  sopp("s_ttracedata", sNop, InstrClass::Other);
  sopp("s_set_gpr_idx_off", sNop, InstrClass::Other);
  sopp("s_trap", sTrap, InstrClass::Other);
  sopp("s_code_end", sNop, InstrClass::Other);

  // SMEM.
  for (unsigned dwords : {1u, 2u, 4u, 8u, 16u}) {
    std::string suffix = dwords == 1 ? "" : "x" + std::to_string(dwords);
    add("s_load_dword" + suffix, sLoad, InstrClass::Smem, dwords);
    add("s_buffer_load_dword" + suffix, sLoad, InstrClass::Smem,
        dwords | 0x100);
  }
  add("s_dcache_inv", sDcache, InstrClass::Smem, 0, 0);
  add("s_dcache_wb", sDcache, InstrClass::Smem, 0, 0);
  add("s_memtime", sMemtime, InstrClass::Smem);
  add("s_memrealtime", sMemtime, InstrClass::Smem);
}
