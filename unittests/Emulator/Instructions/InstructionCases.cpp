//===- InstructionCases.cpp - Registry, inputs and lane checks ------------===//

#include "InstructionCases.h"

#include "hk/ISA/InstrDesc.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;
using llvm::APFloat;

std::set<std::string> &
hk::emu::testing::coveredMnemonics(llvm::StringRef chip) {
  static std::map<std::string, std::set<std::string>> byChip;
  return byChip[chip.str()];
}

namespace {
class CaseTest : public ::testing::Test {
public:
  CaseTest(const InstructionCase &c, std::string chip) : c(c), chip(chip) {}
  void TestBody() override {
    const ChipInfo *info = ChipInfo::lookup(chip);
    ASSERT_NE(info, nullptr);
    SingleWave wave(*info);
    c.run(wave, c.mnemonic);
  }

private:
  const InstructionCase &c;
  std::string chip;
};
} // namespace

bool hk::emu::testing::registerInstructionCases(
    const char *suite, llvm::ArrayRef<InstructionCase> cases) {
  for (const InstructionCase &c : cases) {
    llvm::SmallVector<llvm::StringRef> chips;
    llvm::StringRef(c.chips).split(chips, ',');
    for (llvm::StringRef chip : chips) {
      coveredMnemonics(chip).insert(c.mnemonic);
      std::string name = (c.mnemonic + llvm::Twine("/") + chip).str();
      std::string chipName = chip.str();
      ::testing::RegisterTest(suite, name.c_str(), nullptr, nullptr, __FILE__,
                              __LINE__, [&c, chipName]() -> ::testing::Test * {
                                return new CaseTest(c, chipName);
                              });
    }
  }
  return true;
}

void hk::emu::testing::runOrFail(SingleWave &wave, llvm::StringRef text) {
  if (llvm::Error error = wave.run(text))
    FAIL() << text.str() << ": " << llvm::toString(std::move(error));
}

