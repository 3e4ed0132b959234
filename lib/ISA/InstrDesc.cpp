//===- InstrDesc.cpp - The instruction table, built from the .def files ---===//
//
// Each .def line becomes one InstrDesc. The semantics argument of a line
// is dropped here: only the emulator compiles it.
//
//===----------------------------------------------------------------------===//

#include "hk/ISA/InstrDesc.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

using namespace hk::isa;

namespace {

constexpr InstrDesc alu(llvm::StringRef mnemonic, Family family, Unit unit,
                        unsigned dsts) {
  InstrDesc d;
  d.mnemonic = mnemonic;
  d.family = family;
  d.unit = unit;
  d.numDsts = uint8_t(dsts);
  // s_sendmsg counts on lgkmcnt until the message is sent.
  d.counter = unit == Unit::Message ? Counter::Lgkm : Counter::None;
  return d;
}

constexpr InstrDesc memory(llvm::StringRef mnemonic, Family family, Unit unit,
                           Counter counter, unsigned dsts, MemoryDesc mem) {
  InstrDesc d;
  d.mnemonic = mnemonic;
  d.family = family;
  d.unit = unit;
  d.counter = counter;
  d.numDsts = uint8_t(dsts);
  d.mem = mem;
  return d;
}

constexpr MemoryDesc access(MemKind kind, Space space, unsigned bytes,
                            Extend extend = Extend::Zero) {
  MemoryDesc m;
  m.kind = kind;
  m.space = space;
  m.bytes = uint8_t(bytes);
  m.extend = extend;
  return m;
}

constexpr MemoryDesc atomicAccess(Space space, AtomicOp op, unsigned bytes,
                                  bool returns) {
  MemoryDesc m = access(MemKind::Atomic, space, bytes);
  m.atomic = op;
  m.returnsData = returns;
  return m;
}

constexpr MemoryDesc twoAddressAccess(MemKind kind, unsigned bytes,
                                      bool stride64) {
  MemoryDesc m = access(kind, Space::Lds, bytes);
  m.twoAddresses = true;
  m.stride64 = stride64;
  return m;
}

constexpr MemoryDesc transposeAccess(unsigned bytes, unsigned bits) {
  MemoryDesc m = access(MemKind::Load, Space::Lds, bytes);
  m.transposeBits = uint8_t(bits);
  return m;
}

constexpr Space spaceOf(Family family) {
  return family == Family::GLOBAL    ? Space::Global
         : family == Family::SCRATCH ? Space::Scratch
                                     : Space::Flat;
}

constexpr Counter flatCounter(Family family) {
  return family == Family::FLAT ? Counter::VmLgkm : Counter::Vm;
}

const InstrDesc kTable[] = {
#define HK_SOP1(name, unit, dsts, sem)                                         \
  alu(#name, Family::SOP1, Unit::unit, dsts),
#define HK_SOP2(name, unit, dsts, sem)                                         \
  alu(#name, Family::SOP2, Unit::unit, dsts),
#define HK_SOPK(name, unit, dsts, sem)                                         \
  alu(#name, Family::SOPK, Unit::unit, dsts),
#define HK_SOPC(name, unit, sem) alu(#name, Family::SOPC, Unit::unit, 0),
#define HK_SOPP(name, unit, sem) alu(#name, Family::SOPP, Unit::unit, 0),
#define HK_SMEM(name, kind, bytes, dsts, sem)                                  \
  memory(#name, Family::SMEM, Unit::Smem, Counter::Lgkm, dsts,                 \
         access(MemKind::kind, Space::Scalar, bytes)),
#define HK_VOP1(name, unit, dsts, sem)                                         \
  alu(#name, Family::VOP1, Unit::unit, dsts),
#define HK_VOP2(name, unit, dsts, sem)                                         \
  alu(#name, Family::VOP2, Unit::unit, dsts),
#define HK_VOP3(name, unit, dsts, sem)                                         \
  alu(#name, Family::VOP3, Unit::unit, dsts),
#define HK_VOP3P(name, unit, dsts, sem)                                        \
  alu(#name, Family::VOP3P, Unit::unit, dsts),
#define HK_VOPC(name, sem) alu(#name, Family::VOPC, Unit::Valu, 1),
#define HK_MAI(name, unit, dsts, sem) alu(#name, Family::MAI, Unit::unit, dsts),
#define HK_DS_LOAD(name, bytes, extend)                                        \
  memory(#name, Family::DS, Unit::Lds, Counter::Lgkm, 1,                       \
         access(MemKind::Load, Space::Lds, bytes, Extend::extend)),
#define HK_DS_STORE(name, bytes, extend)                                       \
  memory(#name, Family::DS, Unit::Lds, Counter::Lgkm, 0,                       \
         access(MemKind::Store, Space::Lds, bytes, Extend::extend)),
#define HK_DS_LOAD2(name, bytes, stride64)                                     \
  memory(#name, Family::DS, Unit::Lds, Counter::Lgkm, 1,                       \
         twoAddressAccess(MemKind::Load, bytes, stride64)),
#define HK_DS_STORE2(name, bytes, stride64)                                    \
  memory(#name, Family::DS, Unit::Lds, Counter::Lgkm, 0,                       \
         twoAddressAccess(MemKind::Store, bytes, stride64)),
#define HK_DS_ATOMIC(name, op, bytes, returns)                                 \
  memory(#name, Family::DS, Unit::Lds, Counter::Lgkm, returns ? 1 : 0,         \
         atomicAccess(Space::Lds, AtomicOp::op, bytes, returns)),
#define HK_DS_TRANSPOSE(name, bytes, bits)                                     \
  memory(#name, Family::DS, Unit::Lds, Counter::Lgkm, 1,                       \
         transposeAccess(bytes, bits)),
#define HK_DS(name, dsts, sem)                                                 \
  memory(#name, Family::DS, Unit::Lds, Counter::Lgkm, dsts, MemoryDesc()),
#define HK_MUBUF_LOAD(name, bytes, extend)                                     \
  memory(#name, Family::MUBUF, Unit::VmemLoad, Counter::Vm, 1,                 \
         access(MemKind::Load, Space::Global, bytes, Extend::extend)),
#define HK_MUBUF_STORE(name, bytes, extend)                                    \
  memory(#name, Family::MUBUF, Unit::VmemStore, Counter::Vm, 0,                \
         access(MemKind::Store, Space::Global, bytes, Extend::extend)),
#define HK_MUBUF_ATOMIC(name, op, bytes)                                       \
  memory(#name, Family::MUBUF, Unit::VmemAtomic, Counter::Vm, 0,               \
         atomicAccess(Space::Global, AtomicOp::op, bytes, false)),
#define HK_MUBUF(name, unit, sem)                                              \
  memory(#name, Family::MUBUF, Unit::unit, Counter::Vm, 0, MemoryDesc()),
#define HK_FLAT_LOAD(name, family, bytes, extend)                              \
  memory(                                                                      \
      #name, Family::family, Unit::VmemLoad, flatCounter(Family::family), 1,   \
      access(MemKind::Load, spaceOf(Family::family), bytes, Extend::extend)),
#define HK_FLAT_STORE(name, family, bytes, extend)                             \
  memory(                                                                      \
      #name, Family::family, Unit::VmemStore, flatCounter(Family::family), 0,  \
      access(MemKind::Store, spaceOf(Family::family), bytes, Extend::extend)),
#define HK_FLAT_ATOMIC(name, family, op, bytes)                                \
  memory(#name, Family::family, Unit::VmemAtomic, flatCounter(Family::family), \
         0,                                                                    \
         atomicAccess(spaceOf(Family::family), AtomicOp::op, bytes, false)),
#define HK_GLOBAL_LOAD_LDS(name, bytes)                                        \
  memory(#name, Family::GLOBAL, Unit::DirectToLds, Counter::Vm, 0,             \
         access(MemKind::Load, Space::Global, bytes)),
#include "hk/ISA/Instructions/All.def"
};

struct Index {
  std::vector<InstrDesc> table;
  llvm::StringMap<const InstrDesc *> byMnemonic;
  Index() : table(std::begin(kTable), std::end(kTable)) {
    for (size_t i = 0; i < table.size(); ++i) {
      table[i].index = uint16_t(i);
      byMnemonic[table[i].mnemonic] = &table[i];
    }
  }
};

const Index &index() {
  static const Index instance;
  return instance;
}

} // namespace

llvm::ArrayRef<InstrDesc> hk::isa::allInstrs() { return index().table; }

const InstrDesc *hk::isa::lookupInstr(llvm::StringRef mnemonic) {
  return index().byMnemonic.lookup(mnemonic);
}

llvm::StringRef hk::isa::stringifyFamily(Family family) {
  static const char *const names[] = {
      "SOP1", "SOP2",  "SOPC",  "SOPK", "SOPP",   "SMEM",
      "VOP1", "VOP2",  "VOPC",  "VOP3", "VOP3P",  "MAI",
      "DS",   "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH"};
  static_assert(std::size(names) == size_t(Family::Count));
  return family < Family::Count ? names[size_t(family)] : "?";
}

llvm::StringRef hk::isa::stringifyUnit(Unit unit) {
  static const char *const names[] = {
      "salu",          "valu",      "trans",      "mfma",
      "lds",           "vmem_load", "vmem_store", "vmem_atomic",
      "direct_to_lds", "smem",      "branch",     "wait",
      "barrier",       "message",   "hint",       "end"};
  static_assert(std::size(names) == size_t(Unit::Count));
  return unit < Unit::Count ? names[size_t(unit)] : "?";
}

llvm::StringRef hk::isa::stringifyCounter(Counter counter) {
  switch (counter) {
  case Counter::None:
    return "none";
  case Counter::Vm:
    return "vmcnt";
  case Counter::Lgkm:
    return "lgkmcnt";
  case Counter::VmLgkm:
    return "vmcnt+lgkmcnt";
  }
  return "?";
}
