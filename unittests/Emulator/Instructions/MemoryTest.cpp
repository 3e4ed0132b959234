//===- MemoryTest.cpp - DS, MUBUF, GLOBAL, FLAT and SCRATCH instructions --===//
//
// Vector memory instructions, every lane checked against the bytes the
// test put in memory (LDS, a device allocation, scratch) or expects there:
// - loads: the bytes at the lane's address (for LDS vaddr + offset, for
//   buffers the resource's base + voffset + soffset + offset, for
//   global/flat the 64-bit vaddr + offset), zero- or sign-extended
//   (ubyte/sbyte, u8/i8, ushort/sshort), d16 forms writing one half of the
//   register and keeping the other (the _hi forms the high half);
// - stores: the register's low bytes (the _d16_hi forms its high half) at
//   the lane's address, nothing else written;
// - atomics: every lane its own address; memory and (sc0/rtn forms) the
//   returned old value against host arithmetic from AMD's ISA reference
//   (inc: old >= data ? 0 : old + 1; dec: old == 0 || old > data ? data :
//   old - 1; cmpswap: old == cmp ? src : old; rsub: data - old;
//   pk_add_f16/bf16: each half added with round to nearest even; f32 and
//   f64 add rounded to nearest even, min/max the smaller/larger of two
//   non-NaN values); 8-byte forms (_x2, *64) on register pairs;
// - ds_read2/write2 (offsets in elements, st64 in 64-element units),
//   ds_permute/bpermute (byte addresses / 4, modulo 64), ds_swizzle (the
//   quad-permute and bit-mask modes), the gfx950 transposing reads and
//   direct-to-LDS global loads (LDS[M0 + offset + lane * 4 (size 12/16:
//   lane * size)]);
// - scratch: a store then a load of each lane's own address returns the
//   stored bytes (scratch is private per lane, its layout the emulator's).
// Inactive lanes neither load, store nor return.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include "hk/ISA/InstrDesc.h"
#include "hk/ISA/Instruction.h"

#include <algorithm>
#include <cstring>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;
using llvm::APFloat;

