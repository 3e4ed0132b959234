//===- KernelArgs.cpp - Kernel arguments from text specifications ---------===//

#include "hk/Emulator/KernelArgs.h"

#include "hk/Emulator/Npy.h"
#include "hk/Emulator/Numerics.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace hk;
using namespace hk::emu;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static const char *const kSpecForms =
    "buf:FILE, out:TYPE:COUNT, a scalar TYPE:VALUE (i32:7, f32:0.5, ...), "
    "struct:OFFSET=SPEC,... or raw:FILE[,OFFSET=SPEC...]";

uint32_t ArgSpec::fixedSize() const {
  switch (kind) {
  case Buffer:
  case Output:
    return 8;
  case Scalar:
    return uint32_t(bytes.size());
  case Struct:
  case Raw:
    return 0;
  }
  return 0;
}

// Parsing
// ------------------------------------------------------------------------

/// The bytes of the scalar `value` of `type`; an error when the value does
/// not parse or does not fit.
static llvm::Expected<std::vector<uint8_t>> parseScalar(llvm::StringRef type,
                                                        llvm::StringRef value) {
  auto bytesOf = [](const void *data, size_t size) {
    const uint8_t *p = static_cast<const uint8_t *>(data);
    return std::vector<uint8_t>(p, p + size);
  };
  auto expected = [&] {
    return makeError(llvm::Twine("expected ") + kSpecForms);
  };
  if (type == "f32" || type == "f64" || type == "f16" || type == "bf16") {
    double d;
    if (value.getAsDouble(d))
      return expected();
    if (type == "f64")
      return bytesOf(&d, 8);
    float f = float(d);
    if (type == "f32")
      return bytesOf(&f, 4);
    uint16_t h = type == "f16" ? f32ToF16(f) : f32ToBf16(f);
    return bytesOf(&h, 2);
  }
  unsigned size = elementSizeOf(type);
  if (size == 0 || !(type.starts_with("i") || type.starts_with("u")))
    return expected();
  unsigned bits = 8 * size;
  if (type.starts_with("i")) {
    int64_t v;
    if (value.getAsInteger(0, v))
      return expected();
    if (!llvm::isIntN(bits, v))
      return makeError(value + " is out of range for " + type + " (" +
                       llvm::Twine(llvm::minIntN(bits)) + " to " +
                       llvm::Twine(llvm::maxIntN(bits)) + ")");
    return bytesOf(&v, size);
  }
  uint64_t u;
  if (value.getAsInteger(0, u))
    return expected();
  if (!llvm::isUIntN(bits, u))
    return makeError(value + " is out of range for " + type + " (0 to " +
                     llvm::Twine(llvm::maxUIntN(bits)) + ")");
  return bytesOf(&u, size);
}

/// Parses ",OFF=SPEC,OFF=SPEC" (the text after a struct's or raw file's
/// head) into `fields`.
static llvm::Error parseFields(llvm::StringRef list,
                               std::vector<ArgSpec::Field> &fields) {
  llvm::SmallVector<llvm::StringRef> items;
  list.split(items, ',');
  for (llvm::StringRef item : items) {
    auto [offsetText, fieldText] = item.split('=');
    uint32_t offset;
    if (fieldText.empty() || offsetText.trim().getAsInteger(0, offset))
      return makeError("expected fields OFFSET=SPEC, got '" + item + "'");
    auto field = parseArgSpec(fieldText);
    if (!field)
      return makeError("field " + item + ": " + toString(field.takeError()));
    if (field->kind == ArgSpec::Struct || field->kind == ArgSpec::Raw)
      return makeError("field " + item + ": a field is a buffer or a scalar");
    fields.push_back({offset, std::make_unique<ArgSpec>(std::move(*field))});
  }
  return llvm::Error::success();
}

