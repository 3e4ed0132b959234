//===- KernelABI.cpp - Host side of the hk kernel ABI ---------------------===//

#include "hk/Runtime/KernelABI.h"

#include "llvm/ADT/Twine.h"

#include <cstring>
#include <limits>

using namespace hk;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::SmallVector<int64_t, 4>
hk::rowMajorStrides(llvm::ArrayRef<int64_t> sizes) {
  llvm::SmallVector<int64_t, 4> strides(sizes.size(), 1);
  for (int64_t d = int64_t(sizes.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * sizes[d + 1];
  return strides;
}

static bool fitsI32(int64_t v) {
  return v >= 0 && v <= std::numeric_limits<int32_t>::max();
}

static llvm::Error checkView(const KernelSignature &signature, size_t index,
                             const KernelParam &param, const ViewValue &view) {
  auto where = [&] {
    return "kernel '" + signature.name + "' argument " + std::to_string(index);
  };
  size_t rank = param.shape.size();
  if (view.sizes.size() != rank || view.strides.size() != rank)
    return makeError(where() + ": expected a rank-" + llvm::Twine(rank) +
                     " view, got rank " + llvm::Twine(view.sizes.size()));
  int64_t span = 1;
  for (size_t d = 0; d < rank; ++d) {
    if (param.shape[d] >= 0 && view.sizes[d] != param.shape[d])
      return makeError(where() + ": dimension " + llvm::Twine(d) +
                       " is static " + llvm::Twine(param.shape[d]) + ", got " +
                       llvm::Twine(view.sizes[d]));
    if (!fitsI32(view.sizes[d]) || !fitsI32(view.strides[d]))
      return makeError(where() + ": size " + llvm::Twine(view.sizes[d]) +
                       " or stride " + llvm::Twine(view.strides[d]) +
                       " of dimension " + llvm::Twine(d) +
                       " does not fit the 32-bit kernel ABI");
    if (view.sizes[d] > 0)
      span += (view.sizes[d] - 1) * view.strides[d];
  }
  if (rank && view.strides[rank - 1] != 1)
    return makeError(where() + ": the innermost stride must be 1, got " +
                     llvm::Twine(view.strides[rank - 1]));
  // Element and byte offsets (buffer accesses) are 32-bit.
  if (!fitsI32(span * std::max<int64_t>(param.elementBytes, 1)))
    return makeError(where() + ": the view spans " + llvm::Twine(span) +
                     " elements of " + llvm::Twine(param.elementBytes) +
                     " bytes; the kernel's 32-bit offsets reach 2^31 - 1 "
                     "bytes");
  if (view.address % 16 != 0)
    return makeError(where() + ": the base address must be 16-byte aligned");
  return llvm::Error::success();
}

llvm::Expected<std::vector<uint8_t>>
hk::packKernelArgs(const KernelSignature &signature,
                   llvm::ArrayRef<ArgValue> args) {
  if (args.size() != signature.params.size())
    return makeError("kernel '" + signature.name + "' takes " +
                     llvm::Twine(signature.params.size()) + " arguments, got " +
                     llvm::Twine(args.size()));
  std::vector<uint8_t> bytes;
  auto append = [&](const void *data, size_t size) {
    size_t at = (bytes.size() + size - 1) / size * size;
    bytes.resize(at + size);
    std::memcpy(bytes.data() + at, data, size);
  };
  for (auto [i, param] : llvm::enumerate(signature.params))
    if (param.kind == KernelParam::View) {
      if (llvm::Error error = checkView(signature, i, param, args[i].view))
        return std::move(error);
      append(&args[i].view.address, 8);
    }
  for (auto [i, param] : llvm::enumerate(signature.params))
    if (param.kind == KernelParam::View)
      for (size_t d = 0; d < param.shape.size(); ++d)
        if (param.shape[d] < 0) {
          int32_t size = int32_t(args[i].view.sizes[d]);
          append(&size, 4);
        }
  for (auto [i, param] : llvm::enumerate(signature.params))
    if (param.kind == KernelParam::View)
      for (size_t d = 0; d + 1 < param.shape.size(); ++d) {
        int32_t stride = int32_t(args[i].view.strides[d]);
        append(&stride, 4);
      }
  for (auto [i, param] : llvm::enumerate(signature.params)) {
    if (param.kind == KernelParam::I32)
      append(&args[i].i32, 4);
    else if (param.kind == KernelParam::F32)
      append(&args[i].f32, 4);
  }
  return bytes;
}
