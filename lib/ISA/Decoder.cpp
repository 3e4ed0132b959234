//===- Decoder.cpp - Machine code to structured instructions --------------===//
//
// LLVM's MC disassembler identifies an instruction: opcode, length,
// registers and immediates. Its MCInstrDesc says which operands are
// definitions, sources (with their types, for the width of a constant),
// source modifiers and tied copies; its opcode name's mnemonic finds the
// table entry. The immediates LLVM keeps without a name (clamp, omod,
// op_sel, offsets, cache bits, DPP and SDWA controls, MFMA broadcasts) are
// read from the instruction words by the field layouts of AMD's CDNA3 ISA
// reference ("Microcode Formats"), which the unit tests check against
// LLVM's assembler.
//
// LLVM's installed headers do not name the AMDGPU operand types, register
// encoding bits or instruction flags; the values this file relies on are
// LLVM 22's (SIDefines.h) and Decoder::create checks them against known
// instructions before decoding anything.
//
//===----------------------------------------------------------------------===//

#include "hk/ISA/Decoder.h"

#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <deque>
#include <mutex>

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUDisassembler();

using namespace hk;
using namespace hk::isa;

namespace {

// LLVM 22's AMDGPU facts (llvm/lib/Target/AMDGPU/SIDefines.h), checked by
// checkLlvmFacts before use.

/// SIInstrFlags: the TSFlags bits of an MCInstrDesc.
namespace flags {
constexpr uint64_t VALU = 1 << 1, SOP1 = 1 << 2, SOP2 = 1 << 3, SOPC = 1 << 4,
                   SOPK = 1 << 5, SOPP = 1 << 6, VOP1 = 1 << 7, VOP2 = 1 << 8,
                   VOPC = 1 << 9, VOP3 = 1 << 10, VOP3P = 1 << 12,
                   SDWA = 1 << 14, DPP = 1 << 15, TRANS = 1 << 16,
                   MUBUF = 1 << 17, MTBUF = 1 << 18, SMRD = 1 << 19,
                   FLAT = 1 << 24, DS = 1 << 25;
constexpr uint64_t VM_CNT = 1ull << 32, LGKM_CNT = 1ull << 34,
                   FlatGlobal = 1ull << 51, IsMAI = 1ull << 54,
                   FlatScratch = 1ull << 56;
} // namespace flags

/// AMDGPU::OperandType, relative to MCOI::OPERAND_FIRST_TARGET.
namespace optype {
constexpr unsigned First = llvm::MCOI::OPERAND_FIRST_TARGET;
constexpr unsigned RegImmInt32 = First + 0, RegImmInt64 = First + 1,
                   RegImmInt16 = First + 2, RegImmFp32 = First + 3,
                   RegImmFp64 = First + 4, RegImmBf16 = First + 5,
                   RegImmFp16 = First + 6, InlineInt16 = First + 14,
                   InlineInt64 = First + 16, InlineBf16 = First + 17,
                   InlineFp16 = First + 18, InlineFp64 = First + 20,
                   Kimm32 = First + 25, Kimm16 = First + 26,
                   Kimm64 = First + 27, InlineAcFp64 = First + 30,
                   InputMods = First + 32;
/// Types of operands that take a register or a constant.
constexpr unsigned SrcFirst = RegImmInt32, SrcLast = InlineAcFp64;
} // namespace optype

/// SISrcMods: the bits of a source-modifier operand.
namespace srcmods {
constexpr int64_t Neg = 1, Abs = 2, Sext = 16;
}

/// Register encodings (HWEncoding): bit 10 marks a VGPR, bit 11 an AGPR.
constexpr unsigned kIsVgpr = 1u << 10, kIsAgpr = 1u << 11;

/// Scalar operand encodings of the special sources (AMD ISA, "Scalar
/// Operand Encoding").
constexpr unsigned kSrcSharedBase = 235, kSrcSharedLimit = 236,
                   kSrcPrivateBase = 237, kSrcPrivateLimit = 238,
                   kSrcVccz = 251, kSrcExecz = 252, kSrcScc = 253;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

uint32_t field(uint32_t word, unsigned hi, unsigned lo) {
  return (word >> lo) & ((1u << (hi - lo + 1)) - 1);
}

int32_t signedField(uint32_t word, unsigned hi, unsigned lo) {
  unsigned width = hi - lo + 1;
  return int32_t(field(word, hi, lo) << (32 - width)) >> (32 - width);
}

/// The top six bits of an instruction's first word for the encodings
/// LLVM 22's decoder must not see with a literal where none is allowed.
enum : uint32_t { kVop3Top = 0x34, kMubufTop = 0x38, kMtbufTop = 0x3a };

/// What the decoder learns once per LLVM opcode.
struct OpcodeInfo {
  const InstrDesc *desc = nullptr;
  Encoding encoding = Encoding::Native;
  uint64_t tsFlags = 0;
  bool mayLoad = false, mayStore = false;
  bool implicitVccDef = false, implicitVccUse = false;
};

} // namespace

struct Decoder::Impl {
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCDisassembler> disasm;
  std::unique_ptr<llvm::MCInstPrinter> printer;
  /// Width in bits of each register (its widest register class).
  std::vector<uint16_t> regBits;
  llvm::MCRegister vcc;

  mutable std::mutex mutex;
  mutable std::vector<std::unique_ptr<OpcodeInfo>> opcodes;

