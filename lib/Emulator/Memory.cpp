//===- Memory.cpp - LDS, buffer, global and flat memory instructions -----===//

#include "Interp.h"

#include <algorithm>
#include <cstring>
#include <optional>

using namespace hk;
using namespace hk::emu;

using isa::AtomicOp;
using isa::Extend;
using isa::MemoryDesc;

static const MemoryDesc &memOf(const Instr &in) { return in.desc->mem; }
static bool isFlat(const Instr &in) {
  return memOf(in).space == isa::Space::Flat;
}

/// For flat instructions, the scratch offset a flat address maps to, if it
/// lies in the private aperture.
static std::optional<uint32_t> flatScratchAddress(const Instr &in,
                                                  uint64_t address) {
  if (!isFlat(in) || (address >> 32) != (kPrivateAperture >> 32))
    return std::nullopt;
  return uint32_t(address);
}

/// For flat instructions, the LDS address a flat address maps to, if it lies
/// in the shared aperture.
static std::optional<uint32_t> flatLdsAddress(const Instr &in,
                                              uint64_t address) {
  if (!isFlat(in) || (address >> 32) != (kSharedAperture >> 32))
    return std::nullopt;
  return uint32_t(address);
}

/// Writes `bytes` loaded bytes into the destination VGPRs of one lane.
static void writeLoaded(Wave &w, const Operand &dst, unsigned lane,
                        const uint8_t *data, unsigned bytes, Extend extend) {
  if (bytes >= 4) {
    for (unsigned i = 0; i < bytes / 4; ++i)
      std::memcpy(&w.v[vgprIndex(dst, i)][lane], data + 4 * i, 4);
    return;
  }
  uint32_t value = 0;
  std::memcpy(&value, data, bytes);
  if (isa::isSignExtending(extend))
    value = bytes == 1 ? uint32_t(int32_t(int8_t(value)))
                       : uint32_t(int32_t(int16_t(value)));
  uint32_t &reg = w.v[vgprIndex(dst, 0)][lane];
  if (!isa::isD16(extend))
    reg = value;
  else if (isa::isD16High(extend))
    reg = (reg & 0xffffu) | (value << 16);
  else
    reg = (reg & 0xffff0000u) | (value & 0xffffu);
}

/// Reads the `bytes` to store from the data VGPRs of one lane.
static void readStored(const Wave &w, const Operand &data, unsigned lane,
                       uint8_t *out, unsigned bytes, Extend extend) {
  uint32_t words[4] = {0, 0, 0, 0};
  for (unsigned i = 0; i < std::max(1u, bytes / 4) && i < 4; ++i)
    words[i] = w.v[vgprIndex(data, i)][lane];
  if (isa::isD16High(extend))
    words[0] >>= 16;
  std::memcpy(out, words, bytes);
}

static unsigned dwordsOf(unsigned bytes) { return std::max(1u, bytes / 4); }

// LDS
// ------------------------------------------------------------------------------

static void ldsBookkeeping(Wave &w, const Instr &in, PendingOp *op,
                           uint32_t address, unsigned size, LdsAccess access,
                           int lane) {
  bool write = access != LdsAccess::Read;
  noteLdsAccess(w, in.pc, address, size, access, lane);
  if (op) {
    op->ldsWrite = write;
    op->ldsAtomic = access == LdsAccess::Atomic;
    if (!op->ldsRanges.empty() &&
        op->ldsRanges.back().first + op->ldsRanges.back().second == address)
      op->ldsRanges.back().second += size;
    else
      op->ldsRanges.push_back({address, size});
  }
  if (!write && w.wg->dmaOutstanding && w.wg->launch->sanitize.waitcnt)
    checkDmaPendingRead(w, in, address, size, lane);
}

/// ds_read_* vdst, vaddr offset:N
static void dsRead(Wave &w, const Instr &in) {
  unsigned bytes = memOf(in).bytes;
  const Operand &dst = in.ops[0];
  uint32_t tmp;
  SrcView addr = viewOf(w, in.ops[1], 0, tmp);
  uint64_t exec = w.exec();
  uint32_t addresses[kWaveSize];
  PendingOp *op = issueOp(w, in, WaitCounter::Lds);
  forEachLane(exec, [&](unsigned l) {
    uint32_t a = addr[l] + uint32_t(in.offset);
    addresses[l] = a;
    ldsBookkeeping(w, in, op, a, bytes, LdsAccess::Read, int(l));
    const uint8_t *src = ldsAccess(w, in, a, bytes, int(l), false);
    uint8_t zero[16] = {};
    writeLoaded(w, dst, l, src ? src : zero, bytes, memOf(in).extend);
  });
  countLdsBankConflicts(w, in, addresses, nullptr, exec, bytes, false);
  w.wg->counters.ldsReadBytes += uint64_t(__builtin_popcountll(exec)) * bytes;
  if (op)
    markPendingDst(w, *op, dst, dwordsOf(bytes));
}

