//===- Npy.cpp - Reading and writing NumPy .npy files
//----------------------===//

#include "hk/Emulator/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace hk::emu;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

// hk-emu's element type names and NumPy's descrs overlap with different
// meanings ("i8" is one byte here, eight bytes in NumPy), so each has its
// own table.
unsigned hk::emu::elementSizeOf(llvm::StringRef type) {
  return llvm::StringSwitch<unsigned>(type)
      .Cases({"f64", "i64", "u64"}, 8)
      .Cases({"f32", "i32", "u32"}, 4)
      .Cases({"f16", "bf16", "i16", "u16"}, 2)
      .Cases({"fp8", "bf8", "i8", "u8"}, 1)
      .Default(0);
}

unsigned hk::emu::npyElementSize(llvm::StringRef descr) {
  descr =
      descr.drop_while([](char c) { return c == '<' || c == '|' || c == '='; });
  return llvm::StringSwitch<unsigned>(descr)
      .Cases({"f8", "i8", "u8"}, 8)
      .Cases({"f4", "i4", "u4"}, 4)
      .Cases({"f2", "i2", "u2"}, 2)
      .Cases({"i1", "u1", "b1"}, 1)
      .Default(0);
}

std::string hk::emu::npyDescrOf(llvm::StringRef type) {
  return llvm::StringSwitch<std::string>(type)
      .Case("f64", "f8")
      .Case("f32", "f4")
      .Case("f16", "f2")
      .Case("i64", "i8")
      .Case("u64", "u8")
      .Case("i32", "i4")
      .Case("u32", "u4")
      .Case("i16", "i2")
      .Cases({"u16", "bf16"}, "u2")
      .Case("i8", "i1")
      .Cases({"u8", "fp8", "bf8"}, "u1")
      .Default("");
}

std::string hk::emu::typeOfNpyDescr(llvm::StringRef descr) {
  descr =
      descr.drop_while([](char c) { return c == '<' || c == '|' || c == '='; });
  return llvm::StringSwitch<std::string>(descr)
      .Case("f8", "f64")
      .Case("f4", "f32")
      .Case("f2", "f16")
      .Case("i8", "i64")
      .Case("u8", "u64")
      .Case("i4", "i32")
      .Case("u4", "u32")
      .Case("i2", "i16")
      .Case("u2", "u16")
      .Case("i1", "i8")
      .Cases({"u1", "b1"}, "u8")
      .Default("");
}

uint64_t NpyArray::elementCount() const {
  uint64_t n = 1;
  for (uint64_t d : shape)
    n *= d;
  return n;
}

unsigned NpyArray::elementSize() const { return npyElementSize(dtype); }

/// Finds the value text of 'key' in the header dict.
static llvm::StringRef dictValue(llvm::StringRef header, llvm::StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == llvm::StringRef::npos)
    return "";
  llvm::StringRef rest = header.substr(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return "";
  return rest.ltrim();
}

llvm::Expected<NpyArray> hk::emu::parseNpy(llvm::StringRef bytes) {
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return makeError("not a .npy file (missing the \\x93NUMPY magic)");
  unsigned major = uint8_t(bytes[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return makeError("truncated .npy header");
    headerLen = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8) |
                (uint8_t(bytes[10]) << 16) | (size_t(uint8_t(bytes[11])) << 24);
    headerStart = 12;
  } else {
    return makeError("unsupported .npy version " + llvm::Twine(major));
  }
  if (headerStart + headerLen > bytes.size())
    return makeError("truncated .npy header");
  llvm::StringRef header = bytes.substr(headerStart, headerLen);
  NpyArray array;
  llvm::StringRef descr = dictValue(header, "descr");
  if (!descr.consume_front("'"))
    return makeError(".npy header has no 'descr'");
  descr = descr.take_until([](char c) { return c == '\''; });
  if (descr.starts_with(">") && !descr.ends_with("1"))
    return makeError(".npy file is big-endian ('" + descr +
                     "'); only little-endian arrays are supported");
  descr =
      descr.drop_while([](char c) { return c == '<' || c == '|' || c == '='; });
  if (npyElementSize(descr) == 0)
    return makeError("unsupported .npy dtype '" + descr + "'");
  array.dtype = descr.str();
  if (dictValue(header, "fortran_order").starts_with("True"))
    return makeError(
        ".npy file is in Fortran order; only C order is supported");
  llvm::StringRef shape = dictValue(header, "shape");
  if (!shape.consume_front("("))
    return makeError(".npy header has no 'shape'");
  shape = shape.take_until([](char c) { return c == ')'; });
  for (llvm::StringRef dim : llvm::split(shape, ',')) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    uint64_t n;
    if (dim.getAsInteger(10, n))
      return makeError("bad .npy shape entry '" + dim + "'");
    array.shape.push_back(n);
  }
  uint64_t need = array.elementCount() * array.elementSize();
  llvm::StringRef payload = bytes.substr(headerStart + headerLen);
  if (payload.size() < need)
    return makeError(".npy data holds " + llvm::Twine(payload.size()) +
                     " bytes, its shape needs " + llvm::Twine(need));
  array.data.assign(payload.begin(), payload.begin() + need);
  return array;
}

llvm::Expected<NpyArray> hk::emu::readNpy(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  auto array = parseNpy((*buffer)->getBuffer());
  if (!array)
    return makeError("'" + path + "': " + toString(array.takeError()));
  return array;
}

std::string hk::emu::serializeNpy(const NpyArray &array) {
  std::string shape = "(";
  for (uint64_t d : array.shape)
    shape += std::to_string(d) + ",";
  if (array.shape.size() > 1)
    shape.pop_back();
  shape += ")";
  bool byteSized = npyElementSize(array.dtype) == 1;
  std::string header = "{'descr': '" + std::string(byteSized ? "|" : "<") +
                       array.dtype +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts 64-byte aligned, header ends with '\n'.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char *>(array.data.data()),
             array.data.size());
  return out;
}

llvm::Error hk::emu::writeNpy(llvm::StringRef path, const NpyArray &array) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os << serializeNpy(array);
  return llvm::Error::success();
}