  const OpcodeInfo &info(unsigned opcode) const;
  InstrDesc makeUnlisted(llvm::StringRef mnemonic, unsigned opcode) const;
  Operand registerOperand(llvm::MCRegister reg, std::string &error) const;
  llvm::MCRegister findRegister(llvm::StringRef name) const;
  llvm::Error checkLlvmFacts() const;
};

// LLVM facts ------------------------------------------------------------------

llvm::MCRegister Decoder::Impl::findRegister(llvm::StringRef name) const {
  for (unsigned reg = 1; reg < mri->getNumRegs(); ++reg)
    if (name == mri->getName(reg))
      return llvm::MCRegister(reg);
  return llvm::MCRegister();
}

/// The first real opcode named `name` (an LLVM opcode name, e.g.
/// V_ADD_F32_e64_vi), or -1.
static int findOpcode(const llvm::MCInstrInfo &mii, llvm::StringRef name) {
  for (unsigned op = 0; op < mii.getNumOpcodes(); ++op)
    if (mii.getName(op) == name)
      return int(op);
  return -1;
}

llvm::Error Decoder::Impl::checkLlvmFacts() const {
  auto fail = [](const llvm::Twine &what) {
    return makeError("LLVM's AMDGPU MC layer differs from what hk's decoder "
                     "was written against (LLVM 22): " +
                     what);
  };
  llvm::MCRegister v1 = findRegister("VGPR1"), a1 = findRegister("AGPR1");
  if (!v1 || !a1 || mri->getEncodingValue(v1) != (kIsVgpr | 1) ||
      mri->getEncodingValue(a1) != (kIsAgpr | 1))
    return fail("VGPR/AGPR register encodings");
  if (!vcc || mri->getEncodingValue(vcc) != kVccLo)
    return fail("the VCC register");
  struct Probe {
    const char *opcode;
    unsigned operand, type;
    uint64_t flags;
  };
  const Probe probes[] = {
      {"V_ADD_F32_e64_vi", 1, optype::InputMods, flags::VALU | flags::VOP3},
      {"V_ADD_F32_e64_vi", 2, optype::RegImmFp32, 0},
      {"V_FMA_F64_vi", 2, optype::RegImmFp64, flags::VALU | flags::VOP3},
      {"V_MADMK_F32_vi", 2, optype::Kimm32, flags::VALU | flags::VOP2},
      {"V_ADD_CO_U32_e64_gfx9", 2, optype::RegImmInt32, flags::VALU},
      {"V_EXP_F32_e32_vi", 1, optype::RegImmFp32,
       flags::VALU | flags::VOP1 | flags::TRANS},
      {"DS_READ_B128_vi", 1, llvm::MCOI::OPERAND_REGISTER,
       flags::DS | flags::LGKM_CNT},
      {"GLOBAL_LOAD_DWORD_vi", 1, llvm::MCOI::OPERAND_REGISTER,
       flags::FLAT | flags::FlatGlobal | flags::VM_CNT},
      {"BUFFER_LOAD_DWORD_OFFEN_vi", 1, llvm::MCOI::OPERAND_REGISTER,
       flags::MUBUF | flags::VM_CNT},
      {"S_LOAD_DWORD_IMM_vi", 1, llvm::MCOI::OPERAND_REGISTER,
       flags::SMRD | flags::LGKM_CNT},
      {"V_MFMA_F32_16X16X16BF16_1K_gfx940_acd", 1, llvm::MCOI::OPERAND_REGISTER,
       flags::IsMAI | flags::VOP3},
  };
  for (const Probe &p : probes) {
    int op = findOpcode(*mii, p.opcode);
    if (op < 0)
      return fail(llvm::Twine("no opcode ") + p.opcode);
    const llvm::MCInstrDesc &d = mii->get(unsigned(op));
    if (p.operand >= d.getNumOperands() ||
        d.operands()[p.operand].OperandType != p.type)
      return fail(llvm::Twine("operand types of ") + p.opcode);
    if ((d.TSFlags & p.flags) != p.flags)
      return fail(llvm::Twine("instruction flags of ") + p.opcode);
  }
  return llvm::Error::success();
}

// Per-opcode facts
// -------------------------------------------------------------

/// The assembler mnemonic of an MCInst's opcode without its encoding
/// suffix: the first word of the printer's mnemonic string (it carries
/// fixed operand text after the first word for some forms).
static std::string mnemonicOf(const llvm::MCInstPrinter &printer,
                              unsigned opcode) {
  llvm::MCInst probe;
  probe.setOpcode(opcode);
  const char *text = printer.getMnemonic(probe).first;
  if (!text)
    return "";
  llvm::StringRef m = llvm::StringRef(text).trim();
  m = m.take_until([](char c) { return c == ' ' || c == '\t' || c == ','; });
  for (llvm::StringRef suffix : {"_e32", "_e64", "_dpp", "_sdwa"})
    if (m.consume_back(suffix))
      break;
  return m.str();
}

