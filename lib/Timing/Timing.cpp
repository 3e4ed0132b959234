//===- Timing.cpp - From a simulated sample to the whole launch -----------===//

#include "Simulator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

using namespace hk;
using namespace hk::timing;

ExecutionCore::~ExecutionCore() = default;

llvm::StringRef hk::timing::stringifyStall(Stall s) {
  switch (s) {
  case Stall::Mfma:
    return "mfma";
  case Stall::Valu:
    return "valu";
  case Stall::Issue:
    return "issue";
  case Stall::Vmcnt:
    return "vmcnt";
  case Stall::Lgkmcnt:
    return "lgkmcnt";
  case Stall::LdsConflict:
    return "lds_bank_conflict";
  case Stall::Barrier:
    return "barrier";
  case Stall::Dependency:
    return "dependency";
  case Stall::NoWave:
    return "no_wave";
  case Stall::Count:
    break;
  }
  return "?";
}

uint64_t LoopBreakdown::total() const {
  uint64_t sum = 0;
  for (uint64_t c : cycles)
    sum += c;
  return sum;
}

Stall LoopBreakdown::largestStall() const {
  // A loop whose every cycle kept the matrix pipe busy has no stall: its
  // bound is the pipe.
  Stall best = Stall::Mfma;
  uint64_t most = 0;
  for (unsigned i = 0; i < unsigned(Stall::Count); ++i)
    if (Stall(i) != Stall::Mfma && cycles[i] > most) {
      best = Stall(i);
      most = cycles[i];
    }
  return best;
}

namespace {
/// The default sample: XCD 0's first `warmWaves` full dispatch waves and
/// its partial last one, in one simulation where each freed slot takes the
/// next workgroup. The full waves after the warm ones are not simulated.
struct SamplePlan {
  std::vector<uint64_t> ids;
  uint64_t perXcd = 0, capacity = 0, fullWaves = 0, warmWaves = 0, tail = 0;
  uint64_t skippedWaves() const { return fullWaves - warmWaves; }
};
} // namespace

/// Full dispatch waves simulated before the rest are extrapolated. The
/// first wave starts in lockstep, every CU at once, so it samples no
/// steady state: workgroups that compete for the same pipes start in phase,
/// and in causal attention their lengths differ. Refilled one slot at a
/// time, later waves run out of phase. The last simulated wave drains (no
/// workgroup refills the slots its workgroups free), which a long grid's
/// middle waves never do. So the second wave, refilled on both sides,
/// stands for every wave not simulated; the third is simulated as the
/// launch's last full wave.
static constexpr uint64_t kWarmWaves = 3;
static_assert(kWarmWaves >= 2, "the second wave samples the steady state");

static SamplePlan planSample(const DeviceModel &device,
                             const LaunchShape &shape,
                             const Occupancy &occupancy) {
  SamplePlan plan;
  // Workgroup i goes to XCD i mod 8: XCD 0 gets the most.
  plan.perXcd = (shape.workgroups + device.xcds - 1) / device.xcds;
  plan.capacity = uint64_t(device.cusPerXcd) * occupancy.workgroupsPerCu;
  if (plan.capacity == 0)
    return plan;
  plan.fullWaves = plan.perXcd / plan.capacity;
  plan.tail = plan.perXcd % plan.capacity;
  plan.warmWaves = std::min(plan.fullWaves, kWarmWaves);
  for (uint64_t k = 0; k < plan.warmWaves * plan.capacity; ++k)
    plan.ids.push_back(k * device.xcds);
  for (uint64_t k = plan.perXcd - plan.tail; k < plan.perXcd; ++k)
    plan.ids.push_back(k * device.xcds);
  return plan;
}

std::vector<uint64_t> hk::timing::defaultSample(const DeviceModel &device,
                                                const LaunchShape &shape) {
  return planSample(device, shape, computeOccupancy(device, shape)).ids;
}

