//===- InstructionCases.h - Per-instruction tests of the emulator -*- C++ -*-//
//
// Every instruction the table lists has at least one case here: LLVM's
// assembler encodes it, the emulator runs it on a wave whose lanes hold
// chosen and random inputs, and each lane is checked against a reference
// computed independently (host integer arithmetic, LLVM's APFloat for
// floating point, AMD's ISA documents for the special cases).
//
// A test file defines its cases and registers them:
//
//   static const InstructionCase kCases[] = {
//       {"s_add_u32", "gfx942,gfx950", testSAddU32},
//       ...};
//   HK_INSTRUCTION_CASES(Sop2, kCases);
//
// HK_INSTRUCTION_CASES makes one GoogleTest per case and records the
// mnemonics for the coverage test, which fails when a listed instruction
// has no case.
//
// Vector ALU cases are mostly written with checkLanes: sources in v2, v4,
// v6 (v[2:3], v[4:5], v[6:7] when 64-bit), the result in v0 (v[0:1]), and
// a reference that returns the Expect of each lane.
//
//===----------------------------------------------------------------------===//

#ifndef HK_UNITTESTS_EMULATOR_INSTRUCTIONCASES_H
#define HK_UNITTESTS_EMULATOR_INSTRUCTIONCASES_H

#include "SingleWave.h"

#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include "gtest/gtest.h"

#include <functional>
#include <random>
#include <set>
#include <string>