/// The family LLVM's flags give an instruction (its native one for VALU).
static Family familyOf(uint64_t ts) {
  using namespace flags;
  if (ts & SOP1)
    return Family::SOP1;
  if (ts & SOP2)
    return Family::SOP2;
  if (ts & SOPC)
    return Family::SOPC;
  if (ts & SOPK)
    return Family::SOPK;
  if (ts & SOPP)
    return Family::SOPP;
  if (ts & SMRD)
    return Family::SMEM;
  if (ts & DS)
    return Family::DS;
  if (ts & MUBUF)
    return Family::MUBUF;
  if (ts & MTBUF)
    return Family::MTBUF;
  if (ts & FLAT)
    return (ts & FlatGlobal)    ? Family::GLOBAL
           : (ts & FlatScratch) ? Family::SCRATCH
                                : Family::FLAT;
  if (ts & VOP1)
    return Family::VOP1;
  if (ts & VOP2)
    return Family::VOP2;
  if (ts & VOPC)
    return Family::VOPC;
  if (ts & IsMAI)
    return Family::MAI;
  if (ts & VOP3P)
    return Family::VOP3P;
  return Family::VOP3;
}

static Counter counterOf(uint64_t ts) {
  bool vm = ts & flags::VM_CNT, lgkm = ts & flags::LGKM_CNT;
  return vm && lgkm ? Counter::VmLgkm
         : vm       ? Counter::Vm
         : lgkm     ? Counter::Lgkm
                    : Counter::None;
}

InstrDesc Decoder::Impl::makeUnlisted(llvm::StringRef mnemonic,
                                      unsigned opcode) const {
  const llvm::MCInstrDesc &d = mii->get(opcode);
  uint64_t ts = d.TSFlags;
  InstrDesc desc;
  desc.mnemonic = mnemonic;
  desc.listed = false;
  desc.family = familyOf(ts);
  desc.counter = counterOf(ts);
  desc.numDsts = uint8_t(d.getNumDefs());
  bool memory = ts & (flags::DS | flags::MUBUF | flags::MTBUF | flags::FLAT);
  if (d.isReturn() && (ts & flags::SOPP))
    desc.unit = Unit::EndProgram;
  else if (d.isBranch() || d.isCall() || d.isReturn())
    desc.unit = Unit::Branch;
  else if (ts & flags::SMRD)
    desc.unit = Unit::Smem;
  else if (ts & flags::DS)
    desc.unit = Unit::Lds;
  else if (memory)
    desc.unit = d.mayLoad() && d.mayStore() ? Unit::VmemAtomic
                : d.mayStore()              ? Unit::VmemStore
                                            : Unit::VmemLoad;
  else if (ts & flags::IsMAI)
    desc.unit = mnemonic.starts_with("v_accvgpr") ? Unit::Valu : Unit::Mfma;
  else if (ts & flags::TRANS)
    desc.unit = Unit::Trans;
  else if (ts & flags::VALU)
    desc.unit = Unit::Valu;
  else if (ts & flags::SOPP)
    desc.unit = Unit::Hint;
  else
    desc.unit = Unit::Salu;
  if (memory || (ts & flags::SMRD))
    desc.mem.kind = d.mayLoad() && d.mayStore() ? MemKind::Atomic
                    : d.mayStore()              ? MemKind::Store
                    : d.mayLoad()               ? MemKind::Load
                                                : MemKind::None;
  return desc;
}

/// The made-up entry of an unlisted instruction, made once per process by
/// `make` and kept for good: decoded instructions point at it after their
/// decoder is gone.
static const InstrDesc *
unlistedEntry(const std::string &mnemonic,
              llvm::function_ref<InstrDesc(llvm::StringRef)> make) {
  static std::mutex mutex;
  static std::deque<std::string> names;
  static std::deque<InstrDesc> entries;
  static llvm::StringMap<const InstrDesc *> byName;
  std::lock_guard<std::mutex> lock(mutex);
  const InstrDesc *&entry = byName[mnemonic];
  if (!entry) {
    names.push_back(mnemonic);
    entries.push_back(make(names.back()));
    entry = &entries.back();
  }
  return entry;
}

const OpcodeInfo &Decoder::Impl::info(unsigned opcode) const {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<OpcodeInfo> &slot = opcodes[opcode];
  if (slot)
    return *slot;
  auto result = std::make_unique<OpcodeInfo>();
  const llvm::MCInstrDesc &d = mii->get(opcode);
  result->tsFlags = d.TSFlags;
  result->mayLoad = d.mayLoad();
  result->mayStore = d.mayStore();
  for (llvm::MCPhysReg reg : d.implicit_defs())
    result->implicitVccDef |= reg == vcc;
  for (llvm::MCPhysReg reg : d.implicit_uses())
    result->implicitVccUse |= reg == vcc;
  uint64_t ts = d.TSFlags;
  std::string mnemonic = mnemonicOf(*printer, opcode);
  result->desc = lookupInstr(mnemonic);
  Family native = result->desc ? result->desc->family : familyOf(ts);
  bool vop12c = native == Family::VOP1 || native == Family::VOP2 ||
                native == Family::VOPC;
  if (ts & flags::SDWA)
    result->encoding = Encoding::SDWA;
  else if (ts & flags::DPP)
    result->encoding = Encoding::DPP;
  else if ((ts & flags::VOP3) && vop12c)
    result->encoding = Encoding::VOP3;
  if (!result->desc) {
    if (mnemonic.empty())
      mnemonic = ("<" + mii->getName(opcode) + ">").str();
    result->desc = unlistedEntry(mnemonic, [&](llvm::StringRef name) {
      return makeUnlisted(name, opcode);
    });
  }
  slot = std::move(result);
  return *slot;
}

