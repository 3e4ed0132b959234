//===- KernelArgs.h - Kernel arguments from text specifications -*- C++ -*-===//
//
// What hk-emu's --arg and --kernargs say, as a library: parsing a
// specification (pure: no file is read, nothing allocated), then staging a
// kernel's arguments on a Device (files read, buffers allocated and filled,
// the kernarg bytes packed at the metadata's offsets), then reading the
// output buffers back.
//
//   buf:FILE[:OUT]          a buffer initialised from FILE (.npy or raw
//                           bytes), written back to OUT after the run
//   out:TYPE:COUNT[:OUT]    a zero-filled buffer of COUNT TYPE elements,
//                           printed after the run and written to OUT
//   TYPE:VALUE              a scalar (i32:7, u64:0x10, f32:0.5, ...)
//   struct:OFF=SPEC,...     a by-value argument (a struct) built from
//                           fields: each SPEC above placed at byte offset
//                           OFF (a buffer's field holds its address); bytes
//                           no field covers are zero
//   raw:FILE[,OFF=SPEC...]  a by-value argument whose bytes come from FILE
//                           (exactly the argument's size), with fields laid
//                           over them
//
// A kernel's whole explicit kernarg segment can also come from one file
// with fields over it (stageKernargFile): a captured segment replayed with
// fresh buffers.
//
//===----------------------------------------------------------------------===//

#ifndef HK_EMULATOR_KERNELARGS_H
#define HK_EMULATOR_KERNELARGS_H

#include "hk/Emulator/Device.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hk {
struct ChipInfo;

namespace emu {

/// One parsed argument specification.
struct ArgSpec {
  enum Kind { Buffer, Output, Scalar, Struct, Raw };
  Kind kind = Scalar;
  /// Buffer and Raw: the input file. Buffer and Output: where the buffer
  /// is written after the run ("" for nowhere).
  std::string path, outPath;
  /// Output and Scalar: the element type name (f32, i8, ...).
  std::string type;
  /// Output: the element count.
  uint64_t count = 0;
  /// Scalar: the value's little-endian bytes.
  std::vector<uint8_t> bytes;
  /// Struct and Raw: the fields, by offset.
  struct Field {
    uint32_t offset = 0;
    std::unique_ptr<ArgSpec> spec;
  };
  std::vector<Field> fields;

  /// Bytes the spec occupies in a kernarg segment or a struct: 8 for a
  /// buffer (its address), the scalar's width, 0 when given by the
  /// metadata (struct, raw).
  uint32_t fixedSize() const;
};

/// Parses one specification; an error says what was expected.
llvm::Expected<ArgSpec> parseArgSpec(llvm::StringRef text);

/// A device buffer to read back after the run.
struct StagedOutput {
  /// "arg 2", "arg 0 @16" (a field of a struct argument), "kernargs @8".
  std::string label;
  unsigned argIndex = 0;
  int64_t fieldOffset = -1; ///< -1 when the buffer is the argument itself.
  std::string type;         ///< Element type name.
  DevicePtr address = 0;
  uint64_t bytes = 0;
  std::string path; ///< Where to write it ("" for nowhere).
  bool print = false;
};

struct StagedArgs {
  /// The explicit part of the kernarg segment (the rest is filled by
  /// Device::launch).
  std::vector<uint8_t> kernargs;
  std::vector<StagedOutput> outputs;
};

/// Reads what `specs` (one per explicit argument of `kernel`, in order)
/// name, allocates and fills their buffers on `device`, and packs the
/// kernarg bytes. Errors name the specification.
llvm::Expected<StagedArgs> stageArguments(Device &device,
                                          const KernelInfo &kernel,
                                          llvm::ArrayRef<std::string> specs);

/// The explicit kernarg segment of `kernel` from a file with fields laid
/// over it: `spec` is FILE[,OFF=SPEC...] (offsets in the segment). The file
/// must hold at least the explicit arguments' bytes.
llvm::Expected<StagedArgs> stageKernargFile(Device &device,
                                            const KernelInfo &kernel,
                                            llvm::StringRef spec);

/// An output's contents after the run, and writes them to its path (a
/// NumPy array when the path ends in .npy, raw bytes otherwise).
llvm::Expected<std::vector<uint8_t>> readOutput(Device &device,
                                                const StagedOutput &output);

/// One element of `type` at `p`, as hk-emu prints it (fp8/bf8 in the
/// chip's fp8 formats).
std::string formatElement(llvm::StringRef type, const uint8_t *p,
                          const ChipInfo &chip);

} // namespace emu
} // namespace hk

#endif // HK_EMULATOR_KERNELARGS_H
