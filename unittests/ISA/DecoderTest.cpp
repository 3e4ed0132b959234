//===- DecoderTest.cpp - Decoding checked against LLVM's assembler --------===//
//
// Each case assembles instruction text with LLVM's AMDGPU assembler and
// checks the structured instruction the decoder makes of the bytes: the
// operands in assembler order, constants at their operand's width, and
// the modifier fields read from the instruction words.
//
//===----------------------------------------------------------------------===//

#include "hk/ISA/Decoder.h"
#include "hk/ISA/Assembler.h"
#include "hk/Support/ChipInfo.h"

#include "gtest/gtest.h"

#include <random>

using namespace hk;
using namespace hk::isa;

namespace {

const Decoder &decoderFor(llvm::StringRef chip) {
  static std::map<std::string, std::unique_ptr<Decoder>> decoders;
  std::unique_ptr<Decoder> &d = decoders[chip.str()];
  if (!d) {
    auto created = Decoder::create(*ChipInfo::lookup(chip));
    if (!created)
      ADD_FAILURE() << llvm::toString(created.takeError());
    else
      d = std::move(*created);
  }
  return *d;
}

/// The single instruction `text` assembles to, decoded.
Instruction decode(llvm::StringRef text, llvm::StringRef chip = "gfx942") {
  auto code = assemble(*ChipInfo::lookup(chip), text);
  if (!code) {
    ADD_FAILURE() << llvm::toString(code.takeError());
    return Instruction();
  }
  Instruction in = decoderFor(chip).decode(*code, 0);
  EXPECT_EQ(in.size, code->size()) << text.str();
  EXPECT_TRUE(in.error.empty()) << text.str() << ": " << in.error;
  return in;
}

TEST(Decoder, RegistersAndRanges) {
  Instruction in = decode("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], "
                          "a[0:15] cbsz:1 abid:1 blgp:2");
  ASSERT_EQ(in.numOps, 4);
  EXPECT_EQ(in.ops[0].kind, OpKind::Vgpr);
  EXPECT_EQ(in.ops[0].reg, kAgprBase);
  EXPECT_EQ(in.ops[0].count, 16);
  EXPECT_EQ(in.ops[1].reg, 0);
  EXPECT_EQ(in.ops[1].count, 2);
  EXPECT_EQ(in.cbsz, 1);
  EXPECT_EQ(in.abid, 1);
  EXPECT_EQ(in.blgp, 2);
  EXPECT_EQ(in.unit(), Unit::Mfma);
  ASSERT_NE(in.mfma, nullptr);
  EXPECT_EQ(in.mfma->m, 32u);
}

TEST(Decoder, SourceModifiersAndConstants) {
  Instruction in = decode("v_fma_f32 v0, -v1, |v2|, 0.5 clamp mul:2");
  ASSERT_EQ(in.numOps, 4);
  EXPECT_TRUE(in.ops[1].neg);
  EXPECT_TRUE(in.ops[2].abs);
  EXPECT_EQ(in.ops[3].kind, OpKind::Imm);
  EXPECT_EQ(in.ops[3].imm, 0x3f000000u);
  EXPECT_TRUE(in.clamp);
  EXPECT_EQ(in.omod, 1);
  // f16 operands hold inline constants as halves.
  Instruction h = decode("v_add_f16_e32 v0, 1.0, v1");
  EXPECT_EQ(h.ops[1].imm, 0x3c00u);
  EXPECT_EQ(h.mnemonic(), "v_add_f16");
  EXPECT_EQ(decode("v_mov_b32_e32 v0, -16").ops[1].imm, 0xfffffff0u);
  EXPECT_EQ(decode("v_mov_b32_e32 v0, 0x12345678").ops[1].imm, 0x12345678u);
}

TEST(Decoder, ConstantsTakeTheOperandWidth) {
  // v_lshl_add_u64's shift count is 32 bits, its addend 64: the printed
  // text is the same for both, the bit patterns are not.
  Instruction in = decode("v_lshl_add_u64 v[0:1], v[2:3], 1.0, 1.0");
  EXPECT_EQ(in.ops[2].imm, 0x3f800000u);
  EXPECT_EQ(in.ops[3].imm, 0x3ff0000000000000u);
  EXPECT_EQ(decode("v_add_f64 v[0:1], -1.0, v[2:3]").ops[1].imm,
            0xbff0000000000000u);
  EXPECT_EQ(decode("s_mov_b64 s[0:1], -1").ops[1].imm, ~0ull);
  // A literal an inline constant could have encoded (printed lit(...)).
  EXPECT_EQ(decode("s_addc_u32 s1, s1, lit(0xffffffff)").ops[2].imm,
            0xffffffffu);
  EXPECT_EQ(decode("s_add_u32 s1, s1, lit(0x0)").ops[2].kind, OpKind::Imm);
}

TEST(Decoder, SpecialRegisters) {
  Instruction in = decode("s_and_saveexec_b64 s[0:1], vcc");
  EXPECT_EQ(in.ops[1].reg, kVccLo);
  EXPECT_EQ(in.ops[1].count, 2);
  EXPECT_EQ(decode("s_mov_b32 m0, s3").ops[0].reg, kM0);
  EXPECT_EQ(decode("s_mov_b64 exec, s[4:5]").ops[0].reg, kExecLo);
  Instruction base = decode("s_mov_b64 s[0:1], src_shared_base");
  EXPECT_EQ(base.ops[1].kind, OpKind::Imm);
  EXPECT_EQ(base.ops[1].imm, kSharedAperture);
  Instruction scc = decode("v_mov_b32 v0, src_scc");
  EXPECT_EQ(scc.ops[1].kind, OpKind::Cond);
  EXPECT_EQ(scc.ops[1].reg, 2);
}

TEST(Decoder, ImplicitVccIsAnOperand) {
  // The e32 forms print VCC where the e64 forms name an SGPR pair.
  Instruction cmp = decode("v_cmp_lt_f32 vcc, v1, v2");
  ASSERT_EQ(cmp.numOps, 3);
  EXPECT_EQ(cmp.ops[0].reg, kVccLo);
  EXPECT_EQ(cmp.numDsts, 1);
  Instruction carry = decode("v_addc_co_u32 v1, vcc, v2, v3, vcc");
  ASSERT_EQ(carry.numOps, 5);
  EXPECT_EQ(carry.ops[1].reg, kVccLo);
  EXPECT_EQ(carry.ops[4].reg, kVccLo);
  Instruction e64 = decode("v_add_co_u32_e64 v1, s[4:5], v2, v3");
  ASSERT_EQ(e64.numOps, 4);
  EXPECT_EQ(e64.ops[1].reg, 4);
  EXPECT_EQ(e64.encoding, Encoding::VOP3);
  EXPECT_EQ(decode("v_cndmask_b32 v1, v2, v3, vcc").ops[3].reg, kVccLo);
}

TEST(Decoder, MemoryModifiers) {
  Instruction in = decode("buffer_load_dword v1, v2, s[4:7], s3 offen "
                          "offset:16 sc0 nt sc1");
  EXPECT_TRUE(in.offen);
  EXPECT_EQ(in.offset, 16);
  EXPECT_TRUE(in.sc0 && in.sc1 && in.nt);
  EXPECT_EQ(in.unit(), Unit::VmemLoad);
  Instruction lds = decode("buffer_load_dword v1, s[4:7], 0 offen lds");
  EXPECT_TRUE(lds.lds);
  EXPECT_EQ(lds.unit(), Unit::DirectToLds);
  EXPECT_EQ(lds.numOps, 3);
  Instruction noVaddr = decode("buffer_load_dword v1, off, s[4:7], s3");
  ASSERT_EQ(noVaddr.numOps, 4);
  EXPECT_EQ(noVaddr.ops[1].kind, OpKind::Off);
  Instruction ds = decode("ds_read2_b32 v[0:1], v2 offset0:1 offset1:4");
  EXPECT_EQ(ds.offset0, 1);
  EXPECT_EQ(ds.offset1, 4);
  Instruction g = decode("global_load_dword v1, v5, s[2:3] offset:-16");
  EXPECT_EQ(g.offset, -16);
  EXPECT_EQ(g.ops[1].kind, OpKind::Vgpr);
  EXPECT_EQ(g.ops[1].reg, 5);
  EXPECT_EQ(g.ops[2].kind, OpKind::Sgpr);
  EXPECT_EQ(g.ops[2].reg, 2);
  Instruction off = decode("global_store_dword v[2:3], v1, off");
  ASSERT_EQ(off.numOps, 3);
  EXPECT_EQ(off.ops[2].kind, OpKind::Off);
  Instruction st = decode("scratch_load_dword v1, off, s2 offset:8");
  ASSERT_EQ(st.numOps, 3);
  EXPECT_EQ(st.ops[1].kind, OpKind::Off);
  EXPECT_EQ(st.ops[2].reg, 2);
  EXPECT_EQ(st.offset, 8);
  Instruction smem = decode("s_load_dwordx2 s[0:1], s[4:5], -0x10");
  ASSERT_EQ(smem.numOps, 3);
  EXPECT_EQ(smem.ops[2].imm, uint64_t(-16));
  Instruction both = decode("s_load_dword s0, s[2:3], s4 offset:0x10");
  EXPECT_EQ(both.ops[2].reg, 4);
  EXPECT_EQ(both.offset, 16);
}

/// "v4 v5x1 s0x2 off": the operands' kinds, numbers and widths.
std::string operandList(const Instruction &in) {
  std::string s;
  for (unsigned i = 0; i < in.numOps; ++i) {
    const Operand &op = in.ops[i];
    s += i ? " " : "";
    switch (op.kind) {
    case OpKind::Vgpr:
      s += (op.reg >= kAgprBase ? "a" : "v") +
           std::to_string(op.reg % kAgprBase);
      break;
    case OpKind::Sgpr:
      s += "s" + std::to_string(op.reg);
      break;
    case OpKind::Off:
      s += "off";
      continue;
    default:
      s += "imm";
      continue;
    }
    if (op.count > 1)
      s += "x" + std::to_string(op.count);
  }
  return s;
}

TEST(Decoder, MemoryOperandsInAssemblerOrder) {
  // LLVM's MCInst orders address and data differently per addressing
  // form; the decoder follows the printed order (the encoding's fields).
  const std::pair<const char *, const char *> cases[] = {
      {"global_load_dword v2, v4, s[0:1]", "v2 v4 s0x2"},
      {"global_store_dword v4, v5, s[0:1]", "v4 v5 s0x2"},
      {"global_store_dword v[4:5], v6, off", "v4x2 v6 off"},
      {"global_atomic_add v1, v4, v5, s[0:1] sc0", "v1 v4 v5 s0x2"},
      {"global_atomic_add v4, v5, s[0:1]", "v4 v5 s0x2"},
      {"global_atomic_cmpswap v1, v4, v[6:7], s[0:1] sc0", "v1 v4 v6x2 s0x2"},
      {"scratch_store_dword off, v1, s2", "off v1 s2"},
      {"scratch_store_dword v3, v1, s2", "v3 v1 s2"},
      {"scratch_load_dword v1, v3, s2", "v1 v3 s2"},
      {"global_load_lds_dword v2, s[0:1]", "v2 s0x2"},
      {"global_store_dword v4, a5, s[0:1]", "v4 a5 s0x2"},
      {"buffer_store_dword v1, v2, s[4:7], s3 offen", "v1 v2 s4x4 s3"},
      {"buffer_atomic_add v1, v2, s[4:7], 0 offen sc0", "v1 v2 s4x4 imm"},
      {"buffer_store_dwordx2 v[2:3], off, s[4:7], 0", "v2x2 off s4x4 imm"},
      {"ds_write2_b32 v1, v2, v3 offset0:1 offset1:2", "v1 v2 v3"},
      {"ds_cmpst_rtn_b32 v0, v1, v2, v3", "v0 v1 v2 v3"},
      {"ds_write_b64 v7, v[2:3]", "v7 v2x2"},
  };
  for (auto [text, expected] : cases)
    EXPECT_EQ(operandList(decode(text)), expected) << text;
}

TEST(Decoder, SwizzlePatterns) {
  EXPECT_EQ(
      decode("ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM,1,0,3,2)").offset,
      0x8000 | 1 | (0 << 2) | (3 << 4) | (2 << 6));
  // and=0b00100, or=0b00011, xor=0.
  EXPECT_EQ(
      decode("ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM,\"00p11\")")
          .offset,
      0x4 | (0x3 << 5));
}

TEST(Decoder, DppAndSdwa) {
  Instruction dpp = decode("v_add_f32_dpp v0, v1, v2 quad_perm:[1,0,3,2] "
                           "row_mask:0xa bank_mask:0xf");
  EXPECT_TRUE(dpp.isDpp());
  EXPECT_EQ(dpp.dppCtrl, 1 | (0 << 2) | (3 << 4) | (2 << 6));
  EXPECT_EQ(dpp.rowMask, 0xa);
  Instruction shr = decode("v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf "
                           "bank_mask:0xf bound_ctrl:1");
  EXPECT_EQ(shr.dppCtrl, 0x111);
  EXPECT_TRUE(shr.boundCtrl);
  Instruction sdwa = decode("v_add_f32_sdwa v0, v1, v2 dst_sel:WORD_1 "
                            "dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 "
                            "src1_sel:DWORD");
  EXPECT_TRUE(sdwa.isSdwa());
  EXPECT_EQ(sdwa.dstSel, 5);
  EXPECT_EQ(sdwa.dstUnused, 2);
  EXPECT_EQ(sdwa.src0Sel, 1);
  EXPECT_EQ(sdwa.src1Sel, 6);
  Instruction sext = decode("v_add_u32_sdwa v0, sext(v1), v2 dst_sel:DWORD "
                            "dst_unused:UNUSED_PAD src0_sel:BYTE_0 "
                            "src1_sel:DWORD");
  EXPECT_TRUE(sext.ops[1].sext);
  // A compare's SDWA word holds its scalar destination where others hold
  // dst_sel and dst_unused: s[26:27] must not read as reserved selectors.
  Instruction cmp = decode("v_cmp_ne_u16_sdwa s[26:27], v20, v2 "
                           "src0_sel:BYTE_0 src1_sel:DWORD");
  EXPECT_TRUE(cmp.isSdwa());
  EXPECT_EQ(cmp.src0Sel, 0);
  EXPECT_EQ(cmp.src1Sel, 6);
  EXPECT_EQ(cmp.dstSel, 6);
  EXPECT_EQ(cmp.dstUnused, 0);
}

TEST(Decoder, PackedAndOpSelModifiers) {
  Instruction in = decode("v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0] "
                          "op_sel_hi:[0,1,1] neg_lo:[1,0,0] neg_hi:[0,0,1]");
  EXPECT_EQ(in.opSel, 1);
  EXPECT_EQ(in.opSelHi, 6);
  EXPECT_EQ(in.negLo, 1);
  EXPECT_EQ(in.negHi, 4);
  EXPECT_FALSE(in.ops[1].neg); // VOP3P negations are per half.
  // Without op_sel_hi, high halves come from high halves.
  EXPECT_EQ(decode("v_pk_mul_f32 v[0:1], v[2:3], v[4:5]").opSelHi, 7);
  // VOP3 op_sel: bit 3 is the destination half.
  Instruction cvt =
      decode("v_cvt_pk_fp8_f32 v1, v2, v3 op_sel:[0,0,1]", "gfx950");
  EXPECT_EQ(cvt.opSel, 8);
  Instruction bitop3 =
      decode("v_bitop3_b32 v1, v2, v3, v4 bitop3:0xe8", "gfx950");
  EXPECT_EQ(bitop3.bitop3, 0xe8);
  EXPECT_EQ(bitop3.omod, 0);
}

TEST(Decoder, ScaledMfma) {
  Instruction in = decode(
      "v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:9], v[12:17], v[0:3], "
      "v20, v21 op_sel:[1,0,0] op_sel_hi:[0,1,0] cbsz:2 blgp:3",
      "gfx950");
  EXPECT_EQ(in.size, 16);
  ASSERT_EQ(in.numOps, 6);
  EXPECT_EQ(in.ops[4].reg, 20);
  EXPECT_EQ(in.ops[5].reg, 21);
  EXPECT_EQ(in.cbsz, 2);
  EXPECT_EQ(in.blgp, 3);
  EXPECT_EQ(in.opSel, 1);
  EXPECT_EQ(in.opSelHi, 2);
  ASSERT_NE(in.mfma, nullptr);
  EXPECT_TRUE(in.mfma->scaled);
}

TEST(Decoder, WaitcntCounters) {
  Instruction both = decode("s_waitcnt vmcnt(0) lgkmcnt(0)");
  EXPECT_EQ(both.wait.vmcnt, 0u);
  EXPECT_EQ(both.wait.expcnt, WaitLimits::kExpcntMax);
  EXPECT_EQ(both.wait.lgkmcnt, 0u);
  EXPECT_TRUE(both.wait.drainsVmcnt() && both.wait.drainsLgkmcnt());
  Instruction vm = decode("s_waitcnt vmcnt(40)");
  EXPECT_EQ(vm.wait.vmcnt, 40u); // Bits 3:0 and 15:14.
  EXPECT_EQ(vm.wait.lgkmcnt, WaitLimits::kLgkmcntMax);
  Instruction lgkm = decode("s_waitcnt expcnt(2) lgkmcnt(3)");
  EXPECT_EQ(lgkm.wait.vmcnt, WaitLimits::kVmcntMax);
  EXPECT_EQ(lgkm.wait.expcnt, 2u);
  EXPECT_EQ(lgkm.wait.lgkmcnt, 3u);
  EXPECT_EQ(lgkm.unit(), Unit::Wait);
}

TEST(Decoder, ScalarImmediates) {
  Instruction movk = decode("s_movk_i32 s0, 0x8001");
  ASSERT_EQ(movk.numOps, 2);
  EXPECT_EQ(movk.ops[1].imm, 0x8001u);
  Instruction cmpk = decode("s_cmpk_eq_u32 s3, 0x10");
  EXPECT_EQ(cmpk.numDsts, 0);
  EXPECT_EQ(cmpk.ops[1].imm, 0x10u);
  Instruction branch = decode("s_cbranch_scc1 -3");
  EXPECT_TRUE(branch.isDirectBranch());
  EXPECT_EQ(branch.branchTarget(), uint64_t(4 - 12));
  Instruction idx = decode("s_set_gpr_idx_on s18, gpr_idx(SRC0,DST)");
  EXPECT_EQ(idx.simm, 1 | 8);
  EXPECT_EQ(idx.ops[0].reg, 18);
}

TEST(Decoder, UnlistedInstructionsStillHaveAUnit) {
  // No semantics for these; listings still sort them by unit, from LLVM's
  // instruction flags.
  Instruction sr = decode("v_cvt_sr_bf8_f32 v0, v1, v2");
  EXPECT_FALSE(sr.desc->listed);
  EXPECT_EQ(sr.unit(), Unit::Valu);
  EXPECT_EQ(
      decode("v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10").unit(),
      Unit::Mfma);
  EXPECT_EQ(decode("s_cbranch_cdbgsys 4").unit(), Unit::Branch);
  EXPECT_EQ(decode("s_bitreplicate_b64_b32 s[0:1], s2").unit(), Unit::Salu);
}

TEST(Decoder, BadBytesAreOneErrorNotACrash) {
  // A tbuffer_store_format_xyzw with soffset 0xff: LLVM 22's decoder
  // crashes on these bytes.
  const uint8_t crash[] = {0x00, 0x00, 0x2b, 0xeb, 0x00, 0x00, 0x33, 0xff};
  for (llvm::StringRef chip : {"gfx942", "gfx950"}) {
    Instruction in = decoderFor(chip).decode(crash, 0x100);
    EXPECT_EQ(in.desc, nullptr);
    EXPECT_EQ(in.size, 4);
    EXPECT_FALSE(in.error.empty());
  }
  const uint8_t truncated[] = {0x00, 0x00, 0x00};
  EXPECT_FALSE(decoderFor("gfx942").decode(truncated, 0).error.empty());
}

TEST(Decoder, RandomBytesNeverCrash) {
  // A short fuzz of every encoding space, with room for literals; the fuzz
  // target under fuzz/ runs the same call for as long as it is given.
  std::mt19937 rng(1234);
  for (llvm::StringRef chip : {"gfx942", "gfx950"}) {
    const Decoder &d = decoderFor(chip);
    for (unsigned i = 0; i < 20000; ++i) {
      uint32_t words[4];
      for (uint32_t &w : words)
        w = uint32_t(rng());
      llvm::ArrayRef<uint8_t> bytes(reinterpret_cast<uint8_t *>(words),
                                    4 + 4 * (i % 4));
      Instruction in = d.decode(bytes, 0);
      ASSERT_GE(in.size, 4);
      ASSERT_LE(in.size, bytes.size());
    }
  }
}

TEST(Decoder, TableAgreesWithLlvmFlags) {
  for (llvm::StringRef chip : {"gfx942", "gfx950"}) {
    for (const InstrDesc &desc : allInstrs())
      if (auto code =
              assemble(*ChipInfo::lookup(chip), (desc.mnemonic + " ").str()))
        decoderFor(chip).decode(*code, 0);
      else
        llvm::consumeError(code.takeError());
    for (const std::string &problem : decoderFor(chip).crossCheckTable())
      ADD_FAILURE() << chip.str() << ": " << problem;
  }
}

} // namespace
