//===- hk-run.cpp - Compile an example, run it in hk-emu, check it --------===//
//
//   hk-run examples/gemm/gemm_abt_bf16.mlir [--chip=gfx950] [--json]
//
// For each chip: compiles the example in process, then runs every case its
// `// HK-RUN:` lines describe in the emulator with sanitizers on, on seeded
// random inputs, and compares the result with a CPU reference under a
// stated per-dtype bound. Prints the error figures, the counters and the
// code object's registers, LDS and spills. Exit code 0 only when every case
// is within bound, the sanitizers stayed quiet and nothing spilled; 2 when
// a sanitizer reported (as hk-emu), 1 for any other failure.
// --save-hsaco=DIR keeps each chip's code object in an existing directory;
// --pad=N runs the GEMMs on matrices whose rows are N elements longer than
// their columns.
//
// With --arg, hk-run runs a kernel of one's own instead, on the arguments
// given, against one's own reference (see UserKernel.h).
//
//===----------------------------------------------------------------------===//

#include "ScriptWorkload.h"
#include "UserKernel.h"

#include "hk/Compiler/Compiler.h"
#include "hk/Emulator/Device.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;
using namespace hk;

static cl::OptionCategory category("hk-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<example .mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    chipOption("chip", cl::desc("gfx942, gfx950 or all (default)"),
               cl::init("all"), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                              cl::init(1), cl::cat(category));
static cl::opt<std::string>
    shapesOption("shapes",
                 cl::desc("Cases to run instead of the example's, e.g. "
                          "256x256x64,100x70x30"),
                 cl::cat(category));
static cl::opt<std::string> kernelOption("kernel", cl::desc("Only this kernel"),
                                         cl::cat(category));
static cl::opt<unsigned>
    padOption("pad",
              cl::desc("GEMM cases: add N elements to every row stride; the "
                       "kernel must leave them unused and unwritten"),
              cl::value_desc("N"), cl::init(0), cl::cat(category));
static cl::opt<bool> noSanitizers("no-sanitizers",
                                  cl::desc("Run without the sanitizers"),
                                  cl::cat(category));
// The pipeline's options, from the list --hk-pipeline and Python share.
static cl::OptionCategory
    compileCategory("hk-run compile options (those of hk-opt --hk-pipeline)");
#define HK_COMPILE_OPTION(NAME, ARG, TYPE, INIT, DESC, EXTRA)                  \
  static cl::opt<TYPE> NAME##Flag(ARG, cl::desc(DESC), cl::init(INIT),         \
                                  cl::cat(compileCategory), EXTRA);
#include "hk/Pipelines/CompileOptions.def"

static cl::opt<bool> allowSpills("allow-spills",
                                 cl::desc("Do not fail kernels that spill"),
                                 cl::cat(category));
static cl::opt<unsigned> threads("host-threads",
                                 cl::desc("Host threads (0: one per core)"),
                                 cl::init(0), cl::cat(category));
static cl::opt<bool> asJson("json", cl::desc("Print JSON"), cl::cat(category));
static cl::opt<bool>
    timingFlag("timing",
               cl::desc("Predict each case's time on a device with the "
                        "timing model (a prediction, not a measurement)"),
               cl::cat(category));
static cl::opt<std::string>
    deviceOption("device",
                 cl::desc("Device the timing model predicts for: mi300x, "
                          "mi325x (gfx942), mi350x, mi355x (gfx950); "
                          "default mi300x or mi355x per chip; runs only "
                          "its chip"),
                 cl::cat(category));
static cl::opt<unsigned>
    clockOpt("clock",
             cl::desc("Engine clock in MHz the timing model runs the device "
                      "at, as under a frequency cap (default: the sustained "
                      "clock it predicts for the launch's load)"),
             cl::value_desc("MHz"), cl::cat(category));
static cl::opt<bool>
    compileOnly("compile-only",
                cl::desc("Only compile, printing the time from source to "
                         "code object (the minimum over --repeat runs)"),
                cl::cat(category));
static cl::opt<std::string>
    saveHsaco("save-hsaco",
              cl::desc("Write each chip's code object to "
                       "DIR/<example>.<chip>.hsaco (DIR must exist)"),
              cl::value_desc("DIR"), cl::cat(category));
static cl::opt<unsigned> repeat("repeat",
                                cl::desc("Compilations per chip with "
                                         "--compile-only"),
                                cl::init(1), cl::cat(category));