llvm::Expected<ArgSpec> hk::emu::parseArgSpec(llvm::StringRef text) {
  ArgSpec spec;
  auto [kind, rest] = text.split(':');
  if (kind == "buf") {
    auto [path, outPath] = rest.split(':');
    if (path.empty())
      return makeError("expected buf:FILE[:OUT]");
    spec.kind = ArgSpec::Buffer;
    spec.path = path.str();
    spec.outPath = outPath.str();
    return spec;
  }
  if (kind == "out") {
    llvm::SmallVector<llvm::StringRef> parts;
    rest.split(parts, ':', 2);
    uint64_t count;
    if (parts.size() < 2 || elementSizeOf(parts[0]) == 0 ||
        parts[1].getAsInteger(10, count))
      return makeError(
          llvm::Twine("expected out:TYPE:COUNT[:FILE] with TYPE one of ") +
          kElementTypeNames);
    unsigned elementSize = elementSizeOf(parts[0]);
    if (count > kMaxAllocationBytes / elementSize)
      return makeError(llvm::Twine(count) + " elements of " + parts[0] +
                       " exceed the emulator's limit of " +
                       llvm::Twine(kMaxAllocationBytes) + " bytes per buffer");
    spec.kind = ArgSpec::Output;
    spec.type = parts[0].str();
    spec.count = count;
    spec.outPath = parts.size() > 2 ? parts[2].str() : "";
    return spec;
  }
  if (kind == "struct") {
    spec.kind = ArgSpec::Struct;
    if (rest.empty())
      return makeError("expected struct:OFFSET=SPEC,...");
    if (llvm::Error error = parseFields(rest, spec.fields))
      return std::move(error);
    return spec;
  }
  if (kind == "raw") {
    auto [path, list] = rest.split(',');
    if (path.empty())
      return makeError("expected raw:FILE[,OFFSET=SPEC...]");
    spec.kind = ArgSpec::Raw;
    spec.path = path.str();
    if (!list.empty())
      if (llvm::Error error = parseFields(list, spec.fields))
        return std::move(error);
    return spec;
  }
  auto bytes = parseScalar(kind, rest);
  if (!bytes)
    return bytes.takeError();
  spec.kind = ArgSpec::Scalar;
  spec.type = kind.str();
  spec.bytes = std::move(*bytes);
  return spec;
}

// Staging
// ------------------------------------------------------------------------

static llvm::Expected<std::string> readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

namespace {
/// Stages the buffers and values of one kernel's arguments.
class Stager {
public:
  Stager(Device &device, StagedArgs &staged) : device(device), staged(staged) {}

  /// The bytes `spec` puts in a kernarg segment or a struct of `size`
  /// bytes (`size` is the argument's size for struct and raw specs).
  llvm::Expected<std::vector<uint8_t>> bytesOf(const ArgSpec &spec,
                                               llvm::StringRef text,
                                               uint32_t size, unsigned index,
                                               int64_t fieldOffset);
  /// Lays `fields` over `bytes`.
  llvm::Error applyFields(llvm::ArrayRef<ArgSpec::Field> fields,
                          llvm::MutableArrayRef<uint8_t> bytes,
                          llvm::StringRef text, unsigned index,
                          llvm::StringRef what);

private:
  llvm::Expected<DevicePtr> allocate(uint64_t bytes, llvm::StringRef text);
  std::string label(unsigned index, int64_t fieldOffset) const {
    return (fieldOffset < 0
                ? "arg " + llvm::Twine(index)
                : "arg " + llvm::Twine(index) + " @" + llvm::Twine(fieldOffset))
        .str();
  }

  Device &device;
  StagedArgs &staged;
};
} // namespace

llvm::Expected<DevicePtr> Stager::allocate(uint64_t bytes,
                                           llvm::StringRef text) {
  if (bytes > kMaxAllocationBytes)
    return makeError(llvm::Twine(bytes) +
                     " bytes exceed the emulator's limit of " +
                     llvm::Twine(kMaxAllocationBytes) + " bytes per buffer");
  DevicePtr ptr = device.malloc(bytes, text);
  if (!ptr)
    return makeError("cannot allocate " + llvm::Twine(bytes) +
                     " bytes of host memory");
  return ptr;
}

