//===- Timed.cpp - Workgroups run by the timing model ---------------------===//
//
// The emulator as the timing model's functional core: the model decides
// which wave executes its next instruction when, and the workgroups'
// state, the instruction semantics, the sanitizers and the counters are
// the emulator's own, exactly as in an untimed run.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "llvm/ADT/STLExtras.h"

using namespace hk;
using namespace hk::emu;

namespace {

class TimedCore final : public timing::ExecutionCore {
public:
  TimedCore(LaunchState &L, const KernelInfo &kernel,
            const LaunchOptions &options, TimedOutcome &outcome)
      : L(L), kernel(kernel), options(options), outcome(outcome) {}

  llvm::Expected<unsigned> startWorkgroup(unsigned slot, uint64_t id) override {
    if (slot >= slots.size())
      slots.resize(slot + 1);
    if (!slots[slot])
      slots[slot] = makeWorkgroup();
    Workgroup &wg = *slots[slot];
    wg.linearId = id;
    wg.id[0] = uint32_t(id % L.grid.x);
    wg.id[1] = uint32_t((id / L.grid.x) % L.grid.y);
    wg.id[2] = uint32_t(id / (uint64_t(L.grid.x) * L.grid.y));
    prepareWorkgroup(wg);
    outcome.ran.push_back(id);
    return wg.numWaves;
  }

  const isa::Instruction *next(unsigned slot, unsigned wave) override {
    Wave &w = *slots[slot]->waves[wave];
    if (w.state == Wave::Ended || w.state == Wave::Faulted)
      return nullptr;
    if (const Instr *in = L.program->at(w.pc))
      return in;
    // Executing it faults with the emulator's message.
    nowhere.pc = w.pc;
    nowhere.desc = isa::lookupInstr("s_nop");
    return &nowhere;
  }

  bool step(unsigned slot, unsigned wave,
            timing::StepEffects &effects) override {
    Workgroup &wg = *slots[slot];
    Wave &w = *wg.waves[wave];
    wg.probe = &effects;
    stepWave(w);
    wg.probe = nullptr;
    if (w.state != Wave::Faulted && wg.error.empty())
      return true;
    outcome.error = wg.error;
    return false;
  }

  void releaseBarrier(unsigned slot) override {
    emu::releaseBarrier(*slots[slot]);
  }

  /// Memory as it was before the sample, when taken (see rewind).
  void saveMemory() { saved = L.memory->save(start); }

  bool rewind() override {
    if (!saved)
      return false;
    L.memory->restore(start);
    slots.clear();
    outcome = TimedOutcome();
    return true;
  }

  void finishWorkgroup(unsigned slot) override {
    Workgroup &wg = *slots[slot];
    checkBarrierBalance(wg);
    wg.flushLdsStats();
    outcome.counters.merge(wg.counters);
    wg.counters = KernelCounters();
    outcome.reportCount += wg.reportCount;
    for (SanitizerReport &r : wg.reports)
      outcome.reports.push_back(std::move(r));
    wg.reports.clear();
    wg.reportCount = 0;
  }

private:
  LaunchState &L;
  const KernelInfo &kernel;
  const LaunchOptions &options;
  TimedOutcome &outcome;
  std::vector<std::unique_ptr<Workgroup>> slots;
  Instr nowhere;
  GlobalMemory::Contents start;
  bool saved = false;

  std::unique_ptr<Workgroup> makeWorkgroup() {
    auto wg = std::make_unique<Workgroup>();
    wg->launch = &L;
    wg->lds.assign(L.ldsBytes, 0);
    if (L.sanitize.ldsRace)
      wg->shadow.assign(L.ldsBytes, LdsShadow());
    wg->dmaPending.assign((L.ldsBytes + 3) / 4, 0);
    wg->scratchPerLane =
        kernel.usesDynamicStack
            ? std::max(kernel.privateSegmentFixedSize, options.stackBytes)
            : kernel.privateSegmentFixedSize;
    return wg;
  }
};

} // namespace

llvm::Expected<timing::Prediction> hk::emu::runTimedSample(
    LaunchState &L, const KernelInfo &kernel, const LaunchOptions &options,
    llvm::ArrayRef<uint64_t> selected, TimedOutcome &outcome) {
  const timing::DeviceModel &device =
      options.timing->device ? *options.timing->device
                             : timing::DeviceModel::defaultFor(*L.chip);
  if (device.chipName != L.chip->name)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   device.name + " is a " + device.chipName +
                                       " device; the code object is for " +
                                       L.chip->name);
  timing::LaunchShape shape;
  shape.workgroups = L.grid.count();
  shape.wavesPerWorkgroup =
      unsigned((L.block.count() + kWaveSize - 1) / kWaveSize);
  shape.vgprs = kernel.vgprCount;
  shape.sgprs = kernel.sgprCount;
  shape.ldsBytes = L.ldsBytes;
  for (const Instr &in : L.program->all())
    shape.program.push_back(&in);
  timing::SampleRequest request;
  request.workgroups.assign(selected.begin(), selected.end());
  request.clockMHz = options.timing->clockMHz;
  TimedCore core(L, kernel, options, outcome);
  // Without a given clock the model may run the sample a second time at
  // the clock the first run's load sustains, from the same memory.
  if (request.clockMHz == 0)
    core.saveMemory();
  auto prediction = timing::predict(device, shape, core, request);
  llvm::sort(outcome.ran);
  if (!outcome.error.empty()) {
    llvm::consumeError(prediction.takeError());
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   outcome.error);
  }
  return prediction;
}
