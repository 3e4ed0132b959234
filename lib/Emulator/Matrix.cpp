//===- Matrix.cpp - MFMA and accumulation-register instructions ----------===//

#include "hk/Emulator/Mfma.h"

#include "Interp.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <map>
#include <tuple>
#include <type_traits>
#include <vector>

using namespace hk;
using namespace hk::emu;

unsigned hk::emu::mfmaOperandBits(const MfmaInstr &instr, unsigned formatCode) {
  if (instr.a != MfmaElement::F8F6F4)
    return mfmaElementBits(instr.a);
  static const unsigned bits[] = {8, 8, 6, 6, 4};
  return formatCode < 5 ? bits[formatCode] : 8;
}

/// K elements each lane holds.
static unsigned kPerLane(const MfmaInstr &instr) { return instr.kPerLane(); }

static MfmaLocation operandLocation(const MfmaInstr &instr, unsigned row,
                                    unsigned k, unsigned block, unsigned rows,
                                    unsigned formatCode) {
  unsigned kl = kPerLane(instr);
  unsigned bits = mfmaOperandBits(instr, formatCode);
  unsigned e = k % kl;
  unsigned group = k / kl;
  unsigned lane = row + rows * (group * instr.blocks + block);
  return {e * bits / 32, lane, (e * bits) % 32};
}

MfmaLocation hk::emu::mfmaALocation(const MfmaInstr &instr, unsigned i,
                                    unsigned k, unsigned block,
                                    unsigned formatCode) {
  return operandLocation(instr, i, k, block, instr.m, formatCode);
}

MfmaLocation hk::emu::mfmaBLocation(const MfmaInstr &instr, unsigned k,
                                    unsigned j, unsigned block,
                                    unsigned formatCode) {
  return operandLocation(instr, j, k, block, instr.n, formatCode);
}

MfmaLocation hk::emu::mfmaDLocation(const MfmaInstr &instr, unsigned i,
                                    unsigned j, unsigned block) {
  unsigned regScale = instr.acc == MfmaElement::F64 ? 2 : 1;
  if (instr.m == 4) {
    // 4x4 blocks sit side by side across the lanes. f64 results (4
    // blocks, one register pair) put row i in lanes 16i..16i+15, as its A
    // operand puts k; f32 ones (16 blocks) row i in register i.
    if (instr.acc == MfmaElement::F64)
      return {0, j + 4 * block + 16 * i, 0};
    return {i, j + 4 * block, 0};
  }
  unsigned n = instr.n;
  unsigned groups = 64 / n;
  unsigned reg = (i % 4) + 4 * (i / (4 * groups));
  unsigned lane = j + n * ((i / 4) % groups);
  unsigned perBlock = instr.m * instr.n / 64;
  return {regScale * (reg + perBlock * block), lane, 0};
}

/// Reads `bits` bits at `loc` from [reg][lane] registers.
static uint32_t readBits(const uint32_t (*regs)[64], MfmaLocation loc,
                         unsigned bits) {
  uint64_t window = regs[loc.reg][loc.lane];
  if (loc.bitLo + bits > 32)
    window |= uint64_t(regs[loc.reg + 1][loc.lane]) << 32;
  return uint32_t((window >> loc.bitLo) & ((1ull << bits) - 1));
}

static double decodeElement(uint32_t bits, MfmaElement kind, Fp8Format fp8,
                            unsigned formatCode) {
  switch (kind) {
  case MfmaElement::F32:
    return bitsToF32(bits);
  case MfmaElement::XF32:
    // xf32 keeps 10 explicit mantissa bits (round to nearest even).
    return double(bitsToF32((bits + 0xfffu + ((bits >> 13) & 1)) & ~0x1fffu));
  case MfmaElement::F16:
    return f16ToF32(uint16_t(bits));
  case MfmaElement::BF16:
    return bf16ToF32(uint16_t(bits));
  case MfmaElement::I8:
    return double(int8_t(bits));
  case MfmaElement::Fp8:
    return decodeMiniFloat(bits, fp8Format(fp8, false));
  case MfmaElement::Bf8:
    return decodeMiniFloat(bits, fp8Format(fp8, true));
  case MfmaElement::F8F6F4:
    switch (formatCode) {
    case 0:
      return decodeMiniFloat(bits, fp8Format(Fp8Format::OCP, false));
    case 1:
      return decodeMiniFloat(bits, fp8Format(Fp8Format::OCP, true));
    case 2:
      return decodeMiniFloat(bits, fp6Format(false));
    case 3:
      return decodeMiniFloat(bits, fp6Format(true));
    default:
      return decodeMiniFloat(bits, kFp4);
    }
  default:
    return 0;
  }
}