/// The mean cycles a workgroup of the second dispatch wave held its slot.
/// Those workgroups started in slots freed one at a time and ran beside
/// others for most of their time, so their mean is the pace of a refilled
/// slot: a full wave in the steady state takes that long (each slot runs
/// one workgroup of the wave after another).
static uint64_t steadyWaveCycles(const SampleResult &sample,
                                 const SamplePlan &plan) {
  double sum = 0;
  for (uint64_t k = plan.capacity; k < 2 * plan.capacity; ++k)
    sum += double(sample.residency[k]);
  return uint64_t(std::llround(sum / double(plan.capacity)));
}

static std::string listIds(llvm::ArrayRef<uint64_t> ids) {
  if (ids.size() <= 4)
    return "ids " +
           llvm::join(llvm::map_range(
                          ids, [](uint64_t id) { return std::to_string(id); }),
                      ", ");
  return "ids " + std::to_string(ids[0]) + ", " + std::to_string(ids[1]) +
         ", ..., " + std::to_string(ids.back());
}

static llvm::StringRef peakKindOf(const MfmaInstr &instr, unsigned formats) {
  if (instr.a != MfmaElement::F8F6F4)
    return stringifyMfmaElement(instr.a);
  unsigned cbsz = formats >> 8, blgp = formats & 0xff;
  return cbsz >= 2 && blgp >= 2 ? "fp6/fp4" : "fp8";
}

/// How far below the peak the sustained clock of a first simulation must
/// fall for the sample to run again at it: below that the memory side's
/// rates in engine cycles would change by less than 2%.
static constexpr double kSecondPassDrop = 0.02;