llvm::Expected<std::vector<uint8_t>>
Stager::bytesOf(const ArgSpec &spec, llvm::StringRef text, uint32_t size,
                unsigned index, int64_t fieldOffset) {
  auto pointer = [](DevicePtr ptr) {
    std::vector<uint8_t> bytes(8);
    std::memcpy(bytes.data(), &ptr, 8);
    return bytes;
  };
  switch (spec.kind) {
  case ArgSpec::Scalar:
    return spec.bytes;
  case ArgSpec::Buffer: {
    auto data = readFile(spec.path);
    if (!data)
      return data.takeError();
    std::string type = "u8";
    if (llvm::StringRef(spec.path).ends_with(".npy")) {
      auto array = parseNpy(*data);
      if (!array)
        return array.takeError();
      data->assign(array->data.begin(), array->data.end());
      type = typeOfNpyDescr(array->dtype);
    }
    auto ptr = allocate(data->size(), text);
    if (!ptr)
      return ptr.takeError();
    if (llvm::Error error = device.memcpyHtoD(*ptr, data->data(), data->size()))
      return std::move(error);
    if (!spec.outPath.empty())
      staged.outputs.push_back({label(index, fieldOffset), index, fieldOffset,
                                type, *ptr, data->size(), spec.outPath, false});
    return pointer(*ptr);
  }
  case ArgSpec::Output: {
    uint64_t bytes = spec.count * elementSizeOf(spec.type);
    auto ptr = allocate(bytes, text);
    if (!ptr)
      return ptr.takeError();
    staged.outputs.push_back({label(index, fieldOffset), index, fieldOffset,
                              spec.type, *ptr, bytes, spec.outPath, true});
    return pointer(*ptr);
  }
  case ArgSpec::Struct:
  case ArgSpec::Raw: {
    std::vector<uint8_t> bytes(size, 0);
    if (spec.kind == ArgSpec::Raw) {
      auto data = readFile(spec.path);
      if (!data)
        return data.takeError();
      if (data->size() != size)
        return makeError("'" + spec.path + "' holds " +
                         llvm::Twine(data->size()) + " bytes, argument " +
                         llvm::Twine(index) + " is " + llvm::Twine(size));
      std::memcpy(bytes.data(), data->data(), size);
    }
    if (llvm::Error error = applyFields(spec.fields, bytes, text, index,
                                        "argument " + llvm::Twine(index).str()))
      return std::move(error);
    return bytes;
  }
  }
  return makeError("unknown argument kind");
}

llvm::Error Stager::applyFields(llvm::ArrayRef<ArgSpec::Field> fields,
                                llvm::MutableArrayRef<uint8_t> bytes,
                                llvm::StringRef text, unsigned index,
                                llvm::StringRef what) {
  // Byte ranges already written, to refuse overlapping fields.
  std::vector<std::pair<uint64_t, uint64_t>> taken;
  for (const ArgSpec::Field &field : fields) {
    uint64_t begin = field.offset, end = begin + field.spec->fixedSize();
    if (end > bytes.size())
      return makeError("the field at offset " + llvm::Twine(begin) + " (" +
                       llvm::Twine(field.spec->fixedSize()) +
                       " bytes) lies outside the " + llvm::Twine(bytes.size()) +
                       " bytes of " + what);
    for (auto [b, e] : taken)
      if (begin < e && b < end)
        return makeError("the fields at offsets " + llvm::Twine(b) + " and " +
                         llvm::Twine(begin) + " overlap");
    taken.push_back({begin, end});
    auto value = bytesOf(*field.spec, text, 0, index, field.offset);
    if (!value)
      return makeError("field " + llvm::Twine(field.offset) + ": " +
                       toString(value.takeError()));
    std::memcpy(bytes.data() + begin, value->data(), value->size());
  }
  return llvm::Error::success();
}

llvm::Expected<StagedArgs>
hk::emu::stageArguments(Device &device, const KernelInfo &kernel,
                        llvm::ArrayRef<std::string> specs) {
  std::vector<const KernelArg *> args = kernel.explicitArgs();
  if (specs.size() != args.size())
    return makeError("kernel '" + kernel.name + "' takes " +
                     llvm::Twine(args.size()) + " explicit argument(s), got " +
                     llvm::Twine(specs.size()) + " --arg");
  StagedArgs staged;
  Stager stager(device, staged);
  KernargBuilder builder(kernel);
  for (unsigned index = 0; index < specs.size(); ++index) {
    llvm::StringRef text = specs[index];
    auto spec = parseArgSpec(text);
    if (!spec)
      return makeError("--arg=" + text + ": " + toString(spec.takeError()));
    auto bytes = stager.bytesOf(*spec, text, args[index]->size, index, -1);
    if (!bytes)
      return makeError("--arg=" + text + ": " + toString(bytes.takeError()));
    if (llvm::Error error =
            builder.addBytes(bytes->data(), bytes->size(), text))
      return std::move(error);
  }
  auto kernargs = builder.finish();
  if (!kernargs)
    return kernargs.takeError();
  staged.kernargs = std::move(*kernargs);
  return staged;
}