/// The lane whose B data lane `lane` reads under a blgp pattern.
static unsigned blgpSourceLane(unsigned blgp, unsigned lane) {
  switch (blgp) {
  case 1:
    return lane & 31;
  case 2:
    return (lane & 31) + 32;
  case 3:
    return (lane + 16) & 63;
  case 4:
  case 5:
  case 6:
  case 7:
    return (lane & 15) + 16 * (blgp - 4);
  default:
    return lane;
  }
}

namespace {
/// Where the elements of one A or B operand live, in the order the dot
/// products take them, packed as reg | lane << 8 | bitLo << 16.
struct OperandPlan {
  std::vector<uint32_t> locations;
  /// For elements 4, 8, 16 or 32 bits wide (never straddling two
  /// registers): each element's index among the operand's registers read
  /// word by word, (reg * 64 + lane) * (32 / bits) + bitLo / bits, and how
  /// many such slots its registers hold. Empty for fp6 and f64.
  std::vector<uint32_t> slots;
  unsigned slotCount = 0;
  /// When every slot holds exactly one element of the plan (no element
  /// read twice, no slot unread): the element each slot holds, so that
  /// decoding writes each value in place instead of gathering it after.
  std::vector<uint32_t> elementOfSlot;
};
/// Where every A, B and D element of one MFMA configuration lives (D's
/// packed as the operands' are), computed once per configuration.
struct MfmaPlan {
  OperandPlan a, b;
  std::vector<uint32_t> d;
};
} // namespace

static uint32_t packLocation(MfmaLocation loc) {
  return loc.reg | (loc.lane << 8) | (loc.bitLo << 16);
}

static MfmaLocation unpackLocation(uint32_t p) {
  return {p & 0xff, (p >> 8) & 0xff, p >> 16};
}

/// Fills `operand`'s slots (see OperandPlan) for `bits`-bit elements.
static void setSlots(OperandPlan &operand, unsigned bits) {
  if (bits != 4 && bits != 8 && bits != 16 && bits != 32)
    return;
  unsigned perWord = 32 / bits, regs = 0;
  operand.slots.reserve(operand.locations.size());
  for (uint32_t p : operand.locations) {
    MfmaLocation loc = unpackLocation(p);
    operand.slots.push_back((loc.reg * 64 + loc.lane) * perWord +
                            loc.bitLo / bits);
    regs = std::max(regs, loc.reg + 1);
  }
  operand.slotCount = regs * 64 * perWord;
  if (operand.slots.size() != operand.slotCount)
    return;
  constexpr uint32_t kUnset = ~0u;
  std::vector<uint32_t> inverse(operand.slotCount, kUnset);
  for (uint32_t e = 0, n = operand.slots.size(); e < n; ++e) {
    uint32_t &element = inverse[operand.slots[e]];
    if (element != kUnset)
      return;
    element = e;
  }
  operand.elementOfSlot = std::move(inverse);
}

