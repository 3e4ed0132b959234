//===- Disassembly.h - A code object's instructions as hk-emu decodes them
//-===//
//
// Tools that read machine code (hk-report) see it through the emulator's
// decoder: LLVM's AMDGPU MC disassembler decodes each instruction and the
// emulator's parser reads the printed text. A mnemonic, a modifier or a wait
// count therefore means the same to a tool as to the emulator that runs it.
//
//   llvm::Expected<std::vector<hk::emu::DecodedInstruction>> code =
//       hk::emu::disassemble(object);
//
//===----------------------------------------------------------------------===//

#ifndef HK_EMULATOR_DISASSEMBLY_H
#define HK_EMULATOR_DISASSEMBLY_H

#include "hk/Emulator/Counters.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hk {
class CodeObject;
struct MfmaInstr;

namespace emu {

/// The limits one s_waitcnt waits for: execution continues once at most
/// `vmcnt` vector-memory, `expcnt` export and `lgkmcnt` LDS/scalar-memory
/// operations are outstanding. A counter the instruction leaves alone holds
/// its largest encodable value (see the k*Max constants).
struct WaitLimits {
  static constexpr unsigned kVmcntMax = 63;
  static constexpr unsigned kExpcntMax = 7;
  static constexpr unsigned kLgkmcntMax = 15;
  unsigned vmcnt = kVmcntMax;
  unsigned expcnt = kExpcntMax;
  unsigned lgkmcnt = kLgkmcntMax;

  bool drainsVmcnt() const { return vmcnt == 0; }
  bool drainsLgkmcnt() const { return lgkmcnt == 0; }
};

/// One instruction of a code object's executable segment.
struct DecodedInstruction {
  uint64_t address = 0;
  unsigned size = 4;
  /// The mnemonic without its encoding suffix (_e32, _e64, _dpp, _sdwa).
  std::string mnemonic;
  /// The instruction as the disassembler printed it.
  std::string text;
  InstrClass cls = InstrClass::Other;
  /// The chip's description of a matrix-core instruction (FLOPs, shape), or
  /// null for anything else or an MFMA the chip table does not know.
  const MfmaInstr *mfma = nullptr;
  /// A buffer or global load whose data goes straight to LDS (the `lds`
  /// modifier, or global_load_lds_*), not to registers.
  bool directToLds = false;
  /// Where a direct branch (s_branch, s_cbranch_*) goes when taken.
  std::optional<uint64_t> branchTarget;
  /// The limits of an s_waitcnt.
  std::optional<WaitLimits> wait;
  /// The immediate of a SOPP instruction: s_setprio's priority, s_nop's
  /// wait states minus one, s_sleep's duration.
  int64_t immediate = 0;
  /// Why the bytes could not be decoded or parsed (empty when they were).
  std::string decodeError;
};

/// Every instruction of the code object's executable segment, in address
/// order, decoded exactly as the emulator decodes it before a run.
llvm::Expected<std::vector<DecodedInstruction>>
disassemble(const CodeObject &object);

} // namespace emu
} // namespace hk

#endif // HK_EMULATOR_DISASSEMBLY_H