/// ds_write_* vaddr, vdata offset:N
static void dsWrite(Wave &w, const Instr &in) {
  unsigned bytes = memOf(in).bytes;
  uint32_t tmp;
  SrcView addr = viewOf(w, in.ops[0], 0, tmp);
  uint64_t exec = w.exec();
  uint32_t addresses[kWaveSize];
  PendingOp *op = issueOp(w, in, WaitCounter::Lds);
  forEachLane(exec, [&](unsigned l) {
    uint32_t a = addr[l] + uint32_t(in.offset);
    addresses[l] = a;
    ldsBookkeeping(w, in, op, a, bytes, LdsAccess::Write, int(l));
    uint8_t *dst = ldsAccess(w, in, a, bytes, int(l), true);
    if (dst)
      readStored(w, in.ops[1], l, dst, bytes, memOf(in).extend);
  });
  countLdsBankConflicts(w, in, addresses, nullptr, exec, bytes, true);
  w.wg->counters.ldsWriteBytes += uint64_t(__builtin_popcountll(exec)) * bytes;
}

/// ds_read2[st64]_b32/b64 vdst, vaddr offset0:A offset1:B
static void dsRead2(Wave &w, const Instr &in) {
  unsigned bytes = memOf(in).bytes;
  unsigned scale = bytes * (memOf(in).stride64 ? 64 : 1);
  const Operand &dst = in.ops[0];
  uint32_t tmp;
  SrcView addr = viewOf(w, in.ops[1], 0, tmp);
  uint64_t exec = w.exec();
  uint32_t a0[kWaveSize], a1[kWaveSize];
  PendingOp *op = issueOp(w, in, WaitCounter::Lds);
  unsigned words = bytes / 4;
  forEachLane(exec, [&](unsigned l) {
    a0[l] = addr[l] + in.offset0 * scale;
    a1[l] = addr[l] + in.offset1 * scale;
    for (unsigned half = 0; half < 2; ++half) {
      uint32_t a = half ? a1[l] : a0[l];
      ldsBookkeeping(w, in, op, a, bytes, LdsAccess::Read, int(l));
      const uint8_t *src = ldsAccess(w, in, a, bytes, int(l), false);
      for (unsigned i = 0; i < words; ++i) {
        uint32_t v = 0;
        if (src)
          std::memcpy(&v, src + 4 * i, 4);
        w.v[vgprIndex(dst, half * words + i)][l] = v;
      }
    }
  });
  countLdsBankConflicts(w, in, a0, a1, exec, bytes, false);
  w.wg->counters.ldsReadBytes +=
      uint64_t(__builtin_popcountll(exec)) * bytes * 2;
  if (op)
    markPendingDst(w, *op, dst, 2 * words);
}

/// ds_write2[st64]_b32/b64 vaddr, vdata0, vdata1 offset0:A offset1:B
static void dsWrite2(Wave &w, const Instr &in) {
  unsigned bytes = memOf(in).bytes;
  unsigned scale = bytes * (memOf(in).stride64 ? 64 : 1);
  uint32_t tmp;
  SrcView addr = viewOf(w, in.ops[0], 0, tmp);
  uint64_t exec = w.exec();
  uint32_t a0[kWaveSize], a1[kWaveSize];
  PendingOp *op = issueOp(w, in, WaitCounter::Lds);
  forEachLane(exec, [&](unsigned l) {
    a0[l] = addr[l] + in.offset0 * scale;
    a1[l] = addr[l] + in.offset1 * scale;
    for (unsigned half = 0; half < 2; ++half) {
      uint32_t a = half ? a1[l] : a0[l];
      ldsBookkeeping(w, in, op, a, bytes, LdsAccess::Write, int(l));
      uint8_t *dst = ldsAccess(w, in, a, bytes, int(l), true);
      if (dst)
        readStored(w, in.ops[1 + half], l, dst, bytes, Extend::Zero);
    }
  });
  countLdsBankConflicts(w, in, a0, a1, exec, bytes, true);
  w.wg->counters.ldsWriteBytes +=
      uint64_t(__builtin_popcountll(exec)) * bytes * 2;
}