namespace {

/// What a load or store's mnemonic says: width in bytes, extension, which
/// register half a d16 form uses.
struct Access {
  unsigned bytes = 4;
  bool sign = false, d16 = false, hi = false;
};

Access accessOf(llvm::StringRef name) {
  Access a;
  a.d16 = name.contains("_d16");
  a.hi = name.ends_with("_hi");
  if (name.contains("sbyte") || name.contains("_i8"))
    a.sign = true, a.bytes = 1;
  else if (name.contains("ubyte") || name.contains("_u8") ||
           name.contains("_byte") || name.contains("_b8"))
    a.bytes = 1;
  else if (name.contains("sshort") || name.contains("_i16"))
    a.sign = true, a.bytes = 2;
  else if (name.contains("ushort") || name.contains("short") ||
           name.contains("_u16") || name.contains("_b16"))
    a.bytes = 2;
  else if (name.contains("dwordx4") || name.contains("b128"))
    a.bytes = 16;
  else if (name.contains("dwordx3") || name.contains("b96"))
    a.bytes = 12;
  else if (name.contains("dwordx2") || name.contains("b64"))
    a.bytes = 8;
  else if (!name.contains("dword") && !name.contains("b32"))
    ADD_FAILURE() << "no access width for " << name.str();
  return a;
}

std::string vregs(unsigned first, unsigned count) {
  if (count == 1)
    return "v" + std::to_string(first);
  return "v[" + std::to_string(first) + ":" +
         std::to_string(first + count - 1) + "]";
}

/// The value a load leaves in register `r` (of its destination) from the
/// little-endian bytes `mem`, given the register's old value.
uint32_t loadedWord(const Access &a, const uint8_t *mem, unsigned r,
                    uint32_t old) {
  uint32_t raw = 0;
  std::memcpy(&raw, mem + 4 * r, std::min(4u, a.bytes - 4 * r));
  if (a.bytes >= 4)
    return raw;
  uint32_t value = raw & (a.bytes == 1 ? 0xff : 0xffff);
  if (a.sign)
    value = a.bytes == 1 ? uint32_t(int32_t(int8_t(value)))
                         : uint32_t(int32_t(int16_t(value)));
  if (!a.d16)
    return value;
  value &= 0xffff;
  return a.hi ? (old & 0xffff) | (value << 16) : (old & 0xffff0000) | value;
}

/// Where a family's memory lives and how its instructions address it.
enum class Space { Lds, Buffer, Global, Flat, Scratch };

Space spaceOf(llvm::StringRef name) {
  if (name.starts_with("ds_"))
    return Space::Lds;
  if (name.starts_with("buffer_"))
    return Space::Buffer;
  if (name.starts_with("global_"))
    return Space::Global;
  if (name.starts_with("flat_"))
    return Space::Flat;
  return Space::Scratch;
}

constexpr unsigned kMemBytes = 8192;
constexpr uint64_t kExec = 0xfff0ff0f7ffffffeull;

/// A test's memory: LDS or a device allocation, with a host view.
struct Memory {
  uint8_t *host = nullptr;
  uint64_t base = 0; // Device address (0 for LDS).
};

Memory setUp(SingleWave &sw, Space space) {
  Memory m;
  if (space == Space::Lds) {
    m.host = sw.workgroup().lds.data();
    return m;
  }
  m.base = sw.memory().allocate(kMemBytes, "test");
  m.host = sw.memory().translate(m.base, kMemBytes);
  Wave &w = sw.wave();
  // A raw buffer resource over the allocation (stride 0, num_records =
  // its size) in s[8:11]; soffset 0.
  w.s[8] = uint32_t(m.base);
  w.s[9] = uint32_t(m.base >> 32) & 0xffff;
  w.s[10] = kMemBytes;
  w.s[11] = 0x00027000;
  return m;
}

/// The address operand text and per-lane address registers: lane l
/// accesses byte offset `offsetOf(l)` of the memory.
std::string addressOperands(Space space) {
  switch (space) {
  case Space::Lds:
    return "v2";
  case Space::Buffer:
    return "v2, s[8:11], 0 offen";
  case Space::Global:
    return "v[2:3], off";
  case Space::Flat:
    return "v[2:3]";
  case Space::Scratch:
    return "v2, off";
  }
  return "";
}

void setAddresses(Wave &w, Space space, const Memory &m,
                  const std::function<uint32_t(unsigned)> &offsetOf) {
  for (unsigned l = 0; l < 64; ++l) {
    uint64_t address = m.base + offsetOf(l);
    if (space == Space::Global || space == Space::Flat) {
      w.v[2][l] = uint32_t(address);
      w.v[3][l] = uint32_t(address >> 32);
    } else {
      w.v[2][l] = offsetOf(l);
    }
  }
}

void fillRandom(uint8_t *p, unsigned n, unsigned seed) {
  for (unsigned i = 0; i < n; ++i)
    p[i] = uint8_t(mixBits(seed * 100003 + i));
}

unsigned regsOf(const Access &a) { return std::max(1u, a.bytes / 4); }

/// The lane's byte offset: each lane its own 16-byte-aligned slot, small
/// accesses at every alignment their size allows.
uint32_t slotOf(unsigned l, const Access &a) {
  return 64 + l * 32 + (a.bytes < 4 ? (l % (4 / a.bytes)) * a.bytes : 0);
}

void testLoad(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  Space space = spaceOf(name);
  Access a = accessOf(name.drop_front(name.find('_')));
  Wave &w = sw.wave();
  Memory m = setUp(sw, space);
  unsigned regs = regsOf(a);
  if (space == Space::Scratch) {
    // Through a store of the same width at the same address, in 4 KiB of
    // scratch per lane.
    sw.workgroup().scratchPerLane = 4096;
    sw.workgroup().scratch.assign(64 * 4096, 0);
    setAddresses(w, space, m, [&](unsigned l) { return slotOf(l, a); });
    uint8_t data[64][16];
    for (unsigned l = 0; l < 64; ++l) {
      fillRandom(data[l], 16, l + 1);
      for (unsigned r = 0; r < 4; ++r)
        std::memcpy(&w.v[8 + r][l], data[l] + 4 * r, 4);
    }
    Access plain = a;
    std::string store =
        a.bytes == 1   ? "scratch_store_byte"
        : a.bytes == 2 ? "scratch_store_short"
        : a.bytes == 4 ? "scratch_store_dword"
                       : "scratch_store_dwordx" + std::to_string(a.bytes / 4);
    runOrFail(sw, store + " v2, " + vregs(8, regs) + ", off offset:4");
    (void)plain;
    for (unsigned r = 0; r < regs; ++r)
      for (unsigned l = 0; l < 64; ++l)
        w.v[16 + r][l] = 0xdead0000u + l;
    w.setExec(kExec);
    runOrFail(sw, std::string(mnemonic) + " " + vregs(16, regs) +
                      ", v2, off offset:4");
    w.setExec(~0ull);
    Mismatches bad(mnemonic);
    for (unsigned l = 0; l < 64; ++l)
      for (unsigned r = 0; r < regs; ++r) {
        uint32_t want = (kExec >> l) & 1
                            ? loadedWord(a, data[l], r, 0xdead0000u + l)
                            : 0xdead0000u + l;
        if (w.v[16 + r][l] != want)
          bad.add("lane " + std::to_string(l) + " register " +
                  std::to_string(r) + ": got " + hex(w.v[16 + r][l]) +
                  ", want " + hex(want));
      }
    return;
  }
  fillRandom(m.host, kMemBytes, 7);
  setAddresses(w, space, m, [&](unsigned l) { return slotOf(l, a); });
  for (unsigned r = 0; r < regs; ++r)
    for (unsigned l = 0; l < 64; ++l)
      w.v[16 + r][l] = 0xdead0000u + l * 0x10001;
  unsigned offset = 8;
  w.setExec(kExec);
  runOrFail(sw, std::string(mnemonic) + " " + vregs(16, regs) + ", " +
                    addressOperands(space) +
                    " offset:" + std::to_string(offset));
  w.setExec(~0ull);
  Mismatches bad(mnemonic);
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned r = 0; r < regs; ++r) {
      uint32_t old = 0xdead0000u + l * 0x10001;
      uint32_t want =
          (kExec >> l) & 1
              ? loadedWord(a, m.host + slotOf(l, a) + offset, r, old)
              : old;
      if (w.v[16 + r][l] != want)
        bad.add("lane " + std::to_string(l) + " register " + std::to_string(r) +
                ": got " + hex(w.v[16 + r][l]) + ", want " + hex(want));
    }
}