static cl::OptionCategory
    userCategory("hk-run options for a kernel of one's own (with --kernel)");
static cl::list<std::string>
    argList("arg",
            cl::desc("A kernel argument: NAME=FILE.npy, NAME=random:SHAPE, "
                     "NAME=zeros:SHAPE, NAME=out:SHAPE (an output to write "
                     "whole) or NAME=NUMBER"),
            cl::value_desc("NAME=VALUE"), cl::cat(userCategory));
static cl::list<std::string>
    outputList("output",
               cl::desc("A view argument with data the kernel updates in "
                        "place (checked against the reference too)"),
               cl::value_desc("NAME"), cl::cat(userCategory));
static cl::list<std::string>
    expectList("expect",
               cl::desc("Expected values of an output, from a .npy file"),
               cl::value_desc("NAME=FILE.npy"), cl::cat(userCategory));
static cl::opt<std::string> referenceOption(
    "reference",
    cl::desc("Python function computing the outputs from the arguments' "
             "values (default FUNCTION: reference)"),
    cl::value_desc("FILE.py[:FUNCTION]"), cl::cat(userCategory));
static cl::opt<std::string>
    gridOption("grid",
               cl::desc("Blocks to launch (default: the grid the kernel's "
                        "output stores need)"),
               cl::value_desc("X[,Y[,Z]]"), cl::cat(userCategory));
static cl::opt<double>
    rtolOption("rtol",
               cl::desc("Relative bound: |got - ref| <= atol + rtol*|ref| "
                        "(default: two roundings of the output type)"),
               cl::cat(userCategory));
static cl::opt<double> atolOption("atol",
                                  cl::desc("Absolute bound (default 0)"),
                                  cl::cat(userCategory));

static int fail(const Twine &message) {
  WithColor::error(errs(), "hk-run") << message << "\n";
  return 1;
}

/// Writes `hsaco` to `dir`/<stem of example>.<chip>.hsaco.
static Error writeHsaco(StringRef dir, StringRef example, const ChipInfo &chip,
                        StringRef hsaco) {
  SmallString<128> path(dir);
  sys::path::append(path,
                    sys::path::stem(example) + "." + chip.name + ".hsaco");
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (!ec) {
    os << hsaco;
    os.close();
    ec = os.error();
  }
  if (ec)
    return createStringError(ec,
                             "cannot write '" + path + "': " + ec.message());
  return Error::success();
}

static std::vector<const ChipInfo *> selectChips(const run::RunSpec &spec,
                                                 StringRef chipName) {
  std::vector<const ChipInfo *> chips;
  for (const ChipInfo &chip : ChipInfo::all()) {
    if (chipName != "all" && chip.name != chipName)
      continue;
    if (!spec.chips.empty() && !llvm::is_contained(spec.chips, chip.name))
      continue;
    chips.push_back(&chip);
  }
  return chips;
}

static void printCounters(raw_ostream &os, const emu::KernelCounters &c,
                          double seconds) {
  os << "    emulated " << c.waveInstructions << " wave-instructions in "
     << format("%.2f", seconds) << " s:";
  for (size_t i = 0; i < size_t(emu::InstrClass::Count); ++i)
    if (c.mix[i])
      os << " " << emu::stringifyInstrClass(emu::InstrClass(i)) << " "
         << c.mix[i];
  os << "\n    MFMA " << c.mfmaCount << " ("
     << format("%.1f", double(c.mfmaFlops) / 1e6) << " MFLOP), global "
     << c.globalReadBytes << " B read / " << c.globalWriteBytes
     << " B written, LDS " << c.ldsReadBytes << " B read / " << c.ldsWriteBytes
     << " B written, LDS bank-conflict cycles " << c.ldsConflictCycles()
     << "\n";
}

/// A number for JSON, which has no NaN or infinity: those become strings.
static json::Value jsonNumber(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  return value;
}

static void printCheck(raw_ostream &os, bool ok, StringRef kernel,
                       const run::CaseOutcome &outcome) {
  const CheckResult &check = outcome.check;
  os << "  " << (ok ? "PASS" : "FAIL") << " " << kernel << " "
     << outcome.description << ": max abs err "
     << format("%.3g", check.maxAbsError) << ", max rel err "
     << format("%.3g", check.maxRelError) << ", worst err/bound "
     << format("%.3f", check.worstErrorOverBound) << "\n"
     << "    grid " << outcome.grid[0] << "x" << outcome.grid[1] << "x"
     << outcome.grid[2] << "; tolerance: " << check.toleranceRule << "\n";
  if (check.passed())
    return;
  os << "    ";
  if (check.failures)
    os << check.failures << " of " << check.elements
       << " elements out of bound; ";
  if (check.unwritten)
    os << check.unwritten << " elements not written; ";
  if (check.changed)
    os << check.changed << " elements changed that should not have; ";
  os << "first: " << check.firstFailure << "\n";
}

