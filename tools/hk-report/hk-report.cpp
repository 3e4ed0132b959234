//===- hk-report.cpp - What a code object holds ---------------------------===//
//
//   hk-report kernel.hsaco... [--json] [--kernel=NAME] [--disassemble-loops]
//
// Works on any AMDHSA code object for gfx942/gfx950, ours or foreign: chip,
// code object version, and per kernel its arguments, registers, spills, LDS,
// scratch, occupancy and what limits it, and the instruction mix of each
// loop of its machine code (decoded as hk-emu decodes it) and of the code
// outside loops. docs/report.md describes the output.
//
//===----------------------------------------------------------------------===//

#include "LoopMix.h"

#include "hk/Emulator/Disassembly.h"
#include "hk/Runtime/CodeObject.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using hk::report::InstructionMix;
using hk::report::KernelCode;
using hk::report::Loop;

static cl::OptionCategory category("hk-report options");
static cl::list<std::string> inputs(cl::Positional, cl::OneOrMore,
                                    cl::desc("<code object>..."),
                                    cl::cat(category));
static cl::opt<bool> asJson("json", cl::desc("Print JSON"), cl::cat(category));
static cl::opt<std::string>
    kernelName("kernel", cl::desc("Report only the kernel called NAME"),
               cl::value_desc("NAME"), cl::cat(category));
static cl::opt<bool>
    disassembleLoops("disassemble-loops",
                     cl::desc("Print the instructions of each loop"),
                     cl::cat(category));

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

// Occupancy -------------------------------------------------------------------

static unsigned wavesPerWorkgroup(const hk::KernelInfo &kernel) {
  unsigned lanes =
      kernel.maxFlatWorkgroupSize ? kernel.maxFlatWorkgroupSize : 256;
  return (lanes + kernel.wavefrontSize - 1) / kernel.wavefrontSize;
}

/// Waves per SIMD and what each resource alone would allow, all asked of
/// ChipInfo::occupancy so that the rules live in one place.
struct Occupancy {
  unsigned waves = 0;
  unsigned byRegisters = 0; ///< Unified VGPR file (arch + acc VGPRs).
  unsigned byLds = 0;
  unsigned bySlots = 0; ///< Wave slots of a SIMD.
  SmallVector<StringRef, 3> limitedBy;
};

static Occupancy computeOccupancy(const hk::ChipInfo &chip,
                                  const hk::KernelInfo &kernel) {
  Occupancy o;
  unsigned perGroup = wavesPerWorkgroup(kernel);
  // The metadata's .vgpr_count already counts the AGPRs on chips with a
  // unified register file (arch VGPRs rounded up to 4, then AGPRs).
  o.waves =
      chip.occupancy(kernel.vgprCount, kernel.groupSegmentFixedSize, perGroup);
  o.byRegisters = chip.occupancy(kernel.vgprCount, 0, 0);
  o.byLds = chip.occupancy(0, kernel.groupSegmentFixedSize, perGroup);
  o.bySlots = chip.maxWavesPerSimd;
  // ChipInfo caps each figure at the wave slots: at the cap, the slots are
  // the limit whatever the registers and LDS would allow.
  if (o.waves == o.bySlots) {
    o.limitedBy.push_back("waves");
    return o;
  }
  if (o.byRegisters == o.waves)
    o.limitedBy.push_back("VGPRs");
  if (o.byLds == o.waves)
    o.limitedBy.push_back("LDS");
  return o;
}

// Kernel code ranges ----------------------------------------------------------

/// A function symbol of the code object: a kernel's code is the range of
/// the symbol named after it.
struct FunctionSymbol {
  std::string name;
  uint64_t address = 0, size = 0;
};

static Expected<std::vector<FunctionSymbol>>
readFunctionSymbols(StringRef path) {
  Expected<object::OwningBinary<object::ObjectFile>> file =
      object::ObjectFile::createObjectFile(path);
  if (!file)
    return file.takeError();
  auto *elf = dyn_cast<object::ELFObjectFileBase>(file->getBinary());
  if (!elf)
    return makeError("'" + path + "' is not an ELF file");
  std::vector<FunctionSymbol> symbols;
  auto collect = [&](const object::ELFSymbolRef &symbol) {
    Expected<object::SymbolRef::Type> type = symbol.getType();
    Expected<StringRef> name = symbol.getName();
    Expected<uint64_t> address = symbol.getAddress();
    if (!type || !name || !address) {
      consumeError(type.takeError());
      consumeError(name.takeError());
      consumeError(address.takeError());
      return;
    }
    if (*type == object::SymbolRef::ST_Function)
      symbols.push_back({name->str(), *address, symbol.getSize()});
  };
  for (const object::ELFSymbolRef &symbol : elf->symbols())
    collect(symbol);
  // Stripped objects keep the kernels in the dynamic symbol table.
  for (const object::ELFSymbolRef &symbol : elf->getDynamicSymbolIterators())
    collect(symbol);
  return symbols;
}

