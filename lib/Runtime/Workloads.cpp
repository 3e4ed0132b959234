//===- Workloads.cpp - The example kernels' runs and checks ---------------===//

#include "hk/Runtime/Workloads.h"

#include "hk/Runtime/References.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/StringExtras.h"

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
llvm::Expected<std::vector<int64_t>> hk::run::parseShape(llvm::StringRef text) {
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
        for (llvm::StringRef chip : chips) {
          // A misspelt chip would leave the kernel unrun without a word.
          if (!ChipInfo::lookup(chip))
            return makeError("line " + llvm::Twine(spec.line) +
                             ": unknown chip '" + chip + "' in chips=; known " +
                             "chips: " + ChipInfo::knownChipNames());
          spec.chips.push_back(chip.str());
        }
      } else {
        spec.params[key] = value.str();
      }
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

namespace {

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
/// host, in the emulator's memory and in the snapshot that shows whether
/// it changed, plus its value, reference and bound as doubles; a case may
/// take half the host's memory, the rest being the process's own.
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
    hostBytes += 3 * uint64_t(elements * m.elementBytes) +
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

llvm::Error checkShape(llvm::ArrayRef<int64_t> shape, size_t rank,
                       llvm::StringRef what) {
  if (shape.size() != rank)
    return makeError(what + " cases need " + llvm::Twine(rank) +
                     " dimensions, got " + llvm::Twine(shape.size()));
  return llvm::Error::success();
}

/// Element types of the first `count` arguments, which must be global
/// views.
llvm::Expected<llvm::SmallVector<ElementType, 4>>
viewTypes(const KernelSignature &signature, size_t count) {
  llvm::SmallVector<ElementType, 4> types;
  for (size_t index = 0; index < count; ++index) {
    if (index >= signature.params.size() ||
        signature.params[index].kind != KernelParam::View)
      return makeError("kernel '" + signature.name + "' argument " +
                       llvm::Twine(index) + " must be a global view");
    auto type = ElementType::lookup(signature.params[index].elementType);
    if (!type)
      return type.takeError();
    types.push_back(*type);
  }
  return types;
}

/// Fills every padding element of `array` with `bits`.
void fillPadding(HostArray &array, uint64_t bits) {
  llvm::ArrayRef<int64_t> sizes = array.getSizes();
  if (sizes.size() != 2 || array.getStrides()[0] == sizes[1])
    return;
  unsigned bytes = array.getType().bytes;
  for (int64_t r = 0; r < sizes[0]; ++r)
    for (int64_t c = sizes[1]; c < array.getStrides()[0]; ++c)
      std::memcpy(array.getData() + (r * array.getStrides()[0] + c) * bytes,
                  &bits, bytes);
}

/// The grid a case runs on: `block` elements of the output per block along
/// x and y when the spec gives them, else the kernel's own rule.
std::optional<GridSize> gridOf(std::optional<std::pair<int64_t, int64_t>> block,
                               int64_t rows, int64_t cols) {
  if (!block)
    return std::nullopt;
  auto blocks = [](int64_t size, int64_t tile) {
    return uint32_t(std::max<int64_t>(1, (size + tile - 1) / tile));
  };
  return GridSize{blocks(rows, block->first), blocks(cols, block->second), 1};
}

/// What one case launches and how it is checked: the arrays the kernel
/// must only read, and its output.
struct CaseRun {
  std::vector<LaunchArg> args;
  llvm::SmallVector<std::pair<HostArray *, std::string>, 4> inputs;
  HostArray *output = nullptr;
  std::string outputName;
};

/// Launches `run` and checks it: the output against `reference` (computed
/// from the inputs after the launch, which must have left them as they
/// were), every output element written, no padding written.
llvm::Expected<CaseOutcome>
launchAndCheck(emu::Device &device, const emu::Module &module,
               const KernelSignature &signature, CaseRun &run,
               std::optional<GridSize> grid, const emu::LaunchOptions &options,
               llvm::function_ref<llvm::Expected<Reference>()> reference) {
  llvm::SmallVector<HostArray, 4> before;
  for (auto &[array, name] : run.inputs)
    before.push_back(array->clone());
  markUnwritten(*run.output);
  // Not NaN, so the padding differs from unwritten outputs, and a value
  // (1.5e16 in f32 and bf16, 203.25 in f16) a GEMM of inputs in [-1, 1)
  // practically never writes.
  fillPadding(*run.output, 0x5a5a5a5a5a5a5a5aull);
  HostArray outputBefore = run.output->clone();

  auto launched =
      launchKernel(device, module, signature, run.args, grid, options);
  if (!launched)
    return launched.takeError();
  auto ref = reference();
  if (!ref)
    return ref.takeError();
  CaseOutcome outcome;
  outcome.check = compareWithReference(*run.output, *ref, run.outputName);
  checkWritten(*run.output, run.outputName, outcome.check);
  checkUnchanged(outputBefore, *run.output, run.outputName, outcome.check,
                 /*paddingOnly=*/true);
  for (auto [snapshot, input] : llvm::zip(before, run.inputs))
    checkUnchanged(snapshot, *input.first, input.second, outcome.check);
  outcome.launch = std::move(launched->result);
  outcome.grid = launched->grid;
  return outcome;
}

/// Fills an input's padding with NaN, which poisons any result it reaches.
void poisonPadding(HostArray &array) {
  fillPadding(array,
              array.getType().encode(std::numeric_limits<double>::quiet_NaN()));
}

//===----------------------------------------------------------------------===//
// GEMM
//===----------------------------------------------------------------------===//

/// C = A * B (form=ab, B is K x N) or C = A * B^T (form=abt, B is N x K),
/// one output tile of `block` per workgroup; arguments (A, B, C). Rows may
/// be padded.
class GemmWorkload : public Workload {
public:
  GemmWorkload(bool transposeB,
               std::optional<std::pair<int64_t, int64_t>> block)
      : transposeB(transposeB), block(block) {}

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
    HostArray a = HostArray::create((*types)[0], {m, k}, pad);
    HostArray b = HostArray::create((*types)[1], {bRows, bCols}, pad);
    HostArray c = HostArray::create((*types)[2], {m, n}, pad);
    fillUniform(a, rng);
    fillUniform(b, rng);
    poisonPadding(a);
    poisonPadding(b);
    CaseRun run{
        {LaunchArg::ofArray(a), LaunchArg::ofArray(b), LaunchArg::ofArray(c)},
        {{&a, "A"}, {&b, "B"}},
        &c,
        "C"};
    auto outcome = launchAndCheck(
        device, module, signature, run, gridOf(block, m, n), options,
        [&] { return gemmReference(a, b, transposeB, c.getType()); });
    if (outcome)
      outcome->description = "M=" + std::to_string(m) +
                             " N=" + std::to_string(n) +
                             " K=" + std::to_string(k) +
                             (pad ? " pad=" + std::to_string(pad) : "");
    return outcome;
  }

private:
  bool transposeB;
  std::optional<std::pair<int64_t, int64_t>> block;
};

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// y = alpha * x + b over f32 matrices; arguments (x, b, y, alpha).
class ScaleAddWorkload : public Workload {
public:
  ScaleAddWorkload(float alpha,
                   std::optional<std::pair<int64_t, int64_t>> block)
      : alpha(alpha), block(block) {}