Operand Decoder::Impl::registerOperand(llvm::MCRegister reg,
                                       std::string &error) const {
  Operand op;
  unsigned enc = mri->getEncodingValue(reg);
  unsigned bits = reg.id() < regBits.size() ? regBits[reg.id()] : 32;
  op.count = uint8_t(std::max(1u, bits / 32));
  if (enc & kIsAgpr) {
    op.kind = OpKind::Vgpr;
    op.reg = uint16_t(kAgprBase + (enc & 0xff));
    return op;
  }
  if (enc & kIsVgpr) {
    op.kind = OpKind::Vgpr;
    op.reg = uint16_t(enc & 0xff);
    return op;
  }
  unsigned index = enc & 0x3ff;
  switch (index) {
  case kSrcSharedBase:
  case kSrcSharedLimit:
  case kSrcPrivateBase:
  case kSrcPrivateLimit: {
    bool shared = index <= kSrcSharedLimit;
    bool limit = index == kSrcSharedLimit || index == kSrcPrivateLimit;
    op.kind = OpKind::Imm;
    op.imm = (shared ? kSharedAperture : kPrivateAperture) +
             (limit ? 0xffffffffull : 0);
    op.count = 2;
    return op;
  }
  case kSrcVccz:
  case kSrcExecz:
  case kSrcScc:
    op.kind = OpKind::Cond;
    op.reg = uint16_t(index - kSrcVccz);
    op.count = 1;
    return op;
  default:
    break;
  }
  if (index + op.count > kNumSgprs) {
    error = ("register " + llvm::Twine(mri->getName(reg)) +
             " is not one the emulator models")
                .str();
    return op;
  }
  op.kind = OpKind::Sgpr;
  op.reg = uint16_t(index);
  return op;
}

// Decoder --------------------------------------------------------------------

Decoder::Decoder(const ChipInfo &chip, std::unique_ptr<Impl> impl)
    : chip(chip), impl(std::move(impl)) {}
Decoder::~Decoder() = default;

llvm::Expected<std::unique_ptr<Decoder>> Decoder::create(const ChipInfo &chip) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
    // Installs LLVM's crash-recovery signal handlers, which hand a crash
    // outside a recovery context back to the handlers they replaced.
    llvm::CrashRecoveryContext::Enable();
  });
  llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("LLVM has no AMDGPU target: " + error);
  auto impl = std::make_unique<Impl>();
  llvm::MCTargetOptions options;
  impl->mri.reset(target->createMCRegInfo(triple));
  impl->mai.reset(target->createMCAsmInfo(*impl->mri, triple, options));
  impl->sti.reset(target->createMCSubtargetInfo(triple, chip.name, ""));
  impl->mii.reset(target->createMCInstrInfo());
  if (!impl->mri || !impl->mai || !impl->sti || !impl->mii)
    return makeError("cannot create the AMDGPU MC layer for " + chip.name);
  impl->ctx = std::make_unique<llvm::MCContext>(
      triple, impl->mai.get(), impl->mri.get(), impl->sti.get());
  impl->disasm.reset(target->createMCDisassembler(*impl->sti, *impl->ctx));
  impl->printer.reset(target->createMCInstPrinter(triple, 0, *impl->mai,
                                                  *impl->mii, *impl->mri));
  if (!impl->disasm || !impl->printer)
    return makeError("cannot create the AMDGPU disassembler for " + chip.name);
  impl->regBits.assign(impl->mri->getNumRegs(), 0);
  for (unsigned c = 0; c < impl->mri->getNumRegClasses(); ++c) {
    const llvm::MCRegisterClass &rc = impl->mri->getRegClass(c);
    for (llvm::MCPhysReg reg : rc)
      impl->regBits[reg] =
          std::max<uint16_t>(impl->regBits[reg], rc.getSizeInBits());
  }
  impl->vcc = impl->findRegister("VCC");
  impl->opcodes.resize(impl->mii->getNumOpcodes());
  if (llvm::Error e = impl->checkLlvmFacts())
    return std::move(e);
  return std::unique_ptr<Decoder>(new Decoder(chip, std::move(impl)));
}

/// Bytes LLVM 22's AMDGPU decoder crashes on instead of rejecting: a
/// literal constant where the encoding allows none (the buffer soffset, any
/// VOP3 source on the GFX9 family). Returns why they are invalid, or null.
static const char *invalidForLlvm(llvm::ArrayRef<uint8_t> bytes) {
  uint32_t w0 = 0, w1 = 0;
  std::memcpy(&w0, bytes.data(), 4);
  if (bytes.size() >= 8)
    std::memcpy(&w1, bytes.data() + 4, 4);
  uint32_t top = w0 >> 26;
  if ((top == kMubufTop || top == kMtbufTop) && field(w1, 31, 24) == 255)
    return "a buffer instruction cannot take a literal constant as soffset";
  if (top == kVop3Top && (field(w1, 8, 0) == 255 || field(w1, 17, 9) == 255 ||
                          field(w1, 26, 18) == 255))
    return "VOP3 encodings take no literal constant on this chip";
  return nullptr;
}

static unsigned immediateBits(unsigned type) {
  using namespace optype;
  switch (type) {
  case RegImmInt64:
  case RegImmFp64:
  case InlineInt64:
  case InlineFp64:
  case InlineAcFp64:
  case Kimm64:
    return 64;
  case RegImmInt16:
  case RegImmBf16:
  case RegImmFp16:
  case InlineInt16:
  case InlineBf16:
  case InlineFp16:
  case Kimm16:
    return 16;
  default:
    return 32;
  }
}