/// The new memory value of an atomic `op` on `old` with `data` (and, for
/// compare-and-swap, `compare`), on 32- or 64-bit words.
template <typename T>
static T applyAtomic(AtomicOp op, T old, T data, T compare) {
  using S = std::make_signed_t<T>;
  switch (op) {
  case AtomicOp::Add:
    return old + data;
  case AtomicOp::Sub:
    return old - data;
  case AtomicOp::RSub:
    return data - old;
  case AtomicOp::SMin:
    return T(std::min(S(old), S(data)));
  case AtomicOp::SMax:
    return T(std::max(S(old), S(data)));
  case AtomicOp::UMin:
    return std::min(old, data);
  case AtomicOp::UMax:
    return std::max(old, data);
  case AtomicOp::And:
    return old & data;
  case AtomicOp::Or:
    return old | data;
  case AtomicOp::Xor:
    return old ^ data;
  case AtomicOp::Swap:
    return data;
  case AtomicOp::Inc:
    return old >= data ? 0 : old + 1;
  case AtomicOp::Dec:
    return (old == 0 || old > data) ? data : old - 1;
  case AtomicOp::CmpSwap:
    return old == compare ? data : old;
  default:
    break;
  }
  if constexpr (sizeof(T) == 4) {
    float a = bitsToF32(old), b = bitsToF32(data);
    switch (op) {
    case AtomicOp::AddF32:
      return f32ToBits(a + b);
    case AtomicOp::MinF32:
      return f32ToBits(std::isnan(a) ? b : std::isnan(b) ? a : std::fmin(a, b));
    case AtomicOp::MaxF32:
      return f32ToBits(std::isnan(a) ? b : std::isnan(b) ? a : std::fmax(a, b));
    case AtomicOp::PkAddF16:
      return uint32_t(
                 f32ToF16(f16ToF32(uint16_t(old)) + f16ToF32(uint16_t(data)))) |
             (uint32_t(f32ToF16(f16ToF32(uint16_t(old >> 16)) +
                                f16ToF32(uint16_t(data >> 16))))
              << 16);
    case AtomicOp::PkAddBf16:
      return uint32_t(f32ToBf16(bf16ToF32(uint16_t(old)) +
                                bf16ToF32(uint16_t(data)))) |
             (uint32_t(f32ToBf16(bf16ToF32(uint16_t(old >> 16)) +
                                 bf16ToF32(uint16_t(data >> 16))))
              << 16);
    default:
      break;
    }
  } else {
    double a = bitsToF64(old), b = bitsToF64(data);
    switch (op) {
    case AtomicOp::AddF64:
      return f64ToBits(a + b);
    case AtomicOp::MinF64:
      return f64ToBits(std::isnan(a) ? b : std::isnan(b) ? a : std::fmin(a, b));
    case AtomicOp::MaxF64:
      return f64ToBits(std::isnan(a) ? b : std::isnan(b) ? a : std::fmax(a, b));
    default:
      break;
    }
  }
  return old;
}

/// applyAtomic on a 4- or 8-byte word held in a uint64_t.
static uint64_t applyAtomicBytes(AtomicOp op, unsigned bytes, uint64_t old,
                                 uint64_t data, uint64_t compare) {
  if (bytes == 8)
    return applyAtomic<uint64_t>(op, old, data, compare);
  return applyAtomic<uint32_t>(op, uint32_t(old), uint32_t(data),
                               uint32_t(compare));
}

/// The `words` dwords of operand `op` in lane `l`, low first.
static uint64_t laneValue(const Wave &w, const Operand &op, unsigned l,
                          unsigned words) {
  uint32_t t[2] = {0, 0};
  uint64_t value = 0;
  for (unsigned i = 0; i < words; ++i)
    value |= uint64_t(viewOf(w, op, i, t[i])[l]) << (32 * i);
  return value;
}

/// ds_<op>[_rtn]_{u32,i32,f32,b32,u64,i64,f64,b64}: [vdst,] vaddr, vdata
/// [, vdata1]; 8-byte forms take register pairs.
static void dsAtomic(Wave &w, const Instr &in) {
  bool returns = memOf(in).returnsData;
  AtomicOp op = memOf(in).atomic;
  unsigned bytes = memOf(in).bytes, words = bytes / 4;
  unsigned base = returns ? 1 : 0;
  uint32_t t = 0;
  SrcView addr = viewOf(w, in.ops[base], 0, t);
  const Operand &data0 = in.ops[base + 1];
  bool twoData = in.numOps > base + 2;
  uint64_t exec = w.exec();
  uint32_t addresses[kWaveSize];
  PendingOp *pending = issueOp(w, in, WaitCounter::Lds);
  forEachLane(exec, [&](unsigned l) {
    uint32_t a = addr[l] + uint32_t(in.offset);
    addresses[l] = a;
    ldsBookkeeping(w, in, pending, a, bytes, LdsAccess::Atomic, int(l));
    uint8_t *p = ldsAccess(w, in, a, bytes, int(l), true);
    uint64_t old = 0;
    if (p) {
      std::memcpy(&old, p, bytes);
      uint64_t first = laneValue(w, data0, l, words);
      uint64_t second = twoData ? laneValue(w, in.ops[base + 2], l, words) : 0;
      // ds_cmpst: data0 is the compare value, data1 the new value.
      bool cmp = op == AtomicOp::CmpSwap;
      uint64_t value = applyAtomicBytes(op, bytes, old, cmp ? second : first,
                                        cmp ? first : 0);
      std::memcpy(p, &value, bytes);
    }
    if (returns)
      for (unsigned i = 0; i < words; ++i)
        w.v[vgprIndex(in.ops[0], i)][l] = uint32_t(old >> (32 * i));
  });
  countLdsBankConflicts(w, in, addresses, nullptr, exec, bytes, true);
  uint64_t moved = uint64_t(__builtin_popcountll(exec)) * bytes;
  w.wg->counters.ldsReadBytes += moved;
  w.wg->counters.ldsWriteBytes += moved;
  if (pending && returns)
    markPendingDst(w, *pending, in.ops[0], words);
}

