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

/// Element size in bytes of an hk-emu element type name (f32, f16, bf16,
/// f64, fp8, bf8, i8..i64, u8..u64), or 0 when unknown.
unsigned elementSizeOf(llvm::StringRef type);
/// The hk-emu element type names, for messages.
inline constexpr const char *kElementTypeNames =
    "f32 f16 bf16 f64 fp8 bf8 i8 i16 i32 i64 u8 u16 u32 u64";
/// Element size in bytes of a NumPy descr ("f4", "<u2", "|i1"), or 0 when
/// HK does not read it.
unsigned npyElementSize(llvm::StringRef descr);
/// The NumPy descr (without byte order) for an hk-emu type name ("f32" ->
/// "f4", "i8" -> "i1"); bf16 is stored as "u2" and fp8/bf8 as "u1" since
/// NumPy has no such types. Empty for an unknown name.
std::string npyDescrOf(llvm::StringRef type);
/// The hk-emu type name of a NumPy descr ("f4" -> "f32", "i8" -> "i64",
/// "b1" -> "u8"), or empty when HK does not read it.
std::string typeOfNpyDescr(llvm::StringRef descr);

llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes);
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);
std::string serializeNpy(const NpyArray &array);
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace hk::emu

#endif // HK_EMULATOR_NPY_H
