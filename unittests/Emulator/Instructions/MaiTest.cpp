//===- MaiTest.cpp - Matrix-core (MAI) instructions -----------------------===//
//
// Every MFMA runs as an instruction (assembled, decoded, executed on one
// wave), checked two ways against references that do not come from the
// emulator:
// - uniform operands: every A element 1, every B element 0.5 (2 for
//   integers), every C element 0.25 (3), then other values (so that no
//   earlier result passes for this one): each element of every block's D
//   must be C + K * A * B exactly, in every D register of every lane (the
//   shape, the element decoding and the accumulation, whatever the
//   layout);
// - layouts: small random integers (exact in every format, sums exact in
//   f32) placed by the rows of third_party/oracles/mfma/gfx942 (AMD's
//   Matrix Instruction Calculator) where a table exists, else by the
//   closed form in its README for single-block M = N in {16, 32} MFMAs of
//   f32/f16/bf16/i8/fp8/bf8 elements (gfx950's double-rate forms included,
//   as the README states); D must be C + A*B exactly.
// Layouts not covered by either (multi-block, 4x4, f64, xf32, f8f6f4) are
// checked by the uniform case only: no table we have gives them.
// Elements decode in the chip's fp8 formats (FNUZ on gfx942, OCP on
// gfx950). v_accvgpr_read/write copy between AGPRs and VGPRs.
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

#include "hk/ISA/InstrDesc.h"
#include "hk/ISA/Instruction.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <random>
#include <regex>

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;
using llvm::APFloat;

