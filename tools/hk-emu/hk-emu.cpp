//===- hk-emu.cpp - Run a code object on the CPU -------------------------===//
//
//   hk-emu kernel.hsaco --kernel=gemm --grid=4,4 --block=256 \
//       --arg=buf:a.npy --arg=buf:b.npy --arg=out:f32:4096:c.npy --arg=i32:64
//
// Each --arg fills the next explicit kernel argument (the syntax is
// hk/Emulator/KernelArgs.h's: buffers from files, zero-filled output
// buffers, scalars, by-value structs built from fields or read from a
// file); --kernargs gives the whole explicit kernarg segment instead.
//
// Prints the outputs, sanitizer reports and counters (or one JSON object
// with --json). Exit status: 0 clean run, 2 when a sanitizer reported
// something, 1 on any error (one line on stderr).
//
//===----------------------------------------------------------------------===//

#include "hk/Emulator/Device.h"
#include "hk/Emulator/KernelArgs.h"
#include "hk/Emulator/Npy.h"
#include "hk/Runtime/CodeObject.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace hk;
using namespace hk::emu;

static cl::OptionCategory category("hk-emu options");
static cl::opt<std::string> input(cl::Positional, cl::Required,
                                  cl::desc("<code object>"), cl::cat(category));
static cl::opt<std::string> kernelName("kernel",
                                       cl::desc("Kernel to run (default: the "
                                                "only kernel)"),
                                       cl::cat(category));
static cl::opt<std::string> gridOpt("grid", cl::desc("Workgroups: X[,Y[,Z]]"),
                                    cl::init("1"), cl::cat(category));
static cl::opt<std::string> blockOpt("block",
                                     cl::desc("Work-items per workgroup: "
                                              "X[,Y[,Z]]"),
                                     cl::init("64"), cl::cat(category));
static cl::list<std::string> args(
    "arg",
    cl::desc("Next kernel argument: buf:FILE[:OUT], out:TYPE:COUNT[:OUT], "
             "TYPE:VALUE, struct:OFFSET=SPEC,..., raw:FILE[,OFFSET=SPEC...]"),
    cl::cat(category));
static cl::opt<std::string> kernargFile(
    "kernargs",
    cl::desc("All explicit kernel arguments from a file, with buffers or "
             "values laid over it: FILE[,OFFSET=SPEC...]"),
    cl::cat(category));
static cl::opt<unsigned> dynamicLds("dynamic-lds",
                                    cl::desc("Bytes of dynamic LDS"),
                                    cl::init(0), cl::cat(category));
static cl::opt<std::string>
    workgroups("workgroups",
               cl::desc("Run only these linear workgroup ids (1,5,9); with "
                        "--timing, 'sample' runs only the workgroups the "
                        "model simulates"),
               cl::cat(category));
static cl::opt<unsigned> threads("host-threads",
                                 cl::desc("Host threads (0: one per core)"),
                                 cl::init(0), cl::cat(category));
static cl::opt<std::string>
    sanitize("sanitize",
             cl::desc("Sanitizers: all, none, or a list of bounds, waitcnt, "
                      "race, barrier, tiles, global-race"),
             cl::init("all"), cl::cat(category));
static cl::opt<uint64_t> watchdog("watchdog",
                                  cl::desc("Wave-instructions per workgroup "
                                           "before the run is called a hang"),
                                  cl::init(200'000'000), cl::cat(category));
static cl::opt<bool> asJson("json", cl::desc("Print one JSON object"),
                            cl::cat(category));
static cl::opt<bool> trace("trace",
                           cl::desc("Print each instruction wave 0 of the "
                                    "first workgroup executes (stderr)"),
                           cl::cat(category));
static cl::opt<bool> listUnsupported(
    "list-unsupported",
    cl::desc("List the code object's instructions the emulator cannot "
             "execute and exit"),
    cl::cat(category));
static cl::opt<unsigned> stackSize(
    "stack-size",
    cl::desc("Stack bytes per work-item for kernels with a dynamic stack "
             "(default 1024, the HIP runtime's)"),
    cl::init(kDefaultStackBytes), cl::cat(category));
static cl::opt<unsigned>
    launches("launches",
             cl::desc("Launch the kernel this many times in a row on the "
                      "same buffers (device globals keep their values)"),
             cl::init(1), cl::cat(category));
static cl::list<std::string>
    globals("global",
            cl::desc("Print a device global after the run: NAME:TYPE[:FILE] "
                     "(and write it to FILE)"),
            cl::cat(category));
static cl::opt<bool>
    timingOpt("timing",
              cl::desc("Predict the launch's time on a device with the "
                       "timing model (a prediction, not a measurement)"),
              cl::cat(category));