llvm::Expected<StagedArgs> hk::emu::stageKernargFile(Device &device,
                                                     const KernelInfo &kernel,
                                                     llvm::StringRef text) {
  auto [path, list] = text.split(',');
  std::vector<ArgSpec::Field> fields;
  if (!list.empty())
    if (llvm::Error error = parseFields(list, fields))
      return makeError("--kernargs=" + text + ": " +
                       toString(std::move(error)));
  auto data = readFile(path);
  if (!data)
    return makeError("--kernargs=" + text + ": " + toString(data.takeError()));
  uint64_t explicitEnd = 0;
  for (const KernelArg *arg : kernel.explicitArgs())
    explicitEnd = std::max<uint64_t>(explicitEnd, arg->offset + arg->size);
  if (data->size() < explicitEnd || data->size() > kernel.kernargSegmentSize)
    return makeError("--kernargs=" + text + ": '" + path + "' holds " +
                     llvm::Twine(data->size()) + " bytes; kernel '" +
                     kernel.name + "' has " + llvm::Twine(explicitEnd) +
                     " bytes of explicit arguments in a " +
                     llvm::Twine(kernel.kernargSegmentSize) +
                     "-byte kernarg segment");
  StagedArgs staged;
  staged.kernargs.assign(data->begin(), data->end());
  Stager stager(device, staged);
  if (llvm::Error error = stager.applyFields(fields, staged.kernargs, text, 0,
                                             "the explicit kernel arguments"))
    return makeError("--kernargs=" + text + ": " + toString(std::move(error)));
  for (StagedOutput &output : staged.outputs)
    output.label = "kernargs @" + std::to_string(output.fieldOffset);
  return staged;
}

// Outputs
// ------------------------------------------------------------------------

llvm::Expected<std::vector<uint8_t>>
hk::emu::readOutput(Device &device, const StagedOutput &output) {
  std::vector<uint8_t> host(output.bytes);
  if (llvm::Error error =
          device.memcpyDtoH(host.data(), output.address, output.bytes))
    return std::move(error);
  if (output.path.empty())
    return host;
  if (llvm::StringRef(output.path).ends_with(".npy")) {
    NpyArray array;
    array.dtype = npyDescrOf(output.type);
    array.shape = {output.bytes / std::max(1u, elementSizeOf(output.type))};
    array.data = host;
    if (llvm::Error error = writeNpy(output.path, array))
      return std::move(error);
    return host;
  }
  std::error_code ec;
  llvm::raw_fd_ostream file(output.path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + output.path + "': " + ec.message());
  file.write(reinterpret_cast<const char *>(host.data()), host.size());
  file.close();
  if (file.has_error()) {
    std::string message = file.error().message();
    file.clear_error();
    return makeError("cannot write '" + output.path + "': " + message);
  }
  return host;
}

std::string hk::emu::formatElement(llvm::StringRef type, const uint8_t *p,
                                   const ChipInfo &chip) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto load = [&](auto &v) { std::memcpy(&v, p, sizeof(v)); };
  if (type == "f32") {
    float f;
    load(f);
    os << llvm::format("%g", f);
  } else if (type == "f64") {
    double d;
    load(d);
    os << llvm::format("%g", d);
  } else if (type == "f16" || type == "bf16") {
    uint16_t h;
    load(h);
    os << llvm::format("%g", type == "f16" ? f16ToF32(h) : bf16ToF32(h));
  } else if (type == "fp8" || type == "bf8") {
    os << llvm::format(
        "%g", decodeMiniFloat(*p, fp8Format(chip.fp8Format, type == "bf8")));
  } else {
    unsigned size = elementSizeOf(type);
    uint64_t u = 0;
    std::memcpy(&u, p, size);
    if (type.starts_with("i") && size < 8)
      os << (int64_t(u << (64 - 8 * size)) >> (64 - 8 * size));
    else if (type.starts_with("i"))
      os << int64_t(u);
    else
      os << u;
  }
  return s;
}