/// [start, end) of the kernel's code: its function symbol's range, or, for
/// an object without symbol sizes, up to the next function or the end of
/// the executable segment.
static std::pair<uint64_t, uint64_t>
kernelCodeRange(const hk::CodeObject &object, const hk::KernelInfo &kernel,
                ArrayRef<FunctionSymbol> functions) {
  uint64_t start = kernel.entryAddress;
  for (const FunctionSymbol &function : functions)
    if (function.name == kernel.name && function.address == start &&
        function.size > 0)
      return {start, start + function.size};
  uint64_t end = start;
  for (const hk::Segment &segment : object.getSegments())
    if (segment.executable && start >= segment.address &&
        start < segment.address + segment.bytes.size())
      end = segment.address + segment.bytes.size();
  for (const FunctionSymbol &function : functions)
    if (function.address > start)
      end = std::min(end, function.address);
  for (const hk::KernelInfo &other : object.getKernels())
    if (other.entryAddress > start)
      end = std::min(end, other.entryAddress);
  return {start, end};
}

// Text ------------------------------------------------------------------------

static std::string hex(uint64_t value) {
  std::string text;
  raw_string_ostream(text) << format_hex(value, 2);
  return text;
}

/// The key figures of a mix on one line; names are the JSON count keys.
static void printSummary(raw_ostream &os, const InstructionMix &m) {
  os << m.instructions << " instructions: mfma " << m.mfma << " ("
     << m.mfmaFlops << " flop";
  if (m.unknownMfmas)
    os << ", " << m.unknownMfmas << " unknown";
  os << "), ds_read " << m.dsRead << ", ds_write " << m.dsWrite
     << ", buffer_load " << m.bufferLoad << ", buffer_load_lds "
     << m.bufferLoadLds << ", global_load " << m.globalLoad
     << ", global_load_lds " << m.globalLoadLds << ", buffer_store "
     << m.bufferStore << ", global_store " << m.globalStore << ", s_barrier "
     << m.barrier << ", s_waitcnt " << m.waitcnt << " (vmcnt(0) "
     << m.vmcntDrains << ", lgkmcnt(0) " << m.lgkmcntDrains << "), s_setprio "
     << m.setprio << ", s_nop " << m.nop << ", valu " << m.valu << ", salu "
     << m.salu << ", branch " << m.branch << "\n";
}

/// "16 ds_read_b128, 2 ds_read_b64" for the mnemonics of one class.
static void printMnemonics(raw_ostream &os, StringRef label,
                           const InstructionMix &m,
                           function_ref<bool(hk::isa::Unit)> select) {
  std::string list;
  for (const auto &[mnemonic, entry] : m.mnemonics)
    if (select(entry.unit))
      list += (list.empty() ? "" : ", ") + std::to_string(entry.count) + " " +
              mnemonic;
  if (!list.empty())
    os << "      " << left_justify(label, 9) << list << "\n";
}

static std::string waitList(StringRef counter,
                            const std::map<unsigned, uint64_t> &limits) {
  std::string list;
  // Largest limit first: the order in which a pipeline usually waits.
  for (auto it = limits.rbegin(); it != limits.rend(); ++it)
    list += (list.empty() ? "" : ", ") + counter.str() + "(" +
            std::to_string(it->first) + ") x" + std::to_string(it->second);
  return list;
}

static void printDetails(raw_ostream &os, const InstructionMix &m) {
  using hk::isa::Unit;
  printMnemonics(os, "mfma", m, [](Unit u) { return u == Unit::Mfma; });
  printMnemonics(os, "lds", m, [](Unit u) { return u == Unit::Lds; });
  printMnemonics(os, "vmem", m, hk::isa::isVectorMemory);
  printMnemonics(os, "smem", m, [](Unit u) { return u == Unit::Smem; });
  std::string vm = waitList("vmcnt", m.vmcntLimits);
  std::string lgkm = waitList("lgkmcnt", m.lgkmcntLimits);
  if (!vm.empty() || !lgkm.empty())
    os << "      waits    " << vm << (vm.empty() || lgkm.empty() ? "" : "; ")
       << lgkm << "\n";
  if (!m.priorities.empty()) {
    os << "      setprio  ";
    interleaveComma(m.priorities, os);
    os << "\n";
  }
}

