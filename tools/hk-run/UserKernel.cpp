//===- UserKernel.cpp - hk-run on a kernel and reference of one's own -----===//

#include "UserKernel.h"

#include "Python.h"

#include "hk/Emulator/Npy.h"
#include "hk/Runtime/Check.h"
#include "hk/Runtime/HostArray.h"
#include "hk/Runtime/Launch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace hk;
using namespace hk::run;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {

/// Where one argument's value comes from.
struct ArgSource {
  enum Kind { Npy, Random, Zeros, Unwritten, Number } kind = Number;
  std::string path;           ///< Npy.
  std::vector<int64_t> shape; ///< Random, Zeros, Unwritten.
  double number = 0;          ///< Number.
  std::string text;           ///< As written.
};

llvm::Expected<ArgSource> parseSource(llvm::StringRef name,
                                      llvm::StringRef text) {
  ArgSource source;
  source.text = text.str();
  llvm::StringRef kind = text.split(':').first;
  llvm::StringRef rest = text.split(':').second;
  auto shaped = [&](ArgSource::Kind k) -> llvm::Expected<ArgSource> {
    auto shape = parseShape(rest);
    if (!shape)
      return makeError("--arg=" + name + "=" + text + ": " +
                       toString(shape.takeError()));
    source.kind = k;
    source.shape = std::move(*shape);
    return source;
  };
  if (text.contains(':')) {
    if (kind == "random")
      return shaped(ArgSource::Random);
    if (kind == "zeros")
      return shaped(ArgSource::Zeros);
    if (kind == "out")
      return shaped(ArgSource::Unwritten);
  }
  if (text.ends_with(".npy")) {
    source.kind = ArgSource::Npy;
    source.path = text.str();
    return source;
  }
  if (!text.getAsDouble(source.number))
    return source;
  return makeError("--arg=" + name + "=" + text +
                   ": expected FILE.npy, random:SHAPE, zeros:SHAPE, "
                   "out:SHAPE or a number");
}

/// The values a reference sees of `array`: float64, or int64 for integer
/// element types.
emu::NpyArray toNpy(const HostArray &array) {
  emu::NpyArray npy;
  bool integer = !array.getType().isFloat();
  npy.dtype = integer ? "i8" : "f8";
  for (int64_t size : array.getSizes())
    npy.shape.push_back(uint64_t(size));
  npy.data.resize(array.getNumElements() * 8);
  for (int64_t i = 0, e = array.getNumElements(); i < e; ++i) {
    double value = array.get(i);
    if (integer) {
      int64_t word = int64_t(value);
      std::memcpy(npy.data.data() + i * 8, &word, 8);
    } else {
      std::memcpy(npy.data.data() + i * 8, &value, 8);
    }
  }
  return npy;
}

/// The values of `npy`, which must have `shape`: the bits of `type` when
/// it has the dtype holding them, else any float or integer dtype.
llvm::Expected<std::vector<double>> valuesOf(const emu::NpyArray &npy,
                                             llvm::ArrayRef<int64_t> shape,
                                             const ElementType &type,
                                             llvm::StringRef what) {
  if (npy.shape.size() != shape.size() ||
      !std::equal(shape.begin(), shape.end(), npy.shape.begin(),
                  [](int64_t a, uint64_t b) { return uint64_t(a) == b; })) {
    std::string want, got;
    for (int64_t size : shape)
      want += (want.empty() ? "" : "x") + std::to_string(size);
    for (uint64_t size : npy.shape)
      got += (got.empty() ? "" : "x") + std::to_string(size);
    return makeError(what + " has shape " + (got.empty() ? "()" : got) +
                     ", the output has " + want);
  }
  std::vector<double> values(npy.elementCount());
  unsigned size = npy.elementSize();
  bool bits = npy.dtype == type.numpyDescr();
  llvm::StringRef dtype = npy.dtype;
  for (size_t i = 0; i < values.size(); ++i) {
    const uint8_t *at = npy.data.data() + i * size;
    uint64_t word = 0;
    std::memcpy(&word, at, size);
    if (bits) {
      values[i] = type.decode(word);
    } else if (dtype == "f8") {
      std::memcpy(&values[i], at, 8);
    } else if (dtype == "f4") {
      float f;
      std::memcpy(&f, at, 4);
      values[i] = f;
    } else if (dtype.starts_with("i")) {
      values[i] = double(llvm::SignExtend64(word, size * 8));
    } else if (dtype.starts_with("u") || dtype == "b1") {
      values[i] = double(word);
    } else {
      return makeError(what + " has dtype '" + dtype +
                       "'; expected float64, float32, an integer dtype or " +
                       type.numpyDescr() + " (the bits of " + type.name + ")");
    }
  }
  return values;
}

/// Calls FUNCTION of FILE.py through the system Python: the arguments are
/// written as .npy files and a JSON list, the outputs come back as .npy.
constexpr llvm::StringLiteral kPythonDriver = R"py(
import importlib.util, json, os, sys
import numpy as np
path, function, folder = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("hk_reference", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
if not hasattr(module, function):
    sys.exit(f"{path} has no function '{function}'")
with open(os.path.join(folder, "args.json")) as file:
    meta = json.load(file)
args = [np.load(os.path.join(folder, a["file"])) if "file" in a else a["value"]
        for a in meta["args"]]
result = getattr(module, function)(*args)
outputs = meta["outputs"]
if isinstance(result, dict):
    missing = [o for o in outputs if o not in result]
    if missing:
        sys.exit(f"{function} returned no value for {', '.join(missing)}")
    values = [result[o] for o in outputs]
elif isinstance(result, (tuple, list)):
    values = list(result)
else:
    values = [result]
if len(values) != len(outputs):
    sys.exit(f"{function} returned {len(values)} outputs, the kernel has "
             f"{len(outputs)} ({', '.join(outputs)})")
for name, value in zip(outputs, values):
    # C order: a transposed view (x.T) is Fortran-ordered, which the .npy
    # reader takes as a different layout.
    np.save(os.path.join(folder, "ref_" + name + ".npy"),
            np.ascontiguousarray(value, dtype=np.float64))
)py";

class UserWorkload : public Workload {
public:
  UserWorkload(llvm::StringMap<ArgSource> sources, llvm::StringSet<> outputs,
               llvm::StringMap<std::string> expects, std::string script,
               std::string function, std::optional<GridSize> grid,
               std::optional<double> rtol, std::optional<double> atol)
      : sources(std::move(sources)), outputs(std::move(outputs)),
        expects(std::move(expects)), script(std::move(script)),
        function(std::move(function)), grid(grid), rtol(rtol), atol(atol) {}

  llvm::Expected<CaseOutcome>
  run(emu::Device &device, const emu::Module &module,
      const KernelSignature &signature, llvm::ArrayRef<int64_t>,
      const CaseSettings &settings,
      const emu::LaunchOptions &options) const override {
    // Every parameter needs exactly one --arg, and every --arg a parameter.
    llvm::StringSet<> params;
    std::string names;
    for (size_t i = 0; i < signature.params.size(); ++i) {
      params.insert(getParamName(signature, i));
      names += (names.empty() ? "" : ", ") + getParamName(signature, i);
    }
    for (const auto &entry : sources)
      if (!params.contains(entry.getKey()))
        return makeError("kernel '" + signature.name + "' has no argument '" +
                         entry.getKey() + "' (its arguments: " + names + ")");
    for (llvm::StringRef name : outputs.keys())
      if (!sources.count(name))
        return makeError("--output=" + name + " names no --arg");

    std::mt19937_64 rng(settings.seed);
    std::vector<HostArray> arrays(signature.params.size());
    std::vector<LaunchArg> args(signature.params.size());
    std::vector<size_t> outputIndices, inputIndices;
    std::string description;
    for (auto [i, param] : llvm::enumerate(signature.params)) {
      std::string name = getParamName(signature, i);
      auto found = sources.find(name);
      if (found == sources.end())
        return makeError("kernel '" + signature.name + "' argument '" + name +
                         "' has no value: give --arg=" + name + "=...");
      const ArgSource &source = found->second;
      description +=
          (description.empty() ? "" : " ") + name + "=" + source.text;
      if (param.kind != KernelParam::View) {
        if (source.kind != ArgSource::Number)
          return makeError("kernel '" + signature.name + "' argument '" + name +
                           "' is a scalar (" +
                           (param.kind == KernelParam::F32 ? "f32" : "i32") +
                           "): give a number");
        if (param.kind == KernelParam::F32) {
          args[i] = LaunchArg::ofF32(float(source.number));
        } else {
          if (source.number != std::floor(source.number) ||
              std::fabs(source.number) > 2147483647.0)
            return makeError("kernel '" + signature.name + "' argument '" +
                             name + "' is an i32, got " + source.text);
          args[i] = LaunchArg::ofI32(int32_t(source.number));
        }
        continue;
      }
      if (source.kind == ArgSource::Number)
        return makeError("kernel '" + signature.name + "' argument '" + name +
                         "' is a view (" + param.elementType +
                         "): give FILE.npy, random:SHAPE, zeros:SHAPE or "
                         "out:SHAPE");
      auto type = ElementType::lookup(param.elementType);
      if (!type)
        return type.takeError();
      auto array = makeArray(name, source, *type, rng);
      if (!array)
        return array.takeError();
      arrays[i] = std::move(*array);
      args[i] = LaunchArg::ofArray(arrays[i]);
      if (source.kind == ArgSource::Unwritten || outputs.contains(name))
        outputIndices.push_back(i);
      else
        inputIndices.push_back(i);
    }
    if (outputIndices.empty())
      return makeError("kernel '" + signature.name +
                       "' has no output to check: give one as out:SHAPE or "
                       "name it with --output");
    for (size_t i : outputIndices) {
      std::string name = getParamName(signature, i);
      if (!expects.count(name) && script.empty())
        return makeError("output '" + name +
                         "' has no reference: give "
                         "--expect=" +
                         name + "=FILE.npy or --reference=FILE.py");
    }
    for (const auto &entry : expects)
      if (!llvm::any_of(outputIndices, [&](size_t i) {
            return getParamName(signature, i) == entry.getKey();
          }))
        return makeError("--expect=" + entry.getKey() +
                         " names no output (outputs are out:SHAPE arguments "
                         "and --output ones)");

    // The values before the launch: what references see and what inputs
    // must still hold afterwards.
    std::vector<HostArray> before(arrays.size());
    for (size_t i = 0; i < arrays.size(); ++i)
      if (args[i].array)
        before[i] = arrays[i].clone();
    auto launched =
        launchKernel(device, module, signature, args, grid, options);
    if (!launched)
      return launched.takeError();

    auto references = computeReferences(signature, before, args, outputIndices);
    if (!references)
      return references.takeError();
    CaseOutcome outcome;
    outcome.description = description;
    for (auto [i, values] : llvm::zip(outputIndices, *references)) {
      std::string name = getParamName(signature, i);
      const ElementType &type = arrays[i].getType();
      // One rounding of the output and one of the arithmetic before it.
      double r = rtol.value_or(2 * type.unitRoundoff());
      double a = atol.value_or(0.0);
      CheckResult check =
          compareWithReference(arrays[i], boundedBy(values, r, a), name);
      check.toleranceRule = name + ": " + check.toleranceRule;
      if (sources.find(name)->second.kind == ArgSource::Unwritten)
        checkWritten(arrays[i], name, check);
      outcome.check.merge(check);
    }
    for (size_t i : inputIndices)
      checkUnchanged(before[i], arrays[i], getParamName(signature, i),
                     outcome.check);
    outcome.launch = std::move(launched->result);
    outcome.grid = launched->grid;
    return outcome;
  }

private:
  llvm::Expected<HostArray> makeArray(llvm::StringRef name,
                                      const ArgSource &source,
                                      const ElementType &type,
                                      std::mt19937_64 &rng) const {
    if (source.kind != ArgSource::Npy) {
      HostArray array = HostArray::create(type, source.shape);
      if (source.kind == ArgSource::Random)
        fillUniform(array, rng);
      else if (source.kind == ArgSource::Unwritten)
        markUnwritten(array);
      return array;
    }
    auto npy = emu::readNpy(source.path);
    if (!npy)
      return makeError("--arg=" + name + ": " + toString(npy.takeError()));
    if (npy->dtype != type.numpyDescr())
      return makeError(
          "--arg=" + name + "=" + source.path + " has dtype '" + npy->dtype +
          "'; a view of " + type.name + " takes '" + type.numpyDescr() + "'" +
          (type.numpyDescr().starts_with("u") ? " (the element's bits)" : ""));
    std::vector<int64_t> shape(npy->shape.begin(), npy->shape.end());
    HostArray array = HostArray::create(type, shape);
    std::memcpy(array.getData(), npy->data.data(), npy->data.size());
    return array;
  }

  /// Each output's reference values: --expect files first, then the
  /// Python function for the rest.
  llvm::Expected<std::vector<std::vector<double>>>
  computeReferences(const KernelSignature &signature,
                    const std::vector<HostArray> &before,
                    llvm::ArrayRef<LaunchArg> args,
                    llvm::ArrayRef<size_t> outputIndices) const {
    std::vector<std::vector<double>> references(outputIndices.size());
    std::vector<size_t> fromPython;
    for (auto [n, i] : llvm::enumerate(outputIndices)) {
      std::string name = getParamName(signature, i);
      auto expect = expects.find(name);
      if (expect == expects.end()) {
        fromPython.push_back(n);
        continue;
      }
      auto npy = emu::readNpy(expect->second);
      if (!npy)
        return makeError("--expect=" + name + ": " + toString(npy.takeError()));
      auto values = valuesOf(*npy, before[i].getSizes(), before[i].getType(),
                             "--expect=" + name + "=" + expect->second);
      if (!values)
        return values.takeError();
      references[n] = std::move(*values);
    }
    if (fromPython.empty())
      return references;

    auto folder = TempDir::create("hk-run-reference");
    if (!folder)
      return folder.takeError();
    llvm::json::Array argList;
    for (auto [i, param] : llvm::enumerate(signature.params)) {
      std::string name = getParamName(signature, i);
      if (param.kind == KernelParam::F32) {
        argList.push_back(llvm::json::Object{{"value", double(args[i].f32)}});
        continue;
      }
      if (param.kind == KernelParam::I32) {
        argList.push_back(llvm::json::Object{{"value", int64_t(args[i].i32)}});
        continue;
      }
      std::string file = folder->file("arg" + std::to_string(i) + ".npy");
      if (llvm::Error error = emu::writeNpy(file, toNpy(before[i])))
        return std::move(error);
      argList.push_back(
          llvm::json::Object{{"file", llvm::sys::path::filename(file).str()}});
    }
    llvm::json::Array outputNames;
    for (size_t n : fromPython)
      outputNames.push_back(getParamName(signature, outputIndices[n]));
    std::string metaPath = folder->file("args.json");
    {
      std::error_code ec;
      llvm::raw_fd_ostream meta(metaPath, ec);
      if (ec)
        return makeError("cannot write '" + metaPath + "': " + ec.message());
      meta << llvm::json::Value(llvm::json::Object{
          {"args", std::move(argList)}, {"outputs", std::move(outputNames)}});
    }

    if (llvm::Error error =
            runPython(kPythonDriver, {script, function, folder->getPath()},
                      "the reference " + script + ":" + function))
      return std::move(error);
    for (size_t n : fromPython) {
      size_t i = outputIndices[n];
      std::string name = getParamName(signature, i);
      auto npy = emu::readNpy(folder->file("ref_" + name + ".npy"));
      if (!npy)
        return npy.takeError();
      auto values = valuesOf(*npy, before[i].getSizes(), before[i].getType(),
                             "the reference's " + name);
      if (!values)
        return values.takeError();
      references[n] = std::move(*values);
    }
    return references;
  }

  llvm::StringMap<ArgSource> sources;
  llvm::StringSet<> outputs;
  llvm::StringMap<std::string> expects;
  std::string script, function;
  std::optional<GridSize> grid;
  std::optional<double> rtol, atol;
};

} // namespace

