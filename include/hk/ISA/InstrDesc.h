//===- InstrDesc.h - One table of every CDNA3/CDNA4 instruction --*- C++
//-*-===//
//
// What the project knows about each instruction, independent of any operand:
// its encoding family, the unit it issues to, the wait counter it raises and,
// for memory instructions, what and how much it moves. The table is built
// from the `.def` files next to this header, one line per instruction; the
// emulator binds its semantics from the same lines, and hk-report and the
// timing model classify code with it. Nothing else decides what kind of
// instruction a mnemonic is.
//
//   const hk::isa::InstrDesc *d = hk::isa::lookupInstr("ds_read_b128");
//   d->unit == Unit::Lds; d->counter == Counter::Lgkm; d->mem.bytes == 16
//
//===----------------------------------------------------------------------===//

#ifndef HK_ISA_INSTRDESC_H
#define HK_ISA_INSTRDESC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace hk::isa {

/// Encoding families (AMD's CDNA3 ISA reference, "Microcode Formats"). A
/// VALU instruction is listed under its native family (VOP1, VOP2, VOPC);
/// its VOP3, DPP and SDWA encodings are variants (see Encoding).
enum class Family : uint8_t {
  SOP1,
  SOP2,
  SOPC,
  SOPK,
  SOPP,
  SMEM,
  VOP1,
  VOP2,
  VOPC,
  VOP3,  ///< Instructions that exist only in the VOP3 encoding.
  VOP3P, ///< Packed math (VOP3P without the matrix cores).
  MAI,   ///< Matrix-core instructions (VOP3P-MAI): MFMAs and AccVGPR moves.
  DS,
  MUBUF,
  MTBUF,
  FLAT,
  GLOBAL,
  SCRATCH,
  Count
};

/// The execution resource an instruction is issued to.
enum class Unit : uint8_t {
  Salu,
  Valu,
  Trans, ///< Transcendental VALU (exp, log, rcp, rsq, sqrt, sin, cos).
  Mfma,
  Lds,
  VmemLoad,
  VmemStore,
  VmemAtomic,
  DirectToLds, ///< A vector-memory load whose data goes to LDS.
  Smem,
  Branch,
  Wait,    ///< s_waitcnt.
  Barrier, ///< s_barrier.
  Message, ///< s_sendmsg and kin.
  Hint,    ///< s_nop, s_setprio, s_sleep, cache and performance hints.
  EndProgram,
  Count
};

/// The s_waitcnt counter an instruction increments while in flight.
enum class Counter : uint8_t {
  None,
  Vm,   ///< vmcnt: vector memory.
  Lgkm, ///< lgkmcnt: LDS, GDS, scalar memory, messages.
  /// FLAT instructions count on both: the address space is known only at
  /// run time.
  VmLgkm,
};

enum class MemKind : uint8_t { None, Load, Store, Atomic };

enum class Space : uint8_t { None, Global, Flat, Scratch, Lds, Scalar };

/// How a sub-dword access uses its register: loads zero- or sign-extend
/// to 32 bits, or (D16) fill one 16-bit half of the VGPR and keep the other;
/// D16 stores write the named half.
enum class Extend : uint8_t {
  Zero,
  Sign,
  D16Lo,
  D16Hi,
  D16LoSign,
  D16HiSign,
};
inline bool isSignExtending(Extend e) {
  return e == Extend::Sign || e == Extend::D16LoSign || e == Extend::D16HiSign;
}
inline bool isD16(Extend e) { return e >= Extend::D16Lo; }
inline bool isD16High(Extend e) {
  return e == Extend::D16Hi || e == Extend::D16HiSign;
}

/// Read-modify-write operations of atomics (LDS, buffer and global).
enum class AtomicOp : uint8_t {
  Swap,
  CmpSwap,
  Add,
  Sub,
  RSub, ///< data - old (LDS only).
  SMin,
  SMax,
  UMin,
  UMax,
  And,
  Or,
  Xor,
  Inc,
  Dec,
  AddF32,
  MinF32,
  MaxF32,
  PkAddF16,
  PkAddBf16,
  AddF64,
  MinF64,
  MaxF64,
};

/// What a memory instruction moves, per lane (vector) or in total (scalar).
struct MemoryDesc {
  MemKind kind = MemKind::None;
  Space space = Space::None;
  uint8_t bytes = 0; ///< Per address; ds_read2/write2 move twice this.
  Extend extend = Extend::Zero;
  AtomicOp atomic = AtomicOp::Add;
  /// LDS atomics: the _rtn form returns the old value. (Vector-memory
  /// atomics return it when their sc0/glc bit is set.)
  bool returnsData = false;
  /// ds_read2*/ds_write2*: two addresses, offsets in units of `bytes`
  /// (times 64 for the st64 forms).
  bool twoAddresses = false;
  bool stride64 = false;
  /// ds_read_*_tr_b*: element width of the transposing read.
  uint8_t transposeBits = 0;
};

/// One instruction of the table.
struct InstrDesc {
  llvm::StringRef mnemonic;
  Family family = Family::Count;
  Unit unit = Unit::Valu;
  Counter counter = Counter::None;
  /// Leading destination operands in the documented assembler order; the
  /// sources follow them. A destination an instruction also reads (the
  /// accumulator of v_fmac_f32) still counts here.
  uint8_t numDsts = 1;
  MemoryDesc mem;
  /// Index in allInstrs().
  uint16_t index = 0;
  /// False for an entry the decoder made up for an instruction LLVM decodes
  /// but the table does not list: classified from LLVM's instruction flags,
  /// without semantics.
  bool listed = true;
};

/// Every listed instruction, in .def order.
llvm::ArrayRef<InstrDesc> allInstrs();
/// The listed instruction `mnemonic` (no _e32/_e64/_dpp/_sdwa suffix).
const InstrDesc *lookupInstr(llvm::StringRef mnemonic);

llvm::StringRef stringifyFamily(Family family);
llvm::StringRef stringifyUnit(Unit unit);
llvm::StringRef stringifyCounter(Counter counter);

inline bool isVectorMemory(Unit unit) {
  return unit == Unit::VmemLoad || unit == Unit::VmemStore ||
         unit == Unit::VmemAtomic || unit == Unit::DirectToLds;
}
inline bool isVectorAlu(Unit unit) {
  return unit == Unit::Valu || unit == Unit::Trans;
}

} // namespace hk::isa

#endif // HK_ISA_INSTRDESC_H