uint64_t hk::emu::testing::mixBits(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

std::string hk::emu::testing::hex(uint64_t value) {
  return "0x" + llvm::utohexstr(value, /*LowerCase=*/true);
}

// Integer inputs -------------------------------------------------------------

uint32_t hk::emu::testing::intInput(unsigned lane, unsigned operand) {
  static const uint32_t edges[] = {
      0,          1,          2,      31,     32,      0x7fffffff, 0x80000000,
      0xffffffff, 0xfffffffe, 0x8000, 0xffff, 0x10000, 0x12345678};
  unsigned n = std::size(edges);
  // The first 3n lanes combine edge values (the pairing shifts from one
  // block of n lanes to the next); the rest are random.
  if (lane < 3 * n)
    return edges[(lane + (lane / n) * operand * 5) % n];
  return uint32_t(mixBits(lane * 131 + operand * 7 + 1));
}

uint64_t hk::emu::testing::int64Input(unsigned lane, unsigned operand) {
  if (lane < 8)
    return uint64_t(intInput(lane, operand)) |
           (uint64_t(intInput(lane + 8, operand)) << 32);
  return mixBits(lane * 977 + operand * 13 + 5);
}

// Floating-point inputs
// ----------------------------------------------------------

namespace {
/// A binary interchange format's layout.
struct Layout {
  unsigned expBits, manBits;
  unsigned bits() const { return 1 + expBits + manBits; }
  uint64_t bias() const { return (1ull << (expBits - 1)) - 1; }
  uint64_t make(bool sign, uint64_t exponent, uint64_t mantissa) const {
    return (uint64_t(sign) << (expBits + manBits)) | (exponent << manBits) |
           (mantissa & ((1ull << manBits) - 1));
  }
};
constexpr Layout kF32Layout{8, 23}, kF16Layout{5, 10}, kBf16Layout{8, 7},
    kF64Layout{11, 52};

/// Edge values of a format, built from its layout: signed zeros, the
/// smallest and largest denormals, the smallest normal, one, values around
/// one half and one, small integers, the largest finite value, infinities,
/// quiet and signalling NaNs (with payloads), a tiny normal whose products
/// are denormal and a huge one whose products overflow.
std::vector<uint64_t> edgeValues(const Layout &L) {
  uint64_t maxMan = (1ull << L.manBits) - 1, maxExp = (1ull << L.expBits) - 1;
  uint64_t quiet = 1ull << (L.manBits - 1), bias = L.bias();
  std::vector<uint64_t> v = {
      L.make(false, 0, 0),
      L.make(true, 0, 0),
      L.make(false, 0, 1),
      L.make(true, 0, 1),
      L.make(false, 0, maxMan),
      L.make(true, 0, maxMan),
      L.make(false, 1, 0),
      L.make(true, 1, 0),
      L.make(false, bias, 0),              // 1
      L.make(true, bias, 0),               // -1
      L.make(false, bias - 1, 0),          // 0.5
      L.make(false, bias - 2, maxMan),     // just below 0.5
      L.make(false, bias, 1),              // 1 + ulp
      L.make(false, bias + 1, quiet),      // 3
      L.make(true, bias + 1, quiet >> 1),  // -2.5
      L.make(false, bias, quiet),          // 1.5
      L.make(false, maxExp - 1, maxMan),   // largest finite
      L.make(true, maxExp - 1, maxMan),    // most negative finite
      L.make(false, maxExp, 0),            // +inf
      L.make(true, maxExp, 0),             // -inf
      L.make(false, maxExp, quiet),        // quiet NaN
      L.make(true, maxExp, quiet),         // negative quiet NaN
      L.make(false, maxExp, 1),            // signalling NaN
      L.make(true, maxExp, maxMan >> 1),   // signalling NaN, payload
      L.make(false, maxExp, quiet | 0x5),  // quiet NaN, payload
      L.make(false, bias + L.manBits, 1),  // odd integer at the boundary
      L.make(false, bias / 4, 0x3),        // tiny normal
      L.make(true, bias + bias / 2, 0x2),  // huge
      L.make(false, bias + 6, quiet | 1),  // 96.something
      L.make(true, bias - 3, maxMan >> 2), // -0.15...
  };
  return v;
}

const std::vector<uint64_t> &edgesOf(const Layout &L) {
  static const std::vector<uint64_t> f32 = edgeValues(kF32Layout),
                                     f16 = edgeValues(kF16Layout),
                                     bf16 = edgeValues(kBf16Layout),
                                     f64 = edgeValues(kF64Layout);
  if (L.bits() == 32)
    return f32;
  if (L.bits() == 64)
    return f64;
  return L.expBits == 5 ? f16 : bf16;
}

/// A seeded random value of the format: mostly moderate magnitudes (whose
/// sums and products round), some with short mantissas (ties), some near
/// the denormal and the overflow boundaries, some arbitrary bit patterns.
uint64_t randomFloat(const Layout &L, unsigned index, unsigned operand) {
  uint64_t r =
      mixBits(index * 0x9e3779b97f4a7c15ull + operand * 0x632be5ab + L.bits());
  uint64_t r2 = mixBits(r);
  bool sign = (r >> 3) & 1;
  uint64_t mantissa = r2 & ((1ull << L.manBits) - 1);
  uint64_t maxExp = (1ull << L.expBits) - 1, bias = L.bias();
  unsigned spread = std::min<unsigned>(12, unsigned(bias) - 1);
  switch (r & 7) {
  case 0:
  case 1:
  case 2:
    return L.make(sign, bias - spread + (r >> 8) % (2 * spread + 1), mantissa);
  case 3: // Few mantissa bits: exact ties when added or converted.
    return L.make(sign, bias - 4 + (r >> 8) % 9,
                  mantissa & (0x7ull << (L.manBits - 3)));
  case 4: // Denormal or barely normal.
    return L.make(sign, (r >> 8) % 3, mantissa);
  case 5: // Near the largest exponent.
    return L.make(sign, maxExp - 1 - (r >> 8) % 3, mantissa);
  case 6: // Small normals whose products underflow.
    return L.make(sign, 1 + (r >> 8) % (L.manBits + 2), mantissa);
  default: {
    uint64_t any = r2 ^ (r << 17);
    return L.bits() == 64 ? any : any & ((1ull << L.bits()) - 1);
  }
  }
}

uint64_t floatInput(const Layout &L, unsigned index, unsigned operand) {
  const std::vector<uint64_t> &edges = edgesOf(L);
  unsigned n = edges.size();
  if (index < n * n) {
    if (operand == 0)
      return edges[index % n];
    if (operand == 1)
      return edges[index / n];
    return edges[(index * 7 + index / n + operand) % n];
  }
  return randomFloat(L, index, operand);
}

unsigned roundsFor(const Layout &L, unsigned extra) {
  unsigned n = edgesOf(L).size();
  return (n * n + 63) / 64 + extra;
}
} // namespace

uint32_t hk::emu::testing::f32Input(unsigned index, unsigned operand) {
  return uint32_t(floatInput(kF32Layout, index, operand));
}
uint16_t hk::emu::testing::f16Input(unsigned index, unsigned operand) {
  return uint16_t(floatInput(kF16Layout, index, operand));
}
uint16_t hk::emu::testing::bf16Input(unsigned index, unsigned operand) {
  return uint16_t(floatInput(kBf16Layout, index, operand));
}
uint64_t hk::emu::testing::f64Input(unsigned index, unsigned operand) {
  return floatInput(kF64Layout, index, operand);
}
unsigned hk::emu::testing::f32Rounds(unsigned extra) {
  return roundsFor(kF32Layout, extra);
}
unsigned hk::emu::testing::f16Rounds(unsigned extra) {
  return roundsFor(kF16Layout, extra);
}
unsigned hk::emu::testing::f64Rounds(unsigned extra) {
  return roundsFor(kF64Layout, extra);
}

// Floating-point references
// ------------------------------------------------------

unsigned hk::emu::testing::bitsOf(Fmt fmt) {
  switch (fmt) {
  case Fmt::B64:
  case Fmt::F64:
    return 64;
  case Fmt::B16:
  case Fmt::F16:
  case Fmt::BF16:
    return 16;
  default:
    return 32;
  }
}

const llvm::fltSemantics &hk::emu::testing::semanticsOf(Fmt fmt) {
  switch (fmt) {
  case Fmt::F64:
  case Fmt::B64:
    return APFloat::IEEEdouble();
  case Fmt::F16:
  case Fmt::B16:
    return APFloat::IEEEhalf();
  case Fmt::BF16:
    return APFloat::BFloat();
  default:
    return APFloat::IEEEsingle();
  }
}

static Layout layoutOf(Fmt fmt) {
  switch (fmt) {
  case Fmt::F64:
  case Fmt::B64:
    return kF64Layout;
  case Fmt::F16:
  case Fmt::B16:
    return kF16Layout;
  case Fmt::BF16:
    return kBf16Layout;
  default:
    return kF32Layout;
  }
}

APFloat hk::emu::testing::toAPFloat(Fmt fmt, uint64_t bits) {
  return APFloat(semanticsOf(fmt), llvm::APInt(bitsOf(fmt), bits));
}

uint64_t hk::emu::testing::fromAPFloat(const APFloat &value) {
  return value.bitcastToAPInt().getZExtValue();
}

uint64_t hk::emu::testing::signBit(Fmt fmt) {
  return 1ull << (bitsOf(fmt) - 1);
}

bool hk::emu::testing::isNaNBits(Fmt fmt, uint64_t bits) {
  Layout L = layoutOf(fmt);
  uint64_t maxExp = (1ull << L.expBits) - 1;
  uint64_t exponent = (bits >> L.manBits) & maxExp;
  return exponent == maxExp && (bits & ((1ull << L.manBits) - 1)) != 0;
}

bool hk::emu::testing::isSignalingBits(Fmt fmt, uint64_t bits) {
  Layout L = layoutOf(fmt);
  return isNaNBits(fmt, bits) && !((bits >> (L.manBits - 1)) & 1);
}

uint64_t hk::emu::testing::quietBits(Fmt fmt, uint64_t bits) {
  return bits | (1ull << (layoutOf(fmt).manBits - 1));
}

uint64_t hk::emu::testing::applyMods(Fmt fmt, uint64_t bits, bool abs,
                                     bool neg) {
  if (abs)
    bits &= ~signBit(fmt);
  if (neg)
    bits ^= signBit(fmt);
  return bits;
}

double hk::emu::testing::toDouble(Fmt fmt, uint64_t bits) {
  APFloat v = toAPFloat(fmt, bits);
  bool lost;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return v.convertToDouble();
}

uint64_t hk::emu::testing::ieeeMaxMin(Fmt fmt, uint64_t a, uint64_t b,
                                      bool isMax) {
  if (isSignalingBits(fmt, a))
    return quietBits(fmt, a);
  if (isSignalingBits(fmt, b))
    return quietBits(fmt, b);
  if (isNaNBits(fmt, a))
    return b;
  if (isNaNBits(fmt, b))
    return a;
  APFloat x = toAPFloat(fmt, a), y = toAPFloat(fmt, b);
  if (x.isZero() && y.isZero())
    return isMax != x.isNegative() ? a : b;
  APFloat::cmpResult c = x.compare(y);
  return isMax == (c == APFloat::cmpGreaterThan) ? a : b;
}

uint64_t hk::emu::testing::ieeeMinimumMaximum(Fmt fmt, uint64_t a, uint64_t b,
                                              bool isMax) {
  if (isNaNBits(fmt, a) || isNaNBits(fmt, b))
    return quietBits(fmt, isNaNBits(fmt, a) ? a : b);
  APFloat x = toAPFloat(fmt, a), y = toAPFloat(fmt, b);
  return fromAPFloat(isMax ? llvm::maximum(x, y) : llvm::minimum(x, y));
}

uint32_t hk::emu::testing::intDotReference(unsigned bits, bool isSigned,
                                           uint32_t a, uint32_t b, uint32_t c,
                                           bool clamp) {
  // Each field shifted to the top of a 32-bit word, then back down: an
  // arithmetic shift sign-extends it, a logical one zero-extends it.
  auto field = [&](uint32_t v, unsigned i) -> int64_t {
    uint32_t top = v << (32 - bits * (i + 1));
    return isSigned ? int64_t(int32_t(top) >> (32 - bits))
                    : int64_t(top >> (32 - bits));
  };
  __int128 sum = isSigned ? __int128(int32_t(c)) : __int128(c);
  for (unsigned i = 0; i < 32 / bits; ++i)
    sum += __int128(field(a, i)) * field(b, i);
  if (clamp) {
    __int128 lo = isSigned ? INT32_MIN : 0;
    __int128 hi = isSigned ? INT32_MAX : UINT32_MAX;
    sum = sum < lo ? lo : sum > hi ? hi : sum;
  }
  return uint32_t(uint64_t(sum));
}

Expect hk::emu::testing::dot2Reference(Fmt half, uint64_t a, uint64_t b,
                                       uint64_t addend) {
  // The exact sum in a format wide enough for every product and the
  // addend (IEEEquad).
  const llvm::fltSemantics &quad = APFloat::IEEEquad();
  bool lost;
  APFloat sum = toAPFloat(Fmt::F32, addend & 0xffffffff);
  sum.convert(quad, APFloat::rmNearestTiesToEven, &lost);
  for (unsigned t = 0; t < 2; ++t) {
    APFloat x = toAPFloat(half, (a >> (16 * t)) & 0xffff);
    APFloat y = toAPFloat(half, (b >> (16 * t)) & 0xffff);
    x.convert(quad, APFloat::rmNearestTiesToEven, &lost);
    y.convert(quad, APFloat::rmNearestTiesToEven, &lost);
    x.multiply(y, APFloat::rmNearestTiesToEven);
    sum.add(x, APFloat::rmNearestTiesToEven);
  }
  if (sum.isNaN())
    return Expect::anyNaN();
  if (sum.isInfinity())
    return ieee(apConvert(sum, Fmt::F32));
  sum.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return Expect::within(sum.convertToDouble(), 1);
}

Expect hk::emu::testing::ieee(const APFloat &value) {
  if (value.isNaN())
    return Expect::anyNaN();
  return Expect::exact(fromAPFloat(value));
}

Expect hk::emu::testing::ieeeBits(Fmt fmt, uint64_t bits) {
  return isNaNBits(fmt, bits) ? Expect::anyNaN() : Expect::exact(bits);
}

APFloat hk::emu::testing::apAdd(Fmt fmt, uint64_t a, uint64_t b) {
  APFloat r = toAPFloat(fmt, a);
  r.add(toAPFloat(fmt, b), APFloat::rmNearestTiesToEven);
  return r;
}
APFloat hk::emu::testing::apSub(Fmt fmt, uint64_t a, uint64_t b) {
  APFloat r = toAPFloat(fmt, a);
  r.subtract(toAPFloat(fmt, b), APFloat::rmNearestTiesToEven);
  return r;
}
APFloat hk::emu::testing::apMul(Fmt fmt, uint64_t a, uint64_t b) {
  APFloat r = toAPFloat(fmt, a);
  r.multiply(toAPFloat(fmt, b), APFloat::rmNearestTiesToEven);
  return r;
}
APFloat hk::emu::testing::apFma(Fmt fmt, uint64_t a, uint64_t b, uint64_t c) {
  APFloat r = toAPFloat(fmt, a);
  r.fusedMultiplyAdd(toAPFloat(fmt, b), toAPFloat(fmt, c),
                     APFloat::rmNearestTiesToEven);
  return r;
}
APFloat hk::emu::testing::apConvert(const APFloat &value, Fmt fmt) {
  APFloat r = value;
  bool lost;
  r.convert(semanticsOf(fmt), APFloat::rmNearestTiesToEven, &lost);
  return r;
}

/// The spacing of `fmt`'s values at magnitude |value|.
static double ulpAt(Fmt fmt, double value) {
  const llvm::fltSemantics &sem = semanticsOf(fmt);
  int minExp = APFloat::semanticsMinExponent(sem);
  int precision = int(APFloat::semanticsPrecision(sem));
  int exponent = value == 0 ? minExp : std::max(std::ilogb(value), minExp);
  return std::ldexp(1.0, exponent - (precision - 1));
}

bool hk::emu::testing::matches(Fmt fmt, uint64_t got, const Expect &want,
                               std::string &why) {
  unsigned bits = bitsOf(fmt);
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  got &= mask;
  switch (want.kind) {
  case Expect::Skip:
    return true;
  case Expect::Exact:
    why = "want " + hex(want.bits & mask);
    return got == (want.bits & mask);
  case Expect::AnyNaN:
    why = "want a quiet NaN";
    return isNaNBits(fmt, got) && !isSignalingBits(fmt, got);
  case Expect::ZeroAny:
    why = "want +0 or -0";
    return (got & ~signBit(fmt)) == 0;
  case Expect::Ulps: {
    llvm::raw_string_ostream os(why);
    os << "want " << llvm::format("%.17g", want.value) << " within "
       << want.ulps << " ulp";
    if (std::isnan(want.value))
      return isNaNBits(fmt, got);
    if (isNaNBits(fmt, got))
      return false;
    double value = toDouble(fmt, got);
    if (std::isinf(want.value) || std::isinf(value)) {
      if (value == want.value)
        return true;
      // A finite value beyond the largest finite number may round to
      // infinity.
      double largest =
          toDouble(fmt, fromAPFloat(APFloat::getLargest(semanticsOf(fmt))));
      return std::isinf(value) && !std::isinf(want.value) &&
             std::signbit(value) == std::signbit(want.value) &&
             std::fabs(want.value) >= largest;
    }
    if (value == 0 && want.value == 0)
      return true;
    double error = std::fabs(value - want.value);
    return error <= want.ulps * ulpAt(fmt, want.value) ||
           error <= want.absolute;
  }
  }
  return false;
}

// Lane loops -----------------------------------------------------------------

Mismatches::~Mismatches() {
  constexpr unsigned kShown = 6;
  if (count > kShown)
    ADD_FAILURE() << what << ": " << (count - kShown)
                  << " more mismatching lanes";
}

void Mismatches::add(const std::string &message) {
  constexpr unsigned kShown = 6;
  if (++count <= kShown)
    ADD_FAILURE() << what << ": " << message;
}

void hk::emu::testing::checkLanes(SingleWave &sw, const LaneSpec &spec) {
  Wave &w = sw.wave();
  Mismatches bad(spec.text);
  static const unsigned srcBase[3] = {2, 4, 6};
  unsigned dstBits = bitsOf(spec.dst);
  // The rounds, then round 0's inputs again with every other lane off.
  for (unsigned round = 0; round <= spec.rounds; ++round) {
    bool sparse = round == spec.rounds;
    uint64_t exec = sparse ? 0x5a5a5a5a0f0f0f0full : ~0ull;
    unsigned base = sparse ? 0 : round * 64;
    uint64_t src[64][3] = {}, old[64];
    for (unsigned l = 0; l < 64; ++l) {
      for (unsigned op = 0; op < spec.numSrcs; ++op) {
        uint64_t v = spec.input(base + l, op);
        src[l][op] = v;
        w.v[srcBase[op]][l] = uint32_t(v);
        if (spec.srcRegs[op] > 1)
          w.v[srcBase[op] + 1][l] = uint32_t(v >> 32);
      }
      old[l] = spec.dstInput ? spec.dstInput(base + l)
                             : 0xdead0000beef0000ull + l * 0x10001;
      if (dstBits < 64)
        old[l] = uint32_t(old[l]);
      w.v[0][l] = uint32_t(old[l]);
      if (dstBits == 64)
        w.v[1][l] = uint32_t(old[l] >> 32);
    }
    w.setExec(exec);
    if (llvm::Error error = sw.run(spec.text)) {
      ADD_FAILURE() << spec.text << ": " << llvm::toString(std::move(error));
      return;
    }
    w.setExec(~0ull);
    for (unsigned l = 0; l < 64; ++l) {
      uint64_t got = w.v[0][l];
      if (dstBits == 64)
        got |= uint64_t(w.v[1][l]) << 32;
      std::string inputs;
      for (unsigned op = 0; op < spec.numSrcs; ++op)
        inputs += (op ? ", " : "") + hex(src[l][op]);
      if (!((exec >> l) & 1)) {
        if (got != old[l])
          bad.add("inactive lane " + std::to_string(l) + " was written (" +
                  hex(old[l]) + " became " + hex(got) + ")");
        continue;
      }
      Expect want = spec.ref(src[l], old[l]);
      std::string why;
      if (!matches(spec.dst, got, want, why))
        bad.add("lane " + std::to_string(base + l) + " (" + inputs + "): got " +
                hex(got) + ", " + why);
      if (dstBits == 16 && want.kind != Expect::Skip) {
        uint64_t high = got >> 16;
        uint64_t wantHigh = spec.high16 == LaneSpec::Kept ? old[l] >> 16 : 0;
        if (spec.high16 != LaneSpec::AnyHigh && high != wantHigh)
          bad.add("lane " + std::to_string(base + l) + " (" + inputs +
                  "): high half " + hex(high) + ", want " + hex(wantHigh));
      }
    }
  }
}

// Floating-point instructions with modifiers
// -------------------------------------------------------------------------

std::string hk::emu::testing::srcReg(unsigned i, unsigned regs) {
  unsigned r = 2 + 2 * i;
  if (regs == 1)
    return "v" + std::to_string(r);
  return "v[" + std::to_string(r) + ":" + std::to_string(r + regs - 1) + "]";
}

std::function<uint64_t(unsigned, unsigned)>
hk::emu::testing::floatInputs(Fmt fmt) {
  switch (fmt) {
  case Fmt::F16:
    // Random high halves: 16-bit sources must ignore them.
    return [](unsigned i, unsigned op) -> uint64_t {
      return f16Input(i, op) | (uint32_t(mixBits(i * 3 + op)) & 0xffff0000u);
    };
  case Fmt::BF16:
    return [](unsigned i, unsigned op) -> uint64_t {
      return bf16Input(i, op) | (uint32_t(mixBits(i * 5 + op)) & 0xffff0000u);
    };
  case Fmt::F64:
    return [](unsigned i, unsigned op) -> uint64_t { return f64Input(i, op); };
  default:
    return [](unsigned i, unsigned op) -> uint64_t { return f32Input(i, op); };
  }
}

unsigned hk::emu::testing::floatRounds(Fmt fmt, unsigned extra) {
  switch (fmt) {
  case Fmt::F16:
  case Fmt::BF16:
    return f16Rounds(extra);
  case Fmt::F64:
    return f64Rounds(extra);
  default:
    return f32Rounds(extra);
  }
}

static bool isDenormalValue(Fmt fmt, double v) {
  double minNormal = toDouble(
      fmt, fromAPFloat(APFloat::getSmallestNormalized(semanticsOf(fmt))));
  return v != 0 && std::fabs(v) < minNormal;
}

Expect hk::emu::testing::applyOutputMods(Fmt fmt, Expect e, unsigned omod,
                                         bool clamp) {
  static const char *const factor[] = {"1", "2", "4", "0.5"};
  static const double scale[] = {1, 2, 4, 0.5};
  if (e.kind == Expect::Skip || e.kind == Expect::ZeroAny)
    return e;
  if (omod) {
    if (e.kind == Expect::Exact) {
      APFloat r = toAPFloat(fmt, e.bits);
      // The smallest normal may be a denormal rounded up.
      if (isDenormalValue(fmt, toDouble(fmt, e.bits)) ||
          r.isSmallestNormalized())
        return Expect::skip();
      // A zero may be a tiny value rounded away, which mul:2 or mul:4
      // applied before the rounding would keep.
      if (omod != 3 && r.isZero())
        return Expect::skip();
      // Halving an infinity that a finite value overflowed to: a result
      // rounded once (after omod) is finite.
      if (omod == 3 && r.isInfinity())
        return Expect::skip();
      r.multiply(APFloat(semanticsOf(fmt), factor[omod]),
                 APFloat::rmNearestTiesToEven);
      if (!r.isNaN() && isDenormalValue(fmt, toDouble(fmt, fromAPFloat(r))))
        return Expect::skip();
      e = ieee(r);
    } else if (e.kind == Expect::Ulps) {
      if (isDenormalValue(fmt, e.value) ||
          isDenormalValue(fmt, e.value * scale[omod]))
        return Expect::skip();
      e.value *= scale[omod];
      e.absolute *= scale[omod];
    }
  }
  if (!clamp)
    return e;
  uint64_t oneBits = fromAPFloat(APFloat(semanticsOf(fmt), "1"));
  switch (e.kind) {
  case Expect::AnyNaN:
    return Expect::exact(0);
  case Expect::Exact: {
    if (isNaNBits(fmt, e.bits))
      return Expect::exact(0);
    double v = toDouble(fmt, e.bits);
    if (v <= 0)
      return Expect::anyZero();
    if (v >= 1)
      return Expect::exact(oneBits);
    return e;
  }
  case Expect::Ulps:
    if (std::isnan(e.value))
      return Expect::exact(0);
    if (e.value <= 0 && e.absolute == 0)
      return Expect::anyZero();
    e.value = std::clamp(e.value, 0.0, 1.0);
    return e;
  default:
    return e;
  }
}

namespace {
/// One encoding of a FloatOp: source modifiers, clamp, omod.
struct Variant {
  bool e64 = false;
  bool neg[3] = {false, false, false}, abs[3] = {false, false, false};
  bool clamp = false;
  unsigned omod = 0;
};
} // namespace

void hk::emu::testing::checkFloatOp(SingleWave &sw, const FloatOp &op) {
  std::vector<Variant> variants;
  variants.push_back(Variant{!op.native, {}, {}, false, 0});
  if (op.inputMods) {
    variants.push_back(
        Variant{true, {true, false, true}, {false, true, true}, false, 0});
    variants.push_back(
        Variant{true, {false, true, false}, {true, false, false}, false, 0});
  }
  if (op.outputMods) {
    variants.push_back(Variant{true, {}, {}, true, 0});
    variants.push_back(Variant{true, {}, {}, false, 1});
    variants.push_back(Variant{true, {}, {}, false, 3});
  }
  auto input = op.input ? op.input : floatInputs(op.src[0]);
  for (size_t n = 0; n < variants.size(); ++n) {
    const Variant &v = variants[n];
    std::string text = op.mnemonic;
    if (v.e64 && op.native)
      text += "_e64";
    text += bitsOf(op.dst) == 64 ? " v[0:1]" : " v0";
    for (unsigned i = 0; i < op.numSrcs; ++i) {
      std::string reg = srcReg(i, bitsOf(op.src[i]) == 64 ? 2 : 1);
      if (v.abs[i])
        reg = "|" + reg + "|";
      if (v.neg[i])
        reg = "-" + reg;
      text += ", " + reg;
    }
    text += op.extra;
    if (v.clamp)
      text += " clamp";
    if (v.omod)
      text += v.omod == 1 ? " mul:2" : v.omod == 2 ? " mul:4" : " div:2";
    LaneSpec spec;
    spec.text = text;
    spec.numSrcs = op.numSrcs;
    for (unsigned i = 0; i < 3; ++i)
      spec.srcRegs[i] = bitsOf(op.src[i]) == 64 ? 2 : 1;
    spec.dst = op.dst;
    spec.input = input;
    spec.high16 = op.high16;
    spec.rounds = n == 0 ? op.rounds : std::max(2u, op.rounds / 3);
    spec.ref = [&op, v](const uint64_t *src, uint64_t) {
      uint64_t mod[3] = {0, 0, 0};
      for (unsigned i = 0; i < op.numSrcs; ++i) {
        unsigned bits = bitsOf(op.src[i]);
        uint64_t value = bits == 64 ? src[i] : src[i] & ((1ull << bits) - 1);
        mod[i] = applyMods(op.src[i], value, v.abs[i], v.neg[i]);
      }
      return applyOutputMods(op.dst, op.ref(mod), v.omod, v.clamp);
    };
    checkLanes(sw, spec);
  }
}

// Coverage -------------------------------------------------------------------

// Every listed instruction has a case on the chips that have it. When
// HK_ISA_COVERAGE_LISTING names a file, the test also writes one line per
// listed instruction to it: mnemonic, family and the chips its cases run
// on ("-" for none), for scripts/isa-coverage.py.
TEST(InstructionCoverage, EveryListedInstructionHasACase) {
  if (const char *path = std::getenv("HK_ISA_COVERAGE_LISTING")) {
    std::ofstream out(path);
    for (const isa::InstrDesc &d : isa::allInstrs()) {
      std::string chips;
      for (llvm::StringRef chip : {"gfx942", "gfx950"})
        if (coveredMnemonics(chip).count(d.mnemonic.str()))
          chips += (chips.empty() ? "" : ",") + chip.str();
      out << d.mnemonic.str() << ' ' << isa::stringifyFamily(d.family).str()
          << ' ' << (chips.empty() ? "-" : chips) << '\n';
    }
  }
  std::vector<std::string> missing;
  for (const isa::InstrDesc &d : isa::allInstrs())
    if (!coveredMnemonics("gfx942").count(d.mnemonic.str()) &&
        !coveredMnemonics("gfx950").count(d.mnemonic.str()))
      missing.push_back(d.mnemonic.str());
  // Every instruction the emulator executes has a case: a handler added
  // to a .def without one fails here (scripts/isa-coverage.py prints the
  // figures per family).
  std::string names;
  for (size_t i = 0; i < missing.size() && i < 20; ++i)
    names += " " + missing[i];
  EXPECT_TRUE(missing.empty())
      << missing.size() << " listed instructions have no case:" << names;
}