/// One simulation of the sample with the engine clock at `engineClockMHz`
/// (0: the peak) and its extrapolation to the launch.
static llvm::Expected<Prediction>
simulateAt(const DeviceModel &device, const LaunchShape &shape,
           ExecutionCore &core, const SampleRequest &request,
           const Occupancy &occupancy, const LoopTable &loops,
           double engineClockMHz) {
  Prediction p;
  p.device = device.name.str();
  p.chip = device.chipName.str();
  p.wavesPerSimd = occupancy.wavesPerSimdPlaced;
  p.workgroupsPerCu = occupancy.workgroupsPerCu;
  p.occupancyLimit = occupancy.limit;
  p.memoryClockMHz = engineClockMHz > 0 ? engineClockMHz : device.clockMHz;
  std::optional<SamplePlan> plan;
  if (request.workgroups.empty())
    plan = planSample(device, shape, occupancy);
  llvm::ArrayRef<uint64_t> ids = plan ? plan->ids : request.workgroups;
  auto simulated =
      simulateSample(device, core, occupancy, loops, ids, engineClockMHz);
  if (!simulated)
    return simulated.takeError();
  const SampleResult &sample = *simulated;
  p.loops = sample.loops;
  uint64_t sampled = ids.size();
  uint64_t cycles = sample.flushEnd;
  if (plan) {
    std::string waves =
        plan->perXcd <= plan->capacity ? "only dispatch wave"
        : plan->skippedWaves() == 0
            ? "dispatch waves, all of them"
            : "first " + std::to_string(plan->warmWaves) + " dispatch waves" +
                  (plan->tail ? " and its last, partial one" : "");
    p.sample = "XCD 0's " + waves + ": " + std::to_string(sampled) +
               " of its " + std::to_string(plan->perXcd) + " workgroups (" +
               listIds(ids) + ") on " +
               std::to_string(std::min<uint64_t>(sampled, device.cusPerXcd)) +
               " of its " + std::to_string(device.cusPerXcd) + " CUs";
    if (sampled > plan->capacity)
      p.sample += ", " + std::to_string(plan->capacity) +
                  " at once, each later one started in the slot the next "
                  "workgroup to end frees";
    double hbm = sample.hbmBytes;
    if (plan->skippedWaves()) {
      // Each full wave not simulated lasts as long as a second-wave
      // workgroup holds its slot, on average. And at least as long as the
      // XCD's share of HBM bandwidth takes for a wave's traffic: reads and
      // the write-back of its stores (which stay in L2 as dirty lines until
      // evicted).
      uint64_t perWave = steadyWaveCycles(sample, *plan);
      double hbmPerWave =
          sample.hbmBytes * double(plan->capacity) / double(sampled);
      uint64_t hbmCycles = uint64_t(std::ceil(
          hbmPerWave / device.hbmBytesPerCyclePerXcd(engineClockMHz)));
      cycles += plan->skippedWaves() * std::max(perWave, hbmCycles);
      hbm += double(plan->skippedWaves()) * hbmPerWave;
      p.extrapolation =
          "the " + std::to_string(shape.workgroups) + "-workgroup grid puts " +
          std::to_string(plan->perXcd) +
          " workgroups on each XCD: " + std::to_string(plan->fullWaves) +
          " full dispatch waves of " + std::to_string(plan->capacity) +
          (plan->tail ? " and a partial one" : "") + "; the " +
          std::to_string(plan->skippedWaves()) +
          " not simulated are timed as the second, " + std::to_string(perWave) +
          " cycles (the mean time its workgroups held their slots), every "
          "XCD in parallel; the time ends with the L2 write-back of the "
          "kernel's release";
      if (hbmCycles > perWave)
        p.extrapolation += "; each of those waves is bound by HBM: its "
                           "traffic (reads and the write-back of its "
                           "stores) takes " +
                           std::to_string(hbmCycles) + " cycles";
    } else if (plan->perXcd <= plan->capacity) {
      p.extrapolation =
          "none: XCD 0 runs all its workgroups in one dispatch wave, and "
          "each other XCD at most as many, at the same time; the time "
          "ends with the L2 write-back of the kernel's release";
    } else {
      p.extrapolation =
          "none: XCD 0's workgroups were all simulated, each other XCD "
          "runs at most as many at the same time; the time ends with the "
          "L2 write-back of the kernel's release";
    }
    // Flops and bytes per workgroup of the sample, over the whole grid;
    // HBM traffic per XCD, over the eight.
    double perWorkgroup = sampled ? 1.0 / double(sampled) : 0;
    p.flops = sample.flops * perWorkgroup * double(shape.workgroups);
    p.bytes = sample.globalBytes * perWorkgroup * double(shape.workgroups);
    p.hbmBytes = hbm * device.xcds;
  } else {
    p.flops = sample.flops;
    p.bytes = sample.globalBytes;
    p.hbmBytes = sample.hbmBytes;
    p.sample = "the " + std::to_string(sampled) + " selected workgroups (" +
               listIds(ids) + ") placed on one XCD";
    p.extrapolation = "none: the time of the selected workgroups alone";
  }
  p.sampledWorkgroups = sampled;
  p.peakGbps = device.hbmTBps * 1e3;
  p.l2HitRate =
      sample.l2Reads ? double(sample.l2Hits) / double(sample.l2Reads) : 0;
  p.cycles = cycles;
  if (sample.mainMfma) {
    unsigned formats = sample.mainMfmaFormats;
    p.peakTflops =
        device.peakFlops(*sample.mainMfma, formats >> 8, formats & 0xff) / 1e12;
    p.peakKind = peakKindOf(*sample.mainMfma, formats).str();
  }
  // The cycles are the device's; the clock they run at follows the load.
  p.peakClockMHz = device.clockMHz;
  double atPeakClock = double(cycles) / device.clockHz();
  if (atPeakClock > 0 && p.peakTflops > 0)
    p.matrixUtilization =
        std::min(1.0, p.flops / atPeakClock / 1e12 / p.peakTflops);
  if (request.clockMHz > 0) {
    p.clockMHz = request.clockMHz;
    p.clockBasis = "given";
  } else {
    p.clockMHz = device.sustainedClockMHz(p.peakKind, p.matrixUtilization);
    p.clockBasis = p.matrixUtilization > 0
                       ? "sustained under the matrix pipes' load"
                       : "peak: the matrix pipes idle";
  }
  p.seconds = double(cycles) / (p.clockMHz * 1e6);
  if (p.seconds > 0) {
    p.tflops = p.flops / p.seconds / 1e12;
    p.gbps = p.bytes / p.seconds / 1e9;
  }
  // Loops the sample never ran stay out of the report.
  llvm::erase_if(p.loops, [](const LoopBreakdown &l) { return !l.total(); });
  return p;
}

