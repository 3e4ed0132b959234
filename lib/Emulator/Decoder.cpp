//===- Decoder.cpp - Decoding code objects into handler-bound instructions
//-===//
//
// LLVM's AMDGPU disassembler decodes each instruction once; its printed text
// is parsed into a compact Instr (operands, modifiers) bound to a handler.
// The AMDGPU opcode enums are not installed with LLVM, and the printed syntax
// is the documented assembler syntax, so the text is the stable interface.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/TargetParser/Triple.h"

#include <cmath>
#include <mutex>

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUDisassembler();

using namespace hk;
using namespace hk::emu;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

const HandlerTable &hk::emu::handlerTable() {
  static const HandlerTable table = [] {
    HandlerTable t;
    registerScalarHandlers(t);
    registerVectorHandlers(t);
    registerConvertHandlers(t);
    registerMemoryHandlers(t);
    registerMatrixHandlers(t);
    return t;
  }();
  return table;
}

std::string Instr::describe() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "pc " << llvm::format_hex(pc, 10) << " '" << text << "' (encoding";
  for (unsigned i = 0; i < size / 4 && i < 3; ++i)
    os << " " << llvm::format_hex_no_prefix(encoding[i], 8, /*Upper=*/true);
  os << ")";
  return result;
}

// Text parsing ----------------------------------------------------------------

/// Splits at top-level separators (outside [], () and quotes).
static llvm::SmallVector<llvm::StringRef> splitTopLevel(llvm::StringRef text,
                                                        char separator) {
  llvm::SmallVector<llvm::StringRef> parts;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"')
      quoted = !quoted;
    if (quoted)
      continue;
    if (c == '[' || c == '(')
      ++depth;
    else if (c == ']' || c == ')')
      --depth;
    else if (depth == 0 && c == separator) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start).trim());
  llvm::erase_if(parts, [](llvm::StringRef p) { return p.empty(); });
  return parts;
}

/// Parses "[1,0,1]" into bit i = element i.
static bool parseBitList(llvm::StringRef text, uint8_t &bits,
                         uint8_t *count = nullptr) {
  if (!text.consume_front("[") || !text.consume_back("]"))
    return false;
  bits = 0;
  unsigned index = 0;
  for (llvm::StringRef part : llvm::split(text, ',')) {
    unsigned value;
    if (part.trim().getAsInteger(0, value))
      return false;
    if (value)
      bits |= 1u << index;
    ++index;
  }
  if (count)
    *count = uint8_t(index);
  return true;
}

static bool parseRegisterName(llvm::StringRef token, Operand &op) {
  struct Aperture {
    const char *name;
    uint64_t value;
  };
  static const Aperture apertures[] = {
      {"src_shared_base", kSharedAperture},
      {"src_shared_limit", kSharedAperture + 0xffffffffull},
      {"src_private_base", kPrivateAperture},
      {"src_private_limit", kPrivateAperture + 0xffffffffull},
  };
  for (const Aperture &aperture : apertures)
    if (token == aperture.name) {
      op.kind = OpKind::Imm;
      op.imm = aperture.value;
      op.count = 2;
      return true;
    }
  struct Named {
    const char *name;
    unsigned reg, count;
  };
  static const Named specials[] = {
      {"vcc", kVccLo, 2},
      {"vcc_lo", kVccLo, 1},
      {"vcc_hi", kVccLo + 1, 1},
      {"exec", kExecLo, 2},
      {"exec_lo", kExecLo, 1},
      {"exec_hi", kExecLo + 1, 1},
      {"m0", kM0, 1},
      {"flat_scratch", kFlatScratchLo, 2},
      {"flat_scratch_lo", kFlatScratchLo, 1},
      {"flat_scratch_hi", kFlatScratchLo + 1, 1},
      {"xnack_mask", kXnackMaskLo, 2},
  };
  for (const Named &named : specials)
    if (token == named.name) {
      op.kind = OpKind::Sgpr;
      op.reg = named.reg;
      op.count = named.count;
      return true;
    }
  char prefix = token.empty() ? 0 : token[0];
  unsigned base = 0;
  OpKind kind;
  llvm::StringRef rest;
  if (token.starts_with("ttmp")) {
    kind = OpKind::Sgpr;
    base = kTtmp0;
    rest = token.drop_front(4);
  } else if (prefix == 'v' || prefix == 'a' || prefix == 's') {
    kind = prefix == 's' ? OpKind::Sgpr : OpKind::Vgpr;
    base = prefix == 'a' ? kAgprBase : 0;
    rest = token.drop_front(1);
  } else {
    return false;
  }
  unsigned first, last;
  if (rest.consume_front("[")) {
    auto [lo, hi] = rest.split(':');
    if (!hi.consume_back("]") || lo.getAsInteger(10, first) ||
        hi.getAsInteger(10, last) || last < first)
      return false;
  } else {
    if (rest.empty() || rest.getAsInteger(10, first))
      return false;
    last = first;
  }
  op.kind = kind;
  op.reg = base + first;
  op.count = last - first + 1;
  return true;
}