namespace {

/// An MFMA's shape and element types, read from its mnemonic.
struct Shape {
  bool scaled = false;
  std::string dstType; // f32, i32, f64
  unsigned m = 0, n = 0, k = 0, blocks = 1;
  std::string srcA, srcB; // f32, xf32, f16, bf16, i8, fp8, bf8, f8f6f4, f64
};

Shape parseShape(const std::string &mnemonic) {
  static const std::regex re("v_mfma_(scale_)?(f32|i32|f64)_(\\d+)x(\\d+)x("
                             "\\d+)(?:_(\\d+)b)?_([a-z0-9]+)(?:_([a-z0-9]+))?");
  std::smatch m;
  Shape s;
  if (!std::regex_match(mnemonic, m, re))
    return s;
  s.scaled = m[1].matched;
  s.dstType = m[2];
  s.m = std::stoi(m[3]);
  s.n = std::stoi(m[4]);
  s.k = std::stoi(m[5]);
  s.blocks = m[6].matched ? std::stoi(m[6]) : 1;
  s.srcA = m[7];
  s.srcB = m[8].matched ? std::string(m[8]) : s.srcA;
  return s;
}

unsigned elementBits(const std::string &type) {
  if (type == "f64")
    return 64;
  if (type == "f32" || type == "xf32")
    return 32;
  if (type == "f16" || type == "bf16")
    return 16;
  return 8;
}

/// The encoding of `value` (an integer or a small binary fraction) as an
/// element of `type` on the wave's chip.
uint64_t encode(SingleWave &sw, const std::string &type, double value) {
  if (type == "i8")
    return uint64_t(int64_t(value)) & 0xff;
  const llvm::fltSemantics *sem = &APFloat::IEEEsingle();
  bool gfx950 = isGfx950(sw);
  if (type == "f64")
    sem = &APFloat::IEEEdouble();
  else if (type == "f16")
    sem = &APFloat::IEEEhalf();
  else if (type == "bf16")
    sem = &APFloat::BFloat();
  else if (type == "fp8" || type == "f8f6f4")
    sem = gfx950 ? &APFloat::Float8E4M3FN() : &APFloat::Float8E4M3FNUZ();
  else if (type == "bf8")
    sem = gfx950 ? &APFloat::Float8E5M2() : &APFloat::Float8E5M2FNUZ();
  APFloat v(value);
  bool lost;
  v.convert(*sem, APFloat::rmNearestTiesToEven, &lost);
  EXPECT_FALSE(lost) << value << " is not exact in " << type;
  return v.bitcastToAPInt().getZExtValue();
}

/// Registers per lane of an operand with `elements` elements in all, each
/// `bits` wide.
unsigned regsFor(unsigned elements, unsigned bits) {
  return std::max(1u, elements / 64 * bits / 32);
}

std::string regRange(unsigned first, unsigned count) {
  if (count == 1)
    return "v" + std::to_string(first);
  return "v[" + std::to_string(first) + ":" +
         std::to_string(first + count - 1) + "]";
}

constexpr unsigned kA = 0, kB = 16, kD = 64;

struct Operands {
  unsigned aRegs, bRegs, dRegs;
  std::string text;
};

Operands operandsOf(const std::string &mnemonic, const Shape &s) {
  Operands o;
  o.aRegs = regsFor(s.m * s.k * s.blocks, elementBits(s.srcA));
  o.bRegs = regsFor(s.n * s.k * s.blocks, elementBits(s.srcB));
  o.dRegs = s.m * s.n * s.blocks / 64 * (s.dstType == "f64" ? 2 : 1);
  o.text = mnemonic + " " + regRange(kD, o.dRegs) + ", " +
           regRange(kA, o.aRegs) + ", " + regRange(kB, o.bRegs) + ", " +
           regRange(kD, o.dRegs);
  if (s.scaled) // Unit scales (E8M0 127 is 1.0).
    o.text += ", v40, v41";
  return o;
}

/// Fills `regs` registers from `first` with copies of one element.
void fillUniform(Wave &w, unsigned first, unsigned regs, unsigned bits,
                 uint64_t element) {
  uint64_t word = 0;
  if (bits == 64) {
    for (unsigned r = 0; r < regs; ++r)
      for (unsigned l = 0; l < 64; ++l)
        w.v[first + r][l] = uint32_t(element >> (32 * (r % 2)));
    return;
  }
  for (unsigned b = 0; b < 32; b += bits)
    word |= element << b;
  for (unsigned r = 0; r < regs; ++r)
    for (unsigned l = 0; l < 64; ++l)
      w.v[first + r][l] = uint32_t(word);
}

void testUniform(SingleWave &sw, const std::string &mnemonic, double a,
                 double b, double c) {
  Shape s = parseShape(mnemonic);
  ASSERT_NE(s.m, 0u) << mnemonic;
  Operands o = operandsOf(mnemonic, s);
  Wave &w = sw.wave();
  bool integer = s.dstType == "i32";
  fillUniform(w, kA, o.aRegs, elementBits(s.srcA), encode(sw, s.srcA, a));
  fillUniform(w, kB, o.bRegs, elementBits(s.srcB), encode(sw, s.srcB, b));
  uint64_t cBits = integer              ? uint64_t(int64_t(c)) & 0xffffffff
                   : s.dstType == "f64" ? fromAPFloat(APFloat(c))
                                        : fromAPFloat(APFloat(float(c)));
  fillUniform(w, kD, o.dRegs, s.dstType == "f64" ? 64 : 32, cBits);
  for (unsigned l = 0; l < 64; ++l)
    w.v[40][l] = w.v[41][l] = 127;
  runOrFail(sw, o.text);
  double want = c + s.k * a * b;
  uint64_t wantBits = integer ? uint64_t(int64_t(want)) & 0xffffffff
                      : s.dstType == "f64" ? fromAPFloat(APFloat(want))
                                           : fromAPFloat(APFloat(float(want)));
  Mismatches bad(o.text + " (uniform)");
  for (unsigned r = 0; r < o.dRegs; ++r)
    for (unsigned l = 0; l < 64; ++l) {
      uint32_t expected = s.dstType == "f64"
                              ? uint32_t(wantBits >> (32 * (r % 2)))
                              : uint32_t(wantBits);
      if (w.v[kD + r][l] != expected)
        bad.add("D register " + std::to_string(r) + " lane " +
                std::to_string(l) + ": got " + hex(w.v[kD + r][l]) + ", want " +
                hex(expected));
    }
}

// Layouts
// ------------------------------------------------------------------------

/// Where an element sits: register, lane, bit offset.
struct Place {
  unsigned reg, lane, bit;
};

/// The oracle's rows for `mnemonic`, or the README's closed form.
struct Layout {
  std::vector<std::array<int64_t, 6>> a, b;
  std::vector<std::array<int64_t, 4>> d;
};

bool oracleLayout(const std::string &mnemonic, Layout &layout) {
  std::string path =
      std::string(HK_ORACLE_DIR) + "/mfma/gfx942/" + mnemonic + ".json";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return false;
  auto value = llvm::json::parse((*buffer)->getBuffer());
  if (!value) {
    ADD_FAILURE() << path << ": " << llvm::toString(value.takeError());
    return false;
  }
  const llvm::json::Object &obj = *value->getAsObject();
  auto rows = [&](llvm::StringRef key, unsigned width) {
    std::vector<std::array<int64_t, 6>> out;
    for (const llvm::json::Value &row : *obj.getArray(key)) {
      std::array<int64_t, 6> r = {0, 0, 0, 0, 0, 0};
      for (unsigned i = 0; i < width; ++i)
        r[i] = *(*row.getAsArray())[i].getAsInteger();
      out.push_back(r);
    }
    return out;
  };
  layout.a = rows("a", 6);
  layout.b = rows("b", 6);
  for (const auto &r : rows("d", 4))
    layout.d.push_back({r[0], r[1], r[2], r[3]});
  return true;
}

/// The README's closed form (single block, M = N in {16, 32}).
bool closedFormLayout(const Shape &s, Layout &layout) {
  if (s.blocks != 1 || s.m != s.n || (s.m != 16 && s.m != 32) ||
      s.srcA == "f64" || s.srcA == "xf32" || s.srcA == "f8f6f4" ||
      s.dstType == "f64")
    return false;
  unsigned bits = elementBits(s.srcA), M = s.m, K = s.k;
  unsigned kl = K * M / 64;
  for (unsigned i = 0; i < M; ++i)
    for (unsigned k = 0; k < K; ++k) {
      unsigned e = k % kl;
      layout.a.push_back(
          {i, k, e * bits / 32, i + M * (k / kl), (e * bits) % 32, bits});
      layout.b.push_back(
          {k, i, e * bits / 32, i + M * (k / kl), (e * bits) % 32, bits});
    }
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < M; ++j)
      layout.d.push_back({i, j, (i % 4) + 4 * (i / (4 * 64 / M)),
                          j + M * ((i / 4) % (64 / M))});
  return true;
}

