//===- ScriptWorkload.cpp - HK-RUN cases described by a Python script -----===//

#include "ScriptWorkload.h"

#include "Python.h"

#include "hk/Emulator/Npy.h"
#include "hk/Runtime/HostArray.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <map>

using namespace hk;
using namespace hk::run;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Calls the case function, rounds its inputs to the kernel's element types,
/// calls its reference and writes everything to the folder as .npy files and
/// case.json (the format ScriptWorkload::run reads).
constexpr llvm::StringLiteral kCaseDriver = R"py(
import importlib.util, json, os, sys
import numpy as np

path, function, folder = sys.argv[1:4]
where = f"{os.path.basename(path)}:{function}"

def fail(message):
    sys.exit(f"{where}: {message}")

with open(os.path.join(folder, "request.json")) as file:
    request = json.load(file)
sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
spec = importlib.util.spec_from_file_location("hk_case", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
if not callable(getattr(module, function, None)):
    sys.exit(f"{path} has no function '{function}'")
case = getattr(module, function)(tuple(request["shape"]),
                                 dict(request["params"]),
                                 np.random.default_rng(request["seed"]))
if not isinstance(case, dict):
    fail("must return a dict (inputs, views, outputs, scalars, reference, "
         "grid, description)")
known = ("inputs", "views", "outputs", "scalars", "reference", "grid",
         "description")
unknown = sorted(set(case) - set(known))
if unknown:
    fail(f"returned unknown keys {', '.join(unknown)}; known: {', '.join(known)}")
params = {a["name"]: a for a in request["args"]}
names = ", ".join(a["name"] for a in request["args"])
inputs = case.get("inputs", {})
views = case.get("views", {})
outputs = case.get("outputs", {})
scalars = case.get("scalars", {})
groups = (("inputs", inputs), ("views", views), ("outputs", outputs),
          ("scalars", scalars))
for a in request["args"]:
    found = [group for group, entries in groups if a["name"] in entries]
    if len(found) != 1:
        fail(f"kernel argument '{a['name']}' must be in exactly one of inputs, "
             f"views, outputs and scalars; found in {', '.join(found) or 'none'}")
for group, entries in groups[1:]:
    for name in entries:
        if name not in params:
            fail(f"{group} names '{name}', no argument of the kernel "
                 f"(its arguments: {names})")
        wants_view = group != "scalars"
        if (params[name]["kind"] == "view") != wants_view:
            fail(f"'{name}' is {'a view' if params[name]['kind'] == 'view' else 'a scalar'}"
                 f" argument; it cannot be in {group}")

dtype_of = {}
for name in inputs:
    if name in params:
        if params[name]["kind"] != "view":
            fail(f"'{name}' is a scalar argument; give it in scalars")
        dtype_of[name] = params[name]["dtype"]
for name, view in views.items():
    if len(view) != 3:
        fail(f"view '{name}' must be (array, shape, strides)")
    base = view[0]
    if base not in inputs:
        fail(f"view '{name}' addresses '{base}', which is not in inputs")
    dtype = params[name]["dtype"]
    if dtype_of.setdefault(base, dtype) != dtype:
        fail(f"'{base}' is viewed as {dtype_of[base]} and as {dtype}")
for name in inputs:
    if name not in dtype_of:
        fail(f"input '{name}' is no argument of the kernel and no view "
             f"addresses it (arguments: {names})")

INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}

def rounded(name, values, dtype):
    a = np.asarray(values)
    if dtype in INT_BITS:
        a = a.astype(np.float64)
        bits = INT_BITS[dtype]
        if not np.all(np.isfinite(a)) or np.any(a != np.round(a)):
            fail(f"'{name}' holds {dtype} elements: its values must be integers")
        if np.any(a < -2.0 ** (bits - 1)) or np.any(a >= 2.0 ** (bits - 1)):
            fail(f"'{name}' has values outside the range of {dtype}")
        return a.astype(np.int64)
    a = a.astype(np.float64)
    if dtype == "f32":
        return a.astype(np.float32).astype(np.float64)
    if dtype == "f16":
        return a.astype(np.float16).astype(np.float64)
    if dtype == "bf16":
        b = a.astype(np.float32).view(np.uint32).astype(np.uint64)
        b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
        return b.astype(np.uint32).view(np.float32).astype(np.float64)
    fail(f"'{name}': script cases support f32, f16, bf16 and i8..i64 "
         f"elements, not {dtype}")