/// Parses one operand token ("-|v1|", "v[4:7]", "0.5", "0x3f800000", ...).
/// Float constants are kept as doubles in `floatValue` for typing later.
static bool parseOperand(llvm::StringRef token, Operand &op,
                         std::optional<double> &floatValue) {
  floatValue.reset();
  if (token == "off") {
    op.kind = OpKind::Off;
    return true;
  }
  if (token.consume_front("sext(")) {
    if (!token.consume_back(")"))
      return false;
    op.sext = true;
  }
  if (token.starts_with("-") && token.size() > 1 && !llvm::isDigit(token[1])) {
    op.neg = true;
    token = token.drop_front();
  }
  if (token.consume_front("neg(")) {
    if (!token.consume_back(")"))
      return false;
    op.neg = true;
  }
  if (token.starts_with("|") && token.ends_with("|") && token.size() > 2) {
    op.abs = true;
    token = token.drop_front().drop_back();
  }
  if (token.consume_front("abs(")) {
    if (!token.consume_back(")"))
      return false;
    op.abs = true;
  }
  if (token.consume_front("lit(")) {
    if (!token.consume_back(")"))
      return false;
  }
  if (parseRegisterName(token, op))
    return true;
  op.kind = OpKind::Imm;
  if (token.contains('.')) {
    double value;
    if (token.getAsDouble(value))
      return false;
    floatValue = value;
    return true;
  }
  int64_t value;
  if (token.getAsInteger(0, value)) {
    uint64_t unsignedValue;
    if (token.getAsInteger(0, unsignedValue))
      return false;
    value = int64_t(unsignedValue);
  }
  op.imm = uint64_t(value);
  op.count = 1;
  return true;
}

/// Encodes an inline float constant for an operand of `type`, for text
/// parsed without the disassembler's operands.
static uint64_t encodeFloatConstant(double value, ConstType type) {
  if (type == ConstType::F64)
    return f64ToBits(value);
  if (type == ConstType::F16)
    return f32ToF16(float(value));
  return f32ToBits(float(value));
}

/// The bit pattern the disassembler decoded for the inline float constant
/// printed as `value`: the first of `imms` that encodes `value` in f64, f32,
/// f16 or bf16 (bf16 constants are f32 ones truncated, 1/(2*pi) included).
/// The printed text does not say how wide an operand is, but the hardware
/// expands a constant to the operand's width: v_mov_b64 and s_mov_b64 read
/// 1.0 as 0x3ff0000000000000, the 32-bit shift count of v_lshl_add_u64 reads
/// it as 0x3f800000. Consumes `imms` up to the match, so that constants are
/// matched to the MCInst operands in order.
static std::optional<uint64_t>
takeDecodedConstant(double value, llvm::ArrayRef<int64_t> &imms) {
  uint32_t f32 = f32ToBits(float(value));
  const uint64_t encodings[] = {f64ToBits(value), f32, f32ToF16(float(value)),
                                f32 >> 16};
  while (!imms.empty()) {
    uint64_t imm = uint64_t(imms.front());
    imms = imms.drop_front();
    if (llvm::is_contained(encodings, imm))
      return imm;
  }
  return std::nullopt;
}