static json::Object resourcesJson(const KernelInfo &info) {
  return json::Object{{"vgpr", info.vgprCount},
                      {"agpr", info.agprCount},
                      {"sgpr", info.sgprCount},
                      {"vgpr_spill", info.vgprSpillCount},
                      {"sgpr_spill", info.sgprSpillCount},
                      {"scratch_bytes", info.privateSegmentFixedSize},
                      {"lds_bytes", info.groupSegmentFixedSize}};
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&category, &compileCategory, &userCategory});
  cl::ParseCommandLineOptions(argc, argv,
                              "HK-MLIR: compile an example, run it in the "
                              "emulator and check it against a CPU "
                              "reference\n");
  // lld resets every command-line option when it links a code object, so
  // read them all before compiling anything.
  const std::string input = inputFile, shapesText = shapesOption,
                    onlyKernel = kernelOption, hsacoDir = saveHsaco;
  std::string chipName = chipOption;
  run::CaseSettings caseSettings;
  caseSettings.seed = seed;
  caseSettings.rowPadding = padOption;
  const bool printJson = asJson, spillsAllowed = allowSpills,
             onlyCompile = compileOnly;
  const unsigned repeats = std::max(1u, unsigned(repeat));
  CompileOptions settings;
#define HK_COMPILE_OPTION(NAME, ARG, TYPE, INIT, DESC, EXTRA)                  \
  settings.NAME = NAME##Flag;
