//===- HostArray.h - Kernel arguments on the host ------------------*- C++
//-*-===//
//
// The host side of a global view: an array of one element type (f32, f16,
// bf16, the fp8 formats, i8, i32...) in the bytes the kernel reads, with
// the exact values a reference computes with. Element values are encoded
// and decoded with LLVM's APFloat, so references share no code with the
// emulator's numerics.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_HOSTARRAY_H
#define HK_RUNTIME_HOSTARRAY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace llvm {
struct fltSemantics;
} // namespace llvm

namespace hk {

/// One element type as the host stores it.
struct ElementType {
  std::string name; ///< The MLIR name: "bf16", "f8E4M3FN", "i32".
  /// Floating-point semantics; null for integers.
  const llvm::fltSemantics *semantics = nullptr;
  unsigned bytes = 0;

  /// The element type called `name` (as kernel signatures spell it).
  static llvm::Expected<ElementType> lookup(llvm::StringRef name);

  bool isFloat() const { return semantics != nullptr; }
  /// The bits of `value` rounded to this type (to nearest, ties to even;
  /// integers round to nearest and saturate).
  uint64_t encode(double value) const;
  double decode(uint64_t bits) const;
  /// Relative error of one rounding to nearest: 2^-precision (0 for
  /// integers).
  double unitRoundoff() const;
  /// The bits a launch leaves in outputs before the kernel writes them: a
  /// NaN with every payload bit set, which no arithmetic produces, so that
  /// an element still holding it was not written. None for integer types,
  /// whose every bit pattern is a value.
  std::optional<uint64_t> unwrittenBits() const;
  /// The NumPy dtype of arrays holding this type's bits ("f4", "u2" for
  /// bf16, "u1" for the fp8 formats, "i1").
  llvm::StringRef numpyDescr() const;
};

/// A strided array of one element type. It owns its bytes, or wraps memory
/// its creator owns (a NumPy array).
class HostArray {
public:
  HostArray() = default;
  /// A zero-filled row-major array; the rows (last dimension) are
  /// `rowPadding` elements longer than `sizes` says.
  static HostArray create(ElementType type, llvm::ArrayRef<int64_t> sizes,
                          int64_t rowPadding = 0);
  /// The memory at `data` (`bytes` long) as an array with `strides` (in
  /// elements).
  static HostArray wrap(ElementType type, llvm::ArrayRef<int64_t> sizes,
                        llvm::ArrayRef<int64_t> strides, uint8_t *data,
                        uint64_t bytes, bool writable);
  /// A copy that owns its bytes.
  HostArray clone() const;

  const ElementType &getType() const { return type; }
  llvm::ArrayRef<int64_t> getSizes() const { return sizes; }
  llvm::ArrayRef<int64_t> getStrides() const { return strides; }
  int64_t getNumElements() const;
  /// Bytes from the first element to past the last (padding included).
  uint64_t getByteSize() const { return byteSize; }
  uint8_t *getData() { return data; }
  const uint8_t *getData() const { return data; }
  bool isWritable() const { return writable; }

  /// Element `index` counts row-major over the sizes.
  uint64_t getBits(int64_t index) const;
  void setBits(int64_t index, uint64_t bits);
  double get(int64_t index) const;
  /// Stores `value` rounded to the element type.
  void set(int64_t index, double value);
  /// Every element's value, row-major.
  std::vector<double> getValues() const;
  /// "(3, 17)" for element `index`.
  std::string describeIndex(int64_t index) const;

  /// Byte offset of element `index` from the start.
  uint64_t offsetOf(int64_t index) const;

private:
  ElementType type;
  llvm::SmallVector<int64_t, 4> sizes, strides;
  std::vector<uint8_t> storage;
  uint8_t *data = nullptr;
  uint64_t byteSize = 0;
  bool writable = true;
};

/// Values uniform in [lo, hi), rounded to the array's type.
void fillUniform(HostArray &array, std::mt19937_64 &rng, double lo = -1.0,
                 double hi = 1.0);

} // namespace hk

#endif // HK_RUNTIME_HOSTARRAY_H