void testStore(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  Space space = spaceOf(name);
  Access a = accessOf(name.drop_front(name.find('_')));
  if (space == Space::Scratch) // With the loads (testLoad).
    return testLoad(sw, a.bytes == 1    ? "scratch_load_ubyte"
                        : a.bytes == 2  ? "scratch_load_ushort"
                        : a.bytes == 4  ? "scratch_load_dword"
                        : a.bytes == 8  ? "scratch_load_dwordx2"
                        : a.bytes == 12 ? "scratch_load_dwordx3"
                                        : "scratch_load_dwordx4");
  Wave &w = sw.wave();
  Memory m = setUp(sw, space);
  unsigned regs = regsOf(a);
  fillRandom(m.host, kMemBytes, 3);
  std::vector<uint8_t> before(m.host, m.host + kMemBytes);
  setAddresses(w, space, m, [&](unsigned l) { return slotOf(l, a); });
  for (unsigned r = 0; r < regs; ++r)
    for (unsigned l = 0; l < 64; ++l)
      w.v[8 + r][l] = uint32_t(mixBits(l * 16 + r + 99));
  unsigned offset = 4;
  w.setExec(kExec);
  std::string text = std::string(mnemonic) + " ";
  if (space == Space::Lds)
    text += "v2, " + vregs(8, regs);
  else if (space == Space::Buffer)
    text += vregs(8, regs) + ", " + addressOperands(space);
  else
    text +=
        "v[2:3], " + vregs(8, regs) + (space == Space::Global ? ", off" : "");
  runOrFail(sw, text + " offset:" + std::to_string(offset));
  w.setExec(~0ull);
  std::vector<uint8_t> want = before;
  for (unsigned l = 0; l < 64; ++l) {
    if (!((kExec >> l) & 1))
      continue;
    uint8_t bytes[16];
    for (unsigned r = 0; r < 4; ++r) {
      uint32_t v = r < regs ? w.v[8 + r][l] : 0;
      if (a.hi)
        v >>= 16;
      std::memcpy(bytes + 4 * r, &v, 4);
    }
    std::memcpy(want.data() + slotOf(l, a) + offset, bytes, a.bytes);
  }
  Mismatches bad(text);
  for (unsigned i = 0; i < kMemBytes; ++i)
    if (m.host[i] != want[i])
      bad.add("byte " + std::to_string(i) + ": got " + hex(m.host[i]) +
              ", want " + hex(want[i]));
}

// Atomics
// ------------------------------------------------------------------------

enum class Op {
  Add,
  Sub,
  RSub,
  SMin,
  SMax,
  UMin,
  UMax,
  And,
  Or,
  Xor,
  Swap,
  Inc,
  Dec,
  CmpSwap,
  AddF32,
  MinF32,
  MaxF32,
  PkAddF16,
  PkAddBf16,
  AddF64,
  MinF64,
  MaxF64
};