/// Parses ds_swizzle's "swizzle(...)" offset into the 16-bit pattern.
static bool parseSwizzle(llvm::StringRef text, int32_t &offset) {
  if (!text.consume_front("swizzle(") || !text.consume_back(")"))
    return false;
  llvm::SmallVector<llvm::StringRef> args = splitTopLevel(text, ',');
  if (args.empty())
    return false;
  llvm::StringRef mode = args[0];
  auto num = [&](unsigned i, unsigned &out) {
    return i < args.size() && !args[i].getAsInteger(0, out);
  };
  if (mode == "QUAD_PERM") {
    unsigned sel[4];
    for (unsigned i = 0; i < 4; ++i)
      if (!num(i + 1, sel[i]))
        return false;
    offset = 0x8000 | sel[0] | (sel[1] << 2) | (sel[2] << 4) | (sel[3] << 6);
    return true;
  }
  if (mode == "BITMASK_PERM") {
    if (args.size() != 2)
      return false;
    llvm::StringRef mask = args[1].trim('"');
    if (mask.size() != 5)
      return false;
    unsigned andMask = 0, orMask = 0, xorMask = 0;
    for (unsigned i = 0; i < 5; ++i) {
      unsigned bit = 1u << (4 - i);
      switch (mask[i]) {
      case '0':
        break;
      case '1':
        orMask |= bit;
        break;
      case 'p':
        andMask |= bit;
        break;
      case 'i':
        andMask |= bit;
        xorMask |= bit;
        break;
      default:
        return false;
      }
    }
    offset = andMask | (orMask << 5) | (xorMask << 10);
    return true;
  }
  unsigned a = 0, b = 0;
  if (mode == "BROADCAST" && num(1, a) && num(2, b)) {
    // Groups of `a` lanes read lane `b` of their group.
    offset = ((32 - a) & 0x1f) | (b << 5);
    return true;
  }
  if (mode == "SWAP" && num(1, a)) {
    offset = 0x1f | (a << 10);
    return true;
  }
  if (mode == "REVERSE" && num(1, a)) {
    offset = 0x1f | ((a - 1) << 10);
    return true;
  }
  return false;
}

static uint8_t parseSdwaSel(llvm::StringRef value) {
  return llvm::StringSwitch<uint8_t>(value)
      .Case("BYTE_0", 0)
      .Case("BYTE_1", 1)
      .Case("BYTE_2", 2)
      .Case("BYTE_3", 3)
      .Case("WORD_0", 4)
      .Case("WORD_1", 5)
      .Default(6);
}

static bool parseDppControl(llvm::StringRef key, llvm::StringRef value,
                            Instr &in) {
  unsigned n = 0;
  if (key == "quad_perm") {
    llvm::StringRef list = value;
    if (!list.consume_front("[") || !list.consume_back("]"))
      return false;
    unsigned i = 0, ctrl = 0;
    for (llvm::StringRef part : llvm::split(list, ',')) {
      if (part.trim().getAsInteger(0, n) || i >= 4)
        return false;
      ctrl |= (n & 3) << (2 * i++);
    }
    in.dppCtrl = ctrl;
    return true;
  }
  struct Shift {
    const char *name;
    unsigned base;
  };
  static const Shift shifts[] = {{"row_shl", 0x100},  {"row_shr", 0x110},
                                 {"row_ror", 0x120},  {"wave_shl", 0x130},
                                 {"wave_rol", 0x134}, {"wave_shr", 0x138},
                                 {"wave_ror", 0x13c}, {"row_newbcast", 0x150}};
  for (const Shift &shift : shifts)
    if (key == shift.name) {
      if (value.getAsInteger(0, n))
        return false;
      in.dppCtrl =
          shift.base + (shift.base >= 0x130 && shift.base < 0x140 ? 0 : n);
      return true;
    }
  if (key == "row_bcast") {
    if (value.getAsInteger(0, n) || (n != 15 && n != 31))
      return false;
    in.dppCtrl = n == 15 ? 0x142 : 0x143;
    return true;
  }
  return false;
}