/// ds_bpermute_b32 vdst, vaddr, vdata: lane L reads vdata of lane addr/4.
/// ds_permute_b32: lane L writes its vdata to lane addr/4.
template <bool Backward> static void dsPermute(Wave &w, const Instr &in) {
  constexpr bool backward = Backward;
  uint32_t t[2];
  SrcView addr = viewOf(w, in.ops[1], 0, t[0]);
  SrcView data = viewOf(w, in.ops[2], 0, t[1]);
  uint64_t exec = w.exec();
  uint32_t result[kWaveSize] = {};
  forEachLane(exec, [&](unsigned l) {
    unsigned other = ((addr[l] + uint32_t(in.offset)) / 4) & 63;
    if (backward)
      result[l] = (exec >> other) & 1 ? data[other] : 0;
    else
      result[other] = data[l];
  });
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(exec, [&](unsigned l) { dst[l] = result[l]; });
  if (PendingOp *op = issueOp(w, in, WaitCounter::Lds))
    markPendingDst(w, *op, in.ops[0], 1);
}

/// ds_swizzle_b32 vdst, vaddr offset:swizzle(...)
static void dsSwizzle(Wave &w, const Instr &in) {
  uint32_t t;
  SrcView data = viewOf(w, in.ops[1], 0, t);
  uint64_t exec = w.exec();
  uint32_t pattern = uint32_t(in.offset) & 0xffff;
  uint32_t result[kWaveSize];
  for (unsigned l = 0; l < kWaveSize; ++l) {
    unsigned from;
    if (pattern & 0x8000) {
      from = (l & ~3u) | ((pattern >> (2 * (l & 3))) & 3);
    } else {
      unsigned andMask = pattern & 0x1f, orMask = (pattern >> 5) & 0x1f,
               xorMask = (pattern >> 10) & 0x1f;
      from = (l & 0x20) | ((((l & 0x1f) & andMask) | orMask) ^ xorMask);
    }
    result[l] = (exec >> from) & 1 ? data[from] : 0;
  }
  uint32_t *dst = w.v[vgprIndex(in.ops[0], 0)];
  forEachLane(exec, [&](unsigned l) { dst[l] = result[l]; });
  if (PendingOp *op = issueOp(w, in, WaitCounter::Lds))
    markPendingDst(w, *op, in.ops[0], 1);
}

/// Bits [bit, bit + count) of the little-endian byte string `bytes`, which
/// has at least two readable bytes past the field's last (count <= 16).
static uint32_t readBitField(const uint8_t *bytes, unsigned bit,
                             unsigned count) {
  const uint8_t *p = bytes + bit / 8;
  uint32_t window = p[0] | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16;
  return (window >> (bit % 8)) & ((1u << count) - 1);
}

/// ORs `value` (count <= 16 bits) into bits [bit, bit + count) of `bytes`,
/// under the same condition.
static void orBitField(uint8_t *bytes, unsigned bit, uint32_t value) {
  uint8_t *p = bytes + bit / 8;
  uint32_t shifted = value << (bit % 8);
  p[0] |= uint8_t(shifted);
  p[1] |= uint8_t(shifted >> 8);
  p[2] |= uint8_t(shifted >> 16);
}

/// gfx950 transpose reads (ds_read_b64_tr_b{4,8,16}, ds_read_b96_tr_b6).
/// Within each group of 16 lanes, the lanes' loaded bits form a tile whose
/// rows are 16 elements wide; lane c receives column c. See docs/emulator.md
/// for the assumption behind this element order.
static void dsReadTranspose(Wave &w, const Instr &in) {
  unsigned bytes = memOf(in).bytes;
  unsigned bits = memOf(in).transposeBits;
  unsigned perLane = bytes * 8 / bits; // Elements each lane loads.
  unsigned lanesPerRow = 16 / perLane; // Lanes whose data make one row.
  const Operand &dst = in.ops[0];
  uint32_t tmp;
  SrcView addr = viewOf(w, in.ops[1], 0, tmp);
  uint64_t exec = w.exec();
  uint32_t addresses[kWaveSize];
  // At most 12 bytes a lane, and room for the bit fields' reads past them.
  uint8_t loaded[kWaveSize][16] = {};
  PendingOp *op = issueOp(w, in, WaitCounter::Lds);
  forEachLane(exec, [&](unsigned l) {
    uint32_t a = addr[l] + uint32_t(in.offset);
    addresses[l] = a;
    ldsBookkeeping(w, in, op, a, bytes, LdsAccess::Read, int(l));
    if (const uint8_t *src = ldsAccess(w, in, a, bytes, int(l), false))
      std::memcpy(loaded[l], src, bytes);
  });
  forEachLane(exec, [&](unsigned l) {
    unsigned group = l & ~15u, c = l & 15;
    uint8_t out[16] = {};
    for (unsigned r = 0; r < perLane; ++r)
      orBitField(out, r * bits,
                 readBitField(loaded[group + r * lanesPerRow + c / perLane],
                              (c % perLane) * bits, bits));
    for (unsigned i = 0; i < bytes / 4; ++i)
      std::memcpy(&w.v[vgprIndex(dst, i)][l], out + 4 * i, 4);
  });
  countLdsBankConflicts(w, in, addresses, nullptr, exec, bytes, false);
  w.wg->counters.ldsReadBytes += uint64_t(__builtin_popcountll(exec)) * bytes;
  if (op)
    markPendingDst(w, *op, dst, bytes / 4);
}

