//===- hk-emu.cpp - Run a code object on the CPU
//---------------------------===//
//
//   hk-emu kernel.hsaco --kernel=gemm --grid=4,4 --block=256 \
//       --arg=buf:a.npy --arg=buf:b.npy --arg=out:f32:4096:c.npy --arg=i32:64
//
// Each --arg fills the next explicit kernel argument:
//   buf:FILE[:OUT]      device buffer initialised from FILE (a .npy array
//                       when the name ends in .npy, raw bytes otherwise);
//                       written back to OUT after the run if given
//   out:TYPE:COUNT[:OUT] zero-filled buffer of COUNT elements of TYPE
//                       (f32, f16, bf16, f64, i8..i64, u8..u64, fp8, bf8);
//                       printed after the run and written to OUT (.npy or
//                       raw) if given
//   TYPE:VALUE          a scalar (i32:77, u32:3, f32:0.5, i64:..., f64:...)
//
// Prints the outputs, sanitizer reports and counters (or one JSON object
// with --json). Exit status: 0 clean run, 2 when a sanitizer reported
// something, 1 on any error (one line on stderr).
//
//===----------------------------------------------------------------------===//

#include "hk/Emulator/Device.h"
#include "hk/Emulator/Npy.h"
#include "hk/Emulator/Numerics.h"
#include "hk/Runtime/CodeObject.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

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
static cl::list<std::string> args("arg", cl::desc("Next kernel argument"),
                                  cl::cat(category));
static cl::opt<unsigned> dynamicLds("dynamic-lds",
                                    cl::desc("Bytes of dynamic LDS"),
                                    cl::init(0), cl::cat(category));
static cl::opt<std::string>
    workgroups("workgroups",
               cl::desc("Run only these linear workgroup ids (1,5,9)"),
               cl::cat(category));
static cl::opt<unsigned> threads("host-threads",
                                 cl::desc("Host threads (0: one per core)"),
                                 cl::init(0), cl::cat(category));
