//===- Instruction.h - A decoded CDNA3/CDNA4 instruction ---------*- C++
//-*-===//
//
// The structured form of one machine instruction: its table entry, its
// operands in the documented assembler order (destinations first) and its
// modifiers as typed fields. hk::isa::Decoder builds it from LLVM's
// MCInst (registers and immediates) and the instruction words (modifier
// fields); nothing is parsed from printed text.
//
//===----------------------------------------------------------------------===//

#ifndef HK_ISA_INSTRUCTION_H
#define HK_ISA_INSTRUCTION_H

#include "hk/ISA/InstrDesc.h"

#include <cstdint>
#include <string>

namespace hk {
struct MfmaInstr;
namespace isa {

constexpr unsigned kNumSgprs = 128;
constexpr unsigned kNumVgprs = 512; ///< 256 arch VGPRs then 256 AGPRs.
constexpr unsigned kAgprBase = 256;
// SGPR-file indices of the special scalar registers (their encodings).
constexpr unsigned kFlatScratchLo = 102;
constexpr unsigned kXnackMaskLo = 104;
constexpr unsigned kVccLo = 106;
constexpr unsigned kTtmp0 = 108;
constexpr unsigned kM0 = 124;
constexpr unsigned kExecLo = 126;
/// Apertures of the flat address space (src_shared_base and
/// src_private_base): flat addresses with these high bits land in LDS or in
/// scratch.
constexpr uint64_t kSharedAperture = 0x0001000000000000ull;
constexpr uint64_t kPrivateAperture = 0x0002000000000000ull;

/// Vgpr covers AGPRs too (register 256 + n is an). Cond is one of the
/// condition sources src_vccz, src_execz, src_scc (reg 0, 1, 2). Off is an
/// address operand the instruction does not use (printed "off").
enum class OpKind : uint8_t { None, Vgpr, Sgpr, Imm, Off, Cond };

struct Operand {
  OpKind kind = OpKind::None;
  uint8_t count = 1; ///< Consecutive 32-bit registers.
  bool neg = false, abs = false, sext = false;
  uint16_t reg = 0;
  /// Imm: the bit pattern as the operand's width sees it (64 bits for
  /// 64-bit operands, inline constants already expanded).
  uint64_t imm = 0;
  bool isVgpr() const { return kind == OpKind::Vgpr; }
  bool isSgpr() const { return kind == OpKind::Sgpr; }
};

/// The encoding an instruction was decoded from, beyond its family.
enum class Encoding : uint8_t {
  Native, ///< The family's own encoding (e32 for VALU).
  VOP3,   ///< A VOP1/VOP2/VOPC instruction in the 64-bit VOP3 encoding.
  DPP,
  SDWA,
};

/// The limits one s_waitcnt waits for: execution continues once at most
/// `vmcnt` vector-memory, `expcnt` export and `lgkmcnt` LDS/scalar-memory
/// operations are outstanding. A counter the instruction leaves alone holds
/// its largest encodable value (see the k*Max constants).
struct WaitLimits {
  static constexpr unsigned kVmcntMax = 63;
  static constexpr unsigned kExpcntMax = 7;
  static constexpr unsigned kLgkmcntMax = 15;
  unsigned vmcnt = kVmcntMax;
  unsigned expcnt = kExpcntMax;
  unsigned lgkmcnt = kLgkmcntMax;
  bool drainsVmcnt() const { return vmcnt == 0; }
  bool drainsLgkmcnt() const { return lgkmcnt == 0; }
  /// Decodes s_waitcnt's 16-bit immediate (vmcnt in bits 3:0 and 15:14,
  /// expcnt in 6:4, lgkmcnt in 11:8).
  static WaitLimits fromImmediate(uint32_t simm16);
};

struct Instruction {
  /// The table entry (a made-up unlisted one for instructions the table
  /// does not know; null only when the bytes did not decode).
  const InstrDesc *desc = nullptr;
  Encoding encoding = Encoding::Native;
  uint64_t pc = 0;
  uint8_t size = 4;
  uint32_t words[4] = {0, 0, 0, 0};

  uint8_t numOps = 0;
  /// Leading operands that are written and not read.
  uint8_t numDsts = 0;
  Operand ops[8];

  // Memory modifiers.
  int32_t offset = 0; ///< Byte offset (DS, MUBUF, FLAT, SMEM); ds_swizzle's
                      ///< pattern.
  uint8_t offset0 = 0, offset1 = 0;
  bool sc0 = false, sc1 = false, nt = false, lds = false, offen = false,
       idxen = false, gds = false;
  // VOP3/VOP3P modifiers.
  bool clamp = false;
  uint8_t omod = 0; ///< 0 none, 1 *2, 2 *4, 3 /2.
  /// VOP3 op_sel: bit i selects the high half of source i, bit 3 writes the
  /// destination's high half. VOP3P: op_sel/op_sel_hi/neg bit i is source i.
  uint8_t opSel = 0, opSelHi = 0x7, negLo = 0, negHi = 0;
  // DPP.
  uint16_t dppCtrl = 0;
  bool boundCtrl = false;
  uint8_t rowMask = 0xf, bankMask = 0xf;
  // SDWA selectors: 0-3 byte, 4-5 word, 6 dword.
  uint8_t dstSel = 6, dstUnused = 0, src0Sel = 6, src1Sel = 6;
  // MFMA.
  uint8_t cbsz = 0, abid = 0, blgp = 0;
  /// gfx950 v_bitop3: truth table indexed by (S0 << 2) | (S1 << 1) | S2.
  uint8_t bitop3 = 0;
  const MfmaInstr *mfma = nullptr;
  /// SOPP/SOPK immediate (branch offset, priority, hwreg, ...).
  int64_t simm = 0;
  /// s_waitcnt: the counter limits.
  WaitLimits wait;

  /// As LLVM prints it (for messages and listings only).
  std::string text;
  /// Why the instruction cannot be executed: undecodable bytes, an MFMA the
  /// chip lacks. Empty when it decoded.
  std::string error;

  llvm::StringRef mnemonic() const {
    return desc ? desc->mnemonic : llvm::StringRef("<undecodable>");
  }
  /// The unit, refined by modifiers: a buffer load with `lds` goes to LDS.
  Unit unit() const;
  bool isDpp() const { return encoding == Encoding::DPP; }
  bool isSdwa() const { return encoding == Encoding::SDWA; }
  bool isDirectToLds() const { return unit() == Unit::DirectToLds; }
  /// s_branch and s_cbranch_*: where the branch goes when taken.
  bool isDirectBranch() const;
  uint64_t branchTarget() const {
    return pc + 4 + int64_t(int16_t(uint16_t(simm))) * 4;
  }
  /// "pc 0x... 'text' (encoding XXXXXXXX ...)", for messages.
  std::string describe() const;
};

} // namespace isa
} // namespace hk

#endif // HK_ISA_INSTRUCTION_H