#include "hk/Pipelines/CompileOptions.def"
  // Like -o, --save-hsaco writes into a directory that exists: a mistyped
  // path is an error, not a new directory tree.
  if (!hsacoDir.empty() && !sys::fs::is_directory(hsacoDir))
    return fail("--save-hsaco: '" + hsacoDir + "' " +
                (sys::fs::exists(hsacoDir) ? "is not a directory"
                                           : "does not exist (create it "
                                             "first)"));
  emu::LaunchOptions options;
  options.threads = threads;
  if (noSanitizers)
    options.sanitizers = emu::SanitizerOptions::none();
  Expected<std::optional<emu::TimingRequest>> timingRequest =
      emu::makeTimingRequest(timingFlag, deviceOption,
                             clockOpt.getNumOccurrences()
                                 ? std::optional<unsigned>(clockOpt)
                                 : std::nullopt);
  if (!timingRequest)
    return fail(toString(timingRequest.takeError()));
  if (std::optional<emu::TimingRequest> request = *timingRequest) {
    if (request->device) {
      // A device runs only its own chip's code objects.
      if (chipName != "all" && chipName != request->device->chipName)
        return fail("--device=" + deviceOption + " is a " +
                    request->device->chipName + " device, not " + chipName);
      chipName = request->device->chipName.str();
    }
    options.timing = *request;
  }

  auto buffer = MemoryBuffer::getFile(input);
  if (!buffer)
    return fail("cannot read '" + input + "': " + buffer.getError().message());
  StringRef source = (*buffer)->getBuffer();
  if (chipName != "all" && !ChipInfo::lookup(chipName))
    return fail("unknown chip '" + chipName +
                "'; known chips: " + ChipInfo::knownChipNames() + ", all");
  // A kernel of one's own: one case, described by the options.
  const bool userKernel = !argList.empty();
  std::unique_ptr<run::Workload> userWorkload;
  if (userKernel) {
    if (onlyKernel.empty())
      return fail("--arg needs --kernel=NAME: the kernel to run");
    if (!shapesText.empty() || caseSettings.rowPadding)
      return fail("--shapes and --pad run an example's HK-RUN cases; with "
                  "--arg the arguments give the shapes");
    run::UserKernelOptions user;
    user.args.assign(argList.begin(), argList.end());
    user.outputs.assign(outputList.begin(), outputList.end());
    user.expects.assign(expectList.begin(), expectList.end());
    user.reference = referenceOption;
    user.grid = gridOption;
    if (rtolOption.getNumOccurrences())
      user.rtol = rtolOption;
    if (atolOption.getNumOccurrences())
      user.atol = atolOption;
    auto workload = run::makeUserWorkload(user);
    if (!workload)
      return fail(toString(workload.takeError()));
    userWorkload = std::move(*workload);
  } else if (!outputList.empty() || !expectList.empty() ||
             !referenceOption.empty() || !gridOption.empty() ||
             rtolOption.getNumOccurrences() || atolOption.getNumOccurrences()) {
    return fail("--output, --expect, --reference, --grid, --rtol and --atol "
                "describe a kernel of one's own: give its arguments with "
                "--arg");
  }

  std::vector<run::RunSpec> userSpecs;
  if (userKernel) {
    run::RunSpec spec;
    spec.workload = "user";
    spec.params["kernel"] = onlyKernel;
    spec.shapes = {{}};
    userSpecs.push_back(std::move(spec));
  }
  auto specs = userKernel
                   ? Expected<std::vector<run::RunSpec>>(std::move(userSpecs))
                   : run::parseRunSpecs(source);
  if (!specs)
    return fail(input + ": " + toString(specs.takeError()));
  if (specs->empty())
    return fail(input + " has no '// HK-RUN:' lines saying how to run it "
                        "(or give a kernel's arguments with --arg)");
  std::vector<std::vector<int64_t>> overrideShapes;
  if (!shapesText.empty()) {
    auto parsed = run::parseShapes(shapesText);
    if (!parsed)
      return fail("--shapes: " + toString(parsed.takeError()));
    overrideShapes = std::move(*parsed);
  }

  // Check every spec, and that the options select something to run, before
  // compiling anything.
  // workloads[i] runs (*specs)[i]; null when --kernel leaves it out.
  std::vector<std::unique_ptr<run::Workload>> workloads;
  bool kernelFound = false, chipFound = false;
  SetVector<StringRef> namedChips;
  for (const run::RunSpec &spec : *specs) {
    auto workload =
        userKernel
            ? Expected<std::unique_ptr<run::Workload>>(std::move(userWorkload))
        : spec.workload == "script" ? run::makeScriptWorkload(spec, input)
                                    : run::makeWorkload(spec);
    if (!workload)
      return fail(input + ": " + toString(workload.takeError()));
    if (!onlyKernel.empty() && spec.get("kernel") != onlyKernel) {
      workloads.push_back(nullptr);
      continue;
    }
    kernelFound = true;
    chipFound |= !selectChips(spec, chipName).empty();
    namedChips.insert(spec.chips.begin(), spec.chips.end());
    if (caseSettings.rowPadding && !(*workload)->padsRows())
      return fail(input + ":" + Twine(spec.line) +
                  ": --pad applies to gemm cases only, not " + spec.workload);
    workloads.push_back(std::move(*workload));
  }
  if (!kernelFound)
    return fail(input + " has no '// HK-RUN:' line for kernel '" + onlyKernel +
                "'");
  if (!chipFound)
    return fail(input +
                (onlyKernel.empty() ? "" : " kernel '" + onlyKernel + "'") +
                " runs on " + join(namedChips, ", ") +
                " only (its '// HK-RUN:' chips=), so nothing runs for --chip=" +
                chipName);

  json::Array results;
  unsigned passed = 0, failed = 0, cases = 0;
  bool sanitizerReports = false;
  for (const ChipInfo &chip : ChipInfo::all()) {
    std::vector<size_t> chipSpecs;
    for (auto [i, spec] : llvm::enumerate(*specs))
      if (workloads[i] &&
          llvm::is_contained(selectChips(spec, chipName), &chip))
        chipSpecs.push_back(i);
    if (chipSpecs.empty())
      continue;

    auto compiled = compileSource(source, input, chip, settings);
    if (!compiled)
      return fail(toString(compiled.takeError()));
    if (!hsacoDir.empty())
      if (Error error = writeHsaco(hsacoDir, input, chip, compiled->hsaco))
        return fail(toString(std::move(error)));
    if (onlyCompile) {
      double best = compiled->seconds;
      for (unsigned i = 1; i < repeats; ++i) {
        auto again = compileSource(source, input, chip, settings);
        if (!again)
          return fail(toString(again.takeError()));
        best = std::min(best, again->seconds);
      }
      outs() << input << " " << chip.name << ": " << format("%.3f", best)
             << " s from .mlir to hsaco (best of " << repeats << ")\n";
      continue;
    }
    for (size_t i : chipSpecs)
      if (!compiled->findKernel((*specs)[i].get("kernel")))
        return fail(input + ":" + Twine((*specs)[i].line) + ": no kernel '" +
                    (*specs)[i].get("kernel") + "' in the example");
    emu::Device device(chip);
    auto module = device.loadModule(compiled->hsaco);
    if (!module)
      return fail(toString(module.takeError()));
    if (!printJson)
      outs() << input << " on " << chip.name << " (" << chip.products
             << "): compiled in " << format("%.3f", compiled->seconds)
             << " s\n";
    if (!printJson && !compiled->unswitchSpilled.empty())
      outs() << "  note: " << llvm::join(compiled->unswitchSpilled, ", ")
             << " spilled registers with unswitched main loops; compiled "
                "again with --unswitch=false\n";

    for (size_t specIndex : chipSpecs) {
      const run::RunSpec *spec = &(*specs)[specIndex];
      const run::Workload &workload = *workloads[specIndex];
      std::string kernelName = spec->get("kernel");
      const KernelSignature *signature = compiled->findKernel(kernelName);
      const KernelInfo *info = (*module)->findKernel(kernelName);
      if (!signature || !info)
        return fail(input + ":" + Twine(spec->line) + ": no kernel '" +
                    kernelName + "' in the example");
      bool spills = info->spills();
      if (!printJson)
        outs() << "  " << kernelName << ": vgpr " << info->vgprCount
               << ", agpr " << info->agprCount << ", sgpr " << info->sgprCount
               << ", LDS " << info->groupSegmentFixedSize << " B, "
               << (spills ? "SPILLS" : "no spills") << " (vgpr "
               << info->vgprSpillCount << ", sgpr " << info->sgprSpillCount
               << ", scratch " << info->privateSegmentFixedSize << " B)\n";
      if (spills && !spillsAllowed) {
        ++failed;
        if (!printJson)
          outs() << "  FAIL: the kernel spills registers\n";
      }

      const auto &shapes =
          overrideShapes.empty() ? spec->shapes : overrideShapes;
      for (const std::vector<int64_t> &shape : shapes) {
        auto outcome = workload.run(device, **module, *signature, shape,
                                    caseSettings, options);
        if (!outcome)
          return fail(kernelName + ": " + toString(outcome.takeError()));
        const CheckResult &check = outcome->check;
        bool quiet = outcome->launch.totalReports == 0;
        bool ok = check.passed() && quiet;
        sanitizerReports |= !quiet;
        ok ? ++passed : ++failed;
        ++cases;
        if (printJson) {
          results.push_back(json::Object{
              {"chip", chip.name},
              {"kernel", kernelName},
              {"case", outcome->description},
              {"passed", ok},
              {"grid", json::Array{outcome->grid[0], outcome->grid[1],
                                   outcome->grid[2]}},
              {"max_abs_error", jsonNumber(check.maxAbsError)},
              {"max_rel_error", jsonNumber(check.maxRelError)},
              {"worst_error_over_bound", jsonNumber(check.worstErrorOverBound)},
              {"failures", check.failures},
              {"unwritten", check.unwritten},
              {"changed_inputs", check.changed},
              {"first_failure", check.firstFailure},
              {"sanitizer_reports", outcome->launch.totalReports},
              {"compile_seconds", compiled->seconds},
              {"resources", resourcesJson(*info)},
              {"counters", outcome->launch.counters.toJson()}});
          if (outcome->launch.timing)
            (*results.back().getAsObject())["timing"] =
                outcome->launch.timing->toJson();
          continue;
        }
        printCheck(outs(), ok, kernelName, *outcome);
        printCounters(outs(), outcome->launch.counters,
                      outcome->launch.seconds);
        outs() << "    sanitizers: "
               << (quiet ? std::string("quiet")
                         : std::to_string(outcome->launch.totalReports) +
                               " reports")
               << "\n";
        for (const emu::SanitizerReport &report : outcome->launch.reports)
          outs() << "      " << report.message << "\n";
        if (outcome->launch.timing)
          outcome->launch.timing->print(outs());
      }
    }
  }
  if (onlyCompile)
    return 0;
  // A run that checked nothing must not pass for one that checked all.
  if (!cases)
    return fail(input + ": no case ran: its '// HK-RUN:' lines give no "
                        "shapes= and --shapes is not given");
  if (printJson)
    outs() << formatv("{0:2}", json::Value(std::move(results))) << "\n";
  else
    outs() << passed << " passed, " << failed << " failed\n";
  if (sanitizerReports)
    return 2;
  return failed ? 1 : 0;
}