llvm::Expected<Prediction> hk::timing::predict(const DeviceModel &device,
                                               const LaunchShape &shape,
                                               ExecutionCore &core,
                                               const SampleRequest &request) {
  auto started = std::chrono::steady_clock::now();
  Occupancy occupancy = computeOccupancy(device, shape);
  if (occupancy.workgroupsPerCu == 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "a workgroup of " + llvm::Twine(shape.wavesPerWorkgroup) +
            " waves with " + llvm::Twine(shape.vgprs) + " VGPRs, " +
            llvm::Twine(shape.sgprs) + " SGPRs and " +
            llvm::Twine(shape.ldsBytes) + " bytes of LDS does not fit on a " +
            device.name + " compute unit");
  if (request.clockMHz > device.clockMHz)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "a clock of " + llvm::Twine(unsigned(request.clockMHz)) +
            " MHz is above " + device.name + "'s peak engine clock of " +
            llvm::Twine(device.clockMHz) + " MHz");
  LoopTable loops(shape.program);
  // The memory side beyond L2 keeps its own clocks, so the cycles depend on
  // the engine clock, and the sustained engine clock on the cycles. Given a
  // clock, one simulation at it. Otherwise the first simulation runs at the
  // peak clock; when the load it finds lowers the clock by more than
  // kSecondPassDrop, the sample runs again from the same start at that
  // clock, and that run is the prediction.
  auto p = simulateAt(device, shape, core, request, occupancy, loops,
                      request.clockMHz);
  if (!p)
    return p.takeError();
  if (request.clockMHz > 0) {
    p->memoryClockBasis = "the given clock";
  } else if (p->clockMHz >= device.clockMHz * (1 - kSecondPassDrop)) {
    p->memoryClockBasis = "the peak: the load keeps the clock within 2% of it";
  } else if (!core.rewind()) {
    p->memoryClockBasis =
        "the peak: the functional core cannot run the sample again";
  } else {
    double first = p->clockMHz;
    p = simulateAt(device, shape, core, request, occupancy, loops, first);
    if (!p)
      return p.takeError();
    p->simulations = 2;
    p->memoryClockBasis =
        "the clock a first simulation, at the peak, found the load sustains";
  }
  p->modelSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  return p;
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

static std::string hexPc(uint64_t pc) {
  return llvm::utohexstr(pc, /*LowerCase=*/true);
}

static std::string loopName(const LoopBreakdown &l) {
  if (l.outsideLoops)
    return "outside loops";
  return "loop 0x" + hexPc(l.startPc) + "-0x" + hexPc(l.endPc);
}

