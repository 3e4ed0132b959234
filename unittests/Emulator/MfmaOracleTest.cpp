//===- MfmaOracleTest.cpp - MFMA layouts and arithmetic vs the oracles ----===//
//
// Every row of every table in third_party/oracles/mfma/gfx942 (AMD's Matrix
// Instruction Calculator) is checked twice: the emulator's operand-register
// mapping must put each element where the table says, and the MFMA unit fed
// with operands placed by the table's own rows must produce D = C + A*B.
//
// Both checks run for gfx942 and gfx950. The tables are CDNA3's, but every
// instruction in them is also a CDNA4 instruction with the same opcode,
// shape and operand registers, so their layout rows hold on gfx950 too. The
// fp8/bf8 tables give where each 8-bit element sits and that it is an "FP8"
// or "BF8" value, not how a byte decodes: that is the chip's fp8 format
// (FNUZ on gfx942, OCP E4M3FN/E5M2 on gfx950), so the arithmetic check
// decodes the random bytes in the format of the chip under test.
//
//===----------------------------------------------------------------------===//

#include "hk/Emulator/Mfma.h"
#include "hk/Emulator/Numerics.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace hk;
using namespace hk::emu;

namespace {

struct OracleTable {
  std::string name;
  llvm::json::Value root = nullptr;
  const llvm::json::Object &obj() const { return *root.getAsObject(); }
  const llvm::json::Array &rows(llvm::StringRef key) const {
    return *obj().getArray(key);
  }
  std::string type(llvm::StringRef operand) const {
    return obj().getObject("types")->getString(operand)->str();
  }
};

std::vector<std::string> oracleFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  std::string dir = std::string(HK_ORACLE_DIR) + "/mfma/gfx942";
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".json"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

OracleTable loadTable(const std::string &path) {
  OracleTable table;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  EXPECT_TRUE(bool(buffer)) << path;
  auto value = llvm::json::parse((*buffer)->getBuffer());
  EXPECT_TRUE(bool(value)) << path;
  table.root = std::move(*value);
  table.name = table.obj().getString("instruction")->str();
  return table;
}

int64_t at(const llvm::json::Value &row, unsigned i) {
  return *row.getAsArray()->operator[](i).getAsInteger();
}

const MfmaInstr *instrFor(const OracleTable &table, const ChipInfo &chip) {
  const MfmaInstr *instr = chip.findMfma(table.name);
  EXPECT_NE(instr, nullptr)
      << table.name << " is missing from " << chip.name.str() << "'s ChipInfo";
  return instr;
}

TEST(MfmaOracle, TablesArePresent) { EXPECT_GE(oracleFiles().size(), 10u); }

/// The oracle checks, once per chip.
class MfmaOracleOnChip : public ::testing::TestWithParam<const char *> {
protected:
  const ChipInfo &chip() const { return *ChipInfo::lookup(GetParam()); }
};

INSTANTIATE_TEST_SUITE_P(Chips, MfmaOracleOnChip,
                         ::testing::Values("gfx942", "gfx950"));

TEST_P(MfmaOracleOnChip, LayoutRowsMatchOperandMapping) {
  for (const std::string &file : oracleFiles()) {
    OracleTable table = loadTable(file);
    const MfmaInstr *found = instrFor(table, chip());
    if (!found)
      continue;
    const MfmaInstr &instr = *found;
    EXPECT_EQ(instr.m, unsigned(*table.obj().getInteger("M")));
    EXPECT_EQ(instr.n, unsigned(*table.obj().getInteger("N")));
    EXPECT_EQ(instr.k, unsigned(*table.obj().getInteger("K")));
    EXPECT_EQ(instr.flops(), uint64_t(*table.obj().getInteger("flops")));
    for (const llvm::json::Value &row : table.rows("a")) {
      MfmaLocation loc = mfmaALocation(instr, at(row, 0), at(row, 1));
      EXPECT_EQ(loc.reg, at(row, 2)) << table.name << " A row";
      EXPECT_EQ(loc.lane, at(row, 3)) << table.name << " A row";
      EXPECT_EQ(loc.bitLo, at(row, 4)) << table.name << " A row";
      EXPECT_EQ(mfmaOperandBits(instr), at(row, 5)) << table.name;
    }
    for (const llvm::json::Value &row : table.rows("b")) {
      MfmaLocation loc = mfmaBLocation(instr, at(row, 0), at(row, 1));
      EXPECT_EQ(loc.reg, at(row, 2)) << table.name << " B row";
      EXPECT_EQ(loc.lane, at(row, 3)) << table.name << " B row";
      EXPECT_EQ(loc.bitLo, at(row, 4)) << table.name << " B row";
    }
    for (const llvm::json::Value &row : table.rows("d")) {
      MfmaLocation loc = mfmaDLocation(instr, at(row, 0), at(row, 1));
      EXPECT_EQ(loc.reg, at(row, 2)) << table.name << " D row";
      EXPECT_EQ(loc.lane, at(row, 3)) << table.name << " D row";
    }
    EXPECT_EQ(table.rows("a").size(), size_t(instr.m) * instr.k);
    EXPECT_EQ(table.rows("d").size(), size_t(instr.m) * instr.n);
  }
}

/// A random element of the table's type: its bits and its exact value.
struct Element {
  uint32_t bits;
  double value;
};

Element randomElement(const std::string &type, Fp8Format fp8,
                      std::mt19937 &rng) {
  std::normal_distribution<float> normal(0.0f, 2.0f);
  if (type == "FP32") {
    float f = normal(rng);
    return {f32ToBits(f), double(f)};
  }
  if (type == "BF16") {
    uint16_t b = f32ToBf16(normal(rng));
    return {b, double(bf16ToF32(b))};
  }
  if (type == "FP16") {
    uint16_t h = f32ToF16(normal(rng));
    return {h, double(f16ToF32(h))};
  }
  // fp8 in the chip's format: any byte that is a finite number (FNUZ: all
  // but 0x80; OCP E4M3FN: all but 0x7f and 0xff; E5M2: exponent not 31).
  const MiniFloat &format = fp8Format(fp8, type == "BF8");
  uint32_t byte;
  double value;
  do {
    byte = rng() & 0xff;
    value = decodeMiniFloat(byte, format);
  } while (!std::isfinite(value));
  return {byte, value};
}

void placeBits(uint32_t (*regs)[64], int64_t reg, int64_t lane, int64_t bitLo,
               int64_t bits, uint32_t value) {
  uint32_t mask = bits >= 32 ? ~0u : ((1u << bits) - 1);
  regs[reg][lane] = (regs[reg][lane] & ~(mask << bitLo)) | (value << bitLo);
}

TEST_P(MfmaOracleOnChip, ArithmeticWithTableLayouts) {
  std::mt19937 rng(7);
  Fp8Format fp8 = chip().fp8Format;
  for (const std::string &file : oracleFiles()) {
    OracleTable table = loadTable(file);
    const MfmaInstr *found = instrFor(table, chip());
    if (!found)
      continue;
    const MfmaInstr &instr = *found;
    unsigned M = instr.m, N = instr.n, K = instr.k;
    std::vector<double> a(M * K), b(K * N), c(M * N);
    static uint32_t ra[16][64], rb[16][64], rc[32][64], rd[32][64];
    std::memset(ra, 0, sizeof(ra));
    std::memset(rb, 0, sizeof(rb));
    for (const llvm::json::Value &row : table.rows("a")) {
      Element e = randomElement(table.type("Src0"), fp8, rng);
      a[at(row, 0) * K + at(row, 1)] = e.value;
      placeBits(ra, at(row, 2), at(row, 3), at(row, 4), at(row, 5), e.bits);
    }
    for (const llvm::json::Value &row : table.rows("b")) {
      Element e = randomElement(table.type("Src1"), fp8, rng);
      b[at(row, 0) * N + at(row, 1)] = e.value;
      placeBits(rb, at(row, 2), at(row, 3), at(row, 4), at(row, 5), e.bits);
    }
    for (const llvm::json::Value &row : table.rows("d")) {
      float value = std::normal_distribution<float>(0.0f, 4.0f)(rng);
      c[at(row, 0) * N + at(row, 1)] = value;
      rc[at(row, 2)][at(row, 3)] = f32ToBits(value);
    }
    MfmaOperands ops;
    ops.a = ra;
    ops.b = rb;
    ops.c = rc;
    ops.d = rd;
    executeMfma(instr, fp8, ops);
    for (const llvm::json::Value &row : table.rows("d")) {
      int64_t i = at(row, 0), j = at(row, 1);
      double ref = c[i * N + j], magnitude = std::fabs(ref);
      for (unsigned k = 0; k < K; ++k) {
        ref += a[i * K + k] * b[k * N + j];
        magnitude += std::fabs(a[i * K + k] * b[k * N + j]);
      }
      double got = bitsToF32(rd[at(row, 2)][at(row, 3)]);
      // One rounding to f32 of an exactly accumulated sum.
      EXPECT_LE(std::fabs(got - ref), 0x1p-23 * magnitude + 1e-30)
          << table.name << " D[" << i << "][" << j << "]";
    }
  }
}

/// The README's closed form, written independently of the emulator.
MfmaLocation closedFormA(unsigned M, unsigned K, unsigned bits, unsigned i,
                         unsigned k) {
  unsigned kl = K * M / 64;
  unsigned e = k % kl;
  return {e * bits / 32, i + M * (k / kl), (e * bits) % 32};
}

TEST(MfmaLayout, Gfx950DoubleRateFollowsClosedForm) {
  const ChipInfo &chip = *ChipInfo::lookup("gfx950");
  for (const char *name :
       {"v_mfma_f32_16x16x32_bf16", "v_mfma_f32_32x32x16_bf16",
        "v_mfma_f32_16x16x32_f16", "v_mfma_f32_32x32x16_f16"}) {
    const MfmaInstr *instr = chip.findMfma(name);
    ASSERT_NE(instr, nullptr) << name;
    EXPECT_EQ(instr->kPerLane(), 8u) << name;
    for (unsigned i = 0; i < instr->m; ++i)
      for (unsigned k = 0; k < instr->k; ++k) {
        MfmaLocation want = closedFormA(instr->m, instr->k, 16, i, k);
        MfmaLocation got = mfmaALocation(*instr, i, k);
        EXPECT_EQ(got.reg, want.reg) << name;
        EXPECT_EQ(got.lane, want.lane) << name;
        EXPECT_EQ(got.bitLo, want.bitLo) << name;
      }
  }
}

// No public table gives the K order of gfx950's scaled f8f6f4 MFMAs. The
// emulator assumes the closed form (32 consecutive K elements per lane,
// lane = row + 16*floor(k/32)); this test pins that assumption down so that
// it is changed knowingly, and checks the scale handling on top of it.
TEST(MfmaLayout, AssumedScaledF8F6F4KOrderIsContiguousPerLane) {
  const ChipInfo &chip = *ChipInfo::lookup("gfx950");
  const MfmaInstr *instr = chip.findMfma("v_mfma_scale_f32_16x16x128_f8f6f4");
  ASSERT_NE(instr, nullptr);
  for (unsigned k = 0; k < 128; ++k) {
    MfmaLocation loc = mfmaALocation(*instr, 3, k, 0, /*fp8=*/0);
    EXPECT_EQ(loc.lane, 3 + 16 * (k / 32));
    EXPECT_EQ(loc.reg, (k % 32) / 4);
    EXPECT_EQ(loc.bitLo, 8 * (k % 4));
    MfmaLocation fp4 = mfmaALocation(*instr, 3, k, 0, /*fp4=*/4);
    EXPECT_EQ(fp4.reg, (k % 32) / 8);
    EXPECT_EQ(fp4.bitLo, 4 * (k % 8));
  }
  // A = all ones (fp8 E4M3 0x38), B = all twos (E4M3 0x40), scale A by 2^1
  // (E8M0 128) in byte 0 and B by 2^-1 (126) in byte 0: D = 128 * 1 * 2.
  static uint32_t a[16][64], b[16][64], c[32][64], d[32][64];
  for (unsigned r = 0; r < 8; ++r)
    for (unsigned l = 0; l < 64; ++l) {
      a[r][l] = 0x38383838u;
      b[r][l] = 0x40404040u;
    }
  std::memset(c, 0, sizeof(c));
  uint32_t scaleA[64], scaleB[64];
  for (unsigned l = 0; l < 64; ++l) {
    scaleA[l] = 0x7f7f7f80u;
    scaleB[l] = 0x7f7f7f7eu;
  }
  MfmaOperands ops;
  ops.a = a;
  ops.b = b;
  ops.c = c;
  ops.d = d;
  ops.scaleA = scaleA;
  ops.scaleB = scaleB;
  executeMfma(*instr, Fp8Format::OCP, ops);
  for (unsigned r = 0; r < 4; ++r)
    for (unsigned l = 0; l < 64; ++l)
      ASSERT_EQ(bitsToF32(d[r][l]), 256.0f);
}

// Scaled f8f6f4 MFMAs with a different scale in every lane and random
// values (fp8 E4M3 A, fp4 B): each product takes the scales of the lanes
// its A and B elements sit in, in the layout above.
TEST(MfmaLayout, ScaledF8F6F4UsesEachLanesScale) {
  const ChipInfo &chip = *ChipInfo::lookup("gfx950");
  std::mt19937 rng(11);
  for (const char *name : {"v_mfma_scale_f32_16x16x128_f8f6f4",
                           "v_mfma_scale_f32_32x32x64_f8f6f4"}) {
    const MfmaInstr *instr = chip.findMfma(name);
    ASSERT_NE(instr, nullptr) << name;
    unsigned M = instr->m, N = instr->n, K = instr->k;
    const unsigned fmtA = 0, fmtB = 4; // E4M3 and E2M1
    static uint32_t a[16][64], b[16][64], c[32][64], d[32][64];
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned l = 0; l < 64; ++l) {
        // Finite E4M3 bytes only (0x7f and 0xff are NaN).
        uint32_t word = 0;
        for (unsigned byte = 0; byte < 4; ++byte)
          word |= (rng() % 0x7f | (rng() & 0x80)) << (8 * byte);
        a[r][l] = word;
        b[r][l] = rng();
      }
    uint32_t scaleA[64], scaleB[64];
    for (unsigned l = 0; l < 64; ++l) {
      scaleA[l] = 0x7f7f7f7fu ^ ((rng() % 8) << 8); // byte 1 varies
      scaleB[l] = 0x7f7f7f7fu ^ (rng() % 8);        // byte 0 varies
    }
    for (unsigned i = 0; i < M; ++i)
      for (unsigned j = 0; j < N; ++j) {
        MfmaLocation at = mfmaDLocation(*instr, i, j);
        c[at.reg][at.lane] = f32ToBits(float(i) - float(j));
      }
    MfmaOperands ops;
    ops.a = a;
    ops.b = b;
    ops.c = c;
    ops.d = d;
    ops.cbsz = fmtA;
    ops.blgp = fmtB;
    ops.scaleA = scaleA;
    ops.scaleB = scaleB;
    ops.scaleByteA = 1;
    ops.scaleByteB = 0;
    executeMfma(*instr, Fp8Format::OCP, ops);
    auto element = [](const uint32_t (*regs)[64], MfmaLocation loc,
                      unsigned bits) {
      return (regs[loc.reg][loc.lane] >> loc.bitLo) & ((1u << bits) - 1);
    };
    for (unsigned i = 0; i < M; ++i)
      for (unsigned j = 0; j < N; ++j) {
        double ref = double(i) - double(j), magnitude = std::fabs(ref);
        for (unsigned k = 0; k < K; ++k) {
          MfmaLocation la = mfmaALocation(*instr, i, k, 0, fmtA);
          MfmaLocation lb = mfmaBLocation(*instr, k, j, 0, fmtB);
          double x = decodeMiniFloat(element(a, la, 8),
                                     fp8Format(Fp8Format::OCP, false)) *
                     e8m0ToDouble(uint8_t(scaleA[la.lane] >> 8));
          double y = decodeMiniFloat(element(b, lb, 4), kFp4) *
                     e8m0ToDouble(uint8_t(scaleB[lb.lane]));
          ref += x * y;
          magnitude += std::fabs(x * y);
        }
        MfmaLocation at = mfmaDLocation(*instr, i, j);
        double got = bitsToF32(d[at.reg][at.lane]);
        EXPECT_LE(std::fabs(got - ref), 0x1p-23 * magnitude + 1e-30)
            << name << " D[" << i << "][" << j << "]";
      }
  }
}