/// A literal constant LLVM keeps as an expression (lit(...), the form it
/// prints for a literal an inline constant could have encoded): its value,
/// or else the literal dword that ends the instruction.
static uint64_t literalValue(const llvm::MCExpr &expr, const Instruction &in) {
  int64_t value = 0;
  if (expr.evaluateAsAbsolute(value))
    return uint64_t(value);
  return in.words[in.size / 4 - 1];
}

static bool isSourceType(unsigned type) {
  return (type >= optype::SrcFirst && type <= optype::SrcLast) ||
         (type >= optype::Kimm32 && type <= optype::Kimm64);
}

namespace {
/// Builds an Instruction's operand list.
struct OperandList {
  Instruction &in;
  bool full = false;
  void push(const Operand &op) {
    if (in.numOps == std::size(in.ops)) {
      full = true;
      return;
    }
    in.ops[in.numOps++] = op;
  }
  void insert(unsigned at, const Operand &op) {
    if (in.numOps == std::size(in.ops)) {
      full = true;
      return;
    }
    for (unsigned i = in.numOps; i > at; --i)
      in.ops[i] = in.ops[i - 1];
    in.ops[at] = op;
    ++in.numOps;
  }
};
} // namespace

static Operand offOperand() {
  Operand op;
  op.kind = OpKind::Off;
  return op;
}

static Operand immOperand(uint64_t value) {
  Operand op;
  op.kind = OpKind::Imm;
  op.imm = value;
  return op;
}

static Operand vccOperand() {
  Operand op;
  op.kind = OpKind::Sgpr;
  op.reg = kVccLo;
  op.count = 2;
  return op;
}

/// The modifier fields of `in`'s encoding, read from its words.
static void decodeFields(Instruction &in, const OpcodeInfo &info) {
  const uint32_t w0 = in.words[0], w1 = in.words[1];
  uint64_t ts = info.tsFlags;
  switch (in.encoding) {
  case Encoding::DPP:
    in.dppCtrl = uint16_t(field(w1, 16, 8));
    in.boundCtrl = field(w1, 19, 19);
    in.bankMask = uint8_t(field(w1, 27, 24));
    in.rowMask = uint8_t(field(w1, 31, 28));
    return;
  case Encoding::SDWA:
    in.src0Sel = uint8_t(field(w1, 18, 16));
    in.src1Sel = uint8_t(field(w1, 26, 24));
    // A compare's SDWA word holds its scalar destination (SDST, SD) where
    // other instructions hold dst_sel, dst_unused, clamp and omod; its
    // result is a whole mask. (LLVM's SDWA compares do not carry the VOPC
    // flag; the table's family says it.)
    if (!(ts & flags::VOPC) && !(in.desc && in.desc->family == Family::VOPC)) {
      in.dstSel = uint8_t(field(w1, 10, 8));
      in.dstUnused = uint8_t(field(w1, 12, 11));
      in.clamp = field(w1, 13, 13);
      in.omod = uint8_t(field(w1, 15, 14));
    }
    return;
  default:
    break;
  }
  Family family = in.desc->family;
  if ((ts & flags::IsMAI) && in.desc->unit == Unit::Mfma) {
    // A scaled MFMA is a v_mfma_ld_scale_b32 prefix (its op_sel fields
    // pick the scale bytes) followed by the MFMA.
    bool scaled = in.size == 16;
    uint32_t m0 = scaled ? in.words[2] : w0, m1 = scaled ? in.words[3] : w1;
    in.cbsz = uint8_t(field(m0, 10, 8));
    in.abid = uint8_t(field(m0, 14, 11));
    in.blgp = uint8_t(field(m1, 31, 29));
    if (scaled) {
      in.opSel = uint8_t(field(w0, 13, 11));
      in.opSelHi = uint8_t(field(w1, 28, 27) | (field(w0, 14, 14) << 2));
    }
    return;
  }
  if (ts & flags::VOP3P) {
    in.opSel = uint8_t(field(w0, 13, 11));
    in.opSelHi = uint8_t(field(w1, 28, 27) | (field(w0, 14, 14) << 2));
    in.negHi = uint8_t(field(w0, 10, 8));
    in.negLo = uint8_t(field(w1, 31, 29));
    in.clamp = field(w0, 15, 15);
    return;
  }
  if (ts & flags::VOP3) {
    in.clamp = field(w0, 15, 15);
    in.omod = uint8_t(field(w1, 28, 27));
    // VOP3b (a second, scalar destination) keeps its sdst where VOP3a
    // has op_sel and abs.
    if (in.numDsts < 2 || family == Family::VOPC)
      in.opSel = uint8_t(field(w0, 14, 11));
    // gfx950's v_bitop3 keeps its truth table in the abs, omod and neg
    // fields.
    if (in.mnemonic().starts_with("v_bitop3")) {
      in.bitop3 = uint8_t(field(w1, 31, 29) | (field(w0, 10, 8) << 3) |
                          (field(w1, 28, 27) << 6));
      in.omod = 0;
    }
    return;
  }
  switch (family) {
  case Family::DS:
    in.offset = int32_t(field(w0, 15, 0));
    in.offset0 = uint8_t(field(w0, 7, 0));
    in.offset1 = uint8_t(field(w0, 15, 8));
    in.gds = field(w0, 16, 16);
    return;
  case Family::MUBUF:
  case Family::MTBUF:
    in.offset = int32_t(field(w0, 11, 0));
    in.offen = field(w0, 12, 12);
    in.idxen = field(w0, 13, 13);
    in.sc0 = field(w0, 14, 14);
    if (family == Family::MUBUF) {
      in.sc1 = field(w0, 15, 15);
      in.lds = field(w0, 16, 16);
      in.nt = field(w0, 17, 17);
    } else {
      in.nt = field(w1, 22, 22);
    }
    return;
  case Family::FLAT:
  case Family::GLOBAL:
  case Family::SCRATCH:
    in.offset = family == Family::FLAT ? int32_t(field(w0, 11, 0))
                                       : signedField(w0, 12, 0);
    in.sc0 = field(w0, 16, 16);
    in.nt = field(w0, 17, 17);
    in.sc1 = field(w0, 25, 25);
    return;
  case Family::SMEM:
    in.sc0 = field(w0, 16, 16);
    // With both an SGPR offset and an immediate one, the immediate is a
    // modifier; alone, it is the offset operand (see decode).
    if (field(w0, 14, 14) && field(w0, 17, 17))
      in.offset = signedField(w1, 20, 0);
    return;
  case Family::SOPP:
  case Family::SOPK:
    in.simm = int64_t(field(w0, 15, 0));
    if (in.mnemonic() == "s_waitcnt")
      in.wait = WaitLimits::fromImmediate(uint32_t(in.simm));
    return;
  case Family::SOPC:
    in.simm = int64_t(field(w0, 15, 8));
    return;
  default:
    return;
  }
}