static void printLoop(raw_ostream &os, const KernelCode &code, unsigned index) {
  const Loop &loop = code.loops[index];
  os << "    loop " << index + 1 << "  " << hex(loop.start) << "-"
     << hex(loop.end) << " depth " << loop.depth << ", ";
  printSummary(os, loop.mix);
  printDetails(os, loop.mix);
  if (!loop.nested.empty()) {
    os << "      nested   ";
    interleave(
        loop.nested, os, [&](unsigned i) { os << "loop " << i + 1; }, ", ");
    os << "\n";
  }
  if (!disassembleLoops)
    return;
  for (unsigned i : loop.body) {
    const hk::isa::Instruction &in = code.instructions[i];
    os << "      " << format_hex(in.pc, 10) << "  " << in.text;
    std::optional<unsigned> owner = code.innermostLoop(i);
    if (owner && *owner != index)
      os << "  [loop " << *owner + 1 << "]";
    os << "\n";
  }
}

static void printCode(raw_ostream &os, const KernelCode &code) {
  os << "    code       " << hex(code.start) << "-" << hex(code.end) << " ("
     << code.end - code.start << " B), " << code.instructions.size()
     << " instructions, " << code.loops.size() << " loop"
     << (code.loops.size() == 1 ? "" : "s") << "\n";
  for (unsigned i = 0; i < code.loops.size(); ++i)
    printLoop(os, code, i);
  os << "    outside loops  ";
  printSummary(os, code.outsideLoops);
  printDetails(os, code.outsideLoops);
}

static void printKernel(raw_ostream &os, const hk::CodeObject &object,
                        const hk::KernelInfo &kernel, const KernelCode &code) {
  const hk::ChipInfo &chip = object.getChip();
  os << "  kernel " << kernel.name << "\n";
  os << "    arguments  ";
  bool first = true;
  for (const hk::KernelArg *arg : kernel.explicitArgs()) {
    os << (first ? "" : ", ");
    if (!arg->name.empty())
      os << arg->name << ":";
    os << arg->valueKind << "@" << arg->offset;
    first = false;
  }
  os << " (" << kernel.kernargSegmentSize << " kernarg bytes)\n";
  os << "    registers  vgpr " << kernel.vgprCount << ", agpr "
     << kernel.agprCount << ", sgpr " << kernel.sgprCount << "\n";
  os << "    spills     vgpr " << kernel.vgprSpillCount << ", sgpr "
     << kernel.sgprSpillCount << ", scratch " << kernel.privateSegmentFixedSize
     << " B/lane\n";
  os << "    lds        " << kernel.groupSegmentFixedSize << " B of "
     << chip.ldsBytesPerWorkgroup << "\n";
  Occupancy occupancy = computeOccupancy(chip, kernel);
  os << "    occupancy  " << occupancy.waves
     << " waves/SIMD (workgroup of up to " << kernel.maxFlatWorkgroupSize
     << " lanes), limited by ";
  interleave(occupancy.limitedBy, os, " and ");
  os << " (VGPRs " << occupancy.byRegisters << ", LDS " << occupancy.byLds
     << ", waves " << occupancy.bySlots << ")\n";
  printCode(os, code);
}

// JSON ------------------------------------------------------------------------

static json::Object mixToJson(const InstructionMix &m) {
  json::Object counts{{"instructions", m.instructions}};
  for (const InstructionMix::Category &c : InstructionMix::categories())
    counts[c.name] = m.*c.count;
  counts["s_waitcnt_vmcnt0"] = m.vmcntDrains;
  counts["s_waitcnt_lgkmcnt0"] = m.lgkmcntDrains;
  auto limitsToJson = [](const std::map<unsigned, uint64_t> &limits) {
    json::Object object;
    for (auto [limit, count] : limits)
      object[std::to_string(limit)] = count;
    return object;
  };
  json::Object mnemonics;
  for (const auto &[mnemonic, entry] : m.mnemonics)
    mnemonics[mnemonic] = entry.count;
  return json::Object{
      {"counts", std::move(counts)},
      {"mfma_flops", m.mfmaFlops},
      {"mfma_unknown", m.unknownMfmas},
      {"setprio_values", json::Array(m.priorities)},
      {"waitcnt_vmcnt", limitsToJson(m.vmcntLimits)},
      {"waitcnt_lgkmcnt", limitsToJson(m.lgkmcntLimits)},
      {"mnemonics", std::move(mnemonics)},
  };
}

static json::Array loopsToJson(const KernelCode &code) {
  json::Array loops;
  for (unsigned i = 0; i < code.loops.size(); ++i) {
    const Loop &loop = code.loops[i];
    json::Object object = mixToJson(loop.mix);
    object["index"] = i + 1;
    object["start"] = loop.start;
    object["end"] = loop.end;
    object["depth"] = loop.depth;
    object["back_edges"] = loop.backEdges;
    object["parent"] =
        loop.parent ? json::Value(*loop.parent + 1) : json::Value(nullptr);
    json::Array nested;
    for (unsigned n : loop.nested)
      nested.push_back(n + 1);
    object["nested"] = std::move(nested);
    loops.push_back(std::move(object));
  }
  return loops;
}

