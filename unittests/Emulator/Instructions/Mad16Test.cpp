//===- Mad16Test.cpp - 16-bit integer multiply-adds (VOP3) ----------------===//
//
// v_mad_{u,i}16, their legacy encodings and v_mad_{u32_u16,i32_i16}, and
// the other 16-bit VOP3 integer operations (v_add/sub_i16,
// v_{min3,max3,med3}_{i,u}16),
// checked lane by lane against host integer arithmetic written from AMD's
// CDNA3 ISA reference: the product and sum are exact, wrap to the result
// width, and saturate to it under clamp; op_sel picks 16-bit source halves
// and, for the 16-bit results, the destination half.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include <algorithm>
#include <functional>
#include <vector>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;

namespace {

/// A 16-bit source: the half op_sel bit `sel` picks, sign- or zero-extended.
int64_t source16(uint64_t reg, bool sel, bool isSigned) {
  uint16_t h = uint16_t(sel ? reg >> 16 : reg);
  return isSigned ? int64_t(int16_t(h)) : int64_t(h);
}

int64_t saturate(int64_t v, unsigned bits, bool isSigned) {
  int64_t lo = isSigned ? -(int64_t(1) << (bits - 1)) : 0;
  int64_t hi =
      isSigned ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  return std::clamp(v, lo, hi);
}

/// Lane-dependent inputs that make products overflow 16 and 32 bits: the
/// integer edge cases in both halves, and random values.
uint64_t madInput(unsigned index, unsigned operand) {
  return intInput(index, operand);
}

struct Form {
  const char *suffix; ///< Modifiers appended to the instruction.
  bool sel[4];        ///< op_sel of src0, src1, src2, dst.
  bool clamp;
};

const Form kForms16[] = {
    {"", {false, false, false, false}, false},
    {" clamp", {false, false, false, false}, true},
    {" op_sel:[1,0,1,1]", {true, false, true, true}, false},
    {" op_sel:[0,1,1,0] clamp", {false, true, true, false}, true},
};

/// kForms16 for two sources: op_sel's third bit is the result's half.
const Form kForms16TwoSources[] = {
    {"", {false, false, false, false}, false},
    {" clamp", {false, false, false, false}, true},
    {" op_sel:[1,0,1]", {true, false, false, true}, false},
    {" op_sel:[0,1,0] clamp", {false, true, false, false}, true},
};

/// Checks a 16-bit VOP3 integer op with `n` sources in each of `forms`:
/// `exact` gives the exact result of the halves op_sel picks, which is
/// saturated under clamp (else wrapped) and lands in the half op_sel[3]
/// picks, the other half kept.
void check16(SingleWave &sw, const char *mnemonic, unsigned n,
             llvm::ArrayRef<Form> forms, bool isSigned,
             std::function<int64_t(const int64_t *)> exact) {
  for (const Form &form : forms) {
    LaneSpec spec;
    spec.text = std::string(mnemonic) +
                (n == 2 ? " v0, v2, v4" : " v0, v2, v4, v6") + form.suffix;
    spec.numSrcs = n;
    spec.input = madInput;
    spec.rounds = 4;
    spec.high16 = form.sel[3] ? LaneSpec::Kept : LaneSpec::Zeroed;
    spec.ref = [form, isSigned, n, exact](const uint64_t *src, uint64_t old) {
      int64_t x[3] = {0, 0, 0};
      for (unsigned i = 0; i < n; ++i)
        x[i] = source16(src[i], form.sel[i], isSigned);
      int64_t r = exact(x);
      if (form.clamp)
        r = saturate(r, 16, isSigned);
      uint32_t value = uint16_t(r);
      if (form.sel[3])
        return Expect::exact((uint32_t(old) & 0xffffu) | (value << 16));
      return Expect::exact(value);
    };
    spec.dstInput = [](unsigned index) { return intInput(index, 3); };
    checkLanes(sw, spec);
  }
}

void test16(SingleWave &sw, const char *mnemonic) {
  bool isSigned = llvm::StringRef(mnemonic).contains("_i16");
  bool legacy = llvm::StringRef(mnemonic).contains("legacy");
  // The legacy encodings have no op_sel.
  std::vector<Form> forms;
  for (const Form &form : kForms16)
    if (!legacy || !(form.sel[0] || form.sel[1] || form.sel[2] || form.sel[3]))
      forms.push_back(form);
  check16(sw, mnemonic, 3, forms, isSigned,
          [](const int64_t *x) { return x[0] * x[1] + x[2]; });
}

/// v_add_i16, v_sub_i16 and v_{min3,max3,med3}_{i16,u16}: the exact
/// result of the halves op_sel picks, saturated under clamp (which cannot
/// change a min, max or median), in the half op_sel[3] picks.
void testOther16(SingleWave &sw, const char *mnemonic) {
  llvm::StringRef name(mnemonic);
  bool isSigned = name.ends_with("_i16");
  std::string op = name.substr(2, 4).str();
  if (op == "add_" || op == "sub_") {
    bool sub = op == "sub_";
    check16(
        sw, mnemonic, 2, kForms16TwoSources, isSigned,
        [sub](const int64_t *x) { return sub ? x[0] - x[1] : x[0] + x[1]; });
    return;
  }
  check16(sw, mnemonic, 3, kForms16, isSigned, [op](const int64_t *x) {
    if (op == "min3")
      return std::min({x[0], x[1], x[2]});
    if (op == "max3")
      return std::max({x[0], x[1], x[2]});
    // The median: the sum less the smallest and the largest.
    return x[0] + x[1] + x[2] - std::min({x[0], x[1], x[2]}) -
           std::max({x[0], x[1], x[2]});
  });
}

const Form kForms32[] = {
    {"", {false, false, false, false}, false},
    {" op_sel:[1,1,0,0]", {true, true, false, false}, false},
    {" clamp", {false, false, false, false}, true},
};

void test32(SingleWave &sw, const char *mnemonic) {
  bool isSigned = llvm::StringRef(mnemonic) == "v_mad_i32_i16";
  for (const Form &form : kForms32) {
    LaneSpec spec;
    spec.text = std::string(mnemonic) + " v0, v2, v4, v6" + form.suffix;
    spec.numSrcs = 3;
    spec.input = madInput;
    spec.rounds = 4;
    spec.ref = [form, isSigned](const uint64_t *src, uint64_t) {
      int64_t c = isSigned ? int64_t(int32_t(uint32_t(src[2])))
                           : int64_t(uint32_t(src[2]));
      int64_t r = source16(src[0], form.sel[0], isSigned) *
                      source16(src[1], form.sel[1], isSigned) +
                  c;
      if (form.clamp)
        r = saturate(r, 32, isSigned);
      return Expect::exact(uint32_t(r));
    };
    checkLanes(sw, spec);
  }
}

const InstructionCase kMad16Cases[] = {
    {"v_mad_u16", kBothChips, test16},
    {"v_mad_i16", kBothChips, test16},
    {"v_mad_legacy_u16", kBothChips, test16},
    {"v_mad_legacy_i16", kBothChips, test16},
    {"v_mad_u32_u16", kBothChips, test32},
    {"v_mad_i32_i16", kBothChips, test32},
    {"v_add_i16", kBothChips, testOther16},
    {"v_sub_i16", kBothChips, testOther16},
    {"v_min3_i16", kBothChips, testOther16},
    {"v_min3_u16", kBothChips, testOther16},
    {"v_max3_i16", kBothChips, testOther16},
    {"v_max3_u16", kBothChips, testOther16},
    {"v_med3_i16", kBothChips, testOther16},
    {"v_med3_u16", kBothChips, testOther16},
};
HK_INSTRUCTION_CASES(Mad16, kMad16Cases);

} // namespace
