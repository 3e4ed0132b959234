//===- Workloads.cpp - What hk-run runs and how it checks it --------------===//

#include "Workloads.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <sys/resource.h>
#include <unistd.h>

using namespace hk;
using namespace hk::run;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

Workload::~Workload() = default;

//===----------------------------------------------------------------------===//
// Specs
//===----------------------------------------------------------------------===//

std::string RunSpec::get(llvm::StringRef key, llvm::StringRef fallback) const {
  auto it = params.find(key);
  return it == params.end() ? fallback.str() : it->second;
}

/// "256x256x128" -> {256, 256, 128}. Sizes are 32-bit in the kernel ABI,
/// which also keeps products of two sizes within int64_t.
static llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef text) {
  std::vector<int64_t> dims;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, 'x');
  for (llvm::StringRef part : parts) {
    int64_t value;
    if (part.getAsInteger(10, value) || value < 0)
      return makeError("bad shape '" + text +
                       "': expected sizes joined by 'x', e.g. 256x256x64");
    if (value > std::numeric_limits<int32_t>::max())
      return makeError("size " + part + " in shape '" + text +
                       "' is beyond the 32-bit kernel ABI (at most 2^31 - 1)");
    dims.push_back(value);
  }
  return dims;
}

llvm::Expected<std::vector<std::vector<int64_t>>>
hk::run::parseShapes(llvm::StringRef text) {
  std::vector<std::vector<int64_t>> shapes;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  for (llvm::StringRef part : parts) {
    auto dims = parseShape(part);
    if (!dims)
      return dims.takeError();
    shapes.push_back(std::move(*dims));
  }
  return shapes;
}