static json::Object kernelToJson(const hk::CodeObject &object,
                                 const hk::KernelInfo &kernel,
                                 const KernelCode &code) {
  json::Array args;
  for (const hk::KernelArg *arg : kernel.explicitArgs())
    args.push_back(json::Object{{"name", arg->name},
                                {"kind", arg->valueKind},
                                {"offset", arg->offset},
                                {"size", arg->size}});
  Occupancy occupancy = computeOccupancy(object.getChip(), kernel);
  json::Array limitedBy;
  for (StringRef name : occupancy.limitedBy)
    limitedBy.push_back(name.lower());
  return json::Object{
      {"name", kernel.name},
      {"args", std::move(args)},
      {"kernarg_bytes", kernel.kernargSegmentSize},
      {"vgpr", kernel.vgprCount},
      {"agpr", kernel.agprCount},
      {"sgpr", kernel.sgprCount},
      {"vgpr_spill", kernel.vgprSpillCount},
      {"sgpr_spill", kernel.sgprSpillCount},
      {"lds_bytes", kernel.groupSegmentFixedSize},
      {"scratch_bytes", kernel.privateSegmentFixedSize},
      {"max_workgroup_size", kernel.maxFlatWorkgroupSize},
      {"waves_per_simd", occupancy.waves},
      {"occupancy", json::Object{{"waves_per_simd", occupancy.waves},
                                 {"limited_by", std::move(limitedBy)},
                                 {"vgprs", occupancy.byRegisters},
                                 {"lds", occupancy.byLds},
                                 {"waves", occupancy.bySlots}}},
      {"code", json::Object{{"start", code.start},
                            {"end", code.end},
                            {"bytes", code.end - code.start},
                            {"instructions", code.instructions.size()}}},
      {"loops", loopsToJson(code)},
      {"outside_loops", mixToJson(code.outsideLoops)},
  };
}

// Driver ----------------------------------------------------------------------

/// The kernels to report: all, or the one --kernel names.
static Expected<std::vector<const hk::KernelInfo *>>
selectKernels(StringRef path, const hk::CodeObject &object) {
  std::vector<const hk::KernelInfo *> selected;
  for (const hk::KernelInfo &kernel : object.getKernels())
    if (kernelName.empty() || kernel.name == kernelName)
      selected.push_back(&kernel);
  if (!selected.empty() || kernelName.empty())
    return selected;
  std::string names;
  for (const hk::KernelInfo &kernel : object.getKernels())
    names += (names.empty() ? "" : ", ") + kernel.name;
  return makeError("'" + path + "' has no kernel '" + kernelName +
                   "' (kernels: " + (names.empty() ? "none" : names) + ")");
}

/// Reports one code object; appends its JSON to `all` when --json is on.
static Error reportObject(StringRef path, json::Array &all) {
  Expected<hk::CodeObject> object = hk::CodeObject::load(path);
  if (!object)
    return object.takeError();
  Expected<std::vector<const hk::KernelInfo *>> kernels =
      selectKernels(path, *object);
  if (!kernels)
    return kernels.takeError();
  Expected<std::vector<FunctionSymbol>> functions = readFunctionSymbols(path);
  if (!functions)
    return functions.takeError();
  Expected<std::vector<hk::isa::Instruction>> instructions =
      hk::emu::disassemble(*object);
  if (!instructions)
    return makeError("cannot decode '" + path +
                     "': " + toString(instructions.takeError()));

  const hk::ChipInfo &chip = object->getChip();
  if (!asJson)
    outs() << path << ": " << chip.name << " (" << chip.products << ", "
           << chip.generation << "), code object v"
           << object->getCodeObjectVersion() << ", target "
           << object->getTarget() << "\n";
  json::Array kernelsJson;
  for (const hk::KernelInfo *kernel : *kernels) {
    auto [start, end] = kernelCodeRange(*object, *kernel, *functions);
    KernelCode code = hk::report::analyzeKernelCode(*instructions, start, end);
    if (asJson)
      kernelsJson.push_back(kernelToJson(*object, *kernel, code));
    else
      printKernel(outs(), *object, *kernel, code);
  }
  if (asJson)
    all.push_back(
        json::Object{{"path", path.str()},
                     {"chip", chip.name},
                     {"code_object_version", object->getCodeObjectVersion()},
                     {"target", object->getTarget().str()},
                     {"kernels", std::move(kernelsJson)}});
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "HK-MLIR: report what AMDHSA code objects "
                              "hold\n");
  json::Array all;
  int status = 0;
  for (const std::string &path : inputs) {
    if (Error error = reportObject(path, all)) {
      WithColor::error(errs(), "hk-report")
          << toString(std::move(error)) << "\n";
      status = 1;
    }
  }
  if (asJson)
    outs() << formatv("{0:2}", json::Value(std::move(all))) << "\n";
  return status;
}