void placeBits(Wave &w, unsigned first, const std::array<int64_t, 6> &row,
               uint64_t bits) {
  uint32_t &reg = w.v[first + row[2]][row[3]];
  uint32_t mask = row[5] >= 32 ? ~0u : ((1u << row[5]) - 1);
  reg = (reg & ~(mask << row[4])) | (uint32_t(bits) << row[4]);
}

void testLayout(SingleWave &sw, const std::string &mnemonic) {
  Shape s = parseShape(mnemonic);
  Layout layout;
  if (!oracleLayout(mnemonic, layout) && !closedFormLayout(s, layout))
    return;
  Operands o = operandsOf(mnemonic, s);
  Wave &w = sw.wave();
  bool integer = s.dstType == "i32";
  std::mt19937 rng(std::hash<std::string>()(mnemonic) & 0xffff);
  std::uniform_int_distribution<int> small(-2, 2), accum(-8, 8);
  std::vector<double> a(s.m * s.k), b(s.k * s.n), c(s.m * s.n);
  for (unsigned r = 0; r < 32; ++r)
    for (unsigned l = 0; l < 64; ++l)
      w.v[kA + r][l] = 0;
  for (const auto &row : layout.a) {
    double v = small(rng);
    a[row[0] * s.k + row[1]] = v;
    placeBits(w, kA, row, encode(sw, s.srcA, v));
  }
  for (const auto &row : layout.b) {
    double v = small(rng);
    b[row[0] * s.n + row[1]] = v;
    placeBits(w, kB, row, encode(sw, s.srcB, v));
  }
  for (const auto &row : layout.d) {
    double v = accum(rng);
    c[row[0] * s.n + row[1]] = v;
    w.v[kD + row[2]][row[3]] =
        integer ? uint32_t(int32_t(v)) : fromAPFloat(APFloat(float(v)));
  }
  runOrFail(sw, o.text);
  Mismatches bad(o.text + " (layout)");
  for (const auto &row : layout.d) {
    double want = c[row[0] * s.n + row[1]];
    for (unsigned k = 0; k < s.k; ++k)
      want += a[row[0] * s.k + k] * b[k * s.n + row[1]];
    uint32_t expected = integer ? uint32_t(int32_t(want))
                                : uint32_t(fromAPFloat(APFloat(float(want))));
    uint32_t got = w.v[kD + row[2]][row[3]];
    if (got != expected)
      bad.add("D[" + std::to_string(row[0]) + "][" + std::to_string(row[1]) +
              "] (register " + std::to_string(row[2]) + ", lane " +
              std::to_string(row[3]) + "): got " + hex(got) + ", want " +
              hex(expected));
  }
}

