//===- ParserTest.cpp - Parsing the disassembler's instruction text -------===//

#include "Interp.h"

#include "gtest/gtest.h"

using namespace hk;
using namespace hk::emu;

namespace {

Instr parse(llvm::StringRef text) {
  Instr in;
  llvm::Error error = parseInstructionText(text, in);
  EXPECT_FALSE(bool(error)) << text.str() << ": " << toString(std::move(error));
  return in;
}

TEST(Parser, RegistersAndRanges) {
  Instr in = parse("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15] "
                   "cbsz:1 abid:1 blgp:2");
  ASSERT_EQ(in.numOps, 4);
  EXPECT_EQ(in.ops[0].kind, OpKind::Vgpr);
  EXPECT_EQ(in.ops[0].reg, kAgprBase);
  EXPECT_EQ(in.ops[0].count, 16);
  EXPECT_EQ(in.ops[1].reg, 0);
  EXPECT_EQ(in.ops[1].count, 2);
  EXPECT_EQ(in.cbsz, 1);
  EXPECT_EQ(in.abid, 1);
  EXPECT_EQ(in.blgp, 2);
  EXPECT_EQ(in.cls, InstrClass::Mfma);
}

TEST(Parser, SourceModifiersAndConstants) {
  Instr in = parse("v_fma_f32 v0, -v1, |v2|, 0.5 clamp mul:2");
  ASSERT_EQ(in.numOps, 4);
  EXPECT_TRUE(in.ops[1].neg);
  EXPECT_TRUE(in.ops[2].abs);
  EXPECT_EQ(in.ops[3].kind, OpKind::Imm);
  EXPECT_EQ(in.ops[3].imm, 0x3f000000u);
  EXPECT_TRUE(in.clamp);
  EXPECT_EQ(in.omod, 1);
  // f16 instructions encode inline float constants as halves.
  Instr h = parse("v_add_f16_e32 v0, 1.0, v1");
  EXPECT_EQ(h.ops[1].imm, 0x3c00u);
  EXPECT_EQ(h.mnemonic, "v_add_f16");
  Instr neg = parse("v_mov_b32_e32 v0, -16");
  EXPECT_EQ(uint32_t(neg.ops[1].imm), 0xfffffff0u);
}

TEST(Parser, ConstantsTakeTheDecodedOperandWidth) {
  // The disassembler's MCInst holds each inline constant at its operand's
  // width: v_lshl_add_u64's shift count is 32 bits, its addend 64. The
  // printed text is the same for both.
  Instr in;
  const int64_t imms[] = {0x3f800000, 0x3ff0000000000000};
  llvm::Error error =
      parseInstructionText("v_lshl_add_u64 v[0:1], v[2:3], 1.0, 1.0", in, imms);
  ASSERT_FALSE(bool(error)) << toString(std::move(error));
  EXPECT_EQ(in.ops[2].imm, 0x3f800000u);
  EXPECT_EQ(in.ops[3].imm, 0x3ff0000000000000u);
  // Modifier immediates between them (here a zero) are skipped.
  Instr f64;
  const int64_t f64Imms[] = {0, int64_t(0xbff0000000000000)};
  error = parseInstructionText("v_add_f64 v[0:1], -1.0, v[2:3]", f64, f64Imms);
  ASSERT_FALSE(bool(error)) << toString(std::move(error));
  EXPECT_EQ(f64.ops[1].imm, 0xbff0000000000000u);
}

TEST(Parser, SpecialRegisters) {
  Instr in = parse("s_and_saveexec_b64 s[0:1], vcc");
  EXPECT_EQ(in.ops[1].reg, kVccLo);
  EXPECT_EQ(in.ops[1].count, 2);
  Instr m0 = parse("s_mov_b32 m0, s3");
  EXPECT_EQ(m0.ops[0].reg, kM0);
  Instr exec = parse("s_mov_b64 exec, s[4:5]");
  EXPECT_EQ(exec.ops[0].reg, kExecLo);
}

TEST(Parser, MemoryModifiers) {
  Instr in = parse("buffer_load_dword v1, v2, s[4:7], s3 offen offset:16 "
                   "sc0 nt sc1");
  EXPECT_TRUE(in.offen);
  EXPECT_EQ(in.offset, 16);
  EXPECT_TRUE(in.sc0 && in.sc1 && in.nt);
  Instr lds = parse("buffer_load_dwordx4 v1, s[4:7], 0 offen lds");
  EXPECT_TRUE(lds.lds);
  EXPECT_EQ(lds.numOps, 3);
  Instr ds = parse("ds_read2_b32 v[0:1], v2 offset0:1 offset1:4");
  EXPECT_EQ(ds.offset0, 1);
  EXPECT_EQ(ds.offset1, 4);
  Instr g = parse("global_load_dword v1, v2, s[2:3] offset:-16");
  EXPECT_EQ(g.offset, -16);
}

TEST(Parser, SwizzlePatterns) {
  Instr quad = parse("ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM,1,0,3,2)");
  EXPECT_EQ(quad.offset, 0x8000 | 1 | (0 << 2) | (3 << 4) | (2 << 6));
  Instr mask =
      parse("ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM,\"00p11\")");
  // and=0b00100, or=0b00011, xor=0.
  EXPECT_EQ(mask.offset, 0x4 | (0x3 << 5));
}

TEST(Parser, DppAndSdwa) {
  Instr dpp = parse("v_add_f32_dpp v0, v1, v2 quad_perm:[1,0,3,2] "
                    "row_mask:0xa bank_mask:0xf");
  EXPECT_TRUE(dpp.dpp);
  EXPECT_EQ(dpp.dppCtrl, 1 | (0 << 2) | (3 << 4) | (2 << 6));
  EXPECT_EQ(dpp.rowMask, 0xa);
  Instr shr = parse("v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf "
                    "bank_mask:0xf bound_ctrl:1");
  EXPECT_EQ(shr.dppCtrl, 0x111);
  EXPECT_TRUE(shr.boundCtrl);
  Instr sdwa = parse("v_add_f32_sdwa v0, v1, v2 dst_sel:WORD_1 "
                     "dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 "
                     "src1_sel:DWORD");
  EXPECT_TRUE(sdwa.sdwa);
  EXPECT_EQ(sdwa.dstSel, 5);
  EXPECT_EQ(sdwa.dstUnused, 2);
  EXPECT_EQ(sdwa.src0Sel, 1);
  EXPECT_EQ(sdwa.src1Sel, 6);
}

TEST(Parser, PackedModifiers) {
  Instr in = parse("v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0] "
                   "op_sel_hi:[0,1,1] neg_lo:[1,0,0]");
  EXPECT_EQ(in.opSel, 1);
  EXPECT_EQ(in.opSelHi, 6);
  EXPECT_EQ(in.negLo, 1);
  Instr def = parse("v_pk_mul_f32 v[0:1], v[2:3], v[4:5]");
  EXPECT_EQ(def.opSelHi, 0xf); // Default: high halves from high halves.
}

TEST(Parser, WaitcntCounters) {
  // The printer names only the counters the instruction waits on.
  Instr both = parse("s_waitcnt vmcnt(0) lgkmcnt(0)");
  EXPECT_EQ(both.wait.vmcnt, 0u);
  EXPECT_EQ(both.wait.expcnt, WaitLimits::kExpcntMax);
  EXPECT_EQ(both.wait.lgkmcnt, 0u);
  EXPECT_TRUE(both.wait.drainsVmcnt() && both.wait.drainsLgkmcnt());
  Instr vm = parse("s_waitcnt vmcnt(8)");
  EXPECT_EQ(vm.wait.vmcnt, 8u);
  EXPECT_EQ(vm.wait.lgkmcnt, WaitLimits::kLgkmcntMax);
  EXPECT_FALSE(vm.wait.drainsVmcnt());
  Instr lgkm = parse("s_waitcnt expcnt(2) lgkmcnt(3)");
  EXPECT_EQ(lgkm.wait.vmcnt, WaitLimits::kVmcntMax);
  EXPECT_EQ(lgkm.wait.expcnt, 2u);
  EXPECT_EQ(lgkm.wait.lgkmcnt, 3u);
  // Waiting on nothing prints every counter at its maximum.
  Instr none = parse("s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)");
  EXPECT_EQ(none.wait.vmcnt, 63u);
  EXPECT_EQ(none.wait.lgkmcnt, 15u);
  EXPECT_EQ(none.cls, InstrClass::Wait);
  for (llvm::StringRef bad : {"s_waitcnt vmcnt(64)", "s_waitcnt lgkmcnt(x)",
                              "s_waitcnt 0", "s_waitcnt vscnt(0)"}) {
    Instr in;
    llvm::Error error = parseInstructionText(bad, in);
    EXPECT_TRUE(bool(error)) << bad.str();
    llvm::consumeError(std::move(error));
  }
}

TEST(Parser, UnhandledMnemonicsStillHaveAClass) {
  // No handler runs these; listings still sort them by unit.
  EXPECT_EQ(parse("v_cvt_sr_bf8_f32 v0, v1, v2").cls, InstrClass::Valu);
  EXPECT_EQ(parse("v_cvt_sr_bf8_f32 v0, v1, v2").fn, nullptr);
  EXPECT_EQ(parse("v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10").cls,
            InstrClass::Mfma);
  EXPECT_EQ(parse("s_cbranch_cdbgsys 4").cls, InstrClass::Branch);
  EXPECT_EQ(parse("s_bitreplicate_b64_b32 s[0:1], s2").cls, InstrClass::Salu);
  EXPECT_EQ(parse("s_cbranch_scc1 3").cls, InstrClass::Branch);
}

TEST(Parser, RejectsGarbage) {
  Instr in;
  llvm::Error error = parseInstructionText("v_add_f32 v0, v[3:1], v2", in);
  EXPECT_TRUE(bool(error));
  llvm::consumeError(std::move(error));
}

} // namespace