/// Applies one modifier token ("offset:16", "sc0", "op_sel:[0,1]", ...).
static bool parseModifier(llvm::StringRef token, Instr &in) {
  // hwreg(...)/sendmsg(...) operands: the value comes from the MCInst.
  if (token.starts_with("hwreg(") || token.starts_with("sendmsg("))
    return true;
  auto [key, value] = token.split(':');
  bool hasValue = token.contains(':');
  unsigned n = 0;
  if (!hasValue) {
    if (key == "sc0" || key == "glc")
      in.sc0 = true;
    else if (key == "sc1" || key == "slc")
      in.sc1 = true;
    else if (key == "nt")
      in.nt = true;
    else if (key == "lds")
      in.lds = true;
    else if (key == "offen")
      in.offen = true;
    else if (key == "idxen")
      in.idxen = true;
    else if (key == "gds")
      in.gds = true;
    else if (key == "clamp")
      in.clamp = true;
    else if (key == "row_mirror")
      in.dppCtrl = 0x140;
    else if (key == "row_half_mirror")
      in.dppCtrl = 0x141;
    else
      return false;
    return true;
  }
  if (key == "offset") {
    if (value.starts_with("swizzle("))
      return parseSwizzle(value, in.offset);
    int64_t v;
    if (value.getAsInteger(0, v))
      return false;
    in.offset = int32_t(v);
    return true;
  }
  if (key == "offset0" || key == "offset1") {
    if (value.getAsInteger(0, n))
      return false;
    (key == "offset0" ? in.offset0 : in.offset1) = uint8_t(n);
    return true;
  }
  if (key == "op_sel")
    return parseBitList(value, in.opSel, &in.opSelCount);
  if (key == "op_sel_hi")
    return parseBitList(value, in.opSelHi);
  if (key == "neg_lo")
    return parseBitList(value, in.negLo);
  if (key == "neg_hi")
    return parseBitList(value, in.negHi);
  if (key == "mul" || key == "div") {
    if (value.getAsInteger(0, n))
      return false;
    in.omod = key == "div" ? 3 : (n == 2 ? 1 : 2);
    return true;
  }
  if (key == "bitop3") {
    if (value.getAsInteger(0, n) || n > 0xff)
      return false;
    in.bitop3 = uint8_t(n);
    return true;
  }
  if (key == "cbsz" || key == "abid" || key == "blgp") {
    if (value.getAsInteger(0, n))
      return false;
    (key == "cbsz" ? in.cbsz : key == "abid" ? in.abid : in.blgp) = uint8_t(n);
    return true;
  }
  if (key == "row_mask" || key == "bank_mask") {
    if (value.getAsInteger(0, n))
      return false;
    (key == "row_mask" ? in.rowMask : in.bankMask) = uint8_t(n);
    return true;
  }
  if (key == "bound_ctrl") {
    in.boundCtrl = true;
    return true;
  }
  if (key == "fi")
    return true;
  if (key == "dst_sel") {
    in.dstSel = parseSdwaSel(value);
    return true;
  }
  if (key == "src0_sel") {
    in.src0Sel = parseSdwaSel(value);
    return true;
  }
  if (key == "src1_sel") {
    in.src1Sel = parseSdwaSel(value);
    return true;
  }
  if (key == "dst_unused") {
    in.dstUnused = value == "UNUSED_SEXT"       ? 1
                   : value == "UNUSED_PRESERVE" ? 2
                                                : 0;
    return true;
  }
  return parseDppControl(key, value, in);
}