/// Puts the VGPR operands after the first `defs` into the order of
/// `fields`: each field, in turn, takes the first remaining VGPR operand
/// whose register number (AGPR or VGPR) it holds. LLVM's MCInst orders the
/// address and data operands of memory instructions differently from one
/// addressing form to the next; the encoding's register fields do not.
/// Scalar and constant operands follow, in their order.
static void orderVgprSources(Instruction &in, unsigned defs,
                             llvm::ArrayRef<int> fields) {
  llvm::SmallVector<Operand, 8> vgprs, others, ordered;
  for (unsigned i = defs; i < in.numOps; ++i)
    (in.ops[i].isVgpr() ? vgprs : others).push_back(in.ops[i]);
  for (int f : fields) {
    auto it = llvm::find_if(
        vgprs, [&](const Operand &op) { return int(op.reg % kAgprBase) == f; });
    if (it == vgprs.end())
      continue;
    ordered.push_back(*it);
    vgprs.erase(it);
  }
  ordered.append(vgprs.begin(), vgprs.end());
  ordered.append(others.begin(), others.end());
  for (unsigned i = 0; i < ordered.size(); ++i)
    in.ops[defs + i] = ordered[i];
}

/// Puts the operands the assembler prints but LLVM's MCInst leaves out (an
/// unused address printed "off", VCC of the e32 forms, SOPK and SMEM
/// immediates) where the documented operand order has them.
static void completeOperands(Instruction &in, const OpcodeInfo &info,
                             unsigned explicitDefs, OperandList &list) {
  Family family = in.desc->family;
  uint64_t ts = info.tsFlags;
  bool nonVop3 = !(ts & (flags::VOP3 | flags::VOP3P));
  switch (family) {
  case Family::VOPC:
    if (nonVop3 && info.implicitVccDef && explicitDefs == 0)
      list.insert(0, vccOperand());
    return;
  case Family::VOP2:
    if (nonVop3 && info.implicitVccDef && explicitDefs == 1)
      list.insert(1, vccOperand());
    if (nonVop3 && info.implicitVccUse)
      list.push(vccOperand());
    return;
  case Family::SOPK:
    if (in.mnemonic() == "s_setreg_imm32_b32")
      list.push(immOperand(in.words[1]));
    else
      list.push(immOperand(uint64_t(in.simm)));
    return;
  case Family::SMEM: {
    bool immediate = field(in.words[0], 17, 17),
         sgprOffset = field(in.words[0], 14, 14);
    if (immediate && !sgprOffset && in.desc->mem.kind != MemKind::None)
      list.push(immOperand(uint64_t(int64_t(signedField(in.words[1], 20, 0)))));
    return;
  }
  case Family::DS: {
    // [vdst,] addr, [data0, [data1]]: VGPR fields addr 7:0, data0 15:8,
    // data1 23:16.
    const uint32_t w1 = in.words[1];
    orderVgprSources(
        in, explicitDefs,
        {int(field(w1, 7, 0)), int(field(w1, 15, 8)), int(field(w1, 23, 16))});
    return;
  }
  case Family::MUBUF:
  case Family::MTBUF: {
    // [vdata,] vaddr|off, srsrc, soffset: vdata is a source of stores and
    // non-returning atomics, absent from the LDS forms; vaddr (7:0) is
    // there with offen or idxen, vdata is field 15:8.
    const uint32_t w1 = in.words[1];
    bool vdataIsSource = !in.lds && explicitDefs == 0;
    bool hasVaddr = in.offen || in.idxen;
    std::vector<int> fields;
    if (vdataIsSource)
      fields.push_back(int(field(w1, 15, 8)));
    if (hasVaddr)
      fields.push_back(int(field(w1, 7, 0)));
    orderVgprSources(in, explicitDefs, fields);
    if (!hasVaddr)
      list.insert(in.lds ? 0 : 1, offOperand());
    return;
  }
  case Family::FLAT:
  case Family::GLOBAL:
  case Family::SCRATCH: {
    // [vdst,] vaddr|off, [vdata,] saddr|off: vaddr is field 7:0, vdata
    // 15:8, saddr 22:16 (off when absent, FLAT has none).
    const uint32_t w1 = in.words[1];
    bool hasSaddr = false;
    unsigned vgprs = 0;
    for (unsigned i = explicitDefs; i < in.numOps; ++i) {
      hasSaddr |= in.ops[i].isSgpr();
      vgprs += in.ops[i].isVgpr();
    }
    bool hasData = info.mayStore && !(in.desc->unit == Unit::DirectToLds);
    bool hasVaddr = vgprs > unsigned(hasData);
    std::vector<int> fields;
    if (hasVaddr)
      fields.push_back(int(field(w1, 7, 0)));
    if (hasData)
      fields.push_back(int(field(w1, 15, 8)));
    orderVgprSources(in, explicitDefs, fields);
    if (family == Family::FLAT)
      return;
    if (!hasVaddr)
      list.insert(explicitDefs, offOperand());
    if (!hasSaddr)
      list.push(offOperand());
    return;
  }
  default:
    return;
  }
}

