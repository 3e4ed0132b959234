//===- ModifiersTest.cpp - DPP and SDWA operand modifiers -----------------===//
//
// The lane moves of DPP and the sub-dword selects of SDWA, which any VOP1
// or VOP2 instruction can carry, checked on v_mov_b32 and v_add_u32
// against the GCN/CDNA ISA reference's DPP_CTRL and SDWA tables:
// - quad_perm: lane l reads lane (l & ~3) + sel[l % 4];
// - row_shl:n / row_shr:n: lane l reads l + n / l - n within its row of
//   16, out of range past the row; row_ror:n rotates within the row;
// - wave_shl:1 / wave_shr:1 (out of range at the ends), wave_rol:1 /
//   wave_ror:1 (wrapping);
// - row_mirror / row_half_mirror: reversed within 16 / 8 lanes;
// - row_bcast:15: lane 15 of the previous row (none for row 0);
//   row_bcast:31: lane 31 for rows 2 and 3 (none for rows 0 and 1);
// - row_newbcast:n (gfx90a and later): lane n of the lane's own row;
// - a source lane out of range or inactive: with bound_ctrl the source is
//   0, without it the lane is not written; row_mask/bank_mask leave rows
//   (16 lanes) and banks (lanes 4b..4b+3 of each row) unwritten;
// - SDWA: src*_sel picks a byte or word (sext sign-extends it);
//   dst_sel writes a byte or word of the destination, dst_unused says what
//   the rest becomes (UNUSED_PAD: zeros, UNUSED_SEXT: the field's sign,
//   UNUSED_PRESERVE: the old bits).
//
//===----------------------------------------------------------------------===//

#include "InstructionCases.h"

using namespace hk;
using namespace hk::emu;
using namespace hk::emu::testing;

namespace {

/// A DPP control in assembler syntax and the lane it makes `lane` read (-1
/// out of range).
struct DppCase {
  std::string text;
  std::function<int(unsigned lane)> source;
};

std::vector<DppCase> dppCases() {
  std::vector<DppCase> cases;
  for (unsigned p : {0xe4u, 0x1bu, 0x00u, 0xb1u, 0x4eu}) {
    std::string sel = "quad_perm:[" + std::to_string(p & 3) + "," +
                      std::to_string((p >> 2) & 3) + "," +
                      std::to_string((p >> 4) & 3) + "," +
                      std::to_string((p >> 6) & 3) + "]";
    cases.push_back({sel, [p](unsigned l) {
                       return int((l & ~3u) + ((p >> (2 * (l % 4))) & 3));
                     }});
  }
  for (unsigned n : {1u, 2u, 7u, 15u}) {
    cases.push_back({"row_shl:" + std::to_string(n), [n](unsigned l) {
                       return l % 16 + n < 16 ? int(l + n) : -1;
                     }});
    cases.push_back({"row_shr:" + std::to_string(n), [n](unsigned l) {
                       return l % 16 >= n ? int(l - n) : -1;
                     }});
    cases.push_back({"row_ror:" + std::to_string(n), [n](unsigned l) {
                       return int(l / 16 * 16 + (l % 16 + 16 - n) % 16);
                     }});
  }
  cases.push_back(
      {"wave_shl:1", [](unsigned l) { return l < 63 ? int(l + 1) : -1; }});
  cases.push_back(
      {"wave_shr:1", [](unsigned l) { return l > 0 ? int(l - 1) : -1; }});
  cases.push_back({"wave_rol:1", [](unsigned l) { return int((l + 1) % 64); }});
  cases.push_back(
      {"wave_ror:1", [](unsigned l) { return int((l + 63) % 64); }});
  cases.push_back({"row_mirror",
                   [](unsigned l) { return int(l / 16 * 16 + 15 - l % 16); }});
  cases.push_back({"row_half_mirror",
                   [](unsigned l) { return int(l / 8 * 8 + 7 - l % 8); }});
  cases.push_back({"row_bcast:15", [](unsigned l) {
                     return l >= 16 ? int(l / 16 * 16 - 1) : -1;
                   }});
  cases.push_back(
      {"row_bcast:31", [](unsigned l) { return l >= 32 ? 31 : -1; }});
  for (unsigned n : {0u, 5u, 15u})
    cases.push_back({"row_newbcast:" + std::to_string(n),
                     [n](unsigned l) { return int(l / 16 * 16 + n); }});
  return cases;
}

TEST(DppModifiers, LaneMovesMasksAndBoundCtrl) {
  for (const char *chip : {"gfx942", "gfx950"}) {
    SingleWave sw(*ChipInfo::lookup(chip));
    Wave &w = sw.wave();
    struct Masks {
      unsigned row, bank;
      bool bound;
      uint64_t exec;
    } masks[] = {{0xf, 0xf, false, ~0ull},
                 {0xf, 0xf, true, ~0ull},
                 {0xa, 0x5, false, ~0ull},
                 {0xf, 0xf, false, 0xfff0f0f00ff0ffffull},
                 {0x7, 0xe, true, 0x0f0ff0ff7fffffffull}};
    for (const DppCase &c : dppCases())
      for (const Masks &m : masks) {
        for (unsigned l = 0; l < 64; ++l) {
          w.v[2][l] = 0x100 + l;
          w.v[0][l] = 0xdead;
        }
        std::string text =
            "v_mov_b32_dpp v0, v2 " + c.text + " row_mask:" + hex(m.row) +
            " bank_mask:" + hex(m.bank) + (m.bound ? " bound_ctrl:0" : "");
        w.setExec(m.exec);
        runOrFail(sw, text);
        w.setExec(~0ull);
        Mismatches bad(std::string(chip) + " " + text + " exec " + hex(m.exec));
        for (unsigned l = 0; l < 64; ++l) {
          bool enabled = ((m.exec >> l) & 1) && ((m.row >> (l / 16)) & 1) &&
                         ((m.bank >> ((l / 4) % 4)) & 1);
          int from = c.source(l);
          bool valid = from >= 0 && ((m.exec >> from) & 1);
          uint32_t want = 0xdead;
          if (enabled && valid)
            want = 0x100 + from;
          else if (enabled && m.bound)
            want = 0;
          if (w.v[0][l] != want)
            bad.add("lane " + std::to_string(l) + ": got " + hex(w.v[0][l]) +
                    ", want " + hex(want));
        }
      }
  }
}

/// DPP applies to src0 only: src1 is the lane's own.
TEST(DppModifiers, OnlySource0Moves) {
  SingleWave sw(*ChipInfo::lookup("gfx942"));
  Wave &w = sw.wave();
  for (unsigned l = 0; l < 64; ++l) {
    w.v[2][l] = l;
    w.v[4][l] = 1000 * l;
  }
  runOrFail(sw, "v_add_u32_dpp v0, v2, v4 row_shr:1 row_mask:0xf "
                "bank_mask:0xf bound_ctrl:0");
  for (unsigned l = 0; l < 64; ++l)
    EXPECT_EQ(w.v[0][l], (l % 16 ? l - 1 : 0) + 1000 * l) << "lane " << l;
}

// SDWA
// ---------------------------------------------------------------------------

const char *const kSel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                            "WORD_0", "WORD_1", "DWORD"};