def contiguous(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(int(size), 1)
    return strides

values = {name: rounded(name, array, dtype_of[name])
          for name, array in inputs.items()}
meta = {"arrays": [], "args": [], "checks": [],
        "description": str(case.get("description", "")),
        "grid": [int(g) for g in case["grid"]] if case.get("grid") else None}
for name, array in values.items():
    file = f"in_{name}.npy"
    np.save(os.path.join(folder, file), np.ascontiguousarray(array))
    meta["arrays"].append({"name": name, "dtype": dtype_of[name],
                           "shape": list(array.shape), "file": file,
                           "role": "input"})
out_shapes = {}
for name, out in outputs.items():
    dtype = params[name]["dtype"]
    entry = {"name": name, "dtype": dtype, "role": "output"}
    if isinstance(out, (tuple, list)) and all(
            isinstance(s, (int, np.integer)) for s in out):
        entry["shape"] = [int(s) for s in out]
    else:
        initial = rounded(name, out, dtype)
        entry["shape"] = list(initial.shape)
        entry["file"] = f"init_{name}.npy"
        np.save(os.path.join(folder, entry["file"]),
                np.ascontiguousarray(initial))
    out_shapes[name] = tuple(entry["shape"])
    meta["arrays"].append(entry)
for a in request["args"]:
    name = a["name"]
    if name in scalars:
        meta["args"].append({"value": float(scalars[name])})
    elif name in views:
        base, shape, strides = views[name]
        meta["args"].append({"array": base, "sizes": [int(s) for s in shape],
                             "strides": [int(s) for s in strides]})
    else:
        shape = out_shapes[name] if name in outputs else values[name].shape
        meta["args"].append({"array": name, "sizes": list(shape),
                             "strides": contiguous(shape)})

if outputs:
    if not callable(case.get("reference")):
        fail("has outputs but no reference function")
    refs = case["reference"](**values)
    if not isinstance(refs, dict) or set(refs) != set(outputs):
        fail(f"reference must return {{output: (values, bound, rule)}} for "
             f"exactly the outputs {', '.join(outputs)}")
    for name, ref in refs.items():
        if len(ref) != 3:
            fail(f"reference of '{name}' must be (values, bound, rule)")
        ref_values = np.asarray(ref[0], dtype=np.float64)
        if ref_values.shape != out_shapes[name]:
            fail(f"reference of '{name}' has shape {ref_values.shape}, the "
                 f"output {out_shapes[name]}")
        bound = np.broadcast_to(np.asarray(ref[1], dtype=np.float64),
                                ref_values.shape)
        # C order, as the .npy reader wants it (x.T is Fortran-ordered).
        np.save(os.path.join(folder, f"ref_{name}.npy"),
                np.ascontiguousarray(ref_values))
        np.save(os.path.join(folder, f"bound_{name}.npy"),
                np.ascontiguousarray(bound))
        meta["checks"].append({"param": name, "values": f"ref_{name}.npy",
                               "bounds": f"bound_{name}.npy",
                               "rule": str(ref[2])})
with open(os.path.join(folder, "case.json"), "w") as file:
    json.dump(meta, file)
)py";

namespace {

llvm::Expected<std::vector<int64_t>> intList(const llvm::json::Value *value,
                                             llvm::StringRef what) {
  const llvm::json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array)
    return makeError("case.json: " + what + " is not a list");
  std::vector<int64_t> result;
  for (const llvm::json::Value &item : *array) {
    std::optional<int64_t> number = item.getAsInteger();
    if (!number)
      return makeError("case.json: " + what + " holds a non-integer");
    result.push_back(*number);
  }
  return result;
}