static const MfmaPlan &planFor(const MfmaInstr &instr,
                               const MfmaOperands &ops) {
  bool scaled = instr.a == MfmaElement::F8F6F4;
  unsigned fmtA = scaled ? ops.cbsz : 0, fmtB = scaled ? ops.blgp : 0;
  using Key = std::tuple<const MfmaInstr *, unsigned, unsigned, unsigned,
                         unsigned, unsigned>;
  thread_local std::map<Key, MfmaPlan> plans;
  Key key{&instr, ops.cbsz, ops.abid, ops.blgp, fmtA, fmtB};
  auto it = plans.find(key);
  if (it != plans.end())
    return it->second;
  unsigned M = instr.m, N = instr.n, K = instr.k, B = instr.blocks;
  MfmaPlan plan;
  for (unsigned blk = 0; blk < B; ++blk) {
    // cbsz/abid: blocks in groups of 2^cbsz read A from block abid.
    unsigned srcBlock = scaled || ops.cbsz == 0
                            ? blk
                            : ((blk >> ops.cbsz) << ops.cbsz) |
                                  (ops.abid & ((1u << ops.cbsz) - 1));
    for (unsigned i = 0; i < M; ++i)
      for (unsigned k = 0; k < K; ++k)
        plan.a.locations.push_back(
            packLocation(mfmaALocation(instr, i, k, srcBlock, fmtA)));
    // B is stored row by row: the dot products below add row k of B,
    // times A's element k, to a row of running sums.
    for (unsigned k = 0; k < K; ++k)
      for (unsigned j = 0; j < N; ++j) {
        MfmaLocation loc = mfmaBLocation(instr, k, j, blk, fmtB);
        if (!scaled)
          loc.lane = blgpSourceLane(ops.blgp, loc.lane);
        plan.b.locations.push_back(packLocation(loc));
      }
    for (unsigned i = 0; i < M; ++i)
      for (unsigned j = 0; j < N; ++j)
        plan.d.push_back(packLocation(mfmaDLocation(instr, i, j, blk)));
  }
  setSlots(plan.a, mfmaOperandBits(instr, fmtA));
  setSlots(plan.b, mfmaOperandBits(instr, fmtB));
  return plans.emplace(key, std::move(plan)).first->second;
}

/// The values of every `bits`-bit encoding of one narrow element kind.
static const std::array<double, 256> &
decodeTable(MfmaElement kind, Fp8Format fp8, unsigned format, unsigned bits) {
  using Key = std::tuple<MfmaElement, Fp8Format, unsigned, unsigned>;
  thread_local std::map<Key, std::array<double, 256>> tables;
  auto [it, inserted] = tables.try_emplace(Key{kind, fp8, format, bits});
  if (inserted)
    for (unsigned v = 0; v < (1u << bits); ++v)
      it->second[v] = decodeElement(v, kind, fp8, format);
  return it->second;
}

