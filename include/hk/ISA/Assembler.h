//===- Assembler.h - Assembly text to gfx942/gfx950 machine code -*- C++
//-*-===//
//
// LLVM's AMDGPU assembler, in process: instruction text in, the bytes of
// each instruction out. The per-instruction tests build their inputs with
// it, so that every instruction the emulator runs is checked as LLVM's
// assembler encodes it.
//
//   auto code = hk::isa::assemble(*hk::ChipInfo::lookup("gfx942"),
//                                 "v_add_f32 v1, v2, v3\ns_endpgm");
//
// Branch targets must be numeric offsets (no labels or relocations).
//
//===----------------------------------------------------------------------===//

#ifndef HK_ISA_ASSEMBLER_H
#define HK_ISA_ASSEMBLER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace hk {
struct ChipInfo;
namespace isa {

/// The machine code of `source`, one instruction per line; an error carries
/// the assembler's diagnostics.
llvm::Expected<std::vector<uint8_t>> assemble(const ChipInfo &chip,
                                              llvm::StringRef source);

} // namespace isa
} // namespace hk

#endif // HK_ISA_ASSEMBLER_H