// Vector memory
// ------------------------------------------------------------------------

namespace {
/// How one lane's global address is formed, for FLAT/GLOBAL and BUFFER.
struct VmemAddress {
  uint64_t address = 0;
  bool inRange = true;      ///< Buffer range check passed (per access start).
  uint64_t rangeOffset = 0; ///< Offset checked against num_records.
  uint64_t numRecords = ~0ull;
};
} // namespace

/// Operand positions of a VMEM instruction.
struct VmemLayout {
  int data = -1, vaddr = -1, saddr = -1, soffset = -1, rsrc = -1;
};

static VmemLayout globalLayout(const Instr &in, bool store, bool atomic,
                               bool toLds = false) {
  VmemLayout L;
  if (toLds) { // global_load_lds_*: vaddr, saddr
    L.vaddr = 0;
    L.saddr = 1;
    return L;
  }
  if (store || (atomic && !in.sc0)) { // vaddr, vdata, saddr
    L.vaddr = 0;
    L.data = 1;
    L.saddr = 2;
    return L;
  }
  if (atomic) { // vdst, vaddr, vdata, saddr
    L.data = 0;
    L.vaddr = 1;
    L.saddr = 3;
    return L;
  }
  L.data = 0; // vdst, vaddr, saddr
  L.vaddr = 1;
  L.saddr = 2;
  return L;
}

static VmemLayout bufferLayout(const Instr &in) {
  VmemLayout L;
  if (in.lds) { // vaddr, rsrc, soffset
    L.vaddr = 0;
    L.rsrc = 1;
    L.soffset = 2;
    return L;
  }
  L.data = 0; // vdata, vaddr, rsrc, soffset
  L.vaddr = 1;
  L.rsrc = 2;
  L.soffset = 3;
  return L;
}

/// Computes every active lane's address.
static void computeAddresses(const Wave &w, const Instr &in, bool buffer,
                             const VmemLayout &L, VmemAddress *out) {
  uint64_t exec = w.exec();
  const Operand *vaddr = L.vaddr >= 0 ? &in.ops[L.vaddr] : nullptr;
  bool hasVaddr = vaddr && vaddr->kind == OpKind::Vgpr;
  uint32_t t[2] = {0, 0};
  SrcView v0 = hasVaddr ? viewOf(w, *vaddr, 0, t[0]) : SrcView{&t[0], 0};
  SrcView v1 = hasVaddr && vaddr->count > 1 ? viewOf(w, *vaddr, 1, t[1])
                                            : SrcView{&t[1], 0};
  if (!buffer) {
    const Operand &saddr = in.ops[L.saddr];
    bool hasSaddr = saddr.kind == OpKind::Sgpr;
    uint64_t sbase = hasSaddr ? readScalar64(w, saddr) : 0;
    forEachLane(exec, [&](unsigned l) {
      uint64_t a = hasSaddr ? sbase + v0[l] : (v0[l] | (uint64_t(v1[l]) << 32));
      out[l].address = a + int64_t(in.offset);
    });
    probeVectorMemory(w, exec, memOf(in).bytes, false,
                      [&](unsigned l) { return out[l].address; });
    return;
  }
  const Operand &rsrc = in.ops[L.rsrc];
  uint64_t base = (readScalar(w, rsrc, 0) |
                   (uint64_t(readScalar(w, rsrc, 1) & 0xffff) << 32));
  uint32_t stride = (readScalar(w, rsrc, 1) >> 16) & 0x3fff;
  uint32_t numRecords = readScalar(w, rsrc, 2);
  uint32_t soffset = L.soffset >= 0 ? readScalar(w, in.ops[L.soffset]) : 0;
  forEachLane(exec, [&](unsigned l) {
    uint32_t index = in.idxen ? v0[l] : 0;
    uint32_t voffset = in.offen ? (in.idxen ? v1[l] : v0[l]) : 0;
    uint64_t offset = uint64_t(voffset) + uint32_t(in.offset);
    VmemAddress &a = out[l];
    a.address = base + soffset + offset + uint64_t(stride) * index;
    a.rangeOffset = offset;
    // Raw buffers (stride 0) check the byte offset; structured ones the
    // record index.
    if (stride == 0 || !in.idxen)
      a.numRecords = numRecords;
    else
      a.inRange = index < numRecords && offset < stride;
  });
  if (w.wg->probe) {
    // Lanes whose whole access is out of range touch no memory.
    uint64_t lanes = 0;
    forEachLane(exec, [&](unsigned l) {
      if (out[l].inRange && out[l].rangeOffset < out[l].numRecords)
        lanes |= 1ull << l;
    });
    probeVectorMemory(w, lanes, memOf(in).bytes, false,
                      [&](unsigned l) { return out[l].address; });
  }
}