/// Reads s_waitcnt's printed counters ("vmcnt(8) lgkmcnt(0)"). The printer
/// leaves out a counter the instruction does not wait on (and names all
/// three when it waits on none), so a missing counter keeps its maximum.
static llvm::Error parseWaitLimits(llvm::StringRef operands, WaitLimits &wait) {
  wait = WaitLimits();
  for (llvm::StringRef token : splitTopLevel(operands, ' ')) {
    auto [name, value] = token.split('(');
    unsigned count = 0;
    bool isCount = value.consume_back(")") && !value.getAsInteger(10, count);
    if (isCount && name == "vmcnt" && count <= WaitLimits::kVmcntMax)
      wait.vmcnt = count;
    else if (isCount && name == "expcnt" && count <= WaitLimits::kExpcntMax)
      wait.expcnt = count;
    else if (isCount && name == "lgkmcnt" && count <= WaitLimits::kLgkmcntMax)
      wait.lgkmcnt = count;
    else
      return makeError("expected vmcnt(0-63), expcnt(0-7) or lgkmcnt(0-15) "
                       "in s_waitcnt, found '" +
                       token + "'");
  }
  return llvm::Error::success();
}

/// The class of an instruction the handler table does not know, read from
/// its mnemonic's prefix, so that listings of foreign code still sort it.
static InstrClass classifyUnhandled(llvm::StringRef m) {
  if (m.starts_with("v_mfma") || m.starts_with("v_smfmac"))
    return InstrClass::Mfma;
  if (m.starts_with("v_"))
    return InstrClass::Valu;
  if (m.starts_with("ds_"))
    return InstrClass::Lds;
  for (llvm::StringRef prefix :
       {"buffer_", "tbuffer_", "global_", "flat_", "scratch_"})
    if (m.starts_with(prefix))
      return InstrClass::Vmem;
  for (llvm::StringRef prefix : {"s_load_", "s_buffer_", "s_store_",
                                 "s_scratch_", "s_atomic_", "s_dcache_"})
    if (m.starts_with(prefix))
      return InstrClass::Smem;
  if (m.starts_with("s_waitcnt"))
    return InstrClass::Wait;
  if (m.starts_with("s_barrier"))
    return InstrClass::Barrier;
  if (isDirectBranch(m) || m == "s_call_b64")
    return InstrClass::Branch;
  if (m.starts_with("s_"))
    return InstrClass::Salu;
  return InstrClass::Other;
}

llvm::Error hk::emu::parseInstructionText(llvm::StringRef text, Instr &in,
                                          llvm::ArrayRef<int64_t> decodedImms) {
  text = text.trim();
  in.text = text.str();
  auto [mnemonic, rest] = text.split(' ');
  llvm::StringRef base = mnemonic;
  if (base.consume_back("_dpp"))
    in.dpp = true;
  else if (base.consume_back("_sdwa"))
    in.sdwa = true;
  else if (!base.consume_back("_e32"))
    base.consume_back("_e64");
  in.mnemonic = base.str();

  // Operands are comma-separated; modifiers follow the last operand,
  // separated by spaces.
  llvm::SmallVector<llvm::StringRef> operandTexts;
  llvm::SmallVector<llvm::StringRef> modifierTexts;
  for (llvm::StringRef part : splitTopLevel(rest, ',')) {
    llvm::SmallVector<llvm::StringRef> words = splitTopLevel(part, ' ');
    for (unsigned i = 0; i < words.size(); ++i) {
      bool isModifier = i > 0;
      if (i == 0) {
        // A bare modifier (no operands before it), e.g. "s_endpgm" args.
        Operand probe;
        std::optional<double> fv;
        isModifier = !parseOperand(words[0], probe, fv);
      }
      (isModifier ? modifierTexts : operandTexts).push_back(words[i]);
    }
  }
  const HandlerTable &table = handlerTable();
  auto entry = table.find(in.mnemonic);
  if (entry != table.end()) {
    in.fn = entry->second.fn;
    in.cls = entry->second.cls;
    in.sub = entry->second.sub;
    in.numDsts = entry->second.numDsts;
  } else {
    in.cls = classifyUnhandled(in.mnemonic);
  }
  if (in.mnemonic == "s_waitcnt")
    return parseWaitLimits(rest, in.wait);
  // SOPP-style immediates come from the MCInst (see captureImmediate).
  if (entry != table.end() && entry->second.rawImm)
    return llvm::Error::success();
  ConstType constType =
      entry == table.end() ? ConstType::F32 : entry->second.constType;
  if (operandTexts.size() > std::size(in.ops))
    return makeError("too many operands");
  for (llvm::StringRef token : operandTexts) {
    Operand &op = in.ops[in.numOps++];
    std::optional<double> floatValue;
    if (!parseOperand(token, op, floatValue))
      return makeError("cannot parse operand '" + token + "'");
    if (!floatValue)
      continue;
    std::optional<uint64_t> decoded =
        takeDecodedConstant(*floatValue, decodedImms);
    op.imm = decoded ? *decoded : encodeFloatConstant(*floatValue, constType);
  }
  for (llvm::StringRef token : modifierTexts)
    if (!parseModifier(token, in))
      return makeError("cannot parse modifier '" + token + "'");
  return llvm::Error::success();
}