Op opOf(llvm::StringRef mnemonic) {
  std::string stripped = mnemonic.str();
  if (size_t rtn = stripped.find("_rtn"); rtn != std::string::npos)
    stripped.erase(rtn, 4);
  llvm::StringRef name(stripped);
  static const std::pair<const char *, Op> ops[] = {
      {"pk_add_f16", Op::PkAddF16},
      {"pk_add_bf16", Op::PkAddBf16},
      {"add_f32", Op::AddF32},
      {"min_f32", Op::MinF32},
      {"max_f32", Op::MaxF32},
      {"add_f64", Op::AddF64},
      {"min_f64", Op::MinF64},
      {"max_f64", Op::MaxF64},
      {"min_i64", Op::SMin},
      {"max_i64", Op::SMax},
      {"min_u64", Op::UMin},
      {"max_u64", Op::UMax},
      {"rsub", Op::RSub},
      {"cmpswap", Op::CmpSwap},
      {"cmpst", Op::CmpSwap},
      {"wrxchg", Op::Swap},
      {"swap", Op::Swap},
      {"smin", Op::SMin},
      {"smax", Op::SMax},
      {"umin", Op::UMin},
      {"umax", Op::UMax},
      {"min_i32", Op::SMin},
      {"max_i32", Op::SMax},
      {"min_u32", Op::UMin},
      {"max_u32", Op::UMax},
      {"add", Op::Add},
      {"sub", Op::Sub},
      {"and", Op::And},
      {"xor", Op::Xor},
      {"or", Op::Or},
      {"inc", Op::Inc},
      {"dec", Op::Dec}};
  for (const auto &[key, op] : ops)
    if (name.contains(key))
      return op;
  ADD_FAILURE() << "no reference for " << name.str();
  return Op::Add;
}

uint64_t applyAtomic(Op op, uint64_t old, uint64_t data, uint64_t cmp,
                     bool wide) {
  uint64_t mask = wide ? ~0ull : 0xffffffffull;
  auto sx = [wide](uint64_t v) {
    return wide ? int64_t(v) : int64_t(int32_t(uint32_t(v)));
  };
  auto f = [](uint64_t v) { return toAPFloat(Fmt::F32, v & 0xffffffff); };
  auto d = [](uint64_t v) { return toAPFloat(Fmt::F64, v); };
  switch (op) {
  case Op::Add:
    return (old + data) & mask;
  case Op::Sub:
    return (old - data) & mask;
  case Op::RSub:
    return (data - old) & mask;
  case Op::SMin:
    return sx(old) < sx(data) ? old : data;
  case Op::SMax:
    return sx(old) > sx(data) ? old : data;
  case Op::UMin:
    return std::min(old, data);
  case Op::UMax:
    return std::max(old, data);
  case Op::And:
    return old & data;
  case Op::Or:
    return old | data;
  case Op::Xor:
    return old ^ data;
  case Op::Swap:
    return data;
  case Op::Inc:
    return old >= data ? 0 : old + 1;
  case Op::Dec:
    return old == 0 || old > data ? data : old - 1;
  case Op::CmpSwap:
    return old == cmp ? data : old;
  case Op::AddF32: {
    APFloat r = f(old);
    r.add(f(data), APFloat::rmNearestTiesToEven);
    return fromAPFloat(r);
  }
  case Op::PkAddF16:
  case Op::PkAddBf16: {
    // Each half added with round to nearest even.
    Fmt half = op == Op::PkAddF16 ? Fmt::F16 : Fmt::BF16;
    uint64_t r = 0;
    for (unsigned h = 0; h < 2; ++h) {
      APFloat x = toAPFloat(half, (old >> (16 * h)) & 0xffff);
      x.add(toAPFloat(half, (data >> (16 * h)) & 0xffff),
            APFloat::rmNearestTiesToEven);
      r |= (fromAPFloat(x) & 0xffff) << (16 * h);
    }
    return r;
  }
  case Op::MinF32:
    return f(data).compare(f(old)) == APFloat::cmpLessThan ? data : old;
  case Op::MaxF32:
    return f(data).compare(f(old)) == APFloat::cmpGreaterThan ? data : old;
  case Op::AddF64: {
    APFloat r = d(old);
    r.add(d(data), APFloat::rmNearestTiesToEven);
    return fromAPFloat(r);
  }
  case Op::MinF64:
    return d(data).compare(d(old)) == APFloat::cmpLessThan ? data : old;
  case Op::MaxF64:
    return d(data).compare(d(old)) == APFloat::cmpGreaterThan ? data : old;
  }
  return old;
}

