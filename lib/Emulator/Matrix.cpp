//===- Matrix.cpp - MFMA and accumulation-register instructions ----------===//

#include "hk/Emulator/Mfma.h"

#include "Interp.h"

#include <cmath>
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
    // 4x4 blocks sit side by side across the lanes.
    return {regScale * i, j + 4 * block, 0};
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

void hk::emu::executeMfma(const MfmaInstr &instr, Fp8Format fp8,
                          const MfmaOperands &ops) {
  unsigned M = instr.m, N = instr.n, K = instr.k, B = instr.blocks;
  bool scaled = instr.a == MfmaElement::F8F6F4;
  unsigned fmtA = scaled ? ops.cbsz : 0, fmtB = scaled ? ops.blgp : 0;
  unsigned bitsA = mfmaOperandBits(instr, fmtA);
  unsigned bitsB = mfmaOperandBits(instr, fmtB);
  bool f64Elements = instr.a == MfmaElement::F64;
  std::vector<double> a(size_t(B) * M * K), b(size_t(B) * K * N);
  for (unsigned blk = 0; blk < B; ++blk) {
    // cbsz/abid: blocks in groups of 2^cbsz read A from block abid.
    unsigned srcBlock = scaled || ops.cbsz == 0
                            ? blk
                            : ((blk >> ops.cbsz) << ops.cbsz) |
                                  (ops.abid & ((1u << ops.cbsz) - 1));
    for (unsigned i = 0; i < M; ++i)
      for (unsigned k = 0; k < K; ++k) {
        MfmaLocation loc = mfmaALocation(instr, i, k, srcBlock, fmtA);
        double v;
        if (f64Elements)
          v = bitsToF64(ops.a[loc.reg][loc.lane] |
                        (uint64_t(ops.a[loc.reg + 1][loc.lane]) << 32));
        else
          v = decodeElement(readBits(ops.a, loc, bitsA), instr.a, fp8, fmtA);
        if (scaled && ops.scaleA)
          v *= e8m0ToDouble(
              uint8_t(ops.scaleA[loc.lane] >> (8 * ops.scaleByteA)));
        a[(size_t(blk) * M + i) * K + k] = v;
      }
    for (unsigned k = 0; k < K; ++k)
      for (unsigned j = 0; j < N; ++j) {
        MfmaLocation loc = mfmaBLocation(instr, k, j, blk, fmtB);
        if (!scaled)
          loc.lane = blgpSourceLane(ops.blgp, loc.lane);
        double v;
        if (f64Elements)
          v = bitsToF64(ops.b[loc.reg][loc.lane] |
                        (uint64_t(ops.b[loc.reg + 1][loc.lane]) << 32));
        else
          v = decodeElement(readBits(ops.b, loc, bitsB), instr.b, fp8, fmtB);
        if (scaled && ops.scaleB)
          v *= e8m0ToDouble(
              uint8_t(ops.scaleB[loc.lane] >> (8 * ops.scaleByteB)));
        b[(size_t(blk) * K + k) * N + j] = v;
      }
  }
  // Results go to a temporary first: D may alias A, B or C.
  unsigned accRegs = instr.accRegs() * (instr.acc == MfmaElement::F64 ? 2 : 1);
  std::vector<uint32_t> out(size_t(accRegs) * 64);
  for (unsigned blk = 0; blk < B; ++blk)
    for (unsigned i = 0; i < M; ++i)
      for (unsigned j = 0; j < N; ++j) {
        MfmaLocation loc = mfmaDLocation(instr, i, j, blk);
        const double *ar = &a[(size_t(blk) * M + i) * K];
        const double *bc = &b[size_t(blk) * K * N + j];
        if (instr.acc == MfmaElement::I32) {
          int64_t sum = int32_t(ops.c[loc.reg][loc.lane]);
          for (unsigned k = 0; k < K; ++k)
            sum += int64_t(ar[k]) * int64_t(bc[size_t(k) * N]);
          out[size_t(loc.reg) * 64 + loc.lane] = uint32_t(sum);
          continue;
        }
        if (instr.acc == MfmaElement::F64) {
          double sum =
              bitsToF64(ops.c[loc.reg][loc.lane] |
                        (uint64_t(ops.c[loc.reg + 1][loc.lane]) << 32));
          for (unsigned k = 0; k < K; ++k)
            sum = std::fma(ar[k], bc[size_t(k) * N], sum);
          uint64_t bits = f64ToBits(sum);
          out[size_t(loc.reg) * 64 + loc.lane] = uint32_t(bits);
          out[size_t(loc.reg + 1) * 64 + loc.lane] = uint32_t(bits >> 32);
          continue;
        }
        double sum = 0;
        for (unsigned k = 0; k < K; ++k)
          sum += ar[k] * bc[size_t(k) * N];
        sum += bitsToF32(ops.c[loc.reg][loc.lane]);
        out[size_t(loc.reg) * 64 + loc.lane] = f32ToBits(float(sum));
      }
  for (unsigned r = 0; r < accRegs; ++r)
    for (unsigned l = 0; l < 64; ++l)
      ops.d[r][l] = out[size_t(r) * 64 + l];
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
  gatherRegisters(w, in.ops[1], regsA, a);
  gatherRegisters(w, in.ops[2], regsB, b);
  gatherRegisters(w, in.ops[3], regsC, c);
  MfmaOperands ops;
  ops.a = a;
  ops.b = b;
  ops.c = c;
  ops.d = d;
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

void hk::emu::registerMatrixHandlers(HandlerTable &t) {
  HandlerEntry copy;
  copy.fn = vAccvgprCopy;
  copy.cls = InstrClass::Valu;
  t["v_accvgpr_read_b32"] = copy;
  t["v_accvgpr_write_b32"] = copy;
  t["v_accvgpr_mov_b32"] = copy;
  t["v_accvgpr_read"] = copy;
  t["v_accvgpr_write"] = copy;
  HandlerEntry mfma;
  mfma.fn = vMfma;
  mfma.cls = InstrClass::Mfma;
  for (const ChipInfo &chip : ChipInfo::all())
    for (const MfmaInstr &instr : chip.mfmaInstrs) {
      t[instr.mnemonic] = mfma;
      // gfx950's unscaled spelling of the f8f6f4 instructions.
      if (instr.scaled)
        t[llvm::StringRef(instr.mnemonic).str().replace(0, 12, "v_mfma")] =
            mfma;
    }
}
