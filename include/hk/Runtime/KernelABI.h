//===- KernelABI.h - Host side of the hk kernel ABI ---------------*- C++
//-*-===//
//
// An hk.kernel takes, in order: one pointer per global view; each view's
// runtime ('?') sizes, outermost first; each view's strides (in elements)
// for every dimension but the innermost; then its scalar arguments. Sizes
// and strides are 32-bit. This file builds that argument list on the host
// and rejects, with a message, what the kernel cannot take.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_KERNELABI_H
#define HK_RUNTIME_KERNELABI_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hk {

/// One kernel argument as the ABI sees it.
struct KernelParam {
  enum Kind { View, I32, F32 } kind = View;
  /// View only: static sizes, with -1 for runtime ('?') dimensions.
  llvm::SmallVector<int64_t, 4> shape;
  /// View only: bytes per element.
  unsigned elementBytes = 0;
  std::string elementType; ///< "bf16", "f32", ... (View only).
  /// The argument's name in the source ("A"); may be empty.
  std::string name;
};

/// How many blocks one grid dimension needs so that the kernel writes all
/// of an output: ceil(size of `param`'s dimension `dim` / `extent`), the
/// block covering `extent` elements of that dimension.
struct GridExtent {
  unsigned param = 0;
  unsigned dim = 0;
  int64_t extent = 1;
};

/// The grid a kernel needs, per dimension (x, y, z): the largest of the
/// extents' block counts, or 1 when the dimension lists none (the kernel
/// does not read that block id).
using LaunchGrid = std::array<std::vector<GridExtent>, 3>;

struct KernelSignature {
  std::string name;
  unsigned waves = 0;
  std::vector<KernelParam> params;
  /// Present when the kernel's output tiling fixes its grid.
  std::optional<LaunchGrid> grid;

  /// Work-items per block (64 per wave).
  unsigned blockSize() const { return waves * 64; }
};

/// One word of the kernarg segment, in ABI order.
struct AbiField {
  enum Kind { Pointer, Size, Stride, Scalar } kind = Pointer;
  unsigned param = 0; ///< Index into KernelSignature::params.
  unsigned dim = 0;   ///< Size and Stride: the view's dimension.
  unsigned offset = 0;
  unsigned bytes = 0;
  /// "A", "A_size0", "A_stride0", "alpha" (the code object's names; "argN"
  /// for a parameter without a name).
  std::string name;
};

/// The kernarg fields of `signature`, in order, at their offsets: pointers,
/// runtime sizes, strides, scalars (see the file comment).
std::vector<AbiField> getAbiFields(const KernelSignature &signature);

/// The name a parameter has in the ABI: its own, or "arg<index>".
std::string getParamName(const KernelSignature &signature, size_t index);

/// A global view's run-time description.
struct ViewValue {
  uint64_t address = 0;
  llvm::SmallVector<int64_t, 4> sizes;
  /// Strides in elements, one per dimension (the innermost must be 1).
  llvm::SmallVector<int64_t, 4> strides;
};

/// The value of one kernel argument.
struct ArgValue {
  ViewValue view;
  int32_t i32 = 0;
  float f32 = 0;

  static ArgValue ofView(ViewValue v) {
    ArgValue a;
    a.view = std::move(v);
    return a;
  }
  static ArgValue ofI32(int32_t v) {
    ArgValue a;
    a.i32 = v;
    return a;
  }
  static ArgValue ofF32(float v) {
    ArgValue a;
    a.f32 = v;
    return a;
  }
};

/// Row-major strides for `sizes`.
llvm::SmallVector<int64_t, 4> rowMajorStrides(llvm::ArrayRef<int64_t> sizes);

/// The kernel's argument words in ABI order: pointers as two 32-bit halves,
/// then sizes, strides and scalars. Checks that each view matches its
/// static shape, is 16-byte aligned, and that sizes and strides fit the
/// 32-bit ABI (a view holds fewer than 2^31 elements).
llvm::Expected<std::vector<uint8_t>>
packKernelArgs(const KernelSignature &signature, llvm::ArrayRef<ArgValue> args);

/// The grid `signature.grid` gives for these arguments (at least one block
/// per dimension); an error when the signature has no grid rule.
llvm::Expected<std::array<uint32_t, 3>>
computeGrid(const KernelSignature &signature, llvm::ArrayRef<ArgValue> args);

} // namespace hk

#endif // HK_RUNTIME_KERNELABI_H