/// The float64 or int64 values of a .npy file the driver wrote.
llvm::Expected<std::vector<double>> readValues(const std::string &path,
                                               llvm::ArrayRef<int64_t> shape) {
  auto npy = emu::readNpy(path);
  if (!npy)
    return npy.takeError();
  if (npy->dtype != "f8" && npy->dtype != "i8")
    return makeError(path + ": expected float64 or int64 values");
  if (npy->shape.size() != shape.size() ||
      !std::equal(shape.begin(), shape.end(), npy->shape.begin(),
                  [](int64_t a, uint64_t b) { return uint64_t(a) == b; }))
    return makeError(path + ": unexpected shape");
  std::vector<double> values(npy->elementCount());
  for (size_t i = 0; i < values.size(); ++i) {
    if (npy->dtype == "f8") {
      std::memcpy(&values[i], npy->data.data() + i * 8, 8);
    } else {
      int64_t word;
      std::memcpy(&word, npy->data.data() + i * 8, 8);
      values[i] = double(word);
    }
  }
  return values;
}

/// Everything one case launches: the arrays (by name) and the arguments.
struct ScriptCase {
  std::map<std::string, HostArray> arrays;
  std::map<std::string, bool> isInput;
  std::vector<HostArray> views; ///< One per view argument.
  std::vector<LaunchArg> args;
  std::optional<GridSize> grid;
  std::string description;
  llvm::json::Array checks;
};

class ScriptWorkload : public Workload {
public:
  ScriptWorkload(std::string script, std::string function,
                 llvm::StringMap<std::string> params)
      : script(std::move(script)), function(std::move(function)),
        params(std::move(params)) {}

  llvm::Expected<CaseOutcome>
  run(emu::Device &device, const emu::Module &module,
      const KernelSignature &signature, llvm::ArrayRef<int64_t> shape,
      const CaseSettings &settings,
      const emu::LaunchOptions &options) const override {
    auto folder = TempDir::create("hk-run-case");
    if (!folder)
      return folder.takeError();
    if (llvm::Error error = writeRequest(*folder, signature, shape, settings))
      return std::move(error);
    if (llvm::Error error =
            runPython(kCaseDriver, {script, function, folder->getPath()},
                      "the case script " + script + ":" + function))
      return std::move(error);
    ScriptCase c;
    if (llvm::Error error = readCase(*folder, signature, c))
      return std::move(error);

    std::map<std::string, HostArray> before;
    for (auto &[name, array] : c.arrays)
      if (c.isInput[name])
        before[name] = array.clone();
    auto launched =
        launchKernel(device, module, signature, c.args, c.grid, options);
    if (!launched)
      return launched.takeError();

    CaseOutcome outcome;
    outcome.description = c.description;
    for (const llvm::json::Value &value : c.checks) {
      const llvm::json::Object &check = *value.getAsObject();
      std::string name = check.getString("param")->str();
      size_t index = paramIndex(signature, name);
      HostArray &out = *c.args[index].array;
      Reference ref;
      auto values =
          readValues(folder->file(*check.getString("values")), out.getSizes());
      if (!values)
        return values.takeError();
      auto bounds =
          readValues(folder->file(*check.getString("bounds")), out.getSizes());
      if (!bounds)
        return bounds.takeError();
      ref.values = std::move(*values);
      ref.bounds = std::move(*bounds);
      ref.rule = check.getString("rule")->str();
      CheckResult result = compareWithReference(out, ref, name);
      result.toleranceRule = name + ": " + result.toleranceRule;
      if (out.getType().isFloat())
        checkWritten(out, name, result);
      outcome.check.merge(result);
    }
    for (auto &[name, snapshot] : before)
      checkUnchanged(snapshot, c.arrays[name], name, outcome.check);
    outcome.launch = std::move(launched->result);
    outcome.grid = launched->grid;
    return outcome;
  }

private:
  static size_t paramIndex(const KernelSignature &signature,
                           llvm::StringRef name) {
    for (size_t i = 0; i < signature.params.size(); ++i)
      if (getParamName(signature, i) == name)
        return i;
    return signature.params.size();
  }