static cl::opt<std::string>
    sanitize("sanitize",
             cl::desc("Sanitizers: all, none, or a list of bounds, waitcnt, "
                      "race, barrier"),
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
static cl::opt<unsigned> printCount("print",
                                    cl::desc("Output elements printed"),
                                    cl::init(8), cl::cat(category));

[[noreturn]] static void fail(const Twine &message) {
  errs() << "hk-emu: error: " << message << "\n";
  exit(1);
}

static void check(Error error) {
  if (error)
    fail(toString(std::move(error)));
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

namespace {
struct Output {
  std::string type;
  DevicePtr ptr = 0;
  uint64_t bytes = 0;
  std::string path;
  unsigned argIndex = 0;
  bool print = false;
  std::string global; ///< A device global's name (not an argument).
};
} // namespace

static std::string readFileOrFail(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer)
    fail("cannot read '" + path + "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

/// Typed scalar argument bytes ("i32:77"); fails the run when `spec`'s
/// value does not fit its type.
static bool parseScalar(StringRef type, StringRef value, StringRef spec,
                        std::vector<uint8_t> &out) {
  auto put = [&](const void *data, size_t size) {
    out.assign(static_cast<const uint8_t *>(data),
               static_cast<const uint8_t *>(data) + size);
    return true;
  };
  if (type == "f32" || type == "f64") {
    double d;
    if (value.getAsDouble(d))
      return false;
    if (type == "f32") {
      float f = float(d);
      return put(&f, 4);
    }
    return put(&d, 8);
  }
  unsigned size = elementSizeOf(type);
  if (size == 0 || !(type.starts_with("i") || type.starts_with("u")))
    return false;
  unsigned bits = 8 * size;
  if (type.starts_with("i")) {
    int64_t v;
    if (value.getAsInteger(0, v))
      return false;
    if (!isIntN(bits, v))
      fail("--arg=" + spec + ": " + value + " is out of range for " + type +
           " (" + Twine(minIntN(bits)) + " to " + Twine(maxIntN(bits)) + ")");
    return put(&v, size);
  }
  uint64_t u;
  if (value.getAsInteger(0, u))
    return false;
  if (!isUIntN(bits, u))
    fail("--arg=" + spec + ": " + value + " is out of range for " + type +
         " (0 to " + Twine(maxUIntN(bits)) + ")");
  return put(&u, size);
}

/// Allocates `bytes` of device memory for the argument `spec`.
static DevicePtr allocateOrFail(Device &device, uint64_t bytes,
                                StringRef spec) {
  if (bytes > kMaxAllocationBytes)
    fail("--arg=" + spec + ": " + Twine(bytes) +
         " bytes exceed the emulator's limit of " + Twine(kMaxAllocationBytes) +
         " bytes per buffer");
  DevicePtr ptr = device.malloc(bytes, spec);
  if (!ptr)
    fail("--arg=" + spec + ": cannot allocate " + Twine(bytes) +
         " bytes of host memory");
  return ptr;
}

static std::string formatElement(StringRef type, const uint8_t *p,
                                 const ChipInfo &chip) {
  std::string s;
  raw_string_ostream os(s);
  auto load = [&](auto &v) { std::memcpy(&v, p, sizeof(v)); };
  if (type == "f32") {
    float f;
    load(f);
    os << format("%g", f);
  } else if (type == "f64") {
    double d;
    load(d);
    os << format("%g", d);
  } else if (type == "f16" || type == "bf16") {
    uint16_t h;
    load(h);
    os << format("%g", type == "f16" ? f16ToF32(h) : bf16ToF32(h));
  } else if (type == "fp8" || type == "bf8") {
    os << format("%g",
                 decodeMiniFloat(*p, fp8Format(chip.fp8Format, type == "bf8")));
  } else {
    unsigned size = elementSizeOf(type);
    uint64_t u = 0;
    std::memcpy(&u, p, size);
    if (type.starts_with("i") && size < 8)
      os << (int64_t(u << (64 - 8 * size)) >> (64 - 8 * size));
    else
      os << u;
  }
  return s;
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

  KernargBuilder builder(*kernel);
  std::vector<Output> outputs;
  if (args.size() != builder.expected())
    fail("kernel '" + kernel->name + "' takes " + Twine(builder.expected()) +
         " explicit argument(s), got " + Twine(args.size()) + " --arg");
  for (unsigned index = 0; index < args.size(); ++index) {
    StringRef spec = args[index];
    auto [kind, rest] = spec.split(':');
    if (kind == "buf") {
      auto [path, outPath] = rest.split(':');
      std::string data = readFileOrFail(path);
      std::string type = "u8";
      if (path.ends_with(".npy")) {
        Expected<NpyArray> array = parseNpy(data);
        if (!array)
          fail("--arg=" + spec + ": " + toString(array.takeError()));
        data.assign(array->data.begin(), array->data.end());
        type = typeOfNpyDescr(array->dtype);
      }
      DevicePtr ptr = allocateOrFail(device, data.size(), spec);
      check(device.memcpyHtoD(ptr, data.data(), data.size()));
      check(builder.addPointer(ptr));
      if (!outPath.empty())
        outputs.push_back(
            {type, ptr, data.size(), outPath.str(), index, false, ""});
      continue;
    }
    if (kind == "out") {
      SmallVector<StringRef> parts;
      rest.split(parts, ':', 2);
      uint64_t count;
      if (parts.size() < 2 || elementSizeOf(parts[0]) == 0 ||
          parts[1].getAsInteger(10, count))
        fail("--arg=" + spec +
             ": expected out:TYPE:COUNT[:FILE] with TYPE one of " +
             kElementTypeNames);
      unsigned elementSize = elementSizeOf(parts[0]);
      if (count > kMaxAllocationBytes / elementSize)
        fail("--arg=" + spec + ": " + Twine(count) + " elements of " +
             parts[0] + " exceed the emulator's limit of " +
             Twine(kMaxAllocationBytes) + " bytes per buffer");
      uint64_t size = count * elementSize;
      DevicePtr ptr = allocateOrFail(device, size, spec);
      check(builder.addPointer(ptr));
      outputs.push_back({parts[0].str(), ptr, size,
                         parts.size() > 2 ? parts[2].str() : "", index, true,
                         ""});
      continue;
    }
    std::vector<uint8_t> scalar;
    if (!parseScalar(kind, rest, spec, scalar))
      fail("--arg=" + spec +
           ": expected buf:FILE, out:TYPE:COUNT or a "
           "scalar TYPE:VALUE (i32:7, f32:0.5, ...)");
    check(builder.addBytes(scalar.data(), scalar.size(), spec));
  }
  std::vector<uint8_t> kernargs = check(builder.finish());

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
      else
        fail("--sanitize: unknown sanitizer '" + name +
             "' (expected all, none, bounds, waitcnt, race, barrier)");
    }
  }
  if (!workgroups.empty()) {
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
  LaunchResult result = check(
      device.launch(*module, kernel->name, grid, block, kernargs, options));
  for (unsigned i = 1; i < launches; ++i) {
    LaunchResult next = check(
        device.launch(*module, kernel->name, grid, block, kernargs, options));
    result.counters.merge(next.counters);
    result.seconds += next.seconds;
    result.workgroupsRun += next.workgroupsRun;
    result.totalReports += next.totalReports;
    for (SanitizerReport &r : next.reports)
      if (result.reports.size() < options.maxReports)
        result.reports.push_back(std::move(r));
  }

  for (StringRef spec : globals) {
    SmallVector<StringRef> parts;
    spec.split(parts, ':', 2);
    if (parts.size() < 2 || elementSizeOf(parts[1]) == 0)
      fail("--global=" + spec +
           ": expected NAME:TYPE[:FILE] with TYPE one of " + kElementTypeNames);
    auto [ptr, bytes] = check(device.getGlobal(*module, parts[0]));
    Output out{parts[1].str(),
               ptr,
               bytes,
               parts.size() > 2 ? parts[2].str() : "",
               0,
               true,
               parts[0].str()};
    outputs.push_back(std::move(out));
  }

  json::Array outputJson;
  std::string text;
  raw_string_ostream os(text);
  os << "kernel '" << kernel->name << "' on " << chip.name << ": grid "
     << grid.x << "x" << grid.y << "x" << grid.z << ", block " << block.x << "x"
     << block.y << "x" << block.z << ", " << result.workgroupsRun
     << " workgroup(s) in " << format("%.3f", result.seconds) << " s\n";
  for (const Output &out : outputs) {
    std::vector<uint8_t> host(out.bytes);
    check(device.memcpyDtoH(host.data(), out.ptr, out.bytes));
    if (!out.path.empty()) {
      if (StringRef(out.path).ends_with(".npy")) {
        NpyArray array;
        array.dtype = npyDescrOf(out.type);
        unsigned size = std::max(1u, elementSizeOf(out.type));
        array.shape = {out.bytes / size};
        array.data = host;
        check(writeNpy(out.path, array));
      } else {
        std::error_code ec;
        raw_fd_ostream file(out.path, ec, sys::fs::OF_None);
        if (ec)
          fail("cannot write '" + out.path + "': " + ec.message());
        file.write(reinterpret_cast<const char *>(host.data()), host.size());
      }
    }
    unsigned size = std::max(1u, elementSizeOf(out.type));
    uint64_t count = out.bytes / size;
    json::Array values;
    if (out.print && out.global.empty())
      os << "arg " << out.argIndex << ": " << out.type << "[" << count << "] =";
    else if (out.print)
      os << "global " << out.global << ": " << out.type << "[" << count
         << "] =";
    for (uint64_t i = 0; i < std::min<uint64_t>(count, printCount); ++i) {
      std::string v = formatElement(out.type, host.data() + i * size, chip);
      if (out.print)
        os << " " << v;
      values.push_back(v);
    }
    if (out.print)
      os << (count > printCount ? " ...\n" : "\n");
    json::Object entry{{"type", out.type},
                       {"count", count},
                       {"path", out.path},
                       {"first", std::move(values)}};
    if (out.global.empty())
      entry["arg"] = out.argIndex;
    else
      entry["global"] = out.global;
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
    outs() << formatv("{0:2}", json::Value(std::move(root))) << "\n";
  } else {
    outs() << text;
  }
  return result.totalReports ? 2 : 0;
}
