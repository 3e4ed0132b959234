//===- SingleWave.h - Running single instructions on one wave --*- C++ -*-===//
//
// A made-up one-wave workgroup on which tests run single instructions
// exactly as a launch would: LLVM's assembler encodes the text, the ISA
// layer decodes it, the handler the .def line names executes it.
//
//   SingleWave sw(*ChipInfo::lookup("gfx942"));
//   sw.wave().v[1][lane] = ...;
//   ASSERT_FALSE(bool(sw.run("v_add_f32 v0, v1, v2")));
//   ... sw.wave().v[0][lane] ...
//
// Internal to lib/Emulator and its tests.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_EMULATOR_SINGLEWAVE_H
#define HK_LIB_EMULATOR_SINGLEWAVE_H

#include "Interp.h"

#include "hk/Runtime/CodeObject.h"

#include <memory>
#include <set>
#include <string>

namespace hk::isa {
class Decoder;
}

namespace hk::emu {

class SingleWave {
public:
  /// A wave with every lane active, all registers zero, `ldsBytes` of LDS
  /// and the given sanitizers on.
  explicit SingleWave(const ChipInfo &chip, unsigned ldsBytes = 65536,
                      SanitizerOptions sanitizers = SanitizerOptions::none());
  ~SingleWave();

  Wave &wave() { return *w; }
  Workgroup &workgroup() { return wg; }
  GlobalMemory &memory() { return globalMemory; }
  const ChipInfo &chip() const { return *launch.chip; }

  /// Assembles `source` (one instruction per line) and runs the
  /// instructions in order, each once, whatever a branch would do (the pc
  /// the last one left is wave().pc). An error says which instruction did
  /// not assemble, decode or run.
  llvm::Error run(llvm::StringRef source);

  /// The mnemonics of every instruction run so far.
  const std::set<std::string> &executed() const { return mnemonics; }

private:
  LaunchState launch;
  KernelInfo kernel;
  GlobalMemory globalMemory;
  Workgroup wg;
  Wave *w = nullptr;
  std::unique_ptr<isa::Decoder> decoder;
  std::set<std::string> mnemonics;
};

} // namespace hk::emu

#endif // HK_LIB_EMULATOR_SINGLEWAVE_H