void testAtomic(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  Space space = spaceOf(name);
  Op op = opOf(name);
  bool wide = name.ends_with("_x2") || name.ends_with("64");
  bool isFloat = op == Op::AddF32 || op == Op::MinF32 || op == Op::MaxF32;
  bool isDouble = op == Op::AddF64 || op == Op::MinF64 || op == Op::MaxF64;
  bool packed = op == Op::PkAddF16 || op == Op::PkAddBf16;
  unsigned size = wide ? 8 : 4, n = wide ? 2 : 1;
  Wave &w = sw.wave();
  Memory m = setUp(sw, space);
  auto slot = [](unsigned l) { return 64 + l * 16; };
  for (bool ret : {false, true}) {
    bool dsRtn = space == Space::Lds && name.contains("_rtn_");
    if (space == Space::Lds && ret != dsRtn)
      continue;
    std::vector<uint64_t> old(64), data(64), cmp(64);
    for (unsigned l = 0; l < 64; ++l) {
      auto value = [&](unsigned salt) -> uint64_t {
        if (packed) { // Two moderate halves (sums round, none is NaN).
          uint64_t r = 0;
          for (unsigned h = 0; h < 2; ++h) {
            APFloat v(float(int(mixBits(l * 7 + salt * 3 + h) % 4001) - 2000) /
                      64.0f);
            bool lost;
            v.convert(op == Op::PkAddF16 ? APFloat::IEEEhalf()
                                         : APFloat::BFloat(),
                      APFloat::rmNearestTiesToEven, &lost);
            r |= (fromAPFloat(v) & 0xffff) << (16 * h);
          }
          return r;
        }
        if (isDouble) // Eighths and some sub-eighth fractions: sums round.
          return fromAPFloat(
              APFloat(double(int64_t(mixBits(l * 5 + salt) % 200001) - 100000) /
                      (l % 3 ? 8.0 : 3.0)));
        if (isFloat)
          return f32Input(l + 64 * salt, salt) & 0x7fffffffu
                     ? uint32_t(fromAPFloat(APFloat(
                           float(int(mixBits(l * 3 + salt) % 2001) - 1000) /
                           8.0f)))
                     : 0;
        uint64_t v = wide ? int64Input(l, salt) : intInput(l, salt);
        return l % 4 == 0 ? v % 5 : v;
      };
      old[l] = value(0);
      data[l] = value(1);
      cmp[l] = l % 2 ? old[l] : value(2);
      std::memcpy(m.host + slot(l), &old[l], size);
    }
    setAddresses(w, space, m, slot);
    // Data in v[8:9] (cmpswap: src then cmp; ds_cmpst: cmp then src).
    bool dsCmp = space == Space::Lds && op == Op::CmpSwap;
    for (unsigned l = 0; l < 64; ++l) {
      uint64_t first = dsCmp ? cmp[l] : data[l];
      uint64_t second = dsCmp ? data[l] : cmp[l];
      w.v[8][l] = uint32_t(first);
      w.v[9][l] = uint32_t(first >> 32);
      unsigned next = 8 + n;
      w.v[next][l] = uint32_t(second);
      w.v[next + 1][l] = uint32_t(second >> 32);
      for (unsigned r = 0; r < 2; ++r)
        w.v[16 + r][l] = 0xdead0000u + l;
    }
    unsigned dataRegs = op == Op::CmpSwap && space != Space::Lds ? 2 * n : n;
    std::string d = vregs(8, dataRegs), r = vregs(16, n);
    std::string text = std::string(mnemonic) + " ";
    switch (space) {
    case Space::Lds:
      text += (ret ? r + ", " : std::string()) + "v2, " + vregs(8, n);
      if (dsCmp)
        text += ", " + vregs(8 + n, n);
      break;
    case Space::Buffer:
      text += d + ", " + addressOperands(space) + (ret ? " sc0" : "");
      break;
    case Space::Global:
      text += (ret ? r + ", " : std::string()) + "v[2:3], " + d + ", off" +
              (ret ? " sc0" : "");
      break;
    case Space::Flat:
      text += (ret ? r + ", " : std::string()) + "v[2:3], " + d +
              (ret ? " sc0" : "");
      break;
    case Space::Scratch:
      break;
    }
    w.setExec(kExec);
    runOrFail(sw, text);
    w.setExec(~0ull);
    Mismatches bad(text);
    for (unsigned l = 0; l < 64; ++l) {
      bool active = (kExec >> l) & 1;
      uint64_t got = 0;
      std::memcpy(&got, m.host + slot(l), size);
      uint64_t want =
          active ? applyAtomic(op, old[l], data[l], cmp[l], wide) : old[l];
      if (got != want)
        bad.add("lane " + std::to_string(l) + " memory: got " + hex(got) +
                ", want " + hex(want) + " (old " + hex(old[l]) + ", data " +
                hex(data[l]) + ")");
      if (!ret)
        continue;
      unsigned retReg = space == Space::Buffer ? 8 : 16;
      uint64_t returned = w.v[retReg][l];
      if (wide)
        returned |= uint64_t(w.v[retReg + 1][l]) << 32;
      uint64_t wantRet =
          active ? old[l]
          : space == Space::Buffer
              ? (dsCmp ? cmp[l] : data[l]) & (wide ? ~0ull : 0xffffffffull)
              : (0xdead0000u + l) |
                    (wide ? uint64_t(0xdead0000u + l) << 32 : 0);
      if (space == Space::Buffer && !active && op == Op::CmpSwap)
        wantRet = data[l];
      if (returned != wantRet)
        bad.add("lane " + std::to_string(l) + " returned " + hex(returned) +
                ", want " + hex(wantRet));
    }
  }
}