llvm::Expected<std::vector<RunSpec>>
hk::run::parseRunSpecs(llvm::StringRef source) {
  std::vector<RunSpec> specs;
  llvm::SmallVector<llvm::StringRef> lines;
  source.split(lines, '\n');
  for (auto [number, line] : llvm::enumerate(lines)) {
    llvm::StringRef text = line.trim();
    if (!text.consume_front("// HK-RUN:"))
      continue;
    RunSpec spec;
    spec.line = number + 1;
    llvm::SmallVector<llvm::StringRef> words;
    text.trim().split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.empty())
      return makeError("line " + llvm::Twine(spec.line) +
                       ": HK-RUN needs a workload name");
    spec.workload = words.front().str();
    for (llvm::StringRef word : llvm::drop_begin(words)) {
      auto [key, value] = word.split('=');
      if (value.empty())
        return makeError("line " + llvm::Twine(spec.line) +
                         ": expected key=value, got '" + word + "'");
      if (key == "shapes") {
        auto shapes = parseShapes(value);
        if (!shapes)
          return makeError("line " + llvm::Twine(spec.line) + ": " +
                           toString(shapes.takeError()));
        spec.shapes = std::move(*shapes);
      } else if (key == "chips") {
        llvm::SmallVector<llvm::StringRef> chips;
        value.split(chips, ',');
        for (llvm::StringRef chip : chips)
          spec.chips.push_back(chip.str());
      } else {
        spec.params[key] = value.str();
      }
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

//===----------------------------------------------------------------------===//
// Element types on the host
//===----------------------------------------------------------------------===//

namespace {

/// Host encoding of one element type, through LLVM's APFloat so that the
/// reference does not share code with the emulator's numerics.
struct HostType {
  std::string name;
  const llvm::fltSemantics *semantics;
  unsigned bytes;

  uint64_t encode(double value) const {
    llvm::APFloat f(value);
    bool losesInfo;
    f.convert(*semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return f.bitcastToAPInt().getZExtValue();
  }
  double decode(uint64_t bits) const {
    llvm::APFloat f(*semantics,
                    llvm::APInt(bytes * 8, bits, /*isSigned=*/false));
    bool losesInfo;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &losesInfo);
    return f.convertToDouble();
  }
  /// Relative rounding error of one rounding to nearest: 2^-precision.
  double unitRoundoff() const {
    return std::ldexp(1.0, -int(llvm::APFloat::semanticsPrecision(*semantics)));
  }
};

llvm::Expected<HostType> lookupHostType(llvm::StringRef name) {
  using S = llvm::APFloat;
  std::pair<const char *, const llvm::fltSemantics &> table[] = {
      {"f32", S::IEEEsingle()},
      {"f16", S::IEEEhalf()},
      {"bf16", S::BFloat()},
      {"f8E4M3FNUZ", S::Float8E4M3FNUZ()},
      {"f8E5M2FNUZ", S::Float8E5M2FNUZ()},
      {"f8E4M3FN", S::Float8E4M3FN()},
      {"f8E5M2", S::Float8E5M2()},
  };
  for (auto &[typeName, semantics] : table)
    if (name == typeName)
      return HostType{typeName, &semantics,
                      llvm::APFloat::semanticsSizeInBits(semantics) / 8};
  return makeError("hk-run has no host type for element type '" + name + "'");
}

/// A host matrix in some element type: the encoded bytes the kernel sees,
/// rows `rowStride` elements apart, and the exact values the reference
/// uses, dense. Element indices count the values.
struct HostMatrix {
  HostType type;
  int64_t rows = 0, cols = 0, rowStride = 0;
  std::vector<uint8_t> bytes;
  std::vector<double> values;

  HostMatrix(HostType type, int64_t rows, int64_t cols, int64_t padding = 0)
      : type(std::move(type)), rows(rows), cols(cols),
        rowStride(cols + padding), bytes(rows * rowStride * this->type.bytes),
        values(rows * cols) {}

  uint8_t *elementBytes(int64_t i) {
    return bytes.data() + (i / cols * rowStride + i % cols) * type.bytes;
  }
  void set(int64_t i, double value) {
    uint64_t bits = type.encode(value);
    std::memcpy(elementBytes(i), &bits, type.bytes);
    values[i] = type.decode(bits);
  }
  double at(int64_t r, int64_t c) const { return values[r * cols + c]; }
  /// Decodes the device's bytes back into values.
  void decodeBytes() {
    for (int64_t i = 0; i < rows * cols; ++i) {
      uint64_t bits = 0;
      std::memcpy(&bits, elementBytes(i), type.bytes);
      values[i] = type.decode(bits);
    }
  }
  /// Calls `f(row, column, bytes)` on every padding element.
  template <typename F> void forEachPadding(F f) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = cols; c < rowStride; ++c)
        f(r, c, bytes.data() + (r * rowStride + c) * type.bytes);
  }
};

/// The bytes of an output's padding before the launch: not NaN, so they
/// differ from unwritten outputs, and a value (1.5e16 in f32 and bf16,
/// 203.25 in f16) a GEMM of inputs in [-1, 1) practically never writes.
constexpr uint8_t kPaddingCanary = 0x5a;

/// Fills an input's padding with NaN, which poisons any result it reaches.
void poisonPadding(HostMatrix &m) {
  uint64_t nan = m.type.encode(std::numeric_limits<double>::quiet_NaN());
  m.forEachPadding([&](int64_t, int64_t, uint8_t *bytes) {
    std::memcpy(bytes, &nan, m.type.bytes);
  });
}

/// Fills an output's padding with the canary checkPadding looks for.
void fillPaddingWithCanary(HostMatrix &m) {
  m.forEachPadding([&](int64_t, int64_t, uint8_t *bytes) {
    std::memset(bytes, kPaddingCanary, m.type.bytes);
  });
}

/// Counts padding elements of `out` the kernel wrote as failures.
void checkPadding(HostMatrix &out, CheckResult &result) {
  out.forEachPadding([&](int64_t r, int64_t c, uint8_t *bytes) {
    ++result.elements;
    if (llvm::all_of(llvm::ArrayRef(bytes, out.type.bytes),
                     [](uint8_t b) { return b == kPaddingCanary; }))
      return;
    if (!result.failures)
      result.firstFailure = "padding element (" + std::to_string(r) + ", " +
                            std::to_string(c) + ") was written";
    ++result.failures;
  });
}

/// A matrix one case needs, for checkCaseFits.
struct MatrixExtent {
  llvm::StringRef name;
  int64_t rows, cols, rowStride;
  unsigned elementBytes;
};

/// Host memory this process may use: physical memory, or less under a
/// `ulimit -v` address-space limit.
uint64_t hostMemoryLimit() {
  uint64_t limit = uint64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  struct rlimit addressSpace;
  if (getrlimit(RLIMIT_AS, &addressSpace) == 0 &&
      addressSpace.rlim_cur != RLIM_INFINITY)
    limit = std::min<uint64_t>(limit, addressSpace.rlim_cur);
  return limit;
}

/// Rejects, before anything is allocated, a case the kernel ABI cannot
/// address (sizes and strides are 32-bit, and so are byte offsets into a
/// view) or the host cannot hold. Each element costs its encoding on the
/// host and in the emulator's memory, plus its value, reference and bound
/// as doubles; a case may take half the host's memory, the rest being the
/// process's own.
llvm::Error checkCaseFits(llvm::ArrayRef<MatrixExtent> matrices) {
  constexpr int64_t maxI32 = std::numeric_limits<int32_t>::max();
  uint64_t hostBytes = 0;
  for (const MatrixExtent &m : matrices) {
    if (m.rows > maxI32 || m.rowStride > maxI32)
      return makeError(m.name + " is " + llvm::Twine(m.rows) + " x " +
                       llvm::Twine(m.rowStride) +
                       " elements; sizes and strides of the kernel ABI are "
                       "32-bit (below 2^31)");
    // Both factors are below 2^31: no overflow.
    int64_t elements = m.rows * m.rowStride;
    if (elements > maxI32 / m.elementBytes)
      return makeError(m.name + " is " + llvm::Twine(m.rows) + " x " +
                       llvm::Twine(m.rowStride) + " elements of " +
                       llvm::Twine(m.elementBytes) +
                       " bytes; a view must span fewer than 2^31 bytes (the "
                       "kernel's offsets are 32-bit)");
    hostBytes += 2 * uint64_t(elements * m.elementBytes) +
                 24 * uint64_t(m.rows * m.cols);
  }
  uint64_t limit = hostMemoryLimit();
  if (hostBytes > limit / 2)
    return makeError("the case needs about " + llvm::Twine(hostBytes >> 20) +
                     " MiB of host memory, more than half of the " +
                     llvm::Twine(limit >> 20) +
                     " MiB available (physical memory or ulimit -v)");
  return llvm::Error::success();
}

/// Fills with values uniform in [-1, 1), rounded to the element type.
void fillRandom(HostMatrix &m, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int64_t i = 0; i < m.rows * m.cols; ++i)
    m.set(i, dist(rng));
}