/// Whether a buffer access's component [offset, offset+size) is in range.
static bool componentInRange(const VmemAddress &a, uint64_t componentOffset,
                             unsigned size) {
  if (!a.inRange)
    return false;
  return a.rangeOffset + componentOffset + size <= a.numRecords;
}

static void vmemLoad(Wave &w, const Instr &in, bool buffer) {
  unsigned bytes = memOf(in).bytes;
  VmemLayout L = buffer ? bufferLayout(in) : globalLayout(in, false, false);
  VmemAddress addrs[kWaveSize];
  computeAddresses(w, in, buffer, L, addrs);
  uint64_t exec = w.exec();
  const Operand &dst = in.ops[L.data];
  unsigned component = bytes >= 4 ? 4 : bytes;
  forEachLane(exec, [&](unsigned l) {
    uint8_t data[16] = {};
    if (std::optional<uint32_t> lds = flatLdsAddress(in, addrs[l].address)) {
      if (const uint8_t *src = ldsAccess(w, in, *lds, bytes, int(l), false))
        std::memcpy(data, src, bytes);
      noteLdsAccess(w, in.pc, *lds, bytes, LdsAccess::Read, int(l));
      writeLoaded(w, dst, l, data, bytes, memOf(in).extend);
      return;
    }
    if (std::optional<uint32_t> priv =
            flatScratchAddress(in, addrs[l].address)) {
      if (const uint8_t *src = scratchAccess(w, in, *priv, bytes, l, false))
        std::memcpy(data, src, bytes);
      writeLoaded(w, dst, l, data, bytes, memOf(in).extend);
      return;
    }
    for (unsigned c = 0; c < bytes; c += component) {
      if (buffer && !componentInRange(addrs[l], c, component))
        continue; // Out-of-range reads return zero.
      if (const uint8_t *src = globalAccess(w, in, addrs[l].address + c,
                                            component, int(l), false))
        std::memcpy(data + c, src, component);
    }
    writeLoaded(w, dst, l, data, bytes, memOf(in).extend);
  });
  w.wg->counters.globalReadBytes +=
      uint64_t(__builtin_popcountll(exec)) * bytes;
  if (PendingOp *op = issueOp(w, in, WaitCounter::Vm))
    markPendingDst(w, *op, dst, dwordsOf(bytes));
}

/// buffer_load_* ... lds / global_load_lds_*: each lane's data goes to
/// LDS[M0 + instOffset + lane * max(size, 4)], not to VGPRs.
static void vmemLoadToLds(Wave &w, const Instr &in, bool buffer) {
  unsigned bytes = memOf(in).bytes;
  if (!w.wg->launch->chip->supportsDirectToLds(bytes)) {
    w.fault(in, "direct-to-LDS loads of " + llvm::Twine(bytes) +
                    " bytes per lane do not exist on " +
                    w.wg->launch->chip->name);
    return;
  }
  VmemLayout L =
      buffer ? bufferLayout(in) : globalLayout(in, false, false, true);
  VmemAddress addrs[kWaveSize];
  computeAddresses(w, in, buffer, L, addrs);
  uint64_t exec = w.exec();
  uint32_t ldsBase = w.s[kM0] + uint32_t(in.offset);
  unsigned laneStride = std::max(bytes, 4u);
  PendingOp *op = issueOp(w, in, WaitCounter::Vm);
  unsigned component = bytes >= 4 ? 4 : bytes;
  forEachLane(exec, [&](unsigned l) {
    uint8_t data[16] = {};
    for (unsigned c = 0; c < bytes; c += component) {
      if (buffer && !componentInRange(addrs[l], c, component))
        continue;
      if (const uint8_t *src = globalAccess(w, in, addrs[l].address + c,
                                            component, int(l), false))
        std::memcpy(data + c, src, component);
    }
    uint32_t ldsAddress = ldsBase + l * laneStride;
    noteLdsAccess(w, in.pc, ldsAddress, bytes, LdsAccess::Write, int(l));
    if (op)
      noteDmaWrite(w, *op, ldsAddress, bytes);
    if (uint8_t *dst = ldsAccess(w, in, ldsAddress, bytes, int(l), true))
      std::memcpy(dst, data, bytes);
  });
  uint64_t moved = uint64_t(__builtin_popcountll(exec)) * bytes;
  w.wg->counters.globalReadBytes += moved;
  w.wg->counters.directToLdsBytes += moved;
}