// DS specials
// --------------------------------------------------------------------

/// ds_read2/write2[st64]_b32/b64: two elements at vaddr + offset0 * size
/// and vaddr + offset1 * size (times 64 for st64).
void testDs2(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  bool write = name.contains("write");
  bool st64 = name.contains("st64");
  unsigned size = name.ends_with("b64") ? 8 : 4, n = size / 4;
  unsigned scale = size * (st64 ? 64 : 1);
  unsigned off0 = 3, off1 = st64 ? 5 : 200;
  Wave &w = sw.wave();
  uint8_t *lds = sw.workgroup().lds.data();
  unsigned ldsSize = sw.workgroup().lds.size();
  fillRandom(lds, ldsSize, 11);
  std::vector<uint8_t> before(lds, lds + ldsSize);
  auto base = [&](unsigned l) { return l * size; };
  for (unsigned l = 0; l < 64; ++l) {
    w.v[2][l] = base(l);
    for (unsigned r = 0; r < 4; ++r) {
      w.v[8 + r][l] = uint32_t(mixBits(l * 4 + r + 5));
      w.v[16 + r][l] = 0xdead0000u + l;
    }
  }
  std::string offsets =
      " offset0:" + std::to_string(off0) + " offset1:" + std::to_string(off1);
  w.setExec(kExec);
  if (write)
    runOrFail(sw, std::string(mnemonic) + " v2, " + vregs(8, n) + ", " +
                      vregs(8 + n, n) + offsets);
  else
    runOrFail(sw, std::string(mnemonic) + " " + vregs(16, 2 * n) + ", v2" +
                      offsets);
  w.setExec(~0ull);
  Mismatches bad(mnemonic);
  if (write) {
    std::vector<uint8_t> want = before;
    for (unsigned l = 0; l < 64; ++l) {
      if (!((kExec >> l) & 1))
        continue;
      for (unsigned e = 0; e < 2; ++e)
        for (unsigned r = 0; r < n; ++r)
          std::memcpy(want.data() + base(l) + (e ? off1 : off0) * scale + 4 * r,
                      &w.v[8 + e * n + r][l], 4);
    }
    for (unsigned i = 0; i < ldsSize; ++i)
      if (lds[i] != want[i])
        bad.add("byte " + std::to_string(i) + ": got " + hex(lds[i]) +
                ", want " + hex(want[i]));
    return;
  }
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned e = 0; e < 2; ++e)
      for (unsigned r = 0; r < n; ++r) {
        uint32_t want = 0xdead0000u + l;
        if ((kExec >> l) & 1)
          std::memcpy(&want, lds + base(l) + (e ? off1 : off0) * scale + 4 * r,
                      4);
        if (w.v[16 + e * n + r][l] != want)
          bad.add("lane " + std::to_string(l) + " element " +
                  std::to_string(e) + ": got " + hex(w.v[16 + e * n + r][l]) +
                  ", want " + hex(want));
      }
}

/// ds_bpermute_b32 vdst, vaddr, vdata: vdst[l] = vdata[(vaddr[l] + offset)
/// / 4 % 64]; ds_permute_b32: vdst[(vaddr[l] + offset) / 4 % 64] =
/// vdata[l] (active lanes; a lane no one writes gets 0).
void testPermute(SingleWave &sw, const char *mnemonic) {
  bool backward = llvm::StringRef(mnemonic).contains("bpermute");
  Wave &w = sw.wave();
  for (unsigned l = 0; l < 64; ++l) {
    w.v[2][l] = ((l * 37 + 11) % 64) * 4 + (l % 3 == 0 ? 256 * 3 : 0);
    w.v[4][l] = 0x1000 + l;
    w.v[0][l] = 0xdead;
  }
  runOrFail(sw, std::string(mnemonic) + " v0, v2, v4 offset:4");
  for (unsigned l = 0; l < 64; ++l) {
    unsigned target = ((w.v[2][l] + 4) / 4) % 64;
    if (backward)
      EXPECT_EQ(w.v[0][l], 0x1000 + target) << "lane " << l;
    else
      EXPECT_EQ(w.v[0][target], 0x1000 + l) << "lane " << l;
  }
}

