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

#include <cstdint>
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
};

struct KernelSignature {
  std::string name;
  unsigned waves = 0;
  std::vector<KernelParam> params;
};

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

} // namespace hk

#endif // HK_RUNTIME_KERNELABI_H
