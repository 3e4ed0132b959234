//===- Decoder.cpp - Code objects into handler-bound instructions ---------===//
//
// The ISA layer (hk/ISA) decodes each instruction once at load time; here
// it is bound to its semantics, which the .def files name next to the
// instruction (see Bindings in Interp.h).
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "hk/ISA/Decoder.h"

#include "llvm/ADT/StringSet.h"

using namespace hk;
using namespace hk::emu;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

InstrClass hk::emu::classOf(isa::Unit unit) {
  using isa::Unit;
  switch (unit) {
  case Unit::Salu:
    return InstrClass::Salu;
  case Unit::Valu:
  case Unit::Trans:
    return InstrClass::Valu;
  case Unit::Mfma:
    return InstrClass::Mfma;
  case Unit::Lds:
    return InstrClass::Lds;
  case Unit::VmemLoad:
  case Unit::VmemStore:
  case Unit::VmemAtomic:
  case Unit::DirectToLds:
    return InstrClass::Vmem;
  case Unit::Smem:
    return InstrClass::Smem;
  case Unit::Branch:
    return InstrClass::Branch;
  case Unit::Wait:
    return InstrClass::Wait;
  case Unit::Barrier:
    return InstrClass::Barrier;
  case Unit::Message:
  case Unit::Hint:
  case Unit::EndProgram:
  case Unit::Count:
    return InstrClass::Other;
  }
  return InstrClass::Other;
}

llvm::ArrayRef<Handler> hk::emu::handlerTable() {
  static const std::vector<Handler> table = [] {
    std::vector<Handler> handlers(isa::allInstrs().size(), nullptr);
    for (llvm::ArrayRef<Binding> bindings :
         {scalarBindings(), vectorBindings(), matrixBindings(),
          memoryBindings()})
      for (const Binding &b : bindings)
        if (const isa::InstrDesc *desc = isa::lookupInstr(b.mnemonic))
          handlers[desc->index] = b.fn;
    return handlers;
  }();
  return table;
}

static void unimplementedHandler(Wave &w, const Instr &in) {
  if (!in.error.empty()) {
    w.fault(in, "cannot decode the instruction: " + in.error);
    return;
  }
  w.fault(in, "instruction '" + in.mnemonic() +
                  "' is not implemented by the emulator");
}

llvm::Expected<std::unique_ptr<DecodedProgram>>
DecodedProgram::decode(const CodeObject &object) {
  auto decoder = isa::Decoder::create(object.getChip());
  if (!decoder)
    return decoder.takeError();
  const Segment *code = nullptr;
  for (const Segment &segment : object.getSegments())
    if (segment.executable) {
      if (code)
        return makeError("code object has more than one executable segment");
      code = &segment;
    }
  if (!code)
    return makeError("code object has no executable segment");
  auto program = std::make_unique<DecodedProgram>();
  program->base = code->address;
  program->end = code->address + code->bytes.size();
  program->byWord.assign(code->bytes.size() / 4, -1);
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>(code->bytes.data()),
      code->bytes.size() & ~size_t(3));
  llvm::ArrayRef<Handler> handlers = handlerTable();
  uint64_t offset = 0;
  while (offset + 4 <= bytes.size()) {
    Instr in;
    static_cast<isa::Instruction &>(in) =
        (*decoder)->decode(bytes.slice(offset), program->base + offset);
    in.cls = in.desc ? classOf(in.unit()) : InstrClass::Other;
    if (in.desc && in.desc->listed && in.error.empty())
      in.fn = handlers[in.desc->index];
    if (!in.fn)
      in.fn = unimplementedHandler;
    program->byWord[offset / 4] = int32_t(program->instrs.size());
    offset += in.size;
    program->instrs.push_back(std::move(in));
  }
  return program;
}

std::vector<std::pair<uint64_t, std::string>>
Module::unsupportedInstructions() const {
  std::vector<std::pair<uint64_t, std::string>> result;
  llvm::StringSet<> seen;
  for (const Instr &in : program->all()) {
    // Padding after the last kernel is never executed.
    if (in.fn != unimplementedHandler || !in.desc ||
        !seen.insert(in.mnemonic()).second)
      continue;
    result.push_back(
        {in.pc, in.text + (in.error.empty() ? "" : " (" + in.error + ")")});
  }
  return result;
}

llvm::Expected<std::vector<isa::Instruction>>
hk::emu::disassemble(const CodeObject &object) {
  llvm::Expected<std::unique_ptr<DecodedProgram>> program =
      DecodedProgram::decode(object);
  if (!program)
    return program.takeError();
  std::vector<isa::Instruction> result;
  result.reserve((*program)->all().size());
  for (const Instr &in : (*program)->all())
    result.push_back(in);
  return result;
}