/// Device copy of a host matrix, row-major.
struct DeviceMatrix {
  emu::DevicePtr ptr = 0;
  uint64_t bytes = 0;
};

llvm::Expected<DeviceMatrix> upload(emu::Device &device, const HostMatrix &m,
                                    llvm::StringRef label) {
  DeviceMatrix d;
  d.bytes = m.bytes.size();
  d.ptr = device.malloc(d.bytes, label);
  if (llvm::Error error = device.memcpyHtoD(d.ptr, m.bytes.data(), d.bytes))
    return std::move(error);
  return d;
}

/// A row-major view of `sizes` over a device buffer.
ArgValue viewOfShape(const DeviceMatrix &d, llvm::ArrayRef<int64_t> sizes) {
  ViewValue view;
  view.address = d.ptr;
  view.sizes.assign(sizes.begin(), sizes.end());
  view.strides = rowMajorStrides(view.sizes);
  return ArgValue::ofView(std::move(view));
}

/// The view of a host matrix's device copy, rows `rowStride` apart.
ArgValue viewOf(const DeviceMatrix &d, const HostMatrix &m) {
  ViewValue view;
  view.address = d.ptr;
  view.sizes = {m.rows, m.cols};
  view.strides = {m.rowStride, 1};
  return ArgValue::ofView(std::move(view));
}

/// Compares every element of `out` with `ref` under per-element bounds.
CheckResult compare(const HostMatrix &out, const std::vector<double> &ref,
                    const std::vector<double> &bound,
                    llvm::StringRef toleranceRule) {
  CheckResult result;
  result.toleranceRule = toleranceRule.str();
  double refScale = 0;
  for (double r : ref)
    refScale = std::max(refScale, std::fabs(r));
  for (int64_t i = 0; i < out.rows * out.cols; ++i) {
    ++result.elements;
    double got = out.values[i], want = ref[i];
    double err = std::fabs(got - want);
    bool ok = std::isfinite(got) && err <= bound[i];
    if (std::isfinite(got)) {
      result.maxAbsError = std::max(result.maxAbsError, err);
      if (std::fabs(want) > 1e-3 * refScale)
        result.maxRelError =
            std::max(result.maxRelError, err / std::fabs(want));
      if (bound[i] > 0)
        result.worstErrorOverBound =
            std::max(result.worstErrorOverBound, err / bound[i]);
    }
    if (ok)
      continue;
    if (!result.failures) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "element (" << i / out.cols << ", " << i % out.cols << "): got "
         << got << ", expected " << want << " (bound " << bound[i] << ")";
      result.firstFailure = text;
    }
    ++result.failures;
  }
  return result;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

llvm::Expected<std::pair<int64_t, int64_t>> parseBlock(const RunSpec &spec) {
  auto dims = parseShape(spec.get("block"));
  if (!dims || dims->size() != 2 || (*dims)[0] <= 0 || (*dims)[1] <= 0) {
    if (!dims)
      llvm::consumeError(dims.takeError());
    return makeError("line " + llvm::Twine(spec.line) +
                     ": block=RxC (the output tile of one block) is required");
  }
  return std::make_pair((*dims)[0], (*dims)[1]);
}

llvm::Error checkShape(llvm::ArrayRef<int64_t> shape, size_t rank,
                       llvm::StringRef what) {
  if (shape.size() != rank)
    return makeError(what + " cases need " + llvm::Twine(rank) +
                     " dimensions, got " + llvm::Twine(shape.size()));
  return llvm::Error::success();
}

