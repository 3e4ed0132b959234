//===- Assembler.cpp - Assembly text to machine code, in process ----------===//

#include "hk/ISA/Assembler.h"

#include "hk/Support/ChipInfo.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUAsmParser();

using namespace hk;

namespace {
/// Encodes each parsed instruction into `code`; ignores everything else.
class EncodingStreamer : public llvm::MCStreamer {
public:
  EncodingStreamer(llvm::MCContext &ctx, llvm::MCCodeEmitter &emitter,
                   std::vector<uint8_t> &code)
      : MCStreamer(ctx), emitter(emitter), code(code) {}
  void emitInstruction(const llvm::MCInst &inst,
                       const llvm::MCSubtargetInfo &sti) override {
    llvm::SmallVector<char, 16> bytes;
    llvm::SmallVector<llvm::MCFixup, 2> fixups;
    emitter.encodeInstruction(inst, bytes, fixups, sti);
    if (!fixups.empty())
      hasFixups = true;
    code.insert(code.end(), bytes.begin(), bytes.end());
  }
  bool emitSymbolAttribute(llvm::MCSymbol *, llvm::MCSymbolAttr) override {
    return true;
  }
  void emitCommonSymbol(llvm::MCSymbol *, uint64_t, llvm::Align) override {}
  void emitZerofill(llvm::MCSection *, llvm::MCSymbol *, uint64_t, llvm::Align,
                    llvm::SMLoc) override {}
  bool hasFixups = false;

private:
  llvm::MCCodeEmitter &emitter;
  std::vector<uint8_t> &code;
};
} // namespace

llvm::Expected<std::vector<uint8_t>> hk::isa::assemble(const ChipInfo &chip,
                                                       llvm::StringRef source) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
  });
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return error("LLVM has no AMDGPU target: " + lookupError);
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> mri(target->createMCRegInfo(triple));
  std::unique_ptr<llvm::MCAsmInfo> mai(
      target->createMCAsmInfo(*mri, triple, options));
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, chip.name, ""));
  std::unique_ptr<llvm::MCInstrInfo> mii(target->createMCInstrInfo());
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "<instructions>"),
      llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *context) {
        d.print(nullptr, *static_cast<llvm::raw_ostream *>(context), false);
      },
      &diagStream);
  llvm::MCContext ctx(triple, mai.get(), mri.get(), sti.get(), &sources);
  std::unique_ptr<llvm::MCObjectFileInfo> ofi(
      target->createMCObjectFileInfo(ctx, /*PIC=*/false));
  ctx.setObjectFileInfo(ofi.get());
  std::unique_ptr<llvm::MCCodeEmitter> emitter(
      target->createMCCodeEmitter(*mii, ctx));
  if (!emitter)
    return error("LLVM has no AMDGPU code emitter");
  std::vector<uint8_t> code;
  EncodingStreamer streamer(ctx, *emitter, code);
  target->createNullTargetStreamer(streamer);
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(sources, ctx, streamer, *mai));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*sti, *parser, *mii, options));
  if (!targetParser)
    return error("LLVM has no AMDGPU assembler");
  parser->setTargetParser(*targetParser);
  if (parser->Run(/*NoInitialTextSection=*/false) || ctx.hadError())
    return error("cannot assemble: " + llvm::StringRef(diagnostics).trim());
  if (streamer.hasFixups)
    return error("cannot assemble: labels and relocations are not supported "
                 "(use numeric branch offsets)");
  return code;
}