static void vmemStore(Wave &w, const Instr &in, bool buffer) {
  unsigned bytes = memOf(in).bytes;
  VmemLayout L = buffer ? bufferLayout(in) : globalLayout(in, true, false);
  VmemAddress addrs[kWaveSize];
  computeAddresses(w, in, buffer, L, addrs);
  uint64_t exec = w.exec();
  const Operand &data = in.ops[L.data];
  unsigned component = bytes >= 4 ? 4 : bytes;
  forEachLane(exec, [&](unsigned l) {
    uint8_t bytesOut[16] = {};
    readStored(w, data, l, bytesOut, bytes, memOf(in).extend);
    if (std::optional<uint32_t> lds = flatLdsAddress(in, addrs[l].address)) {
      if (uint8_t *dst = ldsAccess(w, in, *lds, bytes, int(l), true))
        std::memcpy(dst, bytesOut, bytes);
      noteLdsAccess(w, in.pc, *lds, bytes, LdsAccess::Write, int(l));
      return;
    }
    if (std::optional<uint32_t> priv =
            flatScratchAddress(in, addrs[l].address)) {
      if (uint8_t *dst = scratchAccess(w, in, *priv, bytes, l, true))
        std::memcpy(dst, bytesOut, bytes);
      return;
    }
    for (unsigned c = 0; c < bytes; c += component) {
      if (buffer && !componentInRange(addrs[l], c, component))
        continue; // Out-of-range writes are dropped.
      if (uint8_t *dst = globalAccess(w, in, addrs[l].address + c, component,
                                      int(l), true))
        std::memcpy(dst, bytesOut + c, component);
    }
  });
  w.wg->counters.globalWriteBytes +=
      uint64_t(__builtin_popcountll(exec)) * bytes;
  issueOp(w, in, WaitCounter::Vm);
}

