//===- SingleWave.cpp - Running single instructions on one wave -----------===//

#include "SingleWave.h"

#include "hk/ISA/Assembler.h"
#include "hk/ISA/Decoder.h"

#include <map>
#include <mutex>

using namespace hk;
using namespace hk::emu;

SingleWave::SingleWave(const ChipInfo &chip, unsigned ldsBytes,
                       SanitizerOptions sanitizers) {
  kernel.name = "single-wave";
  launch.chip = &chip;
  launch.memory = &globalMemory;
  launch.kernel = &kernel;
  launch.sanitize = sanitizers;
  launch.ldsBytes = ldsBytes;
  wg.launch = &launch;
  wg.lds.assign(ldsBytes, 0);
  wg.shadow.assign(ldsBytes, LdsShadow());
  wg.dmaPending.assign((ldsBytes + 3) / 4, 0);
  wg.numWaves = 1;
  wg.waves.push_back(std::make_unique<Wave>());
  w = wg.waves.front().get();
  std::memset(w->v, 0, sizeof(w->v));
  std::memset(w->s, 0, sizeof(w->s));
  std::memset(w->pendingReg, 0, sizeof(w->pendingReg));
  w->wg = &wg;
  w->setExec(~0ull);
  w->mode = launch.initialMode;
  if (auto created = isa::Decoder::create(chip))
    decoder = std::move(*created);
  else
    llvm::consumeError(created.takeError());
}

SingleWave::~SingleWave() = default;

/// Decoded instructions of each (chip, source) assembled so far: tests run
/// one instruction on many inputs.
static llvm::Expected<const std::vector<Instr> *>
compile(const isa::Decoder &decoder, llvm::StringRef source) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, std::vector<Instr>>
      cache;
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(decoder.getChip().name.str(), source.str());
  auto found = cache.find(key);
  if (found != cache.end())
    return &found->second;
  llvm::Expected<std::vector<uint8_t>> code =
      isa::assemble(decoder.getChip(), source);
  if (!code)
    return code.takeError();
  llvm::ArrayRef<Handler> handlers = handlerTable();
  llvm::ArrayRef<uint8_t> bytes(*code);
  std::vector<Instr> instrs;
  for (uint64_t offset = 0; offset < bytes.size();) {
    Instr in;
    static_cast<isa::Instruction &>(in) =
        decoder.decode(bytes.slice(offset), offset);
    offset += in.size;
    if (!in.desc || !in.error.empty())
      return error("cannot decode '" + in.text + "': " + in.error);
    if (!in.desc->listed || !handlers[in.desc->index])
      return error("no semantics for '" + in.text + "'");
    in.cls = classOf(in.unit());
    in.fn = handlers[in.desc->index];
    instrs.push_back(std::move(in));
  }
  return &(cache[key] = std::move(instrs));
}

llvm::Error SingleWave::run(llvm::StringRef source) {
  if (!decoder)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no decoder for " + launch.chip->name);
  llvm::Expected<const std::vector<Instr> *> instrs = compile(*decoder, source);
  if (!instrs)
    return instrs.takeError();
  for (const Instr &in : **instrs) {
    mnemonics.insert(in.mnemonic().str());
    w->pc = in.pc + in.size;
    w->state = Wave::Running;
    in.fn(*w, in);
    if (w->state == Wave::Faulted) {
      std::string message = wg.error;
      wg.error.clear();
      return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
    }
  }
  return llvm::Error::success();
}