  llvm::Expected<CaseOutcome>
  run(emu::Device &device, const emu::Module &module,
      const KernelSignature &signature, llvm::ArrayRef<int64_t> shape,
      const CaseSettings &settings,
      const emu::LaunchOptions &options) const override {
    if (llvm::Error error = checkShape(shape, 2, "elementwise"))
      return std::move(error);
    int64_t m = shape[0], n = shape[1];
    auto types = viewTypes(signature, 3);
    if (!types)
      return types.takeError();
    for (const ElementType &type : *types)
      if (type.name != "f32")
        return makeError("elementwise scale_add runs f32 views, got " +
                         type.name);
    if (llvm::Error error = checkCaseFits(
            {{"x", m, n, n, 4}, {"b", m, n, n, 4}, {"y", m, n, n, 4}}))
      return std::move(error);
    std::mt19937_64 rng(settings.seed);
    HostArray x = HostArray::create((*types)[0], {m, n});
    HostArray b = HostArray::create((*types)[1], {m, n});
    HostArray y = HostArray::create((*types)[2], {m, n});
    fillUniform(x, rng);
    fillUniform(b, rng);
    CaseRun run{{LaunchArg::ofArray(x), LaunchArg::ofArray(b),
                 LaunchArg::ofArray(y), LaunchArg::ofF32(alpha)},
                {{&x, "x"}, {&b, "b"}},
                &y,
                "y"};
    auto outcome =
        launchAndCheck(device, module, signature, run, gridOf(block, m, n),
                       options, [&] { return scaleAddReference(x, b, alpha); });
    if (outcome)
      outcome->description =
          "M=" + std::to_string(m) + " N=" + std::to_string(n);
    return outcome;
  }

private:
  float alpha;
  std::optional<std::pair<int64_t, int64_t>> block;
};

//===----------------------------------------------------------------------===//
// Row normalizations
//===----------------------------------------------------------------------===//