/// Applies an atomic to host memory shared with other host threads (other
/// workgroups run concurrently) and returns the old value.
template <typename T> static T atomicRmw(T *p, AtomicOp op, T data, T compare) {
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (true) {
    T value = applyAtomic<T>(op, old, data, compare);
    if (__atomic_compare_exchange_n(p, &old, value, /*weak=*/true,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return old;
  }
}

/// global_atomic_* / buffer_atomic_*; sc0 returns the old value. cmpswap
/// data is {new, compare}.
static void vmemAtomic(Wave &w, const Instr &in, bool buffer) {
  AtomicOp op = memOf(in).atomic;
  unsigned bytes = memOf(in).bytes;
  bool wide = bytes == 8;
  VmemLayout L = buffer ? bufferLayout(in) : globalLayout(in, false, true);
  VmemAddress addrs[kWaveSize];
  computeAddresses(w, in, buffer, L, addrs);
  // The returning global form has vdst first and vdata third.
  const Operand &data =
      buffer ? in.ops[L.data] : (in.sc0 ? in.ops[2] : in.ops[L.data]);
  const Operand &dst = in.ops[buffer ? L.data : 0];
  uint64_t exec = w.exec();
  unsigned words = bytes / 4;
  forEachLane(exec, [&](unsigned l) {
    if (buffer && !componentInRange(addrs[l], 0, bytes))
      return;
    uint64_t value = w.v[vgprIndex(data, 0)][l];
    uint64_t compare =
        op == AtomicOp::CmpSwap ? w.v[vgprIndex(data, words)][l] : 0;
    if (wide) {
      value |= uint64_t(w.v[vgprIndex(data, 1)][l]) << 32;
      if (op == AtomicOp::CmpSwap)
        compare |= uint64_t(w.v[vgprIndex(data, 3)][l]) << 32;
    }
    uint64_t old = 0;
    // A flat address in the shared or private aperture: LDS and scratch
    // belong to this workgroup's host thread, no other thread sees them.
    uint8_t *local = nullptr;
    bool inLocal = false;
    if (std::optional<uint32_t> lds = flatLdsAddress(in, addrs[l].address)) {
      inLocal = true;
      local = ldsAccess(w, in, *lds, bytes, int(l), true);
      noteLdsAccess(w, in.pc, *lds, bytes, LdsAccess::Atomic, int(l));
    } else if (std::optional<uint32_t> priv =
                   flatScratchAddress(in, addrs[l].address)) {
      inLocal = true;
      local = scratchAccess(w, in, *priv, bytes, l, true);
    }
    if (inLocal) {
      if (!local)
        return;
      std::memcpy(&old, local, bytes);
      uint64_t updated = applyAtomicBytes(op, bytes, old, value, compare);
      std::memcpy(local, &updated, bytes);
    } else {
      uint8_t *p = globalAccess(w, in, addrs[l].address, bytes, int(l), true);
      if (!p)
        return;
      old = wide ? atomicRmw<uint64_t>(reinterpret_cast<uint64_t *>(p), op,
                                       value, compare)
                 : atomicRmw<uint32_t>(reinterpret_cast<uint32_t *>(p), op,
                                       uint32_t(value), uint32_t(compare));
    }
    if (in.sc0)
      for (unsigned i = 0; i < words; ++i)
        w.v[vgprIndex(dst, i)][l] = uint32_t(old >> (32 * i));
  });
  uint64_t moved = uint64_t(__builtin_popcountll(exec)) * bytes;
  w.wg->counters.globalReadBytes += moved;
  w.wg->counters.globalWriteBytes += moved;
  PendingOp *pending = issueOp(w, in, WaitCounter::Vm);
  if (pending && in.sc0)
    markPendingDst(w, *pending, dst, words);
}

/// scratch_load_* vdst, vaddr|off, saddr|off offset:N and scratch_store_*
/// vaddr|off, vdata, saddr|off: the address is an offset into each lane's
/// private memory.
static void scratchAccessAll(Wave &w, const Instr &in, bool store) {
  unsigned bytes = memOf(in).bytes;
  const Operand &data = in.ops[store ? 1 : 0];
  const Operand &vaddr = in.ops[store ? 0 : 1];
  const Operand &saddr = in.ops[2];
  uint32_t t[2] = {0, 0};
  SrcView v = vaddr.kind == OpKind::Vgpr ? viewOf(w, vaddr, 0, t[0])
                                         : SrcView{&t[0], 0};
  uint32_t base = saddr.kind == OpKind::Sgpr ? readScalar(w, saddr) : 0;
  uint64_t exec = w.exec();
  probeVectorMemory(w, exec, bytes, true, [&](unsigned l) {
    return uint64_t(base + v[l] + uint32_t(in.offset));
  });
  forEachLane(exec, [&](unsigned l) {
    uint32_t address = base + v[l] + uint32_t(in.offset);
    uint8_t *p = scratchAccess(w, in, address, bytes, l, store);
    if (store) {
      if (p)
        readStored(w, data, l, p, bytes, memOf(in).extend);
      return;
    }
    uint8_t zero[16] = {};
    writeLoaded(w, data, l, p ? p : zero, bytes, memOf(in).extend);
  });
  PendingOp *op = issueOp(w, in, WaitCounter::Vm);
  if (op && !store)
    markPendingDst(w, *op, data, dwordsOf(bytes));
}

static void scratchLoad(Wave &w, const Instr &in) {
  scratchAccessAll(w, in, false);
}
static void scratchStore(Wave &w, const Instr &in) {
  scratchAccessAll(w, in, true);
}

static void globalLoad(Wave &w, const Instr &in) { vmemLoad(w, in, false); }
static void globalStore(Wave &w, const Instr &in) { vmemStore(w, in, false); }
static void globalAtomic(Wave &w, const Instr &in) { vmemAtomic(w, in, false); }
static void bufferLoad(Wave &w, const Instr &in) {
  in.lds ? vmemLoadToLds(w, in, true) : vmemLoad(w, in, true);
}
static void bufferStore(Wave &w, const Instr &in) { vmemStore(w, in, true); }
static void bufferAtomic(Wave &w, const Instr &in) { vmemAtomic(w, in, true); }
static void globalLoadLds(Wave &w, const Instr &in) {
  vmemLoadToLds(w, in, false);
}
static void vmemNop(Wave &, const Instr &) {}

llvm::ArrayRef<Binding> hk::emu::memoryBindings() {
  static const Binding bindings[] = {
#define HK_DS_LOAD(name, bytes, extend) {#name, dsRead},
#define HK_DS_STORE(name, bytes, extend) {#name, dsWrite},
#define HK_DS_LOAD2(name, bytes, stride64) {#name, dsRead2},
#define HK_DS_STORE2(name, bytes, stride64) {#name, dsWrite2},
#define HK_DS_ATOMIC(name, op, bytes, returns) {#name, dsAtomic},
#define HK_DS_TRANSPOSE(name, bytes, bits) {#name, dsReadTranspose},
#define HK_DS(name, dsts, sem) {#name, sem},
#define HK_MUBUF_LOAD(name, bytes, extend) {#name, bufferLoad},
#define HK_MUBUF_STORE(name, bytes, extend) {#name, bufferStore},
#define HK_MUBUF_ATOMIC(name, op, bytes) {#name, bufferAtomic},
#define HK_MUBUF(name, unit, sem) {#name, sem},
#define HK_FLAT_LOAD(name, family, bytes, extend)                              \
  {#name,                                                                      \
   isa::Family::family == isa::Family::SCRATCH ? scratchLoad : globalLoad},
#define HK_FLAT_STORE(name, family, bytes, extend)                             \
  {#name,                                                                      \
   isa::Family::family == isa::Family::SCRATCH ? scratchStore : globalStore},
#define HK_FLAT_ATOMIC(name, family, op, bytes) {#name, globalAtomic},
#define HK_GLOBAL_LOAD_LDS(name, bytes) {#name, globalLoadLds},
#include "hk/ISA/Instructions/DS.def"
#include "hk/ISA/Instructions/FLAT.def"
#include "hk/ISA/Instructions/MUBUF.def"
  };
  return bindings;
}