/// Host types of the first `count` arguments, which must be global views.
llvm::Expected<llvm::SmallVector<HostType, 4>>
viewTypes(const KernelSignature &signature, size_t count) {
  llvm::SmallVector<HostType, 4> types;
  for (size_t index = 0; index < count; ++index) {
    if (index >= signature.params.size() ||
        signature.params[index].kind != KernelParam::View)
      return makeError("kernel '" + signature.name + "' argument " +
                       llvm::Twine(index) + " must be a global view");
    auto type = lookupHostType(signature.params[index].elementType);
    if (!type)
      return type.takeError();
    types.push_back(*type);
  }
  return types;
}

/// Relative error of rounding a result to `out`: none for f32 outputs
/// (the f32 arithmetic terms cover them), one rounding otherwise.
double outputRoundoff(const HostType &out) {
  return out.name == "f32" ? 0 : out.unitRoundoff();
}

/// The output-rounding term of a tolerance rule, in words.
std::string outputRule(const HostType &out) {
  if (out.name == "f32")
    return "f32 output: ";
  return out.name + " output: 2^-" +
         std::to_string(-std::ilogb(outputRoundoff(out))) + "*|ref| + ";
}

/// Launches `signature`'s kernel on `grid` (blocks of its waves), reads
/// `result` back into `out` and frees every buffer in `buffers`.
llvm::Expected<emu::LaunchResult>
launchAndRead(emu::Device &device, const emu::Module &module,
              const KernelSignature &signature, emu::Dim3 grid,
              llvm::ArrayRef<uint8_t> kernargs,
              const emu::LaunchOptions &options, const DeviceMatrix &result,
              HostMatrix &out, llvm::ArrayRef<DeviceMatrix> buffers) {
  auto launch = device.launch(module, signature.name, grid,
                              {signature.waves * 64, 1, 1}, kernargs, options);
  llvm::Error read =
      launch ? device.memcpyDtoH(out.bytes.data(), result.ptr, result.bytes)
             : llvm::Error::success();
  for (const DeviceMatrix &buffer : buffers)
    llvm::consumeError(device.free(buffer.ptr));
  if (!launch) {
    llvm::consumeError(std::move(read));
    return launch.takeError();
  }
  if (read)
    return std::move(read);
  out.decodeBytes();
  return launch;
}

//===----------------------------------------------------------------------===//
// GEMM
//===----------------------------------------------------------------------===//

/// C = A * B (form=ab, B is K x N) or C = A * B^T (form=abt, B is N x K),
/// one output tile of `block` per workgroup; arguments (A, B, C). Rows may
/// be padded.
class GemmWorkload : public Workload {
public:
  GemmWorkload(bool transposeB, int64_t blockM, int64_t blockN)
      : transposeB(transposeB), blockM(blockM), blockN(blockN) {}

  bool padsRows() const override { return true; }

  llvm::Expected<CaseOutcome>
  run(emu::Device &device, const emu::Module &module,
      const KernelSignature &signature, llvm::ArrayRef<int64_t> shape,
      const CaseSettings &settings,
      const emu::LaunchOptions &options) const override {
    if (llvm::Error error = checkShape(shape, 3, "gemm"))
      return std::move(error);
    int64_t m = shape[0], n = shape[1], k = shape[2];
    int64_t pad = settings.rowPadding;
    auto types = viewTypes(signature, 3);
    if (!types)
      return types.takeError();
    int64_t bRows = transposeB ? n : k, bCols = transposeB ? k : n;
    if (llvm::Error error =
            checkCaseFits({{"A", m, k, k + pad, (*types)[0].bytes},
                           {"B", bRows, bCols, bCols + pad, (*types)[1].bytes},
                           {"C", m, n, n + pad, (*types)[2].bytes}}))
      return std::move(error);

    std::mt19937_64 rng(settings.seed);
    HostMatrix a((*types)[0], m, k, pad);
    HostMatrix b((*types)[1], bRows, bCols, pad);
    HostMatrix c((*types)[2], m, n, pad);
    fillRandom(a, rng);
    fillRandom(b, rng);
    poisonPadding(a);
    poisonPadding(b);
    // Unwritten outputs stay NaN and fail the comparison.
    std::fill(c.bytes.begin(), c.bytes.end(), 0xff);
    fillPaddingWithCanary(c);

    auto da = upload(device, a, "A");
    auto db = upload(device, b, "B");
    auto dc = upload(device, c, "C");
    if (!da || !db || !dc)
      return makeError(
          "upload failed: " + (da ? "" : toString(da.takeError())) +
          (db ? "" : toString(db.takeError())) +
          (dc ? "" : toString(dc.takeError())));
    auto kernargs = packKernelArgs(
        signature, {viewOf(*da, a), viewOf(*db, b), viewOf(*dc, c)});
    if (!kernargs)
      return kernargs.takeError();
    emu::Dim3 grid{uint32_t(std::max<int64_t>(1, ceilDiv(m, blockM))),
                   uint32_t(std::max<int64_t>(1, ceilDiv(n, blockN))), 1};
    auto launch = launchAndRead(device, module, signature, grid, *kernargs,
                                options, *dc, c, {*da, *db, *dc});
    if (!launch)
      return launch.takeError();

    // Reference in double; the bound covers f32 accumulation in any order
    // (|error| <= K 2^-23 sum|a b|) and one rounding to the output type.
    std::vector<double> ref(m * n), bound(m * n);
    double gamma = double(k) * std::ldexp(1.0, -23);
    double uOut = outputRoundoff(c.type);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0, magnitude = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          double p = a.at(i, kk) * (transposeB ? b.at(j, kk) : b.at(kk, j));
          sum += p;
          magnitude += std::fabs(p);
        }
        ref[i * n + j] = sum;
        bound[i * n + j] = uOut * std::fabs(sum) +
                           (1 + uOut) * gamma * magnitude +
                           std::numeric_limits<float>::denorm_min();
      }
    std::string rule =
        outputRule(c.type) + "K*2^-23*sum|a*b| (f32 accumulation)";
    CaseOutcome outcome;
    outcome.description = "M=" + std::to_string(m) + " N=" + std::to_string(n) +
                          " K=" + std::to_string(k) +
                          (pad ? " pad=" + std::to_string(pad) : "");
    outcome.check = compare(c, ref, bound, rule);
    checkPadding(c, outcome.check);
    outcome.launch = std::move(*launch);
    return outcome;
  }