/// LayerNorm (arguments x, gamma, beta, y, eps) or RMSNorm (x, gamma, y,
/// eps) over the rows of an M x N matrix; one block per `rowsPerBlock`
/// rows when given.
class NormWorkload : public Workload {
public:
  NormWorkload(bool rms, float eps, std::optional<int64_t> rowsPerBlock)
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
    const ElementType &outType = types->back();
    if (llvm::Error error =
            checkCaseFits({{"x", m, n, n, types->front().bytes},
                           {"gamma", 1, n, n, (*types)[1].bytes},
                           {"beta", 1, n, n, (*types)[rms ? 1 : 2].bytes},
                           {"y", m, n, n, outType.bytes}}))
      return std::move(error);

    std::mt19937_64 rng(settings.seed);
    HostArray x = HostArray::create(types->front(), {m, n});
    HostArray gamma = HostArray::create((*types)[1], {n});
    HostArray beta = HostArray::create((*types)[rms ? 1 : 2], {n});
    HostArray y = HostArray::create(outType, {m, n});
    // Rows with a mean far from zero make the centring matter.
    fillUniform(x, rng, rms ? -1.0 : 1.0, rms ? 1.0 : 3.0);
    fillUniform(gamma, rng);
    fillUniform(beta, rng);

    CaseRun run;
    run.args = {LaunchArg::ofArray(x), LaunchArg::ofArray(gamma)};
    run.inputs = {{&x, "x"}, {&gamma, "gamma"}};
    if (!rms) {
      run.args.push_back(LaunchArg::ofArray(beta));
      run.inputs.push_back({&beta, "beta"});
    }
    run.args.push_back(LaunchArg::ofArray(y));
    run.args.push_back(LaunchArg::ofF32(eps));
    run.output = &y;
    run.outputName = "y";
    std::optional<GridSize> grid;
    if (rowsPerBlock)
      grid = GridSize{uint32_t(std::max<int64_t>(1, (m + *rowsPerBlock - 1) /
                                                        *rowsPerBlock)),
                      1, 1};
    auto outcome =
        launchAndCheck(device, module, signature, run, grid, options, [&] {
          return normReference(x, gamma, rms ? nullptr : &beta, eps, outType);
        });
    if (outcome)
      outcome->description =
          "M=" + std::to_string(m) + " N=" + std::to_string(n);
    return outcome;
  }

private:
  bool rms;
  float eps;
  std::optional<int64_t> rowsPerBlock;
};

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

/// O = softmax(Q K^T / sqrt(d)) V per head, optionally causal (key j only
/// for query i >= j); arguments (Q, K, V, O) as BH x N x d views; one block
/// per `rowsPerBlock` query rows and head when given. Cases are BH x Nq x
/// Nk x d, or BH x Nq x Nk x d x KVH for grouped-query attention: K and V
/// have KVH heads, query head h reading KV head h / (BH / KVH). With a
/// key ramp R, key j is scaled by 1 + R j / (Nk - 1), so that the scores,
/// and each query's running max, grow along the keys.
class AttentionWorkload : public Workload {
public:
  AttentionWorkload(bool causal, bool roundedSum,
                    std::optional<int64_t> rowsPerBlock, double keyRamp)
      : causal(causal), roundedSum(roundedSum), rowsPerBlock(rowsPerBlock),
        keyRamp(keyRamp) {}

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
    HostArray q = HostArray::create((*types)[0], {heads, nq, d});
    HostArray k = HostArray::create((*types)[1], {kvHeads, nk, d});
    HostArray v = HostArray::create((*types)[2], {kvHeads, nk, d});
    HostArray o = HostArray::create((*types)[3], {heads, nq, d});
    // Scores of a few units make the softmax neither flat nor one-hot.
    for (HostArray *array : {&q, &k, &v})
      fillUniform(*array, rng, -2.0, 2.0);
    if (keyRamp != 0.0)
      for (int64_t i = 0; i < k.getNumElements(); ++i) {
        int64_t key = i / d % nk;
        k.set(i, k.get(i) * (1.0 + keyRamp * double(key) /
                                       double(std::max<int64_t>(1, nk - 1))));
      }
    CaseRun run{{LaunchArg::ofArray(q), LaunchArg::ofArray(k),
                 LaunchArg::ofArray(v), LaunchArg::ofArray(o)},
                {{&q, "Q"}, {&k, "K"}, {&v, "V"}},
                &o,
                "O"};
    std::optional<GridSize> grid;
    if (rowsPerBlock)
      grid = GridSize{uint32_t(std::max<int64_t>(1, (nq + *rowsPerBlock - 1) /
                                                        *rowsPerBlock)),
                      uint32_t(std::max<int64_t>(1, heads)), 1};
    auto outcome =
        launchAndCheck(device, module, signature, run, grid, options, [&] {
          return attentionReference(q, k, v, causal, o.getType(), roundedSum);
        });
    if (outcome) {
      std::string description;
      llvm::raw_string_ostream os(description);
      os << "BH=" << heads;
      if (kvHeads != heads)
        os << " KVH=" << kvHeads;
      os << " Nq=" << nq << " Nk=" << nk << " d=" << d;
      if (keyRamp != 0.0)
        os << " kramp=" << llvm::format("%g", keyRamp);
      outcome->description = std::move(description);
    }
    return outcome;
  }