/// Decodes every element of one operand, in plan order, into `out`.
static void decodeOperand(MfmaElement kind, Fp8Format fp8, unsigned format,
                          unsigned bits, const uint32_t (*regs)[64],
                          const OperandPlan &plan, const uint32_t *scale,
                          unsigned scaleByte, double *out) {
  const std::vector<uint32_t> &locations = plan.locations;
  const std::vector<uint32_t> &slots = plan.slots;
  unsigned slotCount = plan.slotCount;
  size_t n = locations.size();
  if (kind == MfmaElement::F64) {
    for (size_t e = 0; e < n; ++e) {
      MfmaLocation loc = unpackLocation(locations[e]);
      out[e] = bitsToF64(regs[loc.reg][loc.lane] |
                         (uint64_t(regs[loc.reg + 1][loc.lane]) << 32));
    }
    return;
  }
  // Narrow kinds decode through a table of their at most 256 values, built
  // once per element kind and format.
  bool tabulated = bits <= 8;
  const double *table =
      tabulated ? decodeTable(kind, fp8, format, bits).data() : nullptr;
  // A scaled operand's elements multiply by their lane's scale.
  double laneScale[64];
  if (scale)
    for (unsigned lane = 0; lane < 64; ++lane)
      laneScale[lane] = e8m0ToDouble(uint8_t(scale[lane] >> (8 * scaleByte)));
  // One loop per decoding, so that none tests the element kind per element.
  // Where elements never straddle registers, the operand's registers are
  // decoded word by word, in order (each element once, however often the
  // plan reads it): each value goes straight to its element where the plan
  // gives every slot one, else to a slot array the plan gathers from.
  thread_local std::vector<double> decoded;
  auto decodeAll = [&](auto decode) {
    if (!slots.empty()) {
      // The elements of each word, unrolled for each width, to `store`.
      auto decodeWords = [&](auto width, auto store) {
        constexpr unsigned w = decltype(width)::value, perWord = 32 / w;
        constexpr uint32_t mask = w == 32 ? ~0u : (1u << w) - 1;
        for (unsigned word = 0, e = slotCount / perWord; word < e; ++word) {
          unsigned lane = word % 64;
          uint32_t bitsOf = regs[word / 64][lane];
          double factor = scale ? laneScale[lane] : 1.0;
          for (unsigned s = 0; s < perWord; ++s)
            store(decode((bitsOf >> (s * w)) & mask) * factor);
        }
      };
      auto decodeWidth = [&](auto store) {
        switch (bits) {
        case 4:
          return decodeWords(std::integral_constant<unsigned, 4>(), store);
        case 8:
          return decodeWords(std::integral_constant<unsigned, 8>(), store);
        case 16:
          return decodeWords(std::integral_constant<unsigned, 16>(), store);
        default:
          assert(bits == 32 && "slots exist for widths 4, 8, 16 and 32");
          return decodeWords(std::integral_constant<unsigned, 32>(), store);
        }
      };
      if (!plan.elementOfSlot.empty()) {
        const uint32_t *element = plan.elementOfSlot.data();
        decodeWidth([&](double value) { out[*element++] = value; });
        return;
      }
      decoded.resize(slotCount);
      double *slot = decoded.data();
      decodeWidth([&](double value) { *slot++ = value; });
      for (size_t e = 0; e < n; ++e)
        out[e] = decoded[slots[e]];
      return;
    }
    for (size_t e = 0; e < n; ++e) {
      MfmaLocation loc = unpackLocation(locations[e]);
      double v = decode(readBits(regs, loc, bits));
      out[e] = scale ? v * laneScale[loc.lane] : v;
    }
  };
  if (tabulated)
    decodeAll([&](uint32_t raw) { return table[raw]; });
  else if (kind == MfmaElement::BF16)
    decodeAll([](uint32_t raw) { return double(bitsToF32(raw << 16)); });
  else if (kind == MfmaElement::F32)
    decodeAll([](uint32_t raw) { return double(bitsToF32(raw)); });
  else
    decodeAll(
        [&](uint32_t raw) { return decodeElement(raw, kind, fp8, format); });
}

/// sums[i * n + j] = sum over e of a[i * k + e] * b[e * n + j] for the m
/// rows of a, each added in e order.
static void addProducts(const double *a, const double *b, unsigned m,
                        unsigned k, unsigned n, double *sums) {
  std::fill(sums, sums + size_t(m) * n, 0.0);
  for (unsigned i = 0; i < m; ++i)
    for (unsigned e = 0; e < k; ++e)
      for (unsigned j = 0; j < n; ++j)
        sums[size_t(i) * n + j] += a[size_t(i) * k + e] * b[size_t(e) * n + j];
}

/// The same for m a multiple of 4 and n of 16, in tiles of 4 rows by 16
/// columns: each row of b is loaded once for four rows of a, and the 64
/// running sums are independent chains that fill the host's vector units
/// (AVX-512 holds them in registers). Built for the widest vector unit the
/// host has; products are never contracted into fused multiply-adds, so
/// every build rounds alike.
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
addProducts4x16(const double *a, const double *b, unsigned m, unsigned k,
                unsigned n, double *sums) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  for (unsigned row = 0; row < m; row += 4)
    for (unsigned first = 0; first < n; first += 16) {
      double acc[4][16] = {};
      const double *a0 = a + size_t(row) * k;
      for (unsigned e = 0; e < k; ++e) {
        const double *bRow = b + size_t(e) * n + first;
        for (unsigned r = 0; r < 4; ++r) {
          double x = a0[size_t(r) * k + e];
          for (unsigned j = 0; j < 16; ++j)
            acc[r][j] += x * bRow[j];
        }
      }
      for (unsigned r = 0; r < 4; ++r)
        std::copy(acc[r], acc[r] + 16, sums + size_t(row + r) * n + first);
    }
}