void testMfma(SingleWave &sw, const char *mnemonic) {
  // Twice with other values, so that a result left over from the first
  // (or from any earlier MFMA) cannot pass for the second.
  bool integer = parseShape(mnemonic).dstType == "i32";
  testUniform(sw, mnemonic, 1, integer ? 2 : 0.5, integer ? 3 : 0.25);
  testUniform(sw, mnemonic, integer ? -1 : 0.5, integer ? 2 : -2,
              integer ? -5 : 0.75);
  testLayout(sw, mnemonic);
}

/// v_accvgpr_write_b32 a, v and v_accvgpr_read_b32 v, a: per active lane.
void testAccvgpr(SingleWave &sw, const char *mnemonic) {
  bool write = llvm::StringRef(mnemonic).contains("write");
  Wave &w = sw.wave();
  uint64_t exec = 0x0f0f0f0ff0f0f0f0ull;
  unsigned src = write ? 2 : isa::kAgprBase + 2;
  unsigned dst = write ? isa::kAgprBase + 1 : 1;
  for (unsigned l = 0; l < 64; ++l) {
    w.v[src][l] = intInput(l, 0);
    w.v[dst][l] = 7;
  }
  w.setExec(exec);
  runOrFail(sw,
            write ? "v_accvgpr_write_b32 a1, v2" : "v_accvgpr_read_b32 v1, a2");
  w.setExec(~0ull);
  for (unsigned l = 0; l < 64; ++l)
    EXPECT_EQ(w.v[dst][l], (exec >> l) & 1 ? intInput(l, 0) : 7u)
        << mnemonic << " lane " << l;
  if (write) {
    runOrFail(sw, "v_accvgpr_write_b32 a3, 17");
    EXPECT_EQ(w.v[isa::kAgprBase + 3][9], 17u);
  }
}

const char *chipsOf(const std::string &mnemonic) {
  static const char *const cdna4[] = {"v_mfma_f32_16x16x32_bf16",
                                      "v_mfma_f32_16x16x32_f16",
                                      "v_mfma_f32_32x32x16_bf16",
                                      "v_mfma_f32_32x32x16_f16",
                                      "v_mfma_i32_16x16x64_i8",
                                      "v_mfma_i32_32x32x32_i8",
                                      "v_mfma_scale_f32_16x16x128_f8f6f4",
                                      "v_mfma_scale_f32_32x32x64_f8f6f4",
                                      "v_mfma_f32_16x16x128_f8f6f4",
                                      "v_mfma_f32_32x32x64_f8f6f4"};
  for (const char *name : cdna4)
    if (mnemonic == name)
      return "gfx950";
  if (mnemonic.find("xf32") != std::string::npos)
    return "gfx942";
  return kBothChips;
}

std::vector<InstructionCase> maiCases() {
  std::vector<InstructionCase> cases;
  for (const isa::InstrDesc &d : isa::allInstrs()) {
    if (d.family != isa::Family::MAI || !d.mnemonic.starts_with("v_mfma"))
      continue;
    cases.push_back({d.mnemonic.data(), chipsOf(d.mnemonic.str()), testMfma});
  }
  cases.push_back({"v_accvgpr_read_b32", kBothChips, testAccvgpr});
  cases.push_back({"v_accvgpr_write_b32", kBothChips, testAccvgpr});
  return cases;
}

const std::vector<InstructionCase> kMaiCases = maiCases();
HK_INSTRUCTION_CASES(Mai, kMaiCases);

} // namespace