static cl::opt<std::string>
    deviceOpt("device",
              cl::desc("Device the timing model predicts for: mi300x, "
                       "mi325x (gfx942), mi350x, mi355x (gfx950); default "
                       "mi300x or mi355x"),
              cl::cat(category));
static cl::opt<unsigned>
    clockOpt("clock",
             cl::desc("Engine clock in MHz the timing model runs the device "
                      "at, as under a frequency cap (default: the sustained "
                      "clock it predicts for the launch's load)"),
             cl::value_desc("MHz"), cl::cat(category));
static cl::opt<unsigned> printCount("print",
                                    cl::desc("Output elements printed"),
                                    cl::init(8), cl::cat(category));

[[noreturn]] static void fail(const Twine &message) {
  errs() << "hk-emu: error: " << message << "\n";
  exit(1);
}

template <typename T> static T check(Expected<T> value) {
  if (!value)
    fail(toString(value.takeError()));
  return std::move(*value);
}

static Dim3 parseDim(StringRef text, StringRef what) {
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    fail("--" + what + " expects X[,Y[,Z]], got '" + text + "'");
  uint32_t dims[3] = {1, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(10, dims[i]) || dims[i] == 0)
      fail("--" + what + " expects positive integers, got '" + text + "'");
  return {dims[0], dims[1], dims[2]};
}