TEST(MfmaLayout, MultiBlockBlocksDoNotMix) {
  // v_mfma_f32_16x16x4_4b_f16: block b multiplies only its own rows; give
  // block b the value b+1 everywhere and check D of block b is 4*(b+1)^2.
  const MfmaInstr *instr =
      ChipInfo::lookup("gfx942")->findMfma("v_mfma_f32_16x16x4_4b_f16");
  ASSERT_NE(instr, nullptr);
  static uint32_t a[16][64], b[16][64], c[32][64], d[32][64];
  std::memset(a, 0, sizeof(a));
  std::memset(b, 0, sizeof(b));
  std::memset(c, 0, sizeof(c));
  for (unsigned blk = 0; blk < 4; ++blk)
    for (unsigned i = 0; i < 16; ++i)
      for (unsigned k = 0; k < 4; ++k) {
        uint16_t v = f32ToF16(float(blk + 1));
        MfmaLocation la = mfmaALocation(*instr, i, k, blk);
        placeBits(a, la.reg, la.lane, la.bitLo, 16, v);
        MfmaLocation lb = mfmaBLocation(*instr, k, i, blk);
        placeBits(b, lb.reg, lb.lane, lb.bitLo, 16, v);
      }
  MfmaOperands ops;
  ops.a = a;
  ops.b = b;
  ops.c = c;
  ops.d = d;
  executeMfma(*instr, Fp8Format::FNUZ, ops);
  for (unsigned blk = 0; blk < 4; ++blk)
    for (unsigned i = 0; i < 16; ++i)
      for (unsigned j = 0; j < 16; ++j) {
        MfmaLocation ld = mfmaDLocation(*instr, i, j, blk);
        EXPECT_EQ(bitsToF32(d[ld.reg][ld.lane]), 4.0f * (blk + 1) * (blk + 1));
      }
}

} // namespace