namespace hk::emu::testing {

/// One test of one instruction: `run` gets a fresh wave on `chip` and
/// checks the instruction `mnemonic` names.
struct InstructionCase {
  const char *mnemonic;
  /// Comma-separated chips the instruction exists on.
  const char *chips;
  void (*run)(SingleWave &wave, const char *mnemonic);
};

constexpr const char *kBothChips = "gfx942,gfx950";

/// The mnemonics some registered case covers, by chip.
std::set<std::string> &coveredMnemonics(llvm::StringRef chip);

/// Registers `cases` with GoogleTest (one test per case and chip) and with
/// the coverage test.
bool registerInstructionCases(const char *suite,
                              llvm::ArrayRef<InstructionCase> cases);

#define HK_INSTRUCTION_CASES(suite, cases)                                     \
  static const bool suite##Registered =                                        \
      ::hk::emu::testing::registerInstructionCases(#suite, cases)

/// Runs `text` and fails the test with the emulator's message if it does
/// not run.
void runOrFail(SingleWave &wave, llvm::StringRef text);

/// The chip name of `wave` ("gfx942" or "gfx950").
inline bool isGfx950(SingleWave &wave) { return wave.chip().name == "gfx950"; }

// Inputs ---------------------------------------------------------------------

/// Inputs for lane loops: lane-dependent values mixing the edge cases of
/// 32-bit integers with random ones (seeded, so failures reproduce).
uint32_t intInput(unsigned lane, unsigned operand);
uint64_t int64Input(unsigned lane, unsigned operand);

/// The reference of the integer dot products v_dot{2,4,8}[c]: the sum of
/// the products of `a`'s and `b`'s `bits`-wide fields (sign-extended when
/// `isSigned`) and the 32-bit addend `c`, exact, then saturated to the
/// 32-bit range when `clamp`, else wrapped.
uint32_t intDotReference(unsigned bits, bool isSigned, uint32_t a, uint32_t b,
                         uint32_t c, bool clamp);

/// Floating-point inputs by lane index (which may run past 64: tests run
/// several rounds of 64 lanes). The first edgeCount^2 indices pair every
/// edge value of the format (zeros, denormals, the smallest and largest
/// normals, infinities, quiet and signalling NaNs with payloads, values
/// near rounding boundaries) of operand 0 with every one of operand 1
/// (operand 2 cycles through them); the rest are seeded random values
/// mixing moderate magnitudes, random bit patterns and values near the
/// denormal and overflow boundaries.
uint32_t f32Input(unsigned index, unsigned operand);
uint16_t f16Input(unsigned index, unsigned operand);
uint16_t bf16Input(unsigned index, unsigned operand);
uint64_t f64Input(unsigned index, unsigned operand);

/// Rounds of 64 lanes that cover every pair of edge values plus `extra`
/// random rounds.
unsigned f32Rounds(unsigned extra = 2);
unsigned f16Rounds(unsigned extra = 2);
unsigned f64Rounds(unsigned extra = 2);

/// A seeded random generator for tests that build their own inputs.
uint64_t mixBits(uint64_t x);

// Floating-point references
// ----------------------------------------------------

/// The value formats results are compared in.
enum class Fmt : uint8_t { B32, B64, B16, F32, F64, F16, BF16 };

unsigned bitsOf(Fmt fmt);
const llvm::fltSemantics &semanticsOf(Fmt fmt);

llvm::APFloat toAPFloat(Fmt fmt, uint64_t bits);
uint64_t fromAPFloat(const llvm::APFloat &value);

/// What a lane must hold.
struct Expect {
  enum Kind : uint8_t {
    Exact,   ///< These bits.
    AnyNaN,  ///< A quiet NaN of the format (payload not settled).
    Ulps,    ///< Within `ulps` units in the last place of `value`.
    Skip,    ///< Not checked (the reason is in the case's comment).
    ZeroAny, ///< +0 or -0 (the sign of a clamped zero is not settled).
  };
  Kind kind = Exact;
  uint64_t bits = 0;
  double value = 0;
  double ulps = 0;
  /// Ulps: an absolute error also accepted (near zeros of a function).
  double absolute = 0;

  static Expect exact(uint64_t bits) { return {Exact, bits, 0, 0, 0}; }
  static Expect anyNaN() { return {AnyNaN, 0, 0, 0, 0}; }
  static Expect skip() { return {Skip, 0, 0, 0, 0}; }
  static Expect anyZero() { return {ZeroAny, 0, 0, 0, 0}; }
  static Expect within(double value, double ulps, double absolute = 0) {
    return {Ulps, 0, value, ulps, absolute};
  }
};

/// An IEEE result: exact bits, or any quiet NaN when the result is a NaN
/// (AMD's documents do not say which NaN arithmetic returns).
Expect ieee(const llvm::APFloat &value);

/// The same for a result's bits.
Expect ieeeBits(Fmt fmt, uint64_t bits);

/// Whether `got` (in `fmt`) satisfies `want`; `why` explains a mismatch.
bool matches(Fmt fmt, uint64_t got, const Expect &want, std::string &why);

/// Round-to-nearest-even arithmetic on bit patterns of `fmt`.
llvm::APFloat apAdd(Fmt fmt, uint64_t a, uint64_t b);
llvm::APFloat apSub(Fmt fmt, uint64_t a, uint64_t b);
llvm::APFloat apMul(Fmt fmt, uint64_t a, uint64_t b);
llvm::APFloat apFma(Fmt fmt, uint64_t a, uint64_t b, uint64_t c);
/// The value converted to `fmt` with round to nearest even.
llvm::APFloat apConvert(const llvm::APFloat &value, Fmt fmt);

bool isNaNBits(Fmt fmt, uint64_t bits);
bool isSignalingBits(Fmt fmt, uint64_t bits);
/// The bits of `bits` with its quiet bit set.
uint64_t quietBits(Fmt fmt, uint64_t bits);
uint64_t signBit(Fmt fmt);
/// abs/neg source modifiers on raw bits.
uint64_t applyMods(Fmt fmt, uint64_t bits, bool abs, bool neg);

/// v_max/v_min in IEEE mode (AMD's pseudocode): a signalling NaN operand
/// gives a quiet NaN (this one: S0's, quieted, else S1's); otherwise a NaN
/// operand gives the other operand; +0 is above -0.
uint64_t ieeeMaxMin(Fmt fmt, uint64_t a, uint64_t b, bool isMax);

/// IEEE 754-2019 minimum/maximum (any NaN gives a NaN, -0 below +0).
uint64_t ieeeMinimumMaximum(Fmt fmt, uint64_t a, uint64_t b, bool isMax);

/// A two-term dot product of packed halves (f16 or bf16) plus an f32
/// addend: the exact sum, within 1 ulp of f32 (AMD's documents do not
/// say how often v_dot2 rounds); NaN and infinities as IEEE gives them.
Expect dot2Reference(Fmt half, uint64_t a, uint64_t b, uint64_t addend);

/// The exact value of a finite pattern (double holds every f32/f16/bf16
/// value exactly; f64 trivially).
double toDouble(Fmt fmt, uint64_t bits);

// Lane loops
// -------------------------------------------------------------------

/// One vector-ALU check: `text` reads its sources from v2, v4, v6 (or the
/// pairs at those registers) and writes v0 (v[0:1]).
struct LaneSpec {
  std::string text;
  unsigned numSrcs = 2;
  /// Source widths in 32-bit registers.
  unsigned srcRegs[3] = {1, 1, 1};
  /// The result's format (B64/F64 results are v[0:1]).
  Fmt dst = Fmt::B32;
  /// Source inputs by lane index and operand.
  std::function<uint64_t(unsigned index, unsigned operand)> input;
  /// Rounds of 64 lanes.
  unsigned rounds = 1;
  /// The reference: the expected result of one lane from its sources (and
  /// the destination's old value, for instructions that read it).
  std::function<Expect(const uint64_t *src, uint64_t oldDst)> ref;
  /// Old destination values (instructions that accumulate into it); null:
  /// a sentinel.
  std::function<uint64_t(unsigned index)> dstInput;
  /// What a 16-bit result leaves in the high half of its register.
  enum High16 : uint8_t { Zeroed, Kept, AnyHigh } high16 = Zeroed;
};

/// Runs `spec` over its rounds, one lane per input, and checks every lane
/// (the last round runs with every other lane inactive and checks that
/// inactive lanes keep their destination). Reports at most a few
/// mismatches per call.
void checkLanes(SingleWave &wave, const LaneSpec &spec);

/// A floating-point VALU instruction checked in its native encoding and in
/// VOP3 forms with source modifiers (neg, abs) and output modifiers
/// (clamp, omod). The reference sees the sources with their modifiers
/// applied; output modifiers are applied to its Expect (omod on a result
/// that is or becomes denormal is not checked: whether omod keeps
/// denormals is not documented; nor is an infinity halved by div:2 or a
/// zero doubled, which a result rounded once after omod may avoid; clamp turns
/// NaN into +0, the DX10_CLAMP mode compute kernels run with, and the sign of a
/// clamped zero is not checked).
struct FloatOp {
  std::string mnemonic;
  unsigned numSrcs = 2;
  Fmt src[3] = {Fmt::F32, Fmt::F32, Fmt::F32};
  Fmt dst = Fmt::F32;
  std::function<Expect(const uint64_t *src)> ref;
  /// Rounds of the native form (the modifier forms run fewer).
  unsigned rounds = 1;
  std::function<uint64_t(unsigned index, unsigned operand)> input;
  bool native = true;     ///< Has a VOP1/VOP2 (e32) encoding.
  bool inputMods = true;  ///< Accepts neg/abs.
  bool outputMods = true; ///< Accepts clamp/omod.
  LaneSpec::High16 high16 = LaneSpec::Zeroed;
  /// Extra operand text appended to every form (e.g. a literal).
  std::string extra;
};

void checkFloatOp(SingleWave &wave, const FloatOp &op);

/// Output modifiers applied to an expected float result.
Expect applyOutputMods(Fmt fmt, Expect e, unsigned omod, bool clamp);

/// The default inputs of a format: f32Input, f16Input (with random high
/// halves), bf16Input or f64Input.
std::function<uint64_t(unsigned, unsigned)> floatInputs(Fmt fmt);
/// Rounds covering every pair of the format's edge values.
unsigned floatRounds(Fmt fmt, unsigned extra = 2);

/// The register name of source `i` (0-2) of the lane loops: v2, v4, v6 or
/// the pairs there.
std::string srcReg(unsigned i, unsigned regs = 1);

/// Collects mismatches and reports the first few (so that a broken
/// instruction prints a handful of lanes, not thousands).
class Mismatches {
public:
  explicit Mismatches(std::string what) : what(std::move(what)) {}
  ~Mismatches();
  /// Records a mismatch described by `message`.
  void add(const std::string &message);
  bool any() const { return count != 0; }

private:
  std::string what;
  unsigned count = 0;
};

std::string hex(uint64_t value);

} // namespace hk::emu::testing

#endif // HK_UNITTESTS_EMULATOR_INSTRUCTIONCASES_H