private:
  bool transposeB;
  int64_t blockM, blockN;
};

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// y = alpha * x + b over f32 matrices; arguments (x, b, y, alpha).
class ScaleAddWorkload : public Workload {
public:
  ScaleAddWorkload(float alpha, int64_t blockM, int64_t blockN)
      : alpha(alpha), blockM(blockM), blockN(blockN) {}

  llvm::Expected<CaseOutcome>
  run(emu::Device &device, const emu::Module &module,
      const KernelSignature &signature, llvm::ArrayRef<int64_t> shape,
      const CaseSettings &settings,
      const emu::LaunchOptions &options) const override {
    if (llvm::Error error = checkShape(shape, 2, "elementwise"))
      return std::move(error);
    int64_t m = shape[0], n = shape[1];
    auto f32 = lookupHostType("f32");
    if (!f32)
      return f32.takeError();
    if (llvm::Error error = checkCaseFits(
            {{"x", m, n, n, 4}, {"b", m, n, n, 4}, {"y", m, n, n, 4}}))
      return std::move(error);
    std::mt19937_64 rng(settings.seed);
    HostMatrix x(*f32, m, n), b(*f32, m, n), y(*f32, m, n);
    fillRandom(x, rng);
    fillRandom(b, rng);
    std::fill(y.bytes.begin(), y.bytes.end(), 0xff);
    auto dx = upload(device, x, "x");
    auto db = upload(device, b, "b");
    auto dy = upload(device, y, "y");
    if (!dx || !db || !dy)
      return makeError(
          "upload failed: " + (dx ? "" : toString(dx.takeError())) +
          (db ? "" : toString(db.takeError())) +
          (dy ? "" : toString(dy.takeError())));
    auto kernargs =
        packKernelArgs(signature, {viewOf(*dx, x), viewOf(*db, b),
                                   viewOf(*dy, y), ArgValue::ofF32(alpha)});
    if (!kernargs)
      return kernargs.takeError();
    emu::Dim3 grid{uint32_t(std::max<int64_t>(1, ceilDiv(m, blockM))),
                   uint32_t(std::max<int64_t>(1, ceilDiv(n, blockN))), 1};
    auto launch = launchAndRead(device, module, signature, grid, *kernargs,
                                options, *dy, y, {*dx, *db, *dy});
    if (!launch)
      return launch.takeError();

    // Two f32 roundings at most (or one fused).
    std::vector<double> ref(m * n), bound(m * n);
    for (int64_t i = 0; i < m * n; ++i) {
      ref[i] = double(alpha) * x.values[i] + b.values[i];
      bound[i] =
          std::ldexp(1.0, -23) * (std::fabs(double(alpha) * x.values[i]) +
                                  std::fabs(b.values[i])) +
          std::numeric_limits<float>::denorm_min();
    }
    CaseOutcome outcome;
    outcome.description = "M=" + std::to_string(m) + " N=" + std::to_string(n);
    outcome.check =
        compare(y, ref, bound, "f32: 2^-23*(|alpha*x| + |b|) (two roundings)");
    outcome.launch = std::move(*launch);
    return outcome;
  }

private:
  float alpha;
  int64_t blockM, blockN;
};

//===----------------------------------------------------------------------===//
// Row normalizations
//===----------------------------------------------------------------------===//

/// LayerNorm (arguments x, gamma, beta, y, eps) or RMSNorm (x, gamma, y,
/// eps) over the rows of an M x N matrix; one block per `rowsPerBlock`
/// rows.
class NormWorkload : public Workload {
public:
  NormWorkload(bool rms, float eps, int64_t rowsPerBlock)
      : rms(rms), eps(eps), rowsPerBlock(rowsPerBlock) {}