private:
  bool causal;
  bool roundedSum; ///< The kernel divides by the sum of the bf16 P.
  std::optional<int64_t> rowsPerBlock;
  double keyRamp;
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
  // rows=N: query or matrix rows per block; optional, the kernel's own grid
  // rule decides otherwise.
  auto rows = [&]() -> llvm::Expected<std::optional<int64_t>> {
    if (!spec.params.count("rows"))
      return std::nullopt;
    double value;
    if (llvm::Error error = number("rows", "", value))
      return std::move(error);
    if (value < 1 || value != std::floor(value))
      return makeError("line " + llvm::Twine(spec.line) +
                       ": rows=N (rows per block) must be a positive integer");
    return int64_t(value);
  };
  if (spec.workload == "layernorm" || spec.workload == "rmsnorm") {
    double eps;
    if (llvm::Error error = number("eps", "1e-5", eps))
      return std::move(error);
    auto perBlock = rows();
    if (!perBlock)
      return perBlock.takeError();
    return std::make_unique<NormWorkload>(spec.workload == "rmsnorm",
                                          float(eps), *perBlock);
  }
  if (spec.workload == "attention") {
    auto perBlock = rows();
    if (!perBlock)
      return perBlock.takeError();
    std::string causal = spec.get("causal", "0");
    if (causal != "0" && causal != "1")
      return makeError("line " + llvm::Twine(spec.line) +
                       ": causal must be 0 or 1, got '" + causal + "'");
    // psum: what the kernel sums into its normaliser, the f32
    // probabilities or the bf16 ones P V multiplies.
    std::string psum = spec.get("psum", "f32");
    if (psum != "f32" && psum != "bf16")
      return makeError("line " + llvm::Twine(spec.line) +
                       ": psum must be f32 or bf16, got '" + psum + "'");
    // kramp=R: key j scaled by 1 + R j / (Nk - 1), so that the running
    // max of each query moves along the keys (lazy rescaling's path).
    double keyRamp;
    if (llvm::Error error = number("kramp", "0", keyRamp))
      return std::move(error);
    if (!(keyRamp >= 0.0 && keyRamp <= 16.0))
      return makeError("line " + llvm::Twine(spec.line) +
                       ": kramp must be between 0 and 16, got " +
                       spec.get("kramp"));
    return std::make_unique<AttentionWorkload>(causal == "1", psum == "bf16",
                                               *perBlock, keyRamp);
  }
  // block=RxC: the output tile of one block; optional as rows= is.
  std::optional<std::pair<int64_t, int64_t>> block;
  if (spec.params.count("block")) {
    auto dims = parseShape(spec.get("block"));
    if (!dims || dims->size() != 2 || (*dims)[0] <= 0 || (*dims)[1] <= 0) {
      if (!dims)
        llvm::consumeError(dims.takeError());
      return makeError("line " + llvm::Twine(spec.line) +
                       ": block=RxC (the output tile of one block) must be "
                       "two positive sizes");
    }
    block = std::make_pair((*dims)[0], (*dims)[1]);
  }
  if (spec.workload == "gemm") {
    std::string form = spec.get("form");
    if (form != "ab" && form != "abt")
      return makeError("line " + llvm::Twine(spec.line) +
                       ": gemm needs form=ab or form=abt, got '" + form + "'");
    return std::make_unique<GemmWorkload>(form == "abt", block);
  }
  if (spec.workload == "elementwise") {
    if (spec.get("expr") != "scale_add")
      return makeError("line " + llvm::Twine(spec.line) +
                       ": elementwise supports expr=scale_add, got '" +
                       spec.get("expr") + "'");
    double alpha;
    if (llvm::Error error = number("alpha", "1", alpha))
      return std::move(error);
    return std::make_unique<ScaleAddWorkload>(float(alpha), block);
  }
  return makeError(
      "line " + llvm::Twine(spec.line) + ": unknown workload '" +
      spec.workload +
      "' (known: gemm, elementwise, layernorm, rmsnorm, attention, script)");
}