uint32_t select(uint32_t v, unsigned sel, bool sext) {
  if (sel == 6)
    return v;
  unsigned bits = sel < 4 ? 8 : 16, shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
  uint32_t field = (v >> shift) & ((1u << bits) - 1);
  if (sext && ((field >> (bits - 1)) & 1))
    field |= ~0u << bits;
  return field;
}

TEST(SdwaModifiers, SourceSelects) {
  SingleWave sw(*ChipInfo::lookup("gfx942"));
  Wave &w = sw.wave();
  for (unsigned l = 0; l < 64; ++l) {
    w.v[2][l] = intInput(l, 0) ^ (l * 0x01010101u);
    w.v[4][l] = intInput(l, 1);
  }
  for (unsigned s0 = 0; s0 < 7; ++s0)
    for (unsigned s1 : {0u, 3u, 5u, 6u})
      for (bool sext : {false, true}) {
        std::string a = sext ? "sext(v2)" : "v2", b = sext ? "sext(v4)" : "v4";
        std::string text =
            "v_add_u32_sdwa v0, " + a + ", " + b +
            " dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:" + kSel[s0] +
            " src1_sel:" + kSel[s1];
        runOrFail(sw, text);
        Mismatches bad(text);
        for (unsigned l = 0; l < 64; ++l) {
          uint32_t want =
              select(w.v[2][l], s0, sext) + select(w.v[4][l], s1, sext);
          if (w.v[0][l] != want)
            bad.add("lane " + std::to_string(l) + ": got " + hex(w.v[0][l]) +
                    ", want " + hex(want));
        }
      }
}

TEST(SdwaModifiers, DestinationSelects) {
  SingleWave sw(*ChipInfo::lookup("gfx942"));
  Wave &w = sw.wave();
  const char *const unused[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"};
  for (unsigned sel = 0; sel < 7; ++sel)
    for (unsigned u = 0; u < 3; ++u) {
      for (unsigned l = 0; l < 64; ++l) {
        w.v[2][l] = intInput(l, 0) * 0x9e3779b1u;
        w.v[0][l] = 0xa5a5a5a5u ^ l;
      }
      std::string text = std::string("v_mov_b32_sdwa v0, v2 dst_sel:") +
                         kSel[sel] + " dst_unused:" + unused[u] +
                         " src0_sel:DWORD";
      runOrFail(sw, text);
      Mismatches bad(text);
      for (unsigned l = 0; l < 64; ++l) {
        uint32_t value = w.v[2][l], old = 0xa5a5a5a5u ^ l, want = value;
        if (sel < 6) {
          unsigned bits = sel < 4 ? 8 : 16,
                   shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
          uint32_t mask = ((1u << bits) - 1) << shift;
          uint32_t field = (value << shift) & mask;
          if (u == 0)
            want = field;
          else if (u == 2)
            want = (old & ~mask) | field;
          else {
            bool sign = (field >> (shift + bits - 1)) & 1;
            uint32_t above = shift + bits >= 32 ? 0 : (~0u << (shift + bits));
            want = field | (sign ? above : 0);
          }
        }
        if (w.v[0][l] != want)
          bad.add("lane " + std::to_string(l) + ": got " + hex(w.v[0][l]) +
                  ", want " + hex(want));
      }
    }
}

} // namespace