Instruction Decoder::decode(llvm::ArrayRef<uint8_t> bytes, uint64_t pc) const {
  Instruction in;
  in.pc = pc;
  in.size = 4;
  for (unsigned i = 0; i < 4 && 4 * i + 4 <= bytes.size(); ++i)
    std::memcpy(&in.words[i], bytes.data() + 4 * i, 4);
  auto reject = [&](const llvm::Twine &why) {
    in.desc = nullptr;
    in.size = 4;
    in.numOps = 0;
    in.text = "<undecodable>";
    in.error = why.str();
    return in;
  };
  if (bytes.size() < 4)
    return reject("fewer than 4 bytes left");
  if (const char *why = invalidForLlvm(bytes))
    return reject(why);
  // LLVM 22's decoder also crashes when a literal constant runs past the
  // end of its input: it always sees 16 bytes, zero-padded, and an
  // instruction longer than what is left is rejected here.
  uint8_t window[16] = {};
  std::memcpy(window, bytes.data(), std::min<size_t>(bytes.size(), 16));
  llvm::MCInst inst;
  uint64_t size = 0;
  auto status = llvm::MCDisassembler::Fail;
  // Error paths of LLVM 22's decoder can crash on invalid encodings (an
  // out-of-range register tuple formats the name of its register class
  // from a wrong index): a crash there is caught and the bytes rejected.
  llvm::CrashRecoveryContext recovery;
  bool survived = recovery.RunSafely([&] {
    status =
        impl->disasm->getInstruction(inst, size, window, pc, llvm::nulls());
  });
  if (!survived)
    return reject("the AMDGPU disassembler fails on these bytes");
  if (status == llvm::MCDisassembler::Fail || size == 0 || size % 4 ||
      size > 16)
    return reject("the AMDGPU disassembler rejects these bytes");
  if (size > bytes.size())
    return reject("the instruction runs past the end of the code (" +
                  llvm::Twine(size) + " bytes, " + llvm::Twine(bytes.size()) +
                  " left)");
  in.size = uint8_t(size);
  const OpcodeInfo &info = impl->info(inst.getOpcode());
  in.desc = info.desc;
  in.encoding = info.encoding;

  // Registers and immediates from the MCInst, in its (the assembler's)
  // order: definitions, then sources. Tied copies of a definition are
  // dropped; a source-modifier operand applies to the source after it.
  const llvm::MCInstrDesc &d = impl->mii->get(inst.getOpcode());
  OperandList list{in};
  unsigned defs = d.getNumDefs();
  int64_t mods = 0;
  bool vop3p = info.tsFlags & flags::VOP3P;
  std::string error;
  for (unsigned i = 0; i < inst.getNumOperands() && i < d.getNumOperands();
       ++i) {
    const llvm::MCOperand &mo = inst.getOperand(i);
    unsigned type = d.operands()[i].OperandType;
    if (i >= defs && d.getOperandConstraint(i, llvm::MCOI::TIED_TO) >= 0) {
      mods = 0;
      continue;
    }
    if (type == optype::InputMods && mo.isImm()) {
      mods = mo.getImm();
      continue;
    }
    Operand op;
    if (mo.isReg()) {
      if (!mo.getReg())
        continue;
      op = impl->registerOperand(mo.getReg(), error);
    } else if ((mo.isImm() || mo.isExpr()) && i >= defs && isSourceType(type)) {
      unsigned bits = immediateBits(type);
      uint64_t value =
          mo.isImm() ? uint64_t(mo.getImm()) : literalValue(*mo.getExpr(), in);
      op = immOperand(bits == 64 ? value : value & ((1ull << bits) - 1));
      if (bits == 64)
        op.count = 2;
    } else {
      mods = 0;
      continue; // A named modifier: read from the words below.
    }
    // VOP3P keeps its per-half negations in negLo/negHi.
    if (!vop3p) {
      op.neg = mods & srcmods::Neg;
      op.abs = mods & srcmods::Abs;
    }
    op.sext = mods & srcmods::Sext;
    mods = 0;
    list.push(op);
  }
  in.numDsts = in.desc->listed ? in.desc->numDsts : uint8_t(defs);
  decodeFields(in, info);
  completeOperands(in, info, defs, list);
  if (list.full)
    error = "more operands than the decoder keeps";
  if (in.numDsts > in.numOps)
    in.numDsts = in.numOps;

  if (in.desc->unit == Unit::Mfma) {
    in.mfma = chip.findMfma(in.mnemonic());
    llvm::StringRef name = in.mnemonic();
    // gfx950 also spells the f8f6f4 MFMAs without "scale" (unit scales).
    if (!in.mfma && name.consume_front("v_mfma_"))
      in.mfma = chip.findMfma(("v_mfma_scale_" + name).str());
    if (!in.mfma && in.desc->listed)
      error = ("'" + in.mnemonic() + "' is not an MFMA of " + chip.name +
               " (see ChipInfo)")
                  .str();
  }

  if (in.isSdwa() &&
      (in.dstSel > 6 || in.src0Sel > 6 || in.src1Sel > 6 || in.dstUnused > 2))
    return reject("an SDWA selector holds a reserved value");
  // LLVM's printer, like its decoder, can fail on encodings it accepted.
  std::string text;
  bool printed = recovery.RunSafely([&] {
    llvm::raw_string_ostream os(text);
    impl->printer->printInst(&inst, pc, "", *impl->sti, os);
  });
  if (!printed)
    return reject("the AMDGPU instruction printer fails on these bytes");
  in.text = llvm::StringRef(text).trim().str();
  in.error = error;
  return in;
}

