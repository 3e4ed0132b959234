//===- HostArray.cpp - Kernel arguments on the host -----------------------===//

#include "hk/Runtime/HostArray.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace hk;

llvm::Expected<ElementType> ElementType::lookup(llvm::StringRef name) {
  using S = llvm::APFloat;
  std::pair<const char *, const llvm::fltSemantics &> floats[] = {
      {"f64", S::IEEEdouble()},
      {"f32", S::IEEEsingle()},
      {"f16", S::IEEEhalf()},
      {"bf16", S::BFloat()},
      {"f8E4M3FNUZ", S::Float8E4M3FNUZ()},
      {"f8E5M2FNUZ", S::Float8E5M2FNUZ()},
      {"f8E4M3FN", S::Float8E4M3FN()},
      {"f8E5M2", S::Float8E5M2()},
  };
  for (auto &[typeName, semantics] : floats)
    if (name == typeName)
      return ElementType{typeName, &semantics,
                         llvm::APFloat::semanticsSizeInBits(semantics) / 8};
  std::pair<const char *, unsigned> integers[] = {
      {"i8", 1}, {"i16", 2}, {"i32", 4}, {"i64", 8}};
  for (auto &[typeName, bytes] : integers)
    if (name == typeName)
      return ElementType{typeName, nullptr, bytes};
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no host type for element type '" + name +
                                     "'");
}

uint64_t ElementType::encode(double value) const {
  if (!semantics) {
    unsigned bits = bytes * 8;
    double lo = -std::ldexp(1.0, int(bits) - 1);
    double hi = std::ldexp(1.0, int(bits) - 1) - 1;
    double rounded = std::isnan(value)
                         ? 0
                         : std::min(hi, std::max(lo, std::nearbyint(value)));
    uint64_t word = uint64_t(int64_t(rounded));
    return bits == 64 ? word : word & ((uint64_t(1) << bits) - 1);
  }
  llvm::APFloat f(value);
  bool losesInfo;
  f.convert(*semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return f.bitcastToAPInt().getZExtValue();
}

double ElementType::decode(uint64_t bits) const {
  if (!semantics)
    return double(llvm::APInt(bytes * 8, bits).getSExtValue());
  llvm::APFloat f(*semantics, llvm::APInt(bytes * 8, bits, /*isSigned=*/false));
  bool losesInfo;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToDouble();
}

double ElementType::unitRoundoff() const {
  if (!semantics)
    return 0;
  return std::ldexp(1.0, -int(llvm::APFloat::semanticsPrecision(*semantics)));
}

std::optional<uint64_t> ElementType::unwrittenBits() const {
  if (!semantics)
    return std::nullopt;
  // The FNUZ formats have one NaN, the sign bit alone.
  if (name.size() > 3 && llvm::StringRef(name).ends_with("FNUZ"))
    return uint64_t(1) << (bytes * 8 - 1);
  return bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (bytes * 8)) - 1;
}

llvm::StringRef ElementType::numpyDescr() const {
  if (!semantics)
    return bytes == 1 ? "i1" : bytes == 2 ? "i2" : bytes == 4 ? "i4" : "i8";
  if (name == "f64")
    return "f8";
  if (name == "f32")
    return "f4";
  if (name == "f16")
    return "f2";
  return bytes == 2 ? "u2" : "u1";
}

HostArray HostArray::create(ElementType type, llvm::ArrayRef<int64_t> sizes,
                            int64_t rowPadding) {
  HostArray array;
  array.type = std::move(type);
  array.sizes.assign(sizes.begin(), sizes.end());
  array.strides.assign(sizes.size(), 1);
  int64_t span = 1;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    array.strides[d] = span;
    span *= sizes[d] + (d + 1 == int64_t(sizes.size()) ? rowPadding : 0);
  }
  array.byteSize = uint64_t(span) * array.type.bytes;
  array.storage.assign(array.byteSize, 0);
  array.data = array.storage.data();
  return array;
}

HostArray HostArray::wrap(ElementType type, llvm::ArrayRef<int64_t> sizes,
                          llvm::ArrayRef<int64_t> strides, uint8_t *data,
                          uint64_t bytes, bool writable) {
  HostArray array;
  array.type = std::move(type);
  array.sizes.assign(sizes.begin(), sizes.end());
  array.strides.assign(strides.begin(), strides.end());
  array.data = data;
  array.byteSize = bytes;
  array.writable = writable;
  return array;
}

HostArray HostArray::clone() const {
  HostArray copy;
  copy.type = type;
  copy.sizes = sizes;
  copy.strides = strides;
  copy.storage.assign(data, data + byteSize);
  copy.data = copy.storage.data();
  copy.byteSize = byteSize;
  return copy;
}

int64_t HostArray::getNumElements() const {
  int64_t count = 1;
  for (int64_t size : sizes)
    count *= size;
  return count;
}

uint64_t HostArray::offsetOf(int64_t index) const {
  int64_t offset = 0;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    offset += index % sizes[d] * strides[d];
    index /= sizes[d];
  }
  return uint64_t(offset) * type.bytes;
}

uint64_t HostArray::getBits(int64_t index) const {
  uint64_t bits = 0;
  std::memcpy(&bits, data + offsetOf(index), type.bytes);
  return bits;
}

void HostArray::setBits(int64_t index, uint64_t bits) {
  std::memcpy(data + offsetOf(index), &bits, type.bytes);
}

double HostArray::get(int64_t index) const {
  return type.decode(getBits(index));
}

void HostArray::set(int64_t index, double value) {
  setBits(index, type.encode(value));
}

std::vector<double> HostArray::getValues() const {
  std::vector<double> values(getNumElements());
  for (int64_t i = 0; i < int64_t(values.size()); ++i)
    values[i] = get(i);
  return values;
}

std::string HostArray::describeIndex(int64_t index) const {
  llvm::SmallVector<int64_t, 4> position(sizes.size());
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    position[d] = index % sizes[d];
    index /= sizes[d];
  }
  std::string text = "(";
  for (auto [d, p] : llvm::enumerate(position))
    text += (d ? ", " : "") + std::to_string(p);
  return text + ")";
}

void hk::fillUniform(HostArray &array, std::mt19937_64 &rng, double lo,
                     double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0, e = array.getNumElements(); i < e; ++i)
    array.set(i, dist(rng));
}
