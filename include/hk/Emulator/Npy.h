//===- Npy.h - Reading and writing NumPy .npy files ----------------*- C++
//-*-===//
//
// Little-endian, C-order arrays only: what hk-emu reads kernel inputs from
// and writes kernel outputs to.
//
//===----------------------------------------------------------------------===//

#ifndef HK_EMULATOR_NPY_H
#define HK_EMULATOR_NPY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hk::emu {

struct NpyArray {
  std::string dtype; ///< NumPy descr without byte order: "f4", "u2", "i1"...
  std::vector<uint64_t> shape;
  std::vector<uint8_t> data;

  uint64_t elementCount() const;
  unsigned elementSize() const;
};

/// Element size in bytes of an hk-emu type name or NumPy descr ("f32",
/// "bf16", "f4", "<u2"...), or 0 when unknown.
unsigned elementSizeOf(llvm::StringRef type);
/// The NumPy descr for an hk-emu type name ("f32" -> "f4"; bf16 is stored
/// as "u2" since NumPy has no bfloat16).
std::string npyDescrOf(llvm::StringRef type);

llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes);
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);
std::string serializeNpy(const NpyArray &array);
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace hk::emu

#endif // HK_EMULATOR_NPY_H