std::vector<Instruction> Decoder::decodeAll(llvm::ArrayRef<uint8_t> bytes,
                                            uint64_t base) const {
  std::vector<Instruction> result;
  uint64_t offset = 0;
  while (offset + 4 <= bytes.size()) {
    result.push_back(decode(bytes.slice(offset), base + offset));
    offset += result.back().size;
  }
  return result;
}

std::vector<std::string> Decoder::crossCheckTable() const {
  std::vector<std::string> problems;
  std::lock_guard<std::mutex> lock(impl->mutex);
  for (unsigned opcode = 0; opcode < impl->opcodes.size(); ++opcode) {
    const OpcodeInfo *info = impl->opcodes[opcode].get();
    if (!info || !info->desc->listed)
      continue;
    const InstrDesc &desc = *info->desc;
    InstrDesc llvmView = impl->makeUnlisted(desc.mnemonic, opcode);
    auto mismatch = [&](llvm::StringRef what, llvm::StringRef ours,
                        llvm::StringRef theirs) {
      problems.push_back((desc.mnemonic + " (" + impl->mii->getName(opcode) +
                          "): " + what + " is " + ours + " in the table, " +
                          theirs + " by LLVM's flags")
                             .str());
    };
    // Only the native encoding carries the native family's flag.
    if (info->encoding == Encoding::Native && llvmView.family != desc.family &&
        !(desc.family == Family::VOP3 &&
          (llvmView.family == Family::VOP3P || llvmView.family == Family::MAI)))
      mismatch("the family", stringifyFamily(desc.family),
               stringifyFamily(llvmView.family));
    // LLVM flags direct-to-LDS loads with lgkmcnt too (they write LDS);
    // the hardware counts them on vmcnt alone, which s_waitcnt vmcnt
    // drains (AMD CDNA3 ISA, "LDS DMA").
    bool directToLds =
        desc.unit == Unit::DirectToLds ||
        (desc.unit == Unit::VmemLoad && llvmView.counter == Counter::VmLgkm &&
         desc.family == Family::MUBUF);
    if (llvmView.counter != desc.counter && desc.unit != Unit::Message &&
        !directToLds)
      mismatch("the counter", stringifyCounter(desc.counter),
               stringifyCounter(llvmView.counter));
    bool vectorUnits = isVectorAlu(desc.unit) && isVectorAlu(llvmView.unit);
    bool sameUnit = desc.unit == llvmView.unit || vectorUnits;
    if (isVectorAlu(desc.unit) && desc.unit != llvmView.unit &&
        llvmView.unit != Unit::Mfma)
      sameUnit = false;
    // LLVM flags control flow, waits and barriers as scalar ALU work.
    if (llvmView.unit == Unit::Salu || llvmView.unit == Unit::Hint)
      sameUnit |= !isVectorAlu(desc.unit) && desc.unit != Unit::Mfma;
    if (llvmView.unit == Unit::Branch)
      sameUnit |= desc.unit == Unit::Branch;
    // The LDS forms of buffer loads are separate opcodes of one mnemonic.
    if (isVectorMemory(desc.unit) && isVectorMemory(llvmView.unit))
      sameUnit = true;
    if (!sameUnit)
      mismatch("the unit", stringifyUnit(desc.unit),
               stringifyUnit(llvmView.unit));
  }
  return problems;
}

// Instruction ----------------------------------------------------------------

WaitLimits WaitLimits::fromImmediate(uint32_t simm16) {
  WaitLimits w;
  w.vmcnt = field(simm16, 3, 0) | (field(simm16, 15, 14) << 4);
  w.expcnt = field(simm16, 6, 4);
  w.lgkmcnt = field(simm16, 11, 8);
  return w;
}

Unit Instruction::unit() const {
  if (!desc)
    return Unit::Hint;
  if (lds && desc->unit == Unit::VmemLoad)
    return Unit::DirectToLds;
  return desc->unit;
}

bool Instruction::isDirectBranch() const {
  llvm::StringRef m = mnemonic();
  return desc && (m == "s_branch" || m.starts_with("s_cbranch_"));
}

std::string Instruction::describe() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "pc " << llvm::format_hex(pc, 10) << " '" << text << "' (encoding";
  for (unsigned i = 0; i < size / 4 && i < 4; ++i)
    os << " " << llvm::format_hex_no_prefix(words[i], 8, /*Upper=*/true);
  os << ")";
  return result;
}