  llvm::Expected<CaseOutcome>
  run(emu::Device &device, const emu::Module &module,
      const KernelSignature &signature, llvm::ArrayRef<int64_t> shape,
      const CaseSettings &settings,
      const emu::LaunchOptions &options) const override {
    if (llvm::Error error = checkShape(shape, 2, rms ? "rmsnorm" : "layernorm"))
      return std::move(error);
    int64_t m = shape[0], n = shape[1];
    auto types = viewTypes(signature, rms ? 3 : 4);
    if (!types)
      return types.takeError();
    if (llvm::Error error =
            checkCaseFits({{"x", m, n, n, types->front().bytes},
                           {"gamma", 1, n, n, (*types)[1].bytes},
                           {"beta", 1, n, n, (*types)[rms ? 1 : 2].bytes},
                           {"y", m, n, n, types->back().bytes}}))
      return std::move(error);

    std::mt19937_64 rng(settings.seed);
    HostMatrix x(types->front(), m, n), gamma((*types)[1], 1, n);
    HostMatrix y(types->back(), m, n);
    HostMatrix beta((*types)[rms ? 1 : 2], 1, n);
    // Rows with a mean far from zero make the centring matter.
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (int64_t i = 0; i < m * n; ++i)
      x.set(i, dist(rng) + (rms ? 0.0 : 2.0));
    fillRandom(gamma, rng);
    fillRandom(beta, rng);
    std::fill(y.bytes.begin(), y.bytes.end(), 0xff);

    llvm::SmallVector<const HostMatrix *, 4> inputs = {&x, &gamma};
    if (!rms)
      inputs.push_back(&beta);
    inputs.push_back(&y);
    llvm::SmallVector<DeviceMatrix, 4> buffers;
    std::vector<ArgValue> args;
    for (const HostMatrix *host : inputs) {
      auto d = upload(device, *host, "arg");
      if (!d)
        return d.takeError();
      buffers.push_back(*d);
      args.push_back(host->rows == 1 && host != &x && host != &y
                         ? viewOfShape(*d, {n})
                         : viewOf(*d, *host));
    }
    args.push_back(ArgValue::ofF32(eps));
    auto kernargs = packKernelArgs(signature, args);
    if (!kernargs)
      return kernargs.takeError();
    emu::Dim3 grid{uint32_t(std::max<int64_t>(1, ceilDiv(m, rowsPerBlock))), 1,
                   1};
    auto launch = launchAndRead(device, module, signature, grid, *kernargs,
                                options, buffers.back(), y, buffers);
    if (!launch)
      return launch.takeError();

    // Reference in double. Error model for f32 arithmetic (u = 2^-24):
    // sums of N terms in any order are within gamma = N*u relatively of
    // the sum of magnitudes; the mean is off by gamma*mean|x| + u*|mean|;
    // the (centred) sum of squares relatively by gamma + 4u, so rsqrt of
    // it by half that plus 2^-23 for rsqrt and 2u for adding eps; the final
    // multiplies and adds cost 4u of the magnitudes involved; a narrow
    // output adds one rounding of |ref|.
    double u = std::ldexp(1.0, -24), gammaN = double(n) * u;
    double uOut = outputRoundoff(y.type);
    std::vector<double> ref(m * n), bound(m * n);
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0, magnitude = 0;
      for (int64_t j = 0; j < n; ++j) {
        sum += x.at(i, j);
        magnitude += std::fabs(x.at(i, j));
      }
      double mean = rms ? 0 : sum / double(n);
      double meanError =
          rms ? 0 : gammaN * magnitude / double(n) + u * std::fabs(mean);
      double squares = 0;
      for (int64_t j = 0; j < n; ++j)
        squares += (x.at(i, j) - mean) * (x.at(i, j) - mean);
      double scale = 1.0 / std::sqrt(squares / double(n) + double(eps));
      double scaleError = (gammaN + 4 * u) / 2 + std::ldexp(1.0, -23) + 2 * u;
      for (int64_t j = 0; j < n; ++j) {
        double z = (x.at(i, j) - mean) * scale;
        double g = gamma.at(0, j), bias = rms ? 0 : beta.at(0, j);
        double want = z * g + bias;
        ref[i * n + j] = want;
        bound[i * n + j] =
            uOut * std::fabs(want) +
            (1 + uOut) * (std::fabs(g) *
                              (scale * meanError + std::fabs(z) * scaleError) +
                          4 * u * (std::fabs(z * g) + std::fabs(bias))) +
            std::numeric_limits<float>::denorm_min();
      }
    }
    CaseOutcome outcome;
    outcome.description = "M=" + std::to_string(m) + " N=" + std::to_string(n);
    outcome.check = compare(
        y, ref, bound,
        outputRule(y.type) +
            "f32 statistics over N terms (N*2^-24 relative) and 4 roundings");
    outcome.launch = std::move(*launch);
    return outcome;
  }

