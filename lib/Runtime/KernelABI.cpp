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

std::string hk::getParamName(const KernelSignature &signature, size_t index) {
  const std::string &name = signature.params[index].name;
  return name.empty() ? "arg" + std::to_string(index) : name;
}

std::vector<AbiField> hk::getAbiFields(const KernelSignature &signature) {
  std::vector<AbiField> fields;
  unsigned offset = 0;
  auto add = [&](AbiField::Kind kind, unsigned param, unsigned dim,
                 unsigned bytes, std::string name) {
    offset = (offset + bytes - 1) / bytes * bytes;
    fields.push_back({kind, param, dim, offset, bytes, std::move(name)});
    offset += bytes;
  };
  const std::vector<KernelParam> &params = signature.params;
  for (unsigned i = 0; i < params.size(); ++i)
    if (params[i].kind == KernelParam::View)
      add(AbiField::Pointer, i, 0, 8, getParamName(signature, i));
  for (unsigned i = 0; i < params.size(); ++i)
    if (params[i].kind == KernelParam::View)
      for (unsigned d = 0; d < params[i].shape.size(); ++d)
        if (params[i].shape[d] < 0)
          add(AbiField::Size, i, d, 4,
              getParamName(signature, i) + "_size" + std::to_string(d));
  for (unsigned i = 0; i < params.size(); ++i)
    if (params[i].kind == KernelParam::View)
      for (unsigned d = 0; d + 1 < params[i].shape.size(); ++d)
        add(AbiField::Stride, i, d, 4,
            getParamName(signature, i) + "_stride" + std::to_string(d));
  for (unsigned i = 0; i < params.size(); ++i)
    if (params[i].kind != KernelParam::View)
      add(AbiField::Scalar, i, 0, 4, getParamName(signature, i));
  return fields;
}

llvm::Expected<std::vector<uint8_t>>
hk::packKernelArgs(const KernelSignature &signature,
                   llvm::ArrayRef<ArgValue> args) {
  if (args.size() != signature.params.size())
    return makeError("kernel '" + signature.name + "' takes " +
                     llvm::Twine(signature.params.size()) + " arguments, got " +
                     llvm::Twine(args.size()));
  for (auto [i, param] : llvm::enumerate(signature.params))
    if (param.kind == KernelParam::View)
      if (llvm::Error error = checkView(signature, i, param, args[i].view))
        return std::move(error);
  std::vector<uint8_t> bytes;
  for (const AbiField &field : getAbiFields(signature)) {
    const ArgValue &arg = args[field.param];
    bytes.resize(field.offset + field.bytes);
    uint8_t *at = bytes.data() + field.offset;
    int32_t word = 0;
    switch (field.kind) {
    case AbiField::Pointer:
      std::memcpy(at, &arg.view.address, 8);
      continue;
    case AbiField::Size:
      word = int32_t(arg.view.sizes[field.dim]);
      break;
    case AbiField::Stride:
      word = int32_t(arg.view.strides[field.dim]);
      break;
    case AbiField::Scalar:
      if (signature.params[field.param].kind == KernelParam::F32)
        std::memcpy(at, &arg.f32, 4);
      else
        std::memcpy(at, &arg.i32, 4);
      continue;
    }
    std::memcpy(at, &word, 4);
  }
  return bytes;
}

llvm::Expected<std::array<uint32_t, 3>>
hk::computeGrid(const KernelSignature &signature,
                llvm::ArrayRef<ArgValue> args) {
  if (!signature.grid)
    return makeError("kernel '" + signature.name +
                     "' does not say which grid it needs (no output tile "
                     "indexed by the block ids alone); give the grid");
  if (args.size() != signature.params.size())
    return makeError("kernel '" + signature.name + "' takes " +
                     llvm::Twine(signature.params.size()) + " arguments, got " +
                     llvm::Twine(args.size()));
  std::array<uint32_t, 3> grid = {1, 1, 1};
  for (unsigned axis = 0; axis < 3; ++axis)
    for (const GridExtent &rule : (*signature.grid)[axis]) {
      if (rule.param >= args.size() ||
          signature.params[rule.param].kind != KernelParam::View ||
          rule.dim >= args[rule.param].view.sizes.size() || rule.extent < 1)
        return makeError("kernel '" + signature.name +
                         "': malformed grid rule for dimension " +
                         llvm::Twine(axis));
      int64_t size = args[rule.param].view.sizes[rule.dim];
      int64_t blocks = (size + rule.extent - 1) / rule.extent;
      if (blocks > std::numeric_limits<uint32_t>::max())
        return makeError("kernel '" + signature.name + "' needs " +
                         llvm::Twine(blocks) + " blocks along dimension " +
                         llvm::Twine(axis) + ", more than a grid holds");
      grid[axis] = std::max<uint32_t>(grid[axis], uint32_t(blocks));
    }
  return grid;
}