static std::string readFileOrFail(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer)
    fail("cannot read '" + path + "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "hk-emu: run an AMDHSA code object (gfx942, "
                              "gfx950) on the CPU\n");

  std::string bytes = readFileOrFail(input);
  CodeObject object = check(CodeObject::parse(bytes));
  const ChipInfo &chip = object.getChip();
  Device device(chip);
  std::unique_ptr<Module> module = check(device.loadModule(bytes));

  if (listUnsupported) {
    auto unsupported = module->unsupportedInstructions();
    for (const auto &[pc, text] : unsupported)
      outs() << format_hex(pc, 10) << "  " << text << "\n";
    outs() << unsupported.size() << " unsupported instruction kind(s)\n";
    return 0;
  }

  const KernelInfo *kernel = nullptr;
  if (kernelName.empty()) {
    if (object.getKernels().size() != 1)
      fail("the code object has " + Twine(object.getKernels().size()) +
           " kernels; choose one with --kernel");
    kernel = &object.getKernels().front();
  } else {
    kernel = module->findKernel(kernelName);
    if (!kernel)
      fail("no kernel '" + kernelName + "' in '" + input + "'");
  }

  Dim3 grid = parseDim(gridOpt, "grid");
  Dim3 block = parseDim(blockOpt, "block");

  if (!kernargFile.empty() && !args.empty())
    fail("--kernargs gives every explicit argument; it takes no --arg");
  StagedArgs staged = check(
      kernargFile.empty() ? stageArguments(device, *kernel, args)
                          : stageKernargFile(device, *kernel, kernargFile));

  LaunchOptions options;
  options.dynamicLdsBytes = dynamicLds;
  options.threads = threads;
  options.watchdogInstructions = watchdog;
  options.trace = trace;
  options.stackBytes = stackSize;
  if (sanitize == "none") {
    options.sanitizers = SanitizerOptions::none();
  } else if (sanitize != "all") {
    options.sanitizers = SanitizerOptions::none();
    SmallVector<StringRef> names;
    StringRef(sanitize).split(names, ',');
    for (StringRef name : names) {
      if (name == "bounds")
        options.sanitizers.memoryBounds = true;
      else if (name == "waitcnt")
        options.sanitizers.waitcnt = true;
      else if (name == "race")
        options.sanitizers.ldsRace = true;
      else if (name == "barrier")
        options.sanitizers.barrier = true;
      else if (name == "tiles")
        options.sanitizers.tileBounds = true;
      else if (name == "global-race")
        options.sanitizers.globalRace = true;
      else
        fail("--sanitize: unknown sanitizer '" + name +
             "' (expected all, none, bounds, waitcnt, race, barrier, tiles, "
             "global-race)");
    }
  }
  Expected<std::optional<TimingRequest>> timingRequest = makeTimingRequest(
      timingOpt, deviceOpt,
      clockOpt.getNumOccurrences() ? std::optional<unsigned>(clockOpt)
                                   : std::nullopt);
  if (!timingRequest)
    fail(toString(timingRequest.takeError()));
  if (workgroups == "sample" && !timingOpt)
    fail("--workgroups=sample runs the timing model's sample; it needs "
         "--timing");
  if (std::optional<TimingRequest> request = *timingRequest) {
    if (request->device && request->device->chipName != chip.name)
      fail("--device=" + deviceOpt + " is a " + request->device->chipName +
           " device; the code object is for " + chip.name);
    request->sampleOnly = workgroups == "sample";
    options.timing = *request;
  }
  if (!workgroups.empty() && workgroups != "sample") {
    SmallVector<StringRef> ids;
    StringRef(workgroups).split(ids, ',');
    for (StringRef id : ids) {
      uint64_t n;
      if (id.trim().getAsInteger(10, n))
        fail("--workgroups expects a list of integers, got '" + workgroups +
             "'");
      options.onlyWorkgroups.push_back(n);
    }
  }

  if (launches == 0)
    fail("--launches expects a positive count");
  LaunchResult result = check(device.launch(*module, kernel->name, grid, block,
                                            staged.kernargs, options));
  for (unsigned i = 1; i < launches; ++i) {
    LaunchResult next = check(device.launch(*module, kernel->name, grid, block,
                                            staged.kernargs, options));
    result.counters.merge(next.counters);
    result.seconds += next.seconds;
    result.workgroupsRun += next.workgroupsRun;
    result.totalReports += next.totalReports;
    for (SanitizerReport &r : next.reports)
      if (result.reports.size() < options.maxReports)
        result.reports.push_back(std::move(r));
  }

  std::vector<StagedOutput> outputs = std::move(staged.outputs);
  for (StringRef spec : globals) {
    SmallVector<StringRef> parts;
    spec.split(parts, ':', 2);
    if (parts.size() < 2 || elementSizeOf(parts[1]) == 0)
      fail("--global=" + spec +
           ": expected NAME:TYPE[:FILE] with TYPE one of " + kElementTypeNames);
    auto [ptr, bytes] = check(device.getGlobal(*module, parts[0]));
    StagedOutput out;
    out.label = ("global " + parts[0]).str();
    out.type = parts[1].str();
    out.address = ptr;
    out.bytes = bytes;
    out.path = parts.size() > 2 ? parts[2].str() : "";
    out.print = true;
    outputs.push_back(std::move(out));
  }

  json::Array outputJson;
  std::string text;
  raw_string_ostream os(text);
  os << "kernel '" << kernel->name << "' on " << chip.name << ": grid "
     << grid.x << "x" << grid.y << "x" << grid.z << ", block " << block.x << "x"
     << block.y << "x" << block.z << ", " << result.workgroupsRun
     << " workgroup(s) in " << format("%.3f", result.seconds) << " s\n";
  for (const StagedOutput &out : outputs) {
    std::vector<uint8_t> host = check(readOutput(device, out));
    unsigned size = elementSizeOf(out.type);
    uint64_t count = out.bytes / size;
    json::Array values;
    if (out.print)
      os << out.label << ": " << out.type << "[" << count << "] =";
    for (uint64_t i = 0; i < std::min<uint64_t>(count, printCount); ++i) {
      std::string v = formatElement(out.type, host.data() + i * size, chip);
      if (out.print)
        os << " " << v;
      values.push_back(v);
    }
    if (out.print)
      os << (count > printCount ? " ...\n" : "\n");
    json::Object entry{{"label", out.label},
                       {"type", out.type},
                       {"count", count},
                       {"path", out.path},
                       {"first", std::move(values)}};
    if (StringRef(out.label).starts_with("arg "))
      entry["arg"] = out.argIndex;
    if (out.fieldOffset >= 0)
      entry["offset"] = out.fieldOffset;
    outputJson.push_back(std::move(entry));
  }
  json::Array reportJson;
  for (const SanitizerReport &r : result.reports) {
    os << r.message << "\n";
    reportJson.push_back(json::Object{{"kind", stringifyReportKind(r.kind)},
                                      {"pc", r.pc},
                                      {"workgroup", r.workgroup},
                                      {"wave", r.wave},
                                      {"lane", r.lane},
                                      {"address", r.address},
                                      {"message", r.message}});
  }
  if (result.totalReports)
    os << "sanitizers: " << result.totalReports << " finding(s)"
       << (result.totalReports > result.reports.size()
               ? " (one report per instruction and kind shown)"
               : "")
       << "\n";
  else
    os << "sanitizers: clean\n";
  result.counters.print(os);
  if (result.timing)
    result.timing->print(os);

  if (asJson) {
    json::Object root{{"kernel", kernel->name},
                      {"chip", chip.name},
                      {"grid", json::Array{grid.x, grid.y, grid.z}},
                      {"block", json::Array{block.x, block.y, block.z}},
                      {"workgroups_run", result.workgroupsRun},
                      {"seconds", result.seconds},
                      {"outputs", std::move(outputJson)},
                      {"reports", std::move(reportJson)},
                      {"total_reports", result.totalReports},
                      {"counters", result.counters.toJson()}};
    if (result.timing)
      root["timing"] = result.timing->toJson();
    outs() << formatv("{0:2}", json::Value(std::move(root))) << "\n";
  } else {
    outs() << text;
  }
  return result.totalReports ? 2 : 0;
}