private:
  bool rms;
  float eps;
  int64_t rowsPerBlock;
};

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

/// O = softmax(Q K^T / sqrt(d)) V per head, optionally causal (key j only
/// for query i >= j); arguments (Q, K, V, O) as BH x N x d views; one block
/// per `rowsPerBlock` query rows and head. Cases are BH x Nq x Nk x d, or
/// BH x Nq x Nk x d x KVH for grouped-query attention: K and V have KVH
/// heads, query head h reading KV head h / (BH / KVH).
class AttentionWorkload : public Workload {
public:
  AttentionWorkload(bool causal, int64_t rowsPerBlock)
      : causal(causal), rowsPerBlock(rowsPerBlock) {}

  llvm::Expected<CaseOutcome>
  run(emu::Device &device, const emu::Module &module,
      const KernelSignature &signature, llvm::ArrayRef<int64_t> shape,
      const CaseSettings &settings,
      const emu::LaunchOptions &options) const override {
    if (shape.size() != 5)
      if (llvm::Error error = checkShape(shape, 4, "attention"))
        return std::move(error);
    int64_t heads = shape[0], nq = shape[1], nk = shape[2], d = shape[3];
    int64_t kvHeads = shape.size() == 5 ? shape[4] : heads;
    if (kvHeads < 1 || heads % kvHeads != 0)
      return makeError("attention: " + llvm::Twine(heads) +
                       " query heads do not split into groups over " +
                       llvm::Twine(kvHeads) + " KV heads");
    int64_t group = heads / kvHeads;
    auto types = viewTypes(signature, 4);
    if (!types)
      return types.takeError();
    if (llvm::Error error =
            checkCaseFits({{"Q", heads * nq, d, d, (*types)[0].bytes},
                           {"K", kvHeads * nk, d, d, (*types)[1].bytes},
                           {"V", kvHeads * nk, d, d, (*types)[2].bytes},
                           {"O", heads * nq, d, d, (*types)[3].bytes}}))
      return std::move(error);

    std::mt19937_64 rng(settings.seed);
    HostMatrix q((*types)[0], heads * nq, d), k((*types)[1], kvHeads * nk, d);
    HostMatrix v((*types)[2], kvHeads * nk, d), o((*types)[3], heads * nq, d);
    // Scores of a few units make the softmax neither flat nor one-hot.
    std::uniform_real_distribution<double> dist(-2.0, 2.0);
    for (HostMatrix *m : {&q, &k, &v})
      for (int64_t i = 0; i < m->rows * m->cols; ++i)
        m->set(i, dist(rng));
    std::fill(o.bytes.begin(), o.bytes.end(), 0xff);

    llvm::SmallVector<DeviceMatrix, 4> buffers;
    std::vector<ArgValue> args;
    for (auto [host, h, n] :
         {std::tuple{&q, heads, nq}, std::tuple{&k, kvHeads, nk},
          std::tuple{&v, kvHeads, nk}, std::tuple{&o, heads, nq}}) {
      auto buffer = upload(device, *host, "arg");
      if (!buffer)
        return buffer.takeError();
      buffers.push_back(*buffer);
      args.push_back(viewOfShape(*buffer, {h, n, d}));
    }
    auto kernargs = packKernelArgs(signature, args);
    if (!kernargs)
      return kernargs.takeError();
    emu::Dim3 grid{uint32_t(std::max<int64_t>(1, ceilDiv(nq, rowsPerBlock))),
                   uint32_t(std::max<int64_t>(1, heads)), 1};
    auto launch = launchAndRead(device, module, signature, grid, *kernargs,
                                options, buffers.back(), o, buffers);
    if (!launch)
      return launch.takeError();

    // Reference in double. Error model, per output row: the scores carry
    // f32 dot-product error (d*2^-24*sum|q k|) that exp2 turns into a
    // relative error of the weights (times ln 2, plus 2^-22 for exp2 and
    // per rescale); P is rounded to bf16 before P V (2^-8 of sum p|v|);
    // sums over Nk keys in f32 add Nk*2^-24; a narrow output one rounding.
    double u = std::ldexp(1.0, -24);
    double uOut = outputRoundoff(o.type);
    double uP = std::ldexp(1.0, -8);
    double scale = 1.0 / std::sqrt(double(d));
    std::vector<double> ref(heads * nq * d), bound(heads * nq * d);
    std::vector<double> s(nk), p(nk);
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < nq; ++i) {
        int64_t qi = h * nq + i, kv = h / group * nk;
        int64_t keys = causal ? std::min(nk, i + 1) : nk;
        double maxScore = -INFINITY, scoreError = 0, maxV = 0;
        for (int64_t j = 0; j < keys; ++j) {
          double dot = 0, magnitude = 0;
          for (int64_t c = 0; c < d; ++c) {
            dot += q.at(qi, c) * k.at(kv + j, c);
            magnitude += std::fabs(q.at(qi, c) * k.at(kv + j, c));
          }
          s[j] = dot * scale;
          maxScore = std::max(maxScore, s[j]);
          scoreError = std::max(scoreError, scale * (double(d) * u * magnitude +
                                                     u * std::fabs(dot)) +
                                                u * std::fabs(s[j]));
        }
        double sum = 0;
        for (int64_t j = 0; j < keys; ++j) {
          p[j] = std::exp(s[j] - maxScore);
          sum += p[j];
        }
        double tiles = double(ceilDiv(std::max<int64_t>(keys, 1), 64));
        double weightError =
            2 * scoreError + std::ldexp(1.0, -22) * (1 + tiles);
        for (int64_t c = 0; c < d; ++c) {
          double acc = 0, magnitude = 0;
          for (int64_t j = 0; j < keys; ++j) {
            double vj = v.at(kv + j, c);
            acc += p[j] * vj;
            magnitude += p[j] * std::fabs(vj);
            maxV = std::max(maxV, std::fabs(vj));
          }
          double want = keys ? acc / sum : 0;
          double spread = keys ? magnitude / sum : 0;
          ref[qi * d + c] = want;
          bound[qi * d + c] =
              uOut * std::fabs(want) +
              (1 + uOut) * (uP * spread + 2 * weightError * maxV +
                            2 * double(keys) * u * spread) +
              std::numeric_limits<float>::denorm_min();
        }
      }
    CaseOutcome outcome;
    outcome.description =
        "BH=" + std::to_string(heads) +
        (kvHeads != heads ? " KVH=" + std::to_string(kvHeads) : "") +
        " Nq=" + std::to_string(nq) + " Nk=" + std::to_string(nk) +
        " d=" + std::to_string(d);
    outcome.check =
        compare(o, ref, bound,
                outputRule(o.type) +
                    "2^-8*sum(p|v|)/l (P in bf16) + f32 score and sum error");
    outcome.launch = std::move(*launch);
    return outcome;
  }