  llvm::Error writeRequest(const TempDir &folder,
                           const KernelSignature &signature,
                           llvm::ArrayRef<int64_t> shape,
                           const CaseSettings &settings) const {
    llvm::json::Array args;
    for (auto [i, param] : llvm::enumerate(signature.params)) {
      llvm::StringRef kind = param.kind == KernelParam::View  ? "view"
                             : param.kind == KernelParam::I32 ? "i32"
                                                              : "f32";
      args.push_back(llvm::json::Object{{"name", getParamName(signature, i)},
                                        {"kind", kind},
                                        {"dtype", param.elementType}});
    }
    llvm::json::Object paramsJson;
    for (const auto &entry : params)
      paramsJson[entry.getKey()] = entry.getValue();
    std::string path = folder.file("request.json");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return makeError("cannot write '" + path + "': " + ec.message());
    os << llvm::json::Value(
        llvm::json::Object{{"shape", llvm::json::Array(shape)},
                           {"params", std::move(paramsJson)},
                           {"seed", int64_t(settings.seed)},
                           {"args", std::move(args)}});
    return llvm::Error::success();
  }

  /// Builds the arrays and arguments case.json describes.
  llvm::Error readCase(const TempDir &folder, const KernelSignature &signature,
                       ScriptCase &c) const {
    auto buffer = llvm::MemoryBuffer::getFile(folder.file("case.json"));
    if (!buffer)
      return makeError("the case script wrote no case.json");
    auto parsed = llvm::json::parse((*buffer)->getBuffer());
    if (!parsed)
      return parsed.takeError();
    const llvm::json::Object &meta = *parsed->getAsObject();
    c.description = meta.getString("description").value_or("").str();
    if (const llvm::json::Value *grid = meta.get("grid");
        grid && grid->kind() != llvm::json::Value::Null) {
      auto dims = intList(grid, "grid");
      if (!dims)
        return dims.takeError();
      if (dims->empty() || dims->size() > 3 ||
          llvm::any_of(*dims,
                       [](int64_t d) { return d < 1 || d > 0xffffffff; }))
        return makeError(script + ":" + function +
                         ": grid must be 1 to 3 block counts of at least 1");
      GridSize size{1, 1, 1};
      for (auto [i, d] : llvm::enumerate(*dims))
        size[i] = uint32_t(d);
      c.grid = size;
    }

    for (const llvm::json::Value &value : *meta.getArray("arrays")) {
      const llvm::json::Object &entry = *value.getAsObject();
      std::string name = entry.getString("name")->str();
      auto type = ElementType::lookup(*entry.getString("dtype"));
      if (!type)
        return type.takeError();
      auto shape = intList(entry.get("shape"), "shape of " + name);
      if (!shape)
        return shape.takeError();
      bool input = *entry.getString("role") == "input";
      HostArray array = HostArray::create(*type, *shape);
      std::optional<llvm::StringRef> file = entry.getString("file");
      if (file) {
        auto values = readValues(folder.file(*file), *shape);
        if (!values)
          return values.takeError();
        for (auto [i, v] : llvm::enumerate(*values)) {
          array.set(i, v);
          if (array.get(i) != v)
            return makeError(script + ":" + function + ": '" + name +
                             "' element " + array.describeIndex(i) + " = " +
                             std::to_string(v) + " is not a " + type->name +
                             " value");
        }
      } else if (type->isFloat()) {
        markUnwritten(array);
      } else {
        uint64_t lowest = type->encode(-std::ldexp(1.0, type->bytes * 8 - 1));
        for (int64_t i = 0, e = array.getNumElements(); i < e; ++i)
          array.setBits(i, lowest);
      }
      c.isInput[name] = input;
      c.arrays[name] = std::move(array);
    }

    const llvm::json::Array &args = *meta.getArray("args");
    c.views.resize(args.size());
    c.args.resize(args.size());
    for (auto [i, value] : llvm::enumerate(args)) {
      const llvm::json::Object &arg = *value.getAsObject();
      const KernelParam &param = signature.params[i];
      std::string name = getParamName(signature, i);
      if (std::optional<double> number = arg.getNumber("value")) {
        if (param.kind == KernelParam::F32) {
          c.args[i] = LaunchArg::ofF32(float(*number));
          continue;
        }
        if (*number != std::floor(*number) || std::fabs(*number) > 2147483647.0)
          return makeError(script + ":" + function + ": scalar '" + name +
                           "' is an i32, got " + std::to_string(*number));
        c.args[i] = LaunchArg::ofI32(int32_t(*number));
        continue;
      }
      std::string base = arg.getString("array")->str();
      HostArray &array = c.arrays[base];
      auto sizes = intList(arg.get("sizes"), "sizes of " + name);
      if (!sizes)
        return sizes.takeError();
      auto strides = intList(arg.get("strides"), "strides of " + name);
      if (!strides)
        return strides.takeError();
      if (llvm::Error error = checkView(name, base, array, *sizes, *strides))
        return error;
      c.views[i] = HostArray::wrap(array.getType(), *sizes, *strides,
                                   array.getData(), array.getByteSize(),
                                   /*writable=*/true);
      c.args[i] = LaunchArg::ofArray(c.views[i]);
    }
    if (const llvm::json::Array *checks = meta.getArray("checks"))
      c.checks = *checks;
    return llvm::Error::success();
  }

