//===- CodeObject.cpp - Reading AMDHSA code objects -----------------------===//

#include "hk/Runtime/CodeObject.h"

#include "hk/Support/ChipInfo.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <map>

using namespace hk;
using ELFT = llvm::object::ELF64LE;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string hexString(uint64_t value) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format_hex(value, 2);
  return s;
}

std::vector<const KernelArg *> KernelInfo::explicitArgs() const {
  std::vector<const KernelArg *> result;
  for (const KernelArg &arg : args)
    if (!llvm::StringRef(arg.valueKind).starts_with("hidden_"))
      result.push_back(&arg);
  return result;
}

const KernelInfo *CodeObject::findKernel(llvm::StringRef name) const {
  for (const KernelInfo &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

namespace {
/// Typed lookups in a metadata map, tolerant of the integer encodings the
/// msgpack writer picks.
class MetadataMap {
public:
  MetadataMap(llvm::msgpack::Document &doc, llvm::msgpack::MapDocNode &map)
      : doc(doc), map(map) {}

  const llvm::msgpack::DocNode *find(llvm::StringRef key) const {
    auto it = map.find(doc.getNode(key));
    return it == map.end() ? nullptr : &it->second;
  }
  /// Reads the unsigned 32-bit field `key` into `out` (`fallback` when
  /// absent or not an integer); `owner` names the kernel or argument for
  /// the error a negative or wider value gets.
  llvm::Error getU32(llvm::StringRef key, uint32_t &out,
                     const llvm::Twine &owner, uint32_t fallback = 0) const {
    out = fallback;
    const llvm::msgpack::DocNode *node = find(key);
    if (!node)
      return llvm::Error::success();
    bool isSigned = node->getKind() == llvm::msgpack::Type::Int;
    if (!isSigned && node->getKind() != llvm::msgpack::Type::UInt)
      return llvm::Error::success();
    if (isSigned ? !llvm::isUInt<32>(node->getInt())
                 : !llvm::isUInt<32>(node->getUInt()))
      return makeError(owner + " has " + key + " " +
                       (isSigned ? std::to_string(node->getInt())
                                 : std::to_string(node->getUInt())) +
                       " in its metadata, expected 0 to 4294967295");
    out = uint32_t(isSigned ? node->getInt() : node->getUInt());
    return llvm::Error::success();
  }
  std::string getString(llvm::StringRef key) const {
    const llvm::msgpack::DocNode *node = find(key);
    if (!node || node->getKind() != llvm::msgpack::Type::String)
      return "";
    return node->getString().str();
  }
  bool getBool(llvm::StringRef key) const {
    const llvm::msgpack::DocNode *node = find(key);
    return node && node->getKind() == llvm::msgpack::Type::Boolean &&
           node->getBool();
  }

private:
  llvm::msgpack::Document &doc;
  llvm::msgpack::MapDocNode &map;
};
} // namespace

static llvm::Expected<unsigned> codeObjectVersionFromAbi(uint8_t abiVersion) {
  switch (abiVersion) {
  case llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V4:
    return 4;
  case llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V5:
    return 5;
  case llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V6:
    return 6;
  default:
    return makeError("unsupported AMDHSA code object ABI version " +
                     llvm::Twine(unsigned(abiVersion)) +
                     " (code object versions 4 to 6 are supported)");
  }
}

static llvm::Error readKernels(llvm::msgpack::Document &doc,
                               std::vector<KernelInfo> &kernels,
                               std::string &target) {
  if (doc.getRoot().getKind() != llvm::msgpack::Type::Map)
    return makeError("code object metadata is not a map");
  MetadataMap root(doc, doc.getRoot().getMap());
  target = root.getString("amdhsa.target");
  const llvm::msgpack::DocNode *list = root.find("amdhsa.kernels");
  if (!list || list->getKind() != llvm::msgpack::Type::Array)
    return makeError("code object metadata has no amdhsa.kernels list");
  for (llvm::msgpack::DocNode node :
       const_cast<llvm::msgpack::DocNode *>(list)->getArray()) {
    if (node.getKind() != llvm::msgpack::Type::Map)
      return makeError("malformed kernel entry in code object metadata");
    MetadataMap meta(doc, node.getMap());
    KernelInfo kernel;
    kernel.name = meta.getString(".name");
    kernel.symbol = meta.getString(".symbol");
    if (kernel.name.empty() || kernel.symbol.empty())
      return makeError("kernel entry without .name or .symbol in code "
                       "object metadata");
    const std::pair<const char *, uint32_t KernelInfo::*> sizes[] = {
        {".kernarg_segment_size", &KernelInfo::kernargSegmentSize},
        {".kernarg_segment_align", &KernelInfo::kernargSegmentAlign},
        {".group_segment_fixed_size", &KernelInfo::groupSegmentFixedSize},
        {".private_segment_fixed_size", &KernelInfo::privateSegmentFixedSize},
        {".sgpr_count", &KernelInfo::sgprCount},
        {".vgpr_count", &KernelInfo::vgprCount},
        {".agpr_count", &KernelInfo::agprCount},
        {".sgpr_spill_count", &KernelInfo::sgprSpillCount},
        {".vgpr_spill_count", &KernelInfo::vgprSpillCount},
        {".max_flat_workgroup_size", &KernelInfo::maxFlatWorkgroupSize}};
    std::string owner = "kernel '" + kernel.name + "'";
    for (auto [key, field] : sizes)
      if (llvm::Error error = meta.getU32(key, kernel.*field, owner))
        return error;
    if (llvm::Error error =
            meta.getU32(".wavefront_size", kernel.wavefrontSize, owner, 64))
      return error;
    if (const llvm::msgpack::DocNode *reqd =
            meta.find(".reqd_workgroup_size")) {
      auto isDim = [](llvm::msgpack::DocNode &n) {
        return (n.getKind() == llvm::msgpack::Type::UInt && n.getUInt() >= 1 &&
                n.getUInt() <= 1024) ||
               (n.getKind() == llvm::msgpack::Type::Int && n.getInt() >= 1 &&
                n.getInt() <= 1024);
      };
      llvm::msgpack::ArrayDocNode dims;
      if (reqd->getKind() == llvm::msgpack::Type::Array)
        dims = const_cast<llvm::msgpack::DocNode *>(reqd)->getArray();
      if (reqd->getKind() != llvm::msgpack::Type::Array || dims.size() != 3 ||
          !llvm::all_of(dims, isDim))
        return makeError(owner + " has a malformed .reqd_workgroup_size in "
                                 "its metadata, expected three sizes from 1 "
                                 "to 1024");
      for (unsigned i = 0; i < 3; ++i)
        kernel.reqdWorkgroupSize[i] =
            uint32_t(dims[i].getKind() == llvm::msgpack::Type::UInt
                         ? dims[i].getUInt()
                         : uint64_t(dims[i].getInt()));
    }
    kernel.usesDynamicStack = meta.getBool(".uses_dynamic_stack");
    if (const llvm::msgpack::DocNode *args = meta.find(".args")) {
      if (args->getKind() != llvm::msgpack::Type::Array)
        return makeError("kernel '" + kernel.name + "' has malformed .args");
      for (llvm::msgpack::DocNode argNode :
           const_cast<llvm::msgpack::DocNode *>(args)->getArray()) {
        if (argNode.getKind() != llvm::msgpack::Type::Map)
          return makeError("kernel '" + kernel.name +
                           "' has a malformed argument");
        MetadataMap argMeta(doc, argNode.getMap());
        KernelArg arg;
        arg.name = argMeta.getString(".name");
        arg.valueKind = argMeta.getString(".value_kind");
        arg.addressSpace = argMeta.getString(".address_space");
        std::string argOwner = "argument " +
                               std::to_string(kernel.args.size()) +
                               " of kernel '" + kernel.name + "'";
        if (llvm::Error error = argMeta.getU32(".offset", arg.offset, argOwner))
          return error;
        if (llvm::Error error = argMeta.getU32(".size", arg.size, argOwner))
          return error;
        // Loaders copy arguments into a segment of the declared size.
        if (uint64_t(arg.offset) + arg.size > kernel.kernargSegmentSize)
          return makeError(
              argOwner + " (" + llvm::Twine(arg.size) + " bytes at offset " +
              llvm::Twine(arg.offset) + ") lies outside its " +
              llvm::Twine(kernel.kernargSegmentSize) + "-byte kernarg segment");
        kernel.args.push_back(std::move(arg));
      }
    }
    kernels.push_back(std::move(kernel));
  }
  return llvm::Error::success();
}

/// Checks one msgpack object (and what it contains) before msgpack::Document
/// sees it: the Document's map ordering cannot compare keys of mixed kinds,
/// which corrupt notes have.
static bool isWellFormedMsgpack(llvm::msgpack::Reader &reader, unsigned depth,
                                bool mustBeString) {
  llvm::msgpack::Object object;
  llvm::Expected<bool> read = reader.read(object);
  if (!read) {
    llvm::consumeError(read.takeError());
    return false;
  }
  if (!*read || depth > 16)
    return false;
  if (mustBeString && object.Kind != llvm::msgpack::Type::String)
    return false;
  if (object.Kind == llvm::msgpack::Type::Map) {
    for (size_t i = 0; i < object.Length; ++i)
      if (!isWellFormedMsgpack(reader, depth + 1, true) ||
          !isWellFormedMsgpack(reader, depth + 1, false))
        return false;
  } else if (object.Kind == llvm::msgpack::Type::Array) {
    for (size_t i = 0; i < object.Length; ++i)
      if (!isWellFormedMsgpack(reader, depth + 1, false))
        return false;
  }
  return true;
}

/// Whether every map in the metadata has string keys (msgpack's map
/// ordering cannot compare keys of mixed kinds, which corrupt notes have).
static bool hasStringKeys(llvm::msgpack::DocNode &node, unsigned depth) {
  if (depth > 16)
    return false;
  if (node.getKind() == llvm::msgpack::Type::Map) {
    for (auto &entry : node.getMap()) {
      if (entry.first.getKind() != llvm::msgpack::Type::String)
        return false;
      if (!hasStringKeys(entry.second, depth + 1))
        return false;
    }
    return true;
  }
  if (node.getKind() == llvm::msgpack::Type::Array)
    for (llvm::msgpack::DocNode &element : node.getArray())
      if (!hasStringKeys(element, depth + 1))
        return false;
  return true;
}

/// Copies `size` bytes at virtual address `address` out of the segments
/// (zeros beyond a segment's file bytes).
static bool readAddress(const std::vector<Segment> &segments, uint64_t address,
                        void *out, size_t size) {
  for (const Segment &segment : segments) {
    if (address < segment.address ||
        address + size > segment.address + segment.memorySize)
      continue;
    uint64_t offset = address - segment.address;
    std::memset(out, 0, size);
    if (offset < segment.bytes.size())
      std::memcpy(out, segment.bytes.data() + offset,
                  std::min<uint64_t>(size, segment.bytes.size() - offset));
    return true;
  }
  return false;
}

/// The end of a segment at `address` spanning `size` bytes, or an error
/// when it lies beyond what a code object can address.
static llvm::Expected<uint64_t> segmentEnd(uint64_t address, uint64_t size,
                                           llvm::StringRef what) {
  // Code objects are kilobytes to megabytes; a huge in-memory size is a
  // corrupt header, not something to allocate.
  if (size > kMaxSegmentBytes)
    return makeError(what + " claims " + llvm::Twine(size) +
                     " bytes in memory (at most " +
                     llvm::Twine(kMaxSegmentBytes) + " are accepted)");
  if (address > kMaxImageBytes || size > kMaxImageBytes - address)
    return makeError(what + " at " + hexString(address) + " ends beyond the " +
                     llvm::Twine(kMaxImageBytes) +
                     " bytes a code object can address");
  return address + size;
}

/// Reads the dynamic relocations (the allocated SHT_RELA and SHT_RELR
/// sections a linked code object carries) into `object`.
static llvm::Error readRelocations(const llvm::object::ELFFile<ELFT> &elf,
                                   ELFT::ShdrRange sections, CodeObject &object,
                                   std::vector<Relocation> &relocations) {
  for (const ELFT::Shdr &section : sections) {
    if (!(section.sh_flags & llvm::ELF::SHF_ALLOC))
      continue;
    if (section.sh_type == llvm::ELF::SHT_RELR) {
      auto relrs = elf.relrs(section);
      if (!relrs)
        return makeError("malformed relocation section: " +
                         toString(relrs.takeError()));
      for (const ELFT::Rel &rel : elf.decode_relrs(*relrs)) {
        Relocation relocation;
        relocation.offset = rel.r_offset;
        relocation.type = llvm::ELF::R_AMDGPU_RELATIVE64;
        // The addend is what the file holds at the patched address.
        if (!readAddress(object.getSegments(), rel.r_offset, &relocation.addend,
                         8))
          return makeError("a relocation at " + hexString(rel.r_offset) +
                           " lies outside the loaded segments");
        relocations.push_back(std::move(relocation));
      }
      continue;
    }
    if (section.sh_type == llvm::ELF::SHT_REL)
      return makeError("the code object has SHT_REL relocations; AMDGPU code "
                       "objects use SHT_RELA");
    if (section.sh_type != llvm::ELF::SHT_RELA)
      continue;
    auto symtab = elf.getSection(section.sh_link);
    auto relas = elf.relas(section);
    if (!symtab || !relas) {
      llvm::consumeError(symtab.takeError());
      llvm::consumeError(relas.takeError());
      return makeError("malformed relocation section");
    }
    auto strtab = elf.getStringTableForSymtab(**symtab);
    if (!strtab)
      return makeError("malformed relocation section: " +
                       toString(strtab.takeError()));
    for (const ELFT::Rela &rela : *relas) {
      Relocation relocation;
      relocation.offset = rela.r_offset;
      relocation.type = rela.getType(false);
      relocation.addend = rela.r_addend;
      if (rela.getSymbol(false) != 0) {
        auto sym = elf.getRelocationSymbol(rela, *symtab);
        if (!sym || !*sym) {
          if (!sym)
            llvm::consumeError(sym.takeError());
          return makeError("a relocation at " + hexString(rela.r_offset) +
                           " names a symbol its table does not hold");
        }
        auto name = (*sym)->getName(*strtab);
        if (!name)
          return makeError("malformed relocation symbol: " +
                           toString(name.takeError()));
        relocation.symbol = name->str();
        relocation.symbolDefined = (*sym)->st_shndx != llvm::ELF::SHN_UNDEF;
        relocation.symbolAddress = (*sym)->st_value;
      }
      relocations.push_back(std::move(relocation));
    }
  }
  return llvm::Error::success();
}

llvm::Expected<CodeObject> CodeObject::parse(llvm::StringRef bytes) {
  if (!bytes.starts_with(llvm::ELF::ElfMagic))
    return makeError("not an ELF file");
  auto elf = llvm::object::ELFFile<ELFT>::create(bytes);
  if (!elf)
    return makeError("not an ELF file: " + toString(elf.takeError()));
  const ELFT::Ehdr &header = elf->getHeader();
  if (header.e_machine != llvm::ELF::EM_AMDGPU)
    return makeError("not an AMDGPU code object (ELF machine " +
                     llvm::Twine(unsigned(header.e_machine)) + ")");
  if (header.e_ident[llvm::ELF::EI_OSABI] != llvm::ELF::ELFOSABI_AMDGPU_HSA)
    return makeError(
        "not an AMDHSA code object (ELF OS ABI " +
        llvm::Twine(unsigned(header.e_ident[llvm::ELF::EI_OSABI])) + ")");

  CodeObject object;
  auto version =
      codeObjectVersionFromAbi(header.e_ident[llvm::ELF::EI_ABIVERSION]);
  if (!version)
    return version.takeError();
  object.codeObjectVersion = *version;
  unsigned mach = header.e_flags & llvm::ELF::EF_AMDGPU_MACH;
  object.chip = ChipInfo::lookupElfMach(mach);
  if (!object.chip) {
    std::string hex;
    llvm::raw_string_ostream(hex) << llvm::format_hex(mach, 5);
    return makeError("code object is for AMDGPU processor " + hex +
                     ", not one of " + ChipInfo::knownChipNames());
  }

  auto programHeaders = elf->program_headers();
  if (!programHeaders)
    return makeError("malformed program headers: " +
                     toString(programHeaders.takeError()));
  auto sections = elf->sections();
  if (!sections)
    return makeError("malformed section headers: " +
                     toString(sections.takeError()));
  object.relocatable = header.e_type == llvm::ELF::ET_REL;
  std::string metadataBlob;
  auto readMetadata = [&](const auto &notes) {
    for (const auto &note : notes)
      if (note.getName() == "AMDGPU" &&
          note.getType() == llvm::ELF::NT_AMDGPU_METADATA)
        metadataBlob = note.getDescAsStringRef(4).str();
  };
  for (const ELFT::Phdr &phdr : *programHeaders) {
    if (phdr.p_type == llvm::ELF::PT_LOAD) {
      if (phdr.p_offset > bytes.size() ||
          phdr.p_filesz > bytes.size() - phdr.p_offset ||
          phdr.p_filesz > phdr.p_memsz)
        return makeError("a loadable segment lies outside the file");
      auto end = segmentEnd(phdr.p_vaddr, phdr.p_memsz, "a loadable segment");
      if (!end)
        return end.takeError();
      object.imageSize = std::max(object.imageSize, *end);
      Segment segment;
      segment.address = phdr.p_vaddr;
      segment.memorySize = phdr.p_memsz;
      segment.bytes = bytes.substr(phdr.p_offset, phdr.p_filesz).str();
      segment.executable = phdr.p_flags & llvm::ELF::PF_X;
      object.segments.push_back(std::move(segment));
      continue;
    }
    if (phdr.p_type != llvm::ELF::PT_NOTE)
      continue;
    llvm::Error noteError = llvm::Error::success();
    readMetadata(elf->notes(phdr, noteError));
    if (noteError)
      return makeError("malformed note segment: " +
                       toString(std::move(noteError)));
  }
  // An unlinked object (clang -c) has no program headers: its notes are
  // sections, and its allocatable sections are laid out here, the code
  // first at address 0 so that function symbols keep their values as
  // addresses, as tools reading the ELF symbols directly see them.
  std::map<unsigned, uint64_t> sectionAddress;
  if (object.relocatable) {
    for (const ELFT::Shdr &section : *sections) {
      if (section.sh_type != llvm::ELF::SHT_NOTE)
        continue;
      llvm::Error noteError = llvm::Error::success();
      readMetadata(elf->notes(section, noteError));
      if (noteError)
        return makeError("malformed note section: " +
                         toString(std::move(noteError)));
    }
    uint64_t next = 0;
    for (bool code : {true, false}) {
      for (auto [index, section] : llvm::enumerate(*sections)) {
        bool executable = section.sh_flags & llvm::ELF::SHF_EXECINSTR;
        if (!(section.sh_flags & llvm::ELF::SHF_ALLOC) || executable != code ||
            section.sh_type == llvm::ELF::SHT_NOTE)
          continue;
        Segment segment;
        segment.address = llvm::alignTo(
            next, std::min<uint64_t>(
                      std::max<uint64_t>(section.sh_addralign, 1), 1 << 16));
        auto end = segmentEnd(segment.address, section.sh_size, "a section");
        if (!end)
          return end.takeError();
        object.imageSize = std::max(object.imageSize, *end);
        segment.memorySize = section.sh_size;
        if (section.sh_type != llvm::ELF::SHT_NOBITS) {
          auto contents = elf->getSectionContents(section);
          if (!contents)
            return makeError("a section lies outside the file: " +
                             toString(contents.takeError()));
          segment.bytes.assign(contents->begin(), contents->end());
        }
        segment.executable = executable;
        sectionAddress[index] = segment.address;
        next = segment.address + segment.memorySize;
        object.segments.push_back(std::move(segment));
      }
    }
  }
  if (metadataBlob.empty())
    return makeError("code object has no AMDGPU metadata note");

  llvm::msgpack::Reader reader(metadataBlob);
  if (!isWellFormedMsgpack(reader, 0, /*mustBeString=*/false))
    return makeError("code object metadata is malformed (truncated msgpack, "
                     "a map key that is not a string, or nesting too deep)");
  llvm::msgpack::Document doc;
  if (!doc.readFromBlob(metadataBlob, /*Multi=*/false))
    return makeError("code object metadata note is not valid msgpack");
  if (!hasStringKeys(doc.getRoot(), 0))
    return makeError("code object metadata is malformed (a map key is not a "
                     "string, or nesting is too deep)");
  if (llvm::Error error = readKernels(doc, object.kernels, object.target))
    return std::move(error);

  // Resolve each kernel's descriptor through the symbol tables (in an
  // unlinked object, symbol values are offsets into their sections).
  std::map<std::string, Symbol> symbols;
  for (const ELFT::Shdr &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB &&
        section.sh_type != llvm::ELF::SHT_DYNSYM)
      continue;
    auto syms = elf->symbols(&section);
    auto strtab = elf->getStringTableForSymtab(section);
    if (!syms || !strtab) {
      llvm::consumeError(syms.takeError());
      llvm::consumeError(strtab.takeError());
      return makeError("malformed symbol table");
    }
    for (const ELFT::Sym &sym : *syms) {
      auto name = sym.getName(*strtab);
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (name->empty())
        continue;
      Symbol symbol;
      symbol.name = name->str();
      auto base = sectionAddress.find(sym.st_shndx);
      symbol.address =
          sym.st_value + (base == sectionAddress.end() ? 0 : base->second);
      symbol.size = sym.st_size;
      symbol.defined = sym.st_shndx != llvm::ELF::SHN_UNDEF;
      symbol.isData = sym.getType() == llvm::ELF::STT_OBJECT;
      Symbol &slot = symbols[symbol.name];
      if (!slot.defined)
        slot = std::move(symbol);
    }
  }
  for (auto &entry : symbols)
    object.symbols.push_back(entry.second);
  if (!object.relocatable)
    if (llvm::Error error =
            readRelocations(*elf, *sections, object, object.relocations))
      return std::move(error);

  for (KernelInfo &kernel : object.kernels) {
    const Symbol *descriptor = object.findSymbol(kernel.symbol);
    if (!descriptor || !descriptor->defined)
      return makeError("kernel descriptor symbol '" + kernel.symbol +
                       "' is missing");
    kernel.descriptorAddress = descriptor->address;
    if (!readAddress(object.segments, kernel.descriptorAddress,
                     kernel.descriptor.data(), kernel.descriptor.size()))
      return makeError("kernel descriptor of '" + kernel.name +
                       "' lies outside the loaded segments");
    // An unlinked descriptor's entry offset is still a relocation; the
    // kernel's code symbol says where the code starts.
    if (object.relocatable) {
      const Symbol *code = object.findSymbol(kernel.name);
      if (!code || !code->defined)
        return makeError("kernel code symbol '" + kernel.name + "' is missing");
      kernel.entryAddress = code->address;
      continue;
    }
    int64_t entryOffset;
    std::memcpy(&entryOffset, kernel.descriptor.data() + 16,
                sizeof(entryOffset));
    kernel.entryAddress = kernel.descriptorAddress + entryOffset;
  }
  return object;
}

llvm::Expected<CodeObject> CodeObject::load(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  auto object = parse((*buffer)->getBuffer());
  if (!object)
    return makeError("'" + path + "': " + toString(object.takeError()));
  return object;
}

const Symbol *CodeObject::findSymbol(llvm::StringRef name) const {
  auto it =
      llvm::lower_bound(symbols, name, [](const Symbol &s, llvm::StringRef n) {
        return s.name < n;
      });
  return it != symbols.end() && it->name == name ? &*it : nullptr;
}

/// The value relocation `r` stores for an image loaded at `base`, and its
/// width in bytes.
static llvm::Expected<std::pair<uint64_t, unsigned>>
relocationValue(const Relocation &r, uint64_t base) {
  auto typeName = [&] {
    return llvm::object::getELFRelocationTypeName(llvm::ELF::EM_AMDGPU, r.type)
        .str();
  };
  if (!r.symbol.empty() && !r.symbolDefined)
    return makeError("the code object refers to '" + r.symbol +
                     "', which it does not define (" + typeName() + " at " +
                     hexString(r.offset) +
                     "); a code object must define every symbol it uses");
  uint64_t symbol = r.symbol.empty() ? 0 : base + r.symbolAddress;
  uint64_t value = symbol + uint64_t(r.addend);
  switch (r.type) {
  case llvm::ELF::R_AMDGPU_RELATIVE64:
    return std::make_pair(base + uint64_t(r.addend), 8u);
  case llvm::ELF::R_AMDGPU_ABS64:
    return std::make_pair(value, 8u);
  case llvm::ELF::R_AMDGPU_ABS32_LO:
    return std::make_pair(value & 0xffffffffu, 4u);
  case llvm::ELF::R_AMDGPU_ABS32_HI:
    return std::make_pair(value >> 32, 4u);
  case llvm::ELF::R_AMDGPU_ABS32:
    if (!llvm::isUInt<32>(value))
      return makeError("relocation " + typeName() + " at " +
                       hexString(r.offset) + " cannot hold the address " +
                       hexString(value) + " in 32 bits");
    return std::make_pair(value, 4u);
  default:
    return makeError("unsupported dynamic relocation " + typeName() + " (" +
                     llvm::Twine(r.type) + ") at " + hexString(r.offset));
  }
}

llvm::Error CodeObject::loadImage(llvm::MutableArrayRef<uint8_t> image,
                                  uint64_t base) const {
  if (image.size() != imageSize)
    return makeError("the image of the code object takes " +
                     llvm::Twine(imageSize) + " bytes, got " +
                     llvm::Twine(image.size()));
  for (const Segment &segment : segments)
    std::memcpy(image.data() + segment.address, segment.bytes.data(),
                segment.bytes.size());
  for (const Relocation &r : relocations) {
    if (r.type == llvm::ELF::R_AMDGPU_NONE)
      continue;
    auto value = relocationValue(r, base);
    if (!value)
      return value.takeError();
    auto [bits, width] = *value;
    const Segment *target = nullptr;
    for (const Segment &segment : segments)
      if (r.offset >= segment.address &&
          r.offset - segment.address + width <= segment.memorySize)
        target = &segment;
    if (!target)
      return makeError("a relocation at " + hexString(r.offset) +
                       " lies outside the loaded segments");
    // The emulator decodes code once, from the file: code must not need
    // patching (no text relocations).
    if (target->executable)
      return makeError("a relocation at " + hexString(r.offset) +
                       " patches code; text relocations are not supported");
    std::memcpy(image.data() + r.offset, &bits, width);
  }
  return llvm::Error::success();
}