/// ds_swizzle_b32 offset:pattern: bit 15 set: quad permute, lane (l & ~3)
/// | pattern[2(l%4)+1 : 2(l%4)]; else bit-mask mode within 32 lanes: lane
/// ((l & and) | or) ^ xor, masks in bits 0-4, 5-9, 10-14.
void testSwizzle(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  for (unsigned l = 0; l < 64; ++l)
    w.v[2][l] = 0x500 + l;
  for (unsigned pattern : {0x80e4u, 0x801bu, 0x8055u, 0x041fu, 0x001fu,
                           0x0010u | (0x3u << 5), 0x7c1fu}) {
    runOrFail(sw, std::string(mnemonic) +
                      " v0, v2 offset:" + std::to_string(pattern));
    for (unsigned l = 0; l < 64; ++l) {
      unsigned src;
      if (pattern & 0x8000) {
        src = (l & ~3u) | ((pattern >> (2 * (l & 3))) & 3);
      } else {
        unsigned andMask = pattern & 0x1f, orMask = (pattern >> 5) & 0x1f,
                 xorMask = (pattern >> 10) & 0x1f;
        src = (l & 0x20) | ((((l & 0x1f) & andMask) | orMask) ^ xorMask);
      }
      EXPECT_EQ(w.v[0][l], 0x500 + src)
          << "pattern " << hex(pattern) << " lane " << l;
    }
  }
}

/// Direct-to-LDS loads: lane l's `size` bytes at its global address go to
/// LDS[M0 + offset + l * size] (dwords and smaller: l * 4; what a byte or
/// short load leaves in the rest of its 4-byte slot is not said, and not
/// checked).
void testLoadLds(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  Access a = accessOf(name.drop_front(std::strlen("global_load_lds")));
  Wave &w = sw.wave();
  Memory m = setUp(sw, Space::Global);
  fillRandom(m.host, kMemBytes, 5);
  uint8_t *lds = sw.workgroup().lds.data();
  std::memset(lds, 0xcd, 4096);
  setAddresses(w, Space::Global, m, [&](unsigned l) { return slotOf(l, a); });
  w.s[isa::kM0] = 256;
  w.setExec(kExec);
  runOrFail(sw, std::string(mnemonic) + " v[2:3], off offset:16");
  w.setExec(~0ull);
  unsigned stride = std::max(4u, a.bytes);
  Mismatches bad(mnemonic);
  for (unsigned l = 0; l < 64; ++l) {
    if (!((kExec >> l) & 1))
      continue;
    const uint8_t *src = m.host + slotOf(l, a) + 16;
    uint8_t want[16];
    std::memcpy(want, src, a.bytes);
    for (unsigned i = 0; i < a.bytes; ++i)
      if (lds[256 + 16 + l * stride + i] != want[i])
        bad.add("lane " + std::to_string(l) + " byte " + std::to_string(i) +
                ": got " + hex(lds[256 + 16 + l * stride + i]) + ", want " +
                hex(want[i]));
  }
}

/// gfx950 ds_read_b64_tr_b16/b8/b4 and ds_read_b96_tr_b6: each lane reads
/// 64 (96) bits and the lanes exchange elements so that each gets a column
/// of the tile its group read. AMD's documents give the exchange only as a
/// picture (the orders the examples rely on are in test/Emulator's
/// gfx950-assumed-orders.test); here: across the wave, the elements that
/// arrive are exactly the elements that were read, none lost or doubled.
void testTranspose(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  unsigned bits = name.ends_with("b16")  ? 16
                  : name.ends_with("b8") ? 8
                  : name.ends_with("b6") ? 6
                                         : 4;
  unsigned bytes = bits == 6 ? 12 : 8, regs = bytes / 4;
  Wave &w = sw.wave();
  uint8_t *lds = sw.workgroup().lds.data();
  fillRandom(lds, 4096, 13);
  for (unsigned l = 0; l < 64; ++l)
    w.v[2][l] = l * 16;
  runOrFail(sw, std::string(mnemonic) + " " + vregs(16, regs) + ", v2");
  auto elements = [bits, bytes](const uint8_t *p, std::vector<unsigned> &out) {
    for (unsigned e = 0; e < bytes * 8 / bits; ++e) {
      unsigned value = 0;
      for (unsigned b = 0; b < bits; ++b) {
        unsigned bit = e * bits + b;
        value |= ((p[bit / 8] >> (bit % 8)) & 1) << b;
      }
      out.push_back(value);
    }
  };
  std::vector<unsigned> read, arrived;
  for (unsigned l = 0; l < 64; ++l) {
    elements(lds + l * 16, read);
    uint8_t got[12];
    for (unsigned r = 0; r < regs; ++r)
      std::memcpy(got + 4 * r, &w.v[16 + r][l], 4);
    elements(got, arrived);
  }
  std::sort(read.begin(), read.end());
  std::sort(arrived.begin(), arrived.end());
  EXPECT_EQ(read, arrived) << mnemonic;
}

