//===- Mfma.h - The matrix-core model -------------------------------*- C++
//-*-===//
//
// Register-level execution of every dense MFMA listed in ChipInfo, and the
// operand layouts it uses (the closed form of third_party/oracles/README.md,
// extended to multi-block instructions). Exposed so that unit tests can
// check both the layout and the arithmetic against the oracle tables.
//
//===----------------------------------------------------------------------===//

#ifndef HK_EMULATOR_MFMA_H
#define HK_EMULATOR_MFMA_H

#include "hk/Support/ChipInfo.h"

#include <cstdint>

namespace hk::emu {

/// Where one matrix element lives: register offset from the operand's first
/// register, lane, and first bit inside the register.
struct MfmaLocation {
  unsigned reg;
  unsigned lane;
  unsigned bitLo;
};

/// Bits one A (or B) element occupies for `instr`; scaled f8f6f4
/// instructions take the operand format code (0 fp8, 1 bf8, 2 fp6, 3 bf6,
/// 4 fp4).
unsigned mfmaOperandBits(const MfmaInstr &instr, unsigned formatCode = 0);

/// A[i][k] of block `block`.
MfmaLocation mfmaALocation(const MfmaInstr &instr, unsigned i, unsigned k,
                           unsigned block = 0, unsigned formatCode = 0);
/// B[k][j] of block `block`.
MfmaLocation mfmaBLocation(const MfmaInstr &instr, unsigned k, unsigned j,
                           unsigned block = 0, unsigned formatCode = 0);
/// C/D[i][j] of block `block` (bitLo is 0; f64 elements span two registers).
MfmaLocation mfmaDLocation(const MfmaInstr &instr, unsigned i, unsigned j,
                           unsigned block = 0);

/// Operand registers as [register][lane] arrays.
struct MfmaOperands {
  const uint32_t (*a)[64] = nullptr;
  const uint32_t (*b)[64] = nullptr;
  const uint32_t (*c)[64] = nullptr;
  uint32_t (*d)[64] = nullptr; ///< May alias c.
  /// cbsz/abid broadcast A blocks, blgp permutes B lanes; on scaled
  /// instructions cbsz and blgp are the A and B formats.
  unsigned cbsz = 0, abid = 0, blgp = 0;
  /// Scaled instructions: per-lane E8M0 scale registers and the byte of
  /// each that applies (op_sel).
  const uint32_t *scaleA = nullptr, *scaleB = nullptr;
  unsigned scaleByteA = 0, scaleByteB = 0;
};

/// D = C + A*B for every block, accumulated in double (int64 for integer
/// instructions) and rounded once.
void executeMfma(const MfmaInstr &instr, Fp8Format fp8,
                 const MfmaOperands &ops);

} // namespace hk::emu

#endif // HK_EMULATOR_MFMA_H