void hk::emu::executeMfma(const MfmaInstr &instr, Fp8Format fp8,
                          const MfmaOperands &ops) {
  unsigned M = instr.m, N = instr.n, K = instr.k, B = instr.blocks;
  bool scaled = instr.a == MfmaElement::F8F6F4;
  unsigned fmtA = scaled ? ops.cbsz : 0, fmtB = scaled ? ops.blgp : 0;
  const MfmaPlan &plan = planFor(instr, ops);
  thread_local std::vector<double> a, b;
  a.resize(plan.a.locations.size());
  b.resize(plan.b.locations.size());
  decodeOperand(instr.a, fp8, fmtA, mfmaOperandBits(instr, fmtA), ops.a, plan.a,
                scaled ? ops.scaleA : nullptr, ops.scaleByteA, a.data());
  decodeOperand(instr.b, fp8, fmtB, mfmaOperandBits(instr, fmtB), ops.b, plan.b,
                scaled ? ops.scaleB : nullptr, ops.scaleByteB, b.data());
  // Results go to a temporary first: D may alias C.
  unsigned accRegs = instr.accRegs() * (instr.acc == MfmaElement::F64 ? 2 : 1);
  uint32_t out[32][64];
  assert(N <= 64 && "an MFMA has at most 64 columns");
  assert(M <= 32 && "an MFMA has at most 32 rows per block");
  for (unsigned blk = 0; blk < B; ++blk) {
    const double *aBlock = &a[size_t(blk) * M * K];
    const double *bBlock = &b[size_t(blk) * K * N]; // Row k at bBlock + k * N.
    const uint32_t *dBlock = &plan.d[size_t(blk) * M * N];
    if (instr.acc == MfmaElement::I32) {
      for (unsigned i = 0; i < M; ++i)
        for (unsigned j = 0; j < N; ++j) {
          uint32_t d = dBlock[i * N + j];
          unsigned reg = d & 0xff, lane = (d >> 8) & 0xff;
          int64_t sum = int32_t(ops.c[reg][lane]);
          for (unsigned k = 0; k < K; ++k)
            sum += int64_t(aBlock[i * K + k]) * int64_t(bBlock[k * N + j]);
          out[reg][lane] = uint32_t(sum);
        }
      continue;
    }
    if (instr.acc == MfmaElement::F64) {
      for (unsigned i = 0; i < M; ++i)
        for (unsigned j = 0; j < N; ++j) {
          uint32_t d = dBlock[i * N + j];
          unsigned reg = d & 0xff, lane = (d >> 8) & 0xff;
          double sum = bitsToF64(ops.c[reg][lane] |
                                 (uint64_t(ops.c[reg + 1][lane]) << 32));
          for (unsigned k = 0; k < K; ++k)
            sum = std::fma(aBlock[i * K + k], bBlock[k * N + j], sum);
          uint64_t bits = f64ToBits(sum);
          out[reg][lane] = uint32_t(bits);
          out[reg + 1][lane] = uint32_t(bits >> 32);
        }
      continue;
    }
    // Every element's sum is added in k order, a product at a time, so
    // computing many at once (where the compiler vectorizes) gives the
    // bits one at a time would.
    double sums[32 * 64];
    if (M % 4 == 0 && N % 16 == 0)
      addProducts4x16(aBlock, bBlock, M, K, N, sums);
    else
      addProducts(aBlock, bBlock, M, K, N, sums);
    for (unsigned e = 0; e < M * N; ++e) {
      unsigned reg = dBlock[e] & 0xff, lane = (dBlock[e] >> 8) & 0xff;
      out[reg][lane] = f32ToBits(float(sums[e] + bitsToF32(ops.c[reg][lane])));
    }
  }
  for (unsigned r = 0; r < accRegs; ++r)
    std::memcpy(ops.d[r], out[r], sizeof(out[r]));
}

// Handlers
// -------------------------------------------------------------------------

/// Copies `count` registers of `op` for all lanes (constants broadcast).
static void gatherRegisters(const Wave &w, const Operand &op, unsigned count,
                            uint32_t (*out)[64]) {
  for (unsigned r = 0; r < count; ++r) {
    if (op.kind == OpKind::Vgpr) {
      std::memcpy(out[r], w.v[vgprIndex(op, r)], sizeof(out[r]));
      continue;
    }
    uint32_t value = readScalar(w, op, op.kind == OpKind::Imm ? 0 : r);
    for (unsigned l = 0; l < 64; ++l)
      out[r][l] = value;
  }
}