private:
  bool causal;
  int64_t rowsPerBlock;
};

} // namespace

llvm::Expected<std::unique_ptr<Workload>>
hk::run::makeWorkload(const RunSpec &spec) {
  auto number = [&](llvm::StringRef key, llvm::StringRef fallback,
                    double &value) -> llvm::Error {
    if (llvm::StringRef(spec.get(key, fallback)).getAsDouble(value))
      return makeError("line " + llvm::Twine(spec.line) + ": bad " + key);
    return llvm::Error::success();
  };
  if (spec.workload == "layernorm" || spec.workload == "rmsnorm") {
    double eps, rows;
    if (llvm::Error error = number("eps", "1e-5", eps))
      return std::move(error);
    if (llvm::Error error = number("rows", "", rows))
      return std::move(error);
    if (rows < 1)
      return makeError("line " + llvm::Twine(spec.line) +
                       ": rows=N (rows per block) is required");
    return std::make_unique<NormWorkload>(spec.workload == "rmsnorm",
                                          float(eps), int64_t(rows));
  }
  if (spec.workload == "attention") {
    double rows;
    if (llvm::Error error = number("rows", "", rows))
      return std::move(error);
    if (rows < 1)
      return makeError("line " + llvm::Twine(spec.line) +
                       ": rows=N (query rows per block) is required");
    std::string causal = spec.get("causal", "0");
    if (causal != "0" && causal != "1")
      return makeError("line " + llvm::Twine(spec.line) +
                       ": causal must be 0 or 1, got '" + causal + "'");
    return std::make_unique<AttentionWorkload>(causal == "1", int64_t(rows));
  }
  auto block = parseBlock(spec);
  if (!block)
    return block.takeError();
  if (spec.workload == "gemm") {
    std::string form = spec.get("form");
    if (form != "ab" && form != "abt")
      return makeError("line " + llvm::Twine(spec.line) +
                       ": gemm needs form=ab or form=abt, got '" + form + "'");
    return std::make_unique<GemmWorkload>(form == "abt", block->first,
                                          block->second);
  }
  if (spec.workload == "elementwise") {
    if (spec.get("expr") != "scale_add")
      return makeError("line " + llvm::Twine(spec.line) +
                       ": elementwise supports expr=scale_add, got '" +
                       spec.get("expr") + "'");
    double alpha;
    if (llvm::Error error = number("alpha", "1", alpha))
      return std::move(error);
    return std::make_unique<ScaleAddWorkload>(float(alpha), block->first,
                                              block->second);
  }
  return makeError(
      "line " + llvm::Twine(spec.line) + ": unknown workload '" +
      spec.workload +
      "' (known: gemm, elementwise, layernorm, rmsnorm, attention)");
}