/// Cache maintenance: runs and changes no register.
void testCacheOp(SingleWave &sw, const char *mnemonic) {
  Wave &w = sw.wave();
  for (unsigned l = 0; l < 64; ++l)
    w.v[1][l] = l;
  runOrFail(sw, mnemonic);
  for (unsigned l = 0; l < 64; ++l)
    ASSERT_EQ(w.v[1][l], l);
}

std::vector<InstructionCase> memoryCases() {
  std::vector<InstructionCase> cases;
  for (const isa::InstrDesc &d : isa::allInstrs()) {
    llvm::StringRef name = d.mnemonic;
    bool memory =
        d.family == isa::Family::DS || d.family == isa::Family::MUBUF ||
        d.family == isa::Family::GLOBAL || d.family == isa::Family::FLAT ||
        d.family == isa::Family::SCRATCH;
    if (!memory)
      continue;
    auto run = testLoad;
    const char *chips = kBothChips;
    if (name.contains("_tr_b")) {
      run = testTranspose;
      chips = "gfx950";
    } else if (name.starts_with("global_load_lds")) {
      run = testLoadLds;
      if (name.contains("dwordx"))
        chips = "gfx950";
    } else if (name.contains("permute")) {
      run = testPermute;
    } else if (name.contains("swizzle")) {
      run = testSwizzle;
    } else if (name.contains("read2") || name.contains("write2")) {
      run = testDs2;
    } else if (name.contains("atomic") ||
               (name.starts_with("ds_") && !name.contains("read") &&
                !name.contains("write_b"))) {
      run = testAtomic;
      if (name == "buffer_atomic_pk_add_bf16")
        chips = "gfx950";
    } else if (name.contains("store") || name.starts_with("ds_write")) {
      run = testStore;
    } else if (name == "buffer_wbl2" || name == "buffer_inv") {
      run = testCacheOp;
    }
    cases.push_back({name.data(), chips, run});
  }
  return cases;
}

const std::vector<InstructionCase> kMemoryCases = memoryCases();
HK_INSTRUCTION_CASES(Memory, kMemoryCases);

} // namespace

/// A raw buffer access is range-checked on voffset plus the instruction's
/// offset taken as unsigned values, added without wrapping around 32 bits:
/// a voffset of -4 with offset:8 is out of range (its load returns zero)
/// although the two add to 4 in 32-bit arithmetic. Splitting a buffer
/// offset x + C into voffset x and an immediate C is therefore sound only
/// when x + C does not wrap, as AMD's LLVM reviewers state the hardware's
/// check (llvm-project pull request 169230); LLVM 22's backend splits
/// regardless (docs/known-issues.md).
TEST(BufferRangeCheck, VoffsetAndOffsetDoNotWrap) {
  for (const char *chip : {"gfx942", "gfx950"}) {
    SingleWave sw(*ChipInfo::lookup(chip));
    Memory m = setUp(sw, Space::Buffer);
    uint32_t word = 0x12345678;
    std::memcpy(m.host + 4, &word, sizeof(word));
    Wave &w = sw.wave();
    for (unsigned l = 0; l < 64; ++l) {
      w.v[2][l] = 4;
      w.v[3][l] = uint32_t(-4);
      w.v[4][l] = w.v[5][l] = 0xdead;
    }
    runOrFail(sw, "buffer_load_dword v4, v2, s[8:11], 0 offen");
    runOrFail(sw, "buffer_load_dword v5, v3, s[8:11], 0 offen offset:8");
    for (unsigned l = 0; l < 64; ++l) {
      EXPECT_EQ(w.v[4][l], word) << chip << " lane " << l;
      EXPECT_EQ(w.v[5][l], 0u) << chip << " lane " << l;
    }
  }
}