// The MC disassembler
// ----------------------------------------------------------

namespace {
struct Disassembler {
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCDisassembler> disasm;
  std::unique_ptr<llvm::MCInstPrinter> printer;
};
} // namespace

static llvm::Expected<Disassembler> createDisassembler(const ChipInfo &chip) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
  });
  llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("LLVM has no AMDGPU target: " + error);
  Disassembler d;
  llvm::MCTargetOptions options;
  d.mri.reset(target->createMCRegInfo(triple));
  d.mai.reset(target->createMCAsmInfo(*d.mri, triple, options));
  d.sti.reset(target->createMCSubtargetInfo(triple, chip.name, ""));
  d.mii.reset(target->createMCInstrInfo());
  if (!d.mri || !d.mai || !d.sti || !d.mii)
    return makeError("cannot create the AMDGPU MC layer for " + chip.name);
  d.ctx = std::make_unique<llvm::MCContext>(triple, d.mai.get(), d.mri.get(),
                                            d.sti.get());
  d.disasm.reset(target->createMCDisassembler(*d.sti, *d.ctx));
  d.printer.reset(
      target->createMCInstPrinter(triple, 0, *d.mai, *d.mii, *d.mri));
  if (!d.disasm || !d.printer)
    return makeError("cannot create the AMDGPU disassembler for " + chip.name);
  return d;
}

/// SOPP/SOPK instructions carry their immediate in the first MCInst
/// operand; reading it there avoids re-parsing symbolic forms such as
/// branch labels. (s_waitcnt's counters are read from the printed form,
/// which names them, by parseWaitLimits.)
static void captureImmediate(const llvm::MCInst &inst, Instr &in) {
  for (const llvm::MCOperand &operand : inst)
    if (operand.isImm()) {
      in.simm = operand.getImm();
      return;
    }
}

static void unimplementedHandler(Wave &w, const Instr &in) {
  if (!in.decodeError.empty()) {
    w.fault(in, "cannot decode the instruction: " + in.decodeError);
    return;
  }
  w.fault(in, "instruction '" + in.mnemonic +
                  "' is not implemented by the emulator");
}

/// Finds the chip's description of an MFMA (gfx950 also spells the f8f6f4
/// instructions without "scale", meaning unit scales). An MFMA the emulator
/// executes must be in the chip table; one it does not execute (no
/// handler) is only described when the table knows it.
static void bindMfma(const ChipInfo &chip, Instr &in) {
  in.mfma = chip.findMfma(in.mnemonic);
  llvm::StringRef name = in.mnemonic;
  if (!in.mfma && name.consume_front("v_mfma_"))
    in.mfma = chip.findMfma(("v_mfma_scale_" + name).str());
  if (!in.mfma && in.fn)
    in.decodeError = "'" + in.mnemonic + "' is not an MFMA of " +
                     chip.name.str() + " (see ChipInfo)";
}

