//===- Decoder.h - Machine code to structured instructions -------*- C++
//-*-===//
//
// Decodes gfx942/gfx950 machine code into hk::isa::Instruction. LLVM's
// AMDGPU MC disassembler identifies each instruction (its opcode, length,
// registers and immediates); the opcode's mnemonic selects the table entry,
// and the modifier fields LLVM keeps as unnamed immediates are read from the
// instruction words by the documented encoding layouts.
//
//   llvm::Expected<std::unique_ptr<hk::isa::Decoder>> d =
//       hk::isa::Decoder::create(*hk::ChipInfo::lookup("gfx950"));
//   hk::isa::Instruction in = (*d)->decode(bytes, pc);
//   if (!in.error.empty()) ...; // undecodable: one line naming the offset
//
// Bytes that are not an instruction never crash or hang the decoder: they
// decode to an Instruction whose `error` says why (4 bytes consumed).
//
//===----------------------------------------------------------------------===//

#ifndef HK_ISA_DECODER_H
#define HK_ISA_DECODER_H

#include "hk/ISA/Instruction.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace hk {
struct ChipInfo;
namespace isa {

class Decoder {
public:
  static llvm::Expected<std::unique_ptr<Decoder>> create(const ChipInfo &chip);
  ~Decoder();

  const ChipInfo &getChip() const { return chip; }

  /// Decodes the instruction at the start of `bytes`, which sits at address
  /// `pc`. Consumes Instruction::size bytes (4 when undecodable).
  Instruction decode(llvm::ArrayRef<uint8_t> bytes, uint64_t pc) const;

  /// Decodes a whole code range, instruction after instruction.
  std::vector<Instruction> decodeAll(llvm::ArrayRef<uint8_t> bytes,
                                     uint64_t base) const;

  /// Checks LLVM's view of the instruction table: for every listed
  /// instruction LLVM decodes on this chip, the encoding family, unit,
  /// counters and memory direction LLVM's instruction flags give must agree
  /// with the table. Returns one line per disagreement (empty: agreed).
  /// Used by the unit tests; exposed so that a new LLVM can be checked.
  std::vector<std::string> crossCheckTable() const;

private:
  struct Impl;
  explicit Decoder(const ChipInfo &chip, std::unique_ptr<Impl> impl);
  const ChipInfo &chip;
  std::unique_ptr<Impl> impl;
};

} // namespace isa
} // namespace hk

#endif // HK_ISA_DECODER_H
