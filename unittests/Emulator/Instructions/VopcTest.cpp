//===- VopcTest.cpp - VOPC instructions -----------------------------------===//
//
// Vector compares, every predicate of every type: each lane's bit of the
// result mask against host integer comparisons or APFloat's compare (IEEE:
// the ordered predicates lt, eq, le, gt, lg, ge, o are false when an
// operand is a NaN, their negations nge, nlg, ngt, nle, neq, nlt, u true).
// v_cmp_class tests S0 against the class mask S1 (AMD's ISA reference: bit
// 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6
// +0, 7 +denormal, 8 +normal, 9 +inf). Inactive lanes give 0 bits; the
// v_cmpx forms write the mask to EXEC as well. Each runs as e32 (to VCC)
// and e64 (to an SGPR pair; float sources with neg/abs).
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include "hk/ISA/InstrDesc.h"

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;
using llvm::APFloat;

namespace {

struct Compare {
  bool writesExec = false;
  std::string pred;
  /// f16, f32, f64, i16, u16, i32, u32, i64, u64.
  std::string type;
  bool isFloat() const { return type[0] == 'f'; }
  unsigned bits() const { return std::stoi(type.substr(1)); }
};

Compare parse(llvm::StringRef mnemonic) {
  Compare c;
  llvm::StringRef rest = mnemonic;
  c.writesExec = rest.consume_front("v_cmpx_");
  if (!c.writesExec)
    rest.consume_front("v_cmp_");
  auto [pred, type] = rest.rsplit('_');
  c.pred = pred.str();
  c.type = type.str();
  return c;
}

Fmt floatFmt(const Compare &c) {
  return c.bits() == 16 ? Fmt::F16 : c.bits() == 32 ? Fmt::F32 : Fmt::F64;
}

/// The class-mask bit of a value (AMD's numbering).
unsigned classBit(Fmt fmt, uint64_t bits) {
  APFloat v = toAPFloat(fmt, bits);
  if (v.isNaN())
    return isSignalingBits(fmt, bits) ? 0 : 1;
  bool neg = v.isNegative();
  if (v.isInfinity())
    return neg ? 2 : 9;
  if (v.isZero())
    return neg ? 5 : 6;
  if (v.isDenormal())
    return neg ? 4 : 7;
  return neg ? 3 : 8;
}

bool floatPredicate(const std::string &pred, APFloat::cmpResult r) {
  bool lt = r == APFloat::cmpLessThan, eq = r == APFloat::cmpEqual,
       gt = r == APFloat::cmpGreaterThan, un = r == APFloat::cmpUnordered;
  if (pred == "f")
    return false;
  if (pred == "tru")
    return true;
  if (pred == "lt")
    return lt;
  if (pred == "eq")
    return eq;
  if (pred == "le")
    return lt || eq;
  if (pred == "gt")
    return gt;
  if (pred == "lg")
    return lt || gt;
  if (pred == "ge")
    return gt || eq;
  if (pred == "o")
    return !un;
  if (pred == "u")
    return un;
  if (pred == "nge")
    return !(gt || eq);
  if (pred == "nlg")
    return !(lt || gt);
  if (pred == "ngt")
    return !gt;
  if (pred == "nle")
    return !(lt || eq);
  if (pred == "neq")
    return !eq;
  if (pred == "nlt")
    return !lt;
  ADD_FAILURE() << "no reference for predicate " << pred;
  return false;
}

template <typename T> bool intPredicate(const std::string &pred, T a, T b) {
  if (pred == "f")
    return false;
  if (pred == "t")
    return true;
  if (pred == "lt")
    return a < b;
  if (pred == "eq")
    return a == b;
  if (pred == "le")
    return a <= b;
  if (pred == "gt")
    return a > b;
  if (pred == "ne")
    return a != b;
  if (pred == "ge")
    return a >= b;
  ADD_FAILURE() << "no reference for predicate " << pred;
  return false;
}

/// The reference bit of one lane (sources with their modifiers applied).
bool reference(const Compare &c, uint64_t a, uint64_t b) {
  if (c.pred == "class")
    return (b >> classBit(floatFmt(c), a)) & 1;
  if (c.isFloat()) {
    Fmt fmt = floatFmt(c);
    return floatPredicate(c.pred, toAPFloat(fmt, a).compare(toAPFloat(fmt, b)));
  }
  bool isSigned = c.type[0] == 'i';
  switch (c.bits()) {
  case 16:
    return isSigned ? intPredicate<int16_t>(c.pred, a, b)
                    : intPredicate<uint16_t>(c.pred, a, b);
  case 32:
    return isSigned ? intPredicate<int32_t>(c.pred, a, b)
                    : intPredicate<uint32_t>(c.pred, a, b);
  default:
    return isSigned ? intPredicate<int64_t>(c.pred, a, b)
                    : intPredicate<uint64_t>(c.pred, a, b);
  }
}

uint64_t input(const Compare &c, unsigned i, unsigned op) {
  if (c.pred == "class" && op == 1) {
    // Single class bits, then random masks.
    if (i < 10 * 32)
      return 1u << (i / 32);
    return mixBits(i) & 0x3ff;
  }
  if (c.isFloat())
    return floatInputs(floatFmt(c))(i, op);
  if (c.bits() == 64)
    return int64Input(i, op);
  // Equal operands often enough for eq/le/ge.
  if (i % 5 == 0)
    return intInput(i, 0);
  return intInput(i, op);
}

void testCompare(SingleWave &sw, const char *mnemonic) {
  Compare c = parse(mnemonic);
  unsigned regs = c.bits() == 64 ? 2 : 1;
  unsigned width = c.bits();
  uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
  Fmt fmt = c.isFloat() ? floatFmt(c) : Fmt::B32;
  bool classOp = c.pred == "class";
  Wave &w = sw.wave();
  struct Form {
    bool e64, negA, absB;
  };
  std::vector<Form> forms = {{false, false, false}, {true, false, false}};
  if (c.isFloat())
    forms.push_back({true, true, !classOp});
  unsigned rounds = c.isFloat() ? floatRounds(fmt, 1) : 4;
  if (classOp)
    rounds = 8;
  for (const Form &f : forms) {
    std::string a = srcReg(0, regs), b = srcReg(1, classOp ? 1 : regs);
    if (f.negA)
      a = "-" + a;
    if (f.absB)
      b = "|" + b + "|";
    std::string text = std::string(mnemonic) +
                       (f.e64 ? "_e64 s[10:11], " : " vcc, ") + a + ", " + b;
    for (unsigned round = 0; round <= rounds; ++round) {
      bool sparse = round == rounds;
      uint64_t exec = sparse ? 0x5a5a5a5a0f0f0f0full : ~0ull;
      unsigned base = sparse ? 0 : round * 64;
      uint64_t src[64][2];
      for (unsigned l = 0; l < 64; ++l)
        for (unsigned op = 0; op < 2; ++op) {
          uint64_t v = input(c, base + l, op);
          src[l][op] = v;
          w.v[2 + 2 * op][l] = uint32_t(v);
          if (regs == 2 && !(classOp && op == 1))
            w.v[3 + 2 * op][l] = uint32_t(v >> 32);
        }
      w.setSgpr64(10, 0x1111222233334444ull);
      w.setSgpr64(isa::kVccLo, 0x5555666677778888ull);
      w.setExec(exec);
      if (llvm::Error error = sw.run(text)) {
        ADD_FAILURE() << text << ": " << llvm::toString(std::move(error));
        w.setExec(~0ull);
        return;
      }
      uint64_t got = w.sgpr64(f.e64 ? 10 : isa::kVccLo);
      uint64_t gotExec = w.exec();
      w.setExec(~0ull);
      uint64_t want = 0;
      for (unsigned l = 0; l < 64; ++l) {
        if (!((exec >> l) & 1))
          continue;
        uint64_t x = src[l][0] & mask, y = src[l][1] & mask;
        if (f.negA)
          x = applyMods(fmt, x, false, true);
        if (f.absB)
          y = applyMods(fmt, y, true, false);
        if (classOp)
          y = src[l][1] & 0xffffffff;
        if (reference(c, x, y))
          want |= 1ull << l;
      }
      Mismatches bad(text);
      if (got != want)
        bad.add("round " + std::to_string(round) + ": mask " + hex(got) +
                ", want " + hex(want) + " (differs in " + hex(got ^ want) +
                ")");
      if (c.writesExec && gotExec != want)
        bad.add("round " + std::to_string(round) + ": exec " + hex(gotExec) +
                ", want " + hex(want));
      if (!c.writesExec && gotExec != exec)
        bad.add("exec changed");
    }
  }
}

std::vector<InstructionCase> vopcCases() {
  std::vector<InstructionCase> cases;
  for (const isa::InstrDesc &d : isa::allInstrs())
    if (d.family == isa::Family::VOPC)
      cases.push_back({d.mnemonic.data(), kBothChips, testCompare});
  return cases;
}

const std::vector<InstructionCase> kVopcCases = vopcCases();
HK_INSTRUCTION_CASES(Vopc, kVopcCases);

} // namespace