llvm::Expected<std::unique_ptr<DecodedProgram>>
DecodedProgram::decode(const CodeObject &object) {
  auto d = createDisassembler(object.getChip());
  if (!d)
    return d.takeError();
  auto program = std::make_unique<DecodedProgram>();
  const Segment *code = nullptr;
  for (const Segment &segment : object.getSegments())
    if (segment.executable) {
      if (code)
        return makeError("code object has more than one executable segment");
      code = &segment;
    }
  if (!code)
    return makeError("code object has no executable segment");
  program->base = code->address;
  program->end = code->address + code->bytes.size();
  program->byWord.assign(code->bytes.size() / 4, -1);
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>(code->bytes.data()),
      code->bytes.size() & ~size_t(3));
  uint64_t offset = 0;
  while (offset + 4 <= bytes.size()) {
    Instr in;
    in.pc = program->base + offset;
    llvm::MCInst inst;
    uint64_t size = 0;
    llvm::ArrayRef<uint8_t> window = bytes.slice(offset);
    auto status =
        d->disasm->getInstruction(inst, size, window, in.pc, llvm::nulls());
    if (status != llvm::MCDisassembler::Success || size == 0 || size % 4) {
      size = 4;
      in.decodeError = "the AMDGPU disassembler rejects these bytes";
      in.text = "<undecodable>";
      in.mnemonic = "<undecodable>";
    } else {
      std::string text;
      llvm::raw_string_ostream os(text);
      d->printer->printInst(&inst, in.pc, "", *d->sti, os);
      captureImmediate(inst, in);
      llvm::SmallVector<int64_t> imms;
      for (const llvm::MCOperand &operand : inst)
        if (operand.isImm())
          imms.push_back(operand.getImm());
      if (llvm::Error error = parseInstructionText(text, in, imms))
        in.decodeError = llvm::toString(std::move(error)) + " in '" +
                         llvm::StringRef(text).trim().str() + "'";
    }
    if (in.cls == InstrClass::Mfma && in.decodeError.empty())
      bindMfma(object.getChip(), in);
    in.size = uint8_t(size);
    for (unsigned i = 0; i < size / 4 && i < 3; ++i)
      std::memcpy(&in.encoding[i], window.data() + 4 * i, 4);
    if (!in.fn || !in.decodeError.empty())
      in.fn = unimplementedHandler;
    program->byWord[offset / 4] = int32_t(program->instrs.size());
    program->instrs.push_back(std::move(in));
    offset += size;
  }
  return program;
}

std::vector<std::pair<uint64_t, std::string>>
Module::unsupportedInstructions() const {
  std::vector<std::pair<uint64_t, std::string>> result;
  llvm::StringSet<> seen;
  for (const Instr &in : program->all()) {
    if (in.fn != unimplementedHandler || !seen.insert(in.mnemonic).second)
      continue;
    // Padding after the last kernel is never executed.
    if (in.mnemonic == "<undecodable>")
      continue;
    result.push_back({in.pc, in.text + (in.decodeError.empty()
                                            ? ""
                                            : " (" + in.decodeError + ")")});
  }
  return result;
}

/// The public view of one decoded instruction.
static DecodedInstruction describe(const Instr &in) {
  DecodedInstruction d;
  d.address = in.pc;
  d.size = in.size;
  d.mnemonic = in.mnemonic;
  d.text = in.text;
  d.cls = in.cls;
  d.mfma = in.mfma;
  d.immediate = in.simm;
  d.decodeError = in.decodeError;
  if (!in.decodeError.empty())
    return d;
  llvm::StringRef mnemonic = in.mnemonic;
  d.directToLds =
      in.cls == InstrClass::Vmem && (mnemonic.contains("_load_lds_") ||
                                     (in.lds && mnemonic.contains("_load_")));
  if (isDirectBranch(mnemonic))
    d.branchTarget = branchTarget(in);
  if (mnemonic == "s_waitcnt")
    d.wait = in.wait;
  return d;
}

llvm::Expected<std::vector<DecodedInstruction>>
hk::emu::disassemble(const CodeObject &object) {
  llvm::Expected<std::unique_ptr<DecodedProgram>> program =
      DecodedProgram::decode(object);
  if (!program)
    return program.takeError();
  std::vector<DecodedInstruction> result;
  result.reserve((*program)->all().size());
  for (const Instr &in : (*program)->all())
    result.push_back(describe(in));
  return result;
}