llvm::json::Object Prediction::toJson() const {
  uint64_t all = 0;
  for (const LoopBreakdown &l : loops)
    all += l.total();
  llvm::json::Array loopJson;
  for (const LoopBreakdown &l : loops) {
    llvm::json::Object breakdown;
    for (unsigned i = 0; i < unsigned(Stall::Count); ++i)
      breakdown[stringifyStall(Stall(i))] = l.cycles[i];
    llvm::json::Object entry{
        {"name", loopName(l)},
        {"simd_cycles", l.total()},
        {"fraction", all ? double(l.total()) / double(all) : 0.0},
        {"breakdown", std::move(breakdown)},
        {"largest_stall", stringifyStall(l.largestStall())}};
    if (!l.outsideLoops) {
      entry["start_pc"] = "0x" + hexPc(l.startPc);
      entry["end_pc"] = "0x" + hexPc(l.endPc);
    }
    loopJson.push_back(std::move(entry));
  }
  return llvm::json::Object{
      {"device", device},
      {"chip", chip},
      {"seconds", seconds},
      {"cycles", cycles},
      {"clock_mhz", clockMHz},
      {"peak_clock_mhz", peakClockMHz},
      {"clock_basis", clockBasis},
      {"memory_clock_mhz", memoryClockMHz},
      {"memory_clock_basis", memoryClockBasis},
      {"simulations", simulations},
      {"matrix_utilization", matrixUtilization},
      {"flops", flops},
      {"bytes", bytes},
      {"tflops", tflops},
      {"gbps", gbps},
      {"peak_tflops", peakTflops},
      {"peak_kind", peakKind},
      {"percent_of_peak", peakTflops > 0 ? 100 * tflops / peakTflops : 0.0},
      {"hbm_bytes", hbmBytes},
      {"peak_gbps", peakGbps},
      {"l2_hit_rate", l2HitRate},
      {"sample", llvm::json::Object{{"description", sample},
                                    {"workgroups", sampledWorkgroups},
                                    {"waves_per_simd", wavesPerSimd},
                                    {"workgroups_per_cu", workgroupsPerCu},
                                    {"occupancy_limit", occupancyLimit}}},
      {"extrapolation", extrapolation},
      {"loops", std::move(loopJson)},
      {"model_seconds", modelSeconds},
      {"note", "a prediction of the timing model, not a measurement"}};
}

void Prediction::print(llvm::raw_ostream &os) const {
  const DeviceModel *d = DeviceModel::lookup(device);
  os << "timing (predicted by the model, not measured) on " << device << " ("
     << chip;
  if (d)
    os << ", " << d->computeUnits() << " CUs";
  os << "):\n";
  os << "  clock " << llvm::format("%.0f", clockMHz) << " MHz of "
     << llvm::format("%.0f", peakClockMHz) << " peak (" << clockBasis;
  if (matrixUtilization > 0)
    os << ", matrix pipes " << llvm::format("%.1f", 100 * matrixUtilization)
       << "% busy";
  os << ")\n";
  os << "  time " << llvm::format("%.4g", seconds * 1e3) << " ms (" << cycles
     << " cycles), " << llvm::format("%.1f", tflops) << " TFLOP/s";
  if (peakTflops > 0)
    os << " (" << llvm::format("%.1f", 100 * tflops / peakTflops) << "% of the "
       << llvm::format("%.0f", peakTflops) << " TFLOP/s " << peakKind
       << " peak)";
  os << ", " << llvm::format("%.1f", gbps) << " GB/s, HBM traffic "
     << llvm::format("%.4g", hbmBytes / 1e6) << " MB, L2 hit rate "
     << llvm::format("%.1f", 100 * l2HitRate) << "%\n";
  os << "  memory beyond L2 (own clocks) in cycles of "
     << llvm::format("%.0f", memoryClockMHz) << " MHz, " << memoryClockBasis
     << "\n";
  os << "  occupancy: " << wavesPerSimd << " wave(s) per SIMD, "
     << workgroupsPerCu << " workgroup(s) per CU (limited by " << occupancyLimit
     << ")\n";
  os << "  sample: " << sample << "\n";
  os << "  extrapolation: " << extrapolation << "\n";
  uint64_t all = 0;
  for (const LoopBreakdown &l : loops)
    all += l.total();
  os << "  where the sampled SIMDs' cycles went:\n";
  for (const LoopBreakdown &l : loops) {
    uint64_t total = l.total();
    os << "    " << loopName(l) << ": "
       << llvm::format("%.1f", all ? 100.0 * total / all : 0.0)
       << "% of the cycles:";
    for (unsigned i = 0; i < unsigned(Stall::Count); ++i)
      if (l.cycles[i])
        os << " " << stringifyStall(Stall(i)) << " "
           << llvm::format("%.1f", 100.0 * l.cycles[i] / total) << "%";
    os << "\n";
  }
  os << "  model time on the host: " << llvm::format("%.2f", modelSeconds)
     << " s\n";
}