  /// A view must stay inside the array it addresses.
  llvm::Error checkView(llvm::StringRef name, llvm::StringRef base,
                        const HostArray &array, llvm::ArrayRef<int64_t> sizes,
                        llvm::ArrayRef<int64_t> strides) const {
    std::string where = script + ":" + function + ": view '" + name.str() +
                        "' of '" + base.str() + "'";
    if (sizes.size() != strides.size() || sizes.empty())
      return makeError(where + " needs one stride per size");
    if (strides.back() != 1)
      return makeError(where + " must have an innermost stride of 1");
    int64_t last = 0;
    bool empty = false;
    for (auto [size, stride] : llvm::zip(sizes, strides)) {
      if (size < 0 || stride < 0)
        return makeError(where + " has a negative size or stride");
      empty |= size == 0;
      last += (size - 1) * stride;
    }
    if (!empty && last >= array.getNumElements())
      return makeError(where + " reaches element " + llvm::Twine(last) +
                       ", past the " + llvm::Twine(array.getNumElements()) +
                       " elements of '" + base + "'");
    return llvm::Error::success();
  }

  std::string script, function;
  llvm::StringMap<std::string> params;
};

} // namespace

llvm::Expected<std::unique_ptr<Workload>>
hk::run::makeScriptWorkload(const RunSpec &spec, llvm::StringRef examplePath) {
  std::string at = "line " + std::to_string(spec.line) + ": ";
  std::string caseText = spec.get("case");
  auto [file, function] = llvm::StringRef(caseText).split(':');
  if (file.empty() || function.empty())
    return makeError(at + "script needs case=FILE.py:FUNCTION (the file next "
                          "to the example)");
  llvm::SmallString<128> path = llvm::sys::path::parent_path(examplePath);
  llvm::sys::path::append(path, file);
  if (!llvm::sys::fs::exists(path))
    return makeError(at + "case script '" + path + "' does not exist");
  llvm::StringMap<std::string> params;
  for (const auto &entry : spec.params)
    if (entry.getKey() != "case" && entry.getKey() != "kernel")
      params[entry.getKey()] = entry.getValue();
  return std::make_unique<ScriptWorkload>(path.str().str(), function.str(),
                                          std::move(params));
}