llvm::Expected<std::unique_ptr<Workload>>
hk::run::makeUserWorkload(const UserKernelOptions &options) {
  llvm::StringMap<ArgSource> sources;
  for (llvm::StringRef text : options.args) {
    auto [name, value] = text.split('=');
    if (name.empty() || value.empty() || !text.contains('='))
      return makeError("--arg=" + text + ": expected NAME=VALUE");
    auto source = parseSource(name, value);
    if (!source)
      return source.takeError();
    if (!sources.try_emplace(name, std::move(*source)).second)
      return makeError("--arg=" + name + " is given twice");
  }
  llvm::StringSet<> outputs;
  for (const std::string &name : options.outputs)
    outputs.insert(name);
  llvm::StringMap<std::string> expects;
  for (llvm::StringRef text : options.expects) {
    auto [name, path] = text.split('=');
    if (name.empty() || path.empty())
      return makeError("--expect=" + text + ": expected NAME=FILE.npy");
    expects[name] = path.str();
  }
  auto [script, function] = llvm::StringRef(options.reference).split(':');
  if (!script.empty() && !llvm::sys::fs::exists(script))
    return makeError("--reference: cannot read '" + script + "'");
  std::optional<GridSize> grid;
  if (!options.grid.empty()) {
    llvm::SmallVector<llvm::StringRef, 3> parts;
    llvm::StringRef(options.grid).split(parts, ',');
    GridSize dims{1, 1, 1};
    bool ok = parts.size() <= 3;
    for (auto [i, part] : llvm::enumerate(parts)) {
      unsigned value = 0;
      ok &= !part.getAsInteger(10, value) && value >= 1;
      if (i < 3)
        dims[i] = value;
    }
    if (!ok)
      return makeError("--grid=" + options.grid +
                       ": expected X[,Y[,Z]] block counts of at least 1");
    grid = dims;
  }
  for (auto [name, value] :
       {std::pair{"--rtol", options.rtol}, {"--atol", options.atol}})
    if (value && !(*value >= 0))
      return makeError(llvm::Twine(name) + " must be at least 0");
  return std::make_unique<UserWorkload>(
      std::move(sources), std::move(outputs), std::move(expects), script.str(),
      function.empty() ? "reference" : function.str(), grid, options.rtol,
      options.atol);
}