/// The `count` registers of `op` for all lanes: the wave's own VGPRs where
/// they do not wrap around, else a copy in `scratch` (constants broadcast).
static const uint32_t (*operandRegisters(Wave &w, const Operand &op,
                                         unsigned count,
                                         uint32_t (*scratch)[64]))[64] {
  if (op.kind == OpKind::Vgpr && op.reg + count <= kNumVgprs)
    return &w.v[vgprIndex(op, 0)];
  gatherRegisters(w, op, count, scratch);
  return scratch;
}

static void vMfma(Wave &w, const Instr &in) {
  const MfmaInstr &instr = *in.mfma;
  bool scaled = instr.a == MfmaElement::F8F6F4;
  unsigned bitsA = mfmaOperandBits(instr, scaled ? in.cbsz : 0);
  unsigned bitsB = mfmaOperandBits(instr, scaled ? in.blgp : 0);
  unsigned regsA = std::max(1u, instr.kPerLane() * bitsA / 32);
  unsigned regsB = std::max(1u, instr.kPerLane() * bitsB / 32);
  if (instr.a == MfmaElement::F64)
    regsA = regsB = 2 * instr.kPerLane();
  unsigned regsC = instr.accRegs() * (instr.acc == MfmaElement::F64 ? 2 : 1);
  if (in.ops[1].kind == OpKind::Vgpr && in.ops[1].count < regsA) {
    w.fault(in, "operand A has " + llvm::Twine(in.ops[1].count) +
                    " registers, the instruction reads " + llvm::Twine(regsA));
    return;
  }
  static thread_local uint32_t a[16][64], b[16][64], c[32][64], d[32][64];
  MfmaOperands ops;
  ops.a = operandRegisters(w, in.ops[1], regsA, a);
  ops.b = operandRegisters(w, in.ops[2], regsB, b);
  ops.c = operandRegisters(w, in.ops[3], regsC, c);
  // executeMfma writes D once it has read A, B and C, so D may be the
  // destination registers themselves when they do not wrap around.
  bool directD = in.ops[0].reg + regsC <= kNumVgprs;
  ops.d = directD ? &w.v[vgprIndex(in.ops[0], 0)] : d;
  ops.cbsz = in.cbsz;
  ops.abid = in.abid;
  ops.blgp = in.blgp;
  uint32_t scaleA[64], scaleB[64];
  if (scaled && in.numOps >= 6) {
    uint32_t t[2];
    SrcView sa = viewOf(w, in.ops[4], 0, t[0]);
    SrcView sb = viewOf(w, in.ops[5], 0, t[1]);
    for (unsigned l = 0; l < 64; ++l) {
      scaleA[l] = sa[l];
      scaleB[l] = sb[l];
    }
    ops.scaleA = scaleA;
    ops.scaleB = scaleB;
    ops.scaleByteA = (in.opSel & 1) | (((in.opSelHi & 1)) << 1);
    ops.scaleByteB = ((in.opSel >> 1) & 1) | (((in.opSelHi >> 1) & 1) << 1);
  }
  executeMfma(instr, w.wg->launch->chip->fp8Format, ops);
  if (!directD)
    for (unsigned r = 0; r < regsC; ++r)
      std::memcpy(w.v[vgprIndex(in.ops[0], r)], d[r], sizeof(d[r]));
  w.wg->counters.mfmaCount++;
  w.wg->counters.mfmaFlops += instr.flops();
}

static void vAccvgprCopy(Wave &w, const Instr &in) {
  uint32_t tmp;
  SrcView src = viewOf(w, in.ops[1], 0, tmp);
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(w.exec(), [&](unsigned l) { dst[l] = src[l]; });
}

llvm::ArrayRef<Binding> hk::emu::matrixBindings() {
  static const Binding bindings[] = {
#define HK_MAI(name, unit, dsts, sem) {#name, sem},
#include "hk/ISA/Instructions/MAI.def"
  };
  return bindings;
}
