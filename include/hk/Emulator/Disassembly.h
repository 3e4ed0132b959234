//===- Disassembly.h - A code object's instructions as hk-emu decodes them
//-===//
//
// Tools that read machine code (hk-report) see it through the ISA layer,
// exactly as the emulator decodes it before a run: a mnemonic, a unit or a
// wait count means the same to a tool as to the emulator that runs it.
//
//   llvm::Expected<std::vector<hk::isa::Instruction>> code =
//       hk::emu::disassemble(object);
//
//===----------------------------------------------------------------------===//

#ifndef HK_EMULATOR_DISASSEMBLY_H
#define HK_EMULATOR_DISASSEMBLY_H

#include "hk/ISA/Instruction.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace hk {
class CodeObject;
namespace emu {

using isa::WaitLimits;

/// Every instruction of the code object's executable segment, in address
/// order. Undecodable words are instructions with a null `desc` and an
/// `error`.
llvm::Expected<std::vector<isa::Instruction>>
disassemble(const CodeObject &object);

} // namespace emu
} // namespace hk

#endif // HK_EMULATOR_DISASSEMBLY_H
