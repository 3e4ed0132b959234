//===- HKModule.cpp - The hk._hk Python extension -------------------------===//
//
// Binds what the `hk` package needs from the C++ libraries: the in-process
// compiler (hk::compileSource), the chip table (hk::ChipInfo), the kernel
// ABI (hk::packKernelArgs), the emulator (hk::emu::Device) and the
// emulator's bf16/fp8 conversions, applied to numpy arrays.
//
// python/hk checks a launch's arguments against the kernel signature and
// words the errors for Python users; this file repeats only the checks that
// keep a wrong call from reading or writing outside an array, and turns
// every llvm::Error into a Python exception.
//
//===----------------------------------------------------------------------===//

#include "hk/Compiler/Compiler.h"
#include "hk/Emulator/Device.h"
#include "hk/Emulator/Numerics.h"
#include "hk/Runtime/CodeObject.h"
#include "hk/Runtime/HostArray.h"
#include "hk/Runtime/KernelABI.h"
#include "hk/Runtime/Launch.h"
#include "hk/Runtime/References.h"

#include "HipDevice.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <atomic>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace hk;

namespace {

/// Becomes hk._hk.CompileError: the source did not compile.
struct CompileFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Becomes hk._hk.LaunchError: the emulator could not load or run a kernel.
struct LaunchFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <typename Failure> [[noreturn]] void raise(llvm::Error error) {
  throw Failure(llvm::toString(std::move(error)));
}

const ChipInfo &lookupChip(const std::string &name) {
  if (const ChipInfo *chip = ChipInfo::lookup(name))
    return *chip;
  throw py::value_error("unknown chip '" + name +
                        "'; known chips: " + ChipInfo::knownChipNames());
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

/// A compiled module and, from its first launch on, the emulator's decoded
/// copy of its code object (which serves every device of the chip).
struct PyModule {
  CompiledModule compiled;
  const ChipInfo *chip = nullptr;
  /// The code object's metadata (registers, LDS, spills per kernel).
  CodeObject object;
  std::unique_ptr<emu::Module> loaded;
  /// Tells modules apart for the HIP devices that load them.
  uint64_t serial = nextSerial();

  static uint64_t nextSerial() {
    static std::atomic<uint64_t> counter{0};
    return ++counter;
  }
};

py::dict describeParam(const KernelParam &param) {
  py::dict d;
  switch (param.kind) {
  case KernelParam::View: {
    py::list shape;
    for (int64_t size : param.shape)
      shape.append(size < 0 ? py::object(py::none()) : py::int_(size));
    d["kind"] = "view";
    d["dtype"] = param.elementType;
    d["shape"] = py::tuple(shape);
    d["element_bytes"] = param.elementBytes;
    return d;
  }
  case KernelParam::I32:
    d["kind"] = "i32";
    return d;
  case KernelParam::F32:
    d["kind"] = "f32";
    return d;
  }
  throw std::logic_error("unknown kernel parameter kind");
}

py::dict describeResources(const ChipInfo &chip, const KernelSignature &kernel,
                           const KernelInfo *info) {
  py::dict d;
  if (!info)
    return d;
  // The metadata's .vgpr_count holds the AGPRs too: report the parts.
  d["vgprs"] = info->archVgprCount();
  d["agprs"] = info->agprCount;
  d["unified_vgprs"] = info->vgprCount;
  d["waves_per_simd"] = chip.occupancy(
      info->vgprCount, info->groupSegmentFixedSize, kernel.waves);
  d["sgprs"] = info->sgprCount;
  d["lds_bytes"] = info->groupSegmentFixedSize;
  d["scratch_bytes"] = info->privateSegmentFixedSize;
  d["vgpr_spills"] = info->vgprSpillCount;
  d["sgpr_spills"] = info->sgprSpillCount;
  d["spills"] = info->spills();
  return d;
}

py::list describeKernels(const PyModule &module) {
  py::list kernels;
  for (const KernelSignature &signature : module.compiled.kernels) {
    py::list params;
    for (const KernelParam &param : signature.params)
      params.append(describeParam(param));
    py::dict kernel;
    kernel["name"] = signature.name;
    kernel["waves"] = signature.waves;
    kernel["params"] = params;
    if (signature.grid) {
      py::list axes;
      for (const std::vector<GridExtent> &rules : *signature.grid) {
        py::list axis;
        for (const GridExtent &rule : rules)
          axis.append(py::make_tuple(rule.param, rule.dim, rule.extent));
        axes.append(py::tuple(axis));
      }
      kernel["grid_rule"] = py::tuple(axes);
    } else {
      kernel["grid_rule"] = py::none();
    }
    kernel["resources"] = describeResources(
        *module.chip, signature, module.object.findKernel(signature.name));
    kernels.append(kernel);
  }
  return kernels;
}

std::unique_ptr<PyModule> compile(const std::string &source,
                                  const std::string &bufferName,
                                  const std::string &chipName,
                                  const std::string &optionText) {
  const ChipInfo &chip = lookupChip(chipName);
  llvm::Expected<CompileOptions> settings = CompileOptions::parse(optionText);
  if (!settings)
    throw py::value_error(llvm::toString(settings.takeError()));
  llvm::Expected<CompiledModule> compiled = [&] {
    py::gil_scoped_release release;
    return compileSource(source, bufferName, chip, *settings);
  }();
  if (!compiled)
    raise<CompileFailure>(compiled.takeError());
  llvm::Expected<CodeObject> object = CodeObject::parse(compiled->hsaco);
  if (!object)
    raise<CompileFailure>(object.takeError());
  auto module = std::make_unique<PyModule>();
  module->compiled = std::move(*compiled);
  module->chip = &chip;
  module->object = std::move(*object);
  return module;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

/// Checks that `arg` can stand for `param` without any access outside it.
py::array checkedArray(py::handle arg, const KernelParam &param,
                       const std::string &where) {
  if (!py::isinstance<py::array>(arg))
    throw py::type_error(where + " must be a numpy array");
  auto array = py::reinterpret_borrow<py::array>(arg);
  if (size_t(array.ndim()) != param.shape.size())
    throw py::value_error(where + " must have " +
                          std::to_string(param.shape.size()) +
                          " dimensions, got " + std::to_string(array.ndim()));
  if (size_t(array.itemsize()) != param.elementBytes)
    throw py::type_error(
        where + " must have " + std::to_string(param.elementBytes) +
        "-byte elements, got " + std::to_string(array.itemsize()));
  if (!(array.flags() & py::array::c_style))
    throw py::value_error(where + " must be C-contiguous");
  return array;
}

ArgValue scalarValue(py::handle arg, const KernelParam &param,
                     const std::string &where) {
  if (param.kind == KernelParam::F32) {
    if (!py::isinstance<py::float_>(arg) && !py::isinstance<py::int_>(arg))
      throw py::type_error(where + " must be a Python float");
    return ArgValue::ofF32(arg.cast<float>());
  }
  if (!py::isinstance<py::int_>(arg))
    throw py::type_error(where + " must be a Python int");
  long long value = PyLong_AsLongLong(arg.ptr());
  if (PyErr_Occurred() || value < std::numeric_limits<int32_t>::min() ||
      value > std::numeric_limits<int32_t>::max()) {
    PyErr_Clear();
    throw py::value_error(where + " does not fit in i32");
  }
  return ArgValue::ofI32(int32_t(value));
}

/// A launch's arguments as the launch library takes them: each array
/// wrapped in place (an output lands in the array passed), each number
/// converted.
struct HostArgs {
  std::vector<HostArray> arrays; ///< One per parameter; empty for scalars.
  std::vector<LaunchArg> args;
};

HostArgs toHostArgs(const KernelSignature &signature, const py::list &args,
                    const std::vector<size_t> &shared) {
  if (args.size() != signature.params.size())
    throw py::type_error("kernel '" + signature.name + "' takes " +
                         std::to_string(signature.params.size()) +
                         " arguments, got " + std::to_string(args.size()));
  HostArgs host;
  host.arrays.resize(args.size());
  host.args.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelParam &param = signature.params[i];
    std::string where =
        "kernel '" + signature.name + "' argument " + std::to_string(i);
    if (param.kind == KernelParam::I32 || param.kind == KernelParam::F32) {
      ArgValue value = scalarValue(args[i], param, where);
      host.args[i] = param.kind == KernelParam::F32
                         ? LaunchArg::ofF32(value.f32)
                         : LaunchArg::ofI32(value.i32);
      continue;
    }
    py::array array = checkedArray(args[i], param, where);
    auto type = ElementType::lookup(param.elementType);
    if (!type)
      throw py::type_error(where + ": " + llvm::toString(type.takeError()));
    std::vector<int64_t> sizes(array.shape(), array.shape() + array.ndim());
    // Arrays shared through DLPack are the producer's memory: numpy calls
    // them read-only, but outputs belong there.
    bool writable = array.writeable() || llvm::is_contained(shared, i);
    host.arrays[i] = HostArray::wrap(
        *type, sizes, rowMajorStrides(sizes),
        static_cast<uint8_t *>(const_cast<void *>(array.data())),
        uint64_t(array.nbytes()), writable);
    host.args[i] = LaunchArg::ofArray(host.arrays[i]);
  }
  if (llvm::Error error = checkLaunchArgs(signature, host.args))
    throw py::value_error(llvm::toString(std::move(error)));
  return host;
}

const KernelSignature &findSignature(const PyModule &module,
                                     const std::string &kernel) {
  const KernelSignature *signature = module.compiled.findKernel(kernel);
  if (!signature)
    throw py::value_error("no kernel '" + kernel + "' in the module");
  return *signature;
}

void checkChip(const PyModule &module, const ChipInfo &chip) {
  if (&chip != module.chip)
    throw py::value_error("the module was compiled for " +
                          module.chip->name.str() + ", the device is a " +
                          chip.name.str());
}

py::tuple gridTuple(const GridSize &grid) {
  return py::make_tuple(grid[0], grid[1], grid[2]);
}

py::dict describeReport(const emu::SanitizerReport &report) {
  py::dict d;
  d["kind"] = emu::stringifyReportKind(report.kind).str();
  d["kernel"] = report.kernel;
  d["pc"] = report.pc;
  d["workgroup"] = report.workgroup;
  d["wave"] = report.wave;
  d["lane"] = report.lane;
  d["address"] = report.address;
  d["message"] = report.message;
  return d;
}

/// Copies the arrays in, runs `kernelName` over `grid` (or the kernel's own
/// grid), copies every writeable array back out.
py::dict launch(PyModule &module, emu::Device &device,
                const std::string &kernelName, std::optional<GridSize> grid,
                const py::list &args, bool sanitizers, unsigned threads,
                unsigned maxReports, std::optional<uint64_t> watchdog,
                const std::vector<size_t> &shared,
                std::optional<std::string> timingDevice, double clockMHz) {
  const KernelSignature &signature = findSignature(module, kernelName);
  checkChip(module, device.getChip());
  HostArgs host = toHostArgs(signature, args, shared);
  if (!module.loaded) {
    auto loaded = device.loadModule(module.compiled.hsaco);
    if (!loaded)
      raise<LaunchFailure>(loaded.takeError());
    module.loaded = std::move(*loaded);
  }
  emu::LaunchOptions options;
  if (!sanitizers)
    options.sanitizers = emu::SanitizerOptions::none();
  options.threads = threads;
  options.maxReports = maxReports;
  if (watchdog)
    options.watchdogInstructions = *watchdog;
  // An empty name: the chip's default device.
  if (timingDevice) {
    emu::TimingRequest request;
    if (!timingDevice->empty()) {
      request.device = timing::DeviceModel::lookup(*timingDevice);
      if (!request.device)
        throw py::value_error("timing: unknown device '" + *timingDevice +
                              "' (known: " + timing::DeviceModel::knownNames() +
                              ")");
      if (request.device->chipName != device.getChip().name)
        throw py::value_error("timing: " + request.device->name.str() +
                              " is a " + request.device->chipName.str() +
                              " device; the module is for " +
                              device.getChip().name.str());
    }
    request.clockMHz = clockMHz;
    options.timing = request;
  }
  llvm::Expected<LaunchOutcome> outcome = [&] {
    py::gil_scoped_release release;
    return launchKernel(device, *module.loaded, signature, host.args, grid,
                        options);
  }();
  if (!outcome)
    raise<LaunchFailure>(outcome.takeError());
  const emu::LaunchResult &result = outcome->result;

  py::list reports;
  for (const emu::SanitizerReport &report : result.reports)
    reports.append(describeReport(report));
  py::dict d;
  d["counters_json"] =
      llvm::formatv("{0}", llvm::json::Value(result.counters.toJson())).str();
  d["reports"] = reports;
  d["total_reports"] = result.totalReports;
  d["workgroups_run"] = result.workgroupsRun;
  d["seconds"] = result.seconds;
  d["grid"] = gridTuple(outcome->grid);
  if (result.timing)
    d["timing_json"] =
        llvm::formatv("{0}", llvm::json::Value(result.timing->toJson())).str();
  return d;
}

/// The same through a HIP runtime's device.
py::dict launchHip(PyModule &module, HipDevice &device,
                   const std::string &kernelName, std::optional<GridSize> grid,
                   const py::list &args, const std::vector<size_t> &shared) {
  const KernelSignature &signature = findSignature(module, kernelName);
  checkChip(module, device.getChip());
  HostArgs host = toHostArgs(signature, args, shared);
  auto outcome = [&] {
    py::gil_scoped_release release;
    return device.launch(module.serial, module.compiled.hsaco, signature,
                         host.args, grid);
  }();
  if (!outcome)
    raise<LaunchFailure>(outcome.takeError());
  py::dict d;
  d["grid"] = gridTuple(outcome->first);
  d["seconds"] = outcome->second;
  return d;
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

using ValueArray =
    py::array_t<double, py::array::c_style | py::array::forcecast>;

/// `values` as an f64 host array (values are exact in f64).
HostArray valuesArray(ValueArray &values) {
  std::vector<int64_t> sizes(values.shape(), values.shape() + values.ndim());
  return HostArray::wrap(*ElementType::lookup("f64"), sizes,
                         rowMajorStrides(sizes),
                         reinterpret_cast<uint8_t *>(values.mutable_data()),
                         uint64_t(values.nbytes()), /*writable=*/false);
}

const ElementType &outputType(const std::string &name) {
  static std::map<std::string, ElementType> types;
  auto found = types.find(name);
  if (found != types.end())
    return found->second;
  auto type = ElementType::lookup(name);
  if (!type)
    throw py::value_error(llvm::toString(type.takeError()));
  return types.emplace(name, std::move(*type)).first->second;
}

/// One of References.h's references: (values, bounds, rule), shaped like
/// `shape`.
py::tuple reference(const std::string &kind, std::vector<ValueArray> inputs,
                    const std::string &outType, double scalar, bool flag) {
  std::vector<HostArray> arrays;
  for (ValueArray &input : inputs)
    arrays.push_back(valuesArray(input));
  auto need = [&](size_t count) {
    if (arrays.size() != count)
      throw py::value_error(kind + " takes " + std::to_string(count) +
                            " arrays");
  };
  llvm::Expected<Reference> ref = llvm::createStringError(
      llvm::inconvertibleErrorCode(), "unknown reference '" + kind + "'");
  std::vector<py::ssize_t> shape;
  if (kind == "gemm") {
    need(2);
    llvm::consumeError(ref.takeError());
    ref = gemmReference(arrays[0], arrays[1], flag, outputType(outType));
    if (ref)
      shape = {inputs[0].shape(0), inputs[1].shape(flag ? 0 : 1)};
  } else if (kind == "scale_add") {
    need(2);
    llvm::consumeError(ref.takeError());
    ref = scaleAddReference(arrays[0], arrays[1], float(scalar));
    shape.assign(inputs[0].shape(), inputs[0].shape() + inputs[0].ndim());
  } else if (kind == "layernorm" || kind == "rmsnorm") {
    need(kind == "layernorm" ? 3 : 2);
    llvm::consumeError(ref.takeError());
    ref = normReference(arrays[0], arrays[1],
                        kind == "layernorm" ? &arrays[2] : nullptr,
                        float(scalar), outputType(outType));
    shape.assign(inputs[0].shape(), inputs[0].shape() + inputs[0].ndim());
  } else if (kind == "attention") {
    need(3);
    llvm::consumeError(ref.takeError());
    ref = attentionReference(arrays[0], arrays[1], arrays[2], flag,
                             outputType(outType));
    shape.assign(inputs[0].shape(), inputs[0].shape() + inputs[0].ndim());
  }
  if (!ref)
    throw py::value_error(llvm::toString(ref.takeError()));
  py::array_t<double> values(shape), bounds(shape);
  std::copy(ref->values.begin(), ref->values.end(), values.mutable_data());
  std::copy(ref->bounds.begin(), ref->bounds.end(), bounds.mutable_data());
  return py::make_tuple(values, bounds, ref->rule);
}

//===----------------------------------------------------------------------===//
// Number formats
//===----------------------------------------------------------------------===//

template <typename T>
using InputArray = py::array_t<T, py::array::c_style | py::array::forcecast>;

/// `convert` applied to every element of `input`, in an array of its shape.
template <typename Out, typename In, typename Convert>
py::array_t<Out> mapElements(const InputArray<In> &input, Convert convert) {
  py::array_t<Out> output(
      std::vector<py::ssize_t>(input.shape(), input.shape() + input.ndim()));
  const In *in = input.data();
  Out *out = output.mutable_data();
  for (py::ssize_t i = 0; i < input.size(); ++i)
    out[i] = convert(in[i]);
  return output;
}

const emu::MiniFloat &lookupFp8(const std::string &name) {
  if (name == "f8E4M3FNUZ")
    return emu::fp8Format(Fp8Format::FNUZ, /*e5m2=*/false);
  if (name == "f8E5M2FNUZ")
    return emu::fp8Format(Fp8Format::FNUZ, /*e5m2=*/true);
  if (name == "f8E4M3FN")
    return emu::fp8Format(Fp8Format::OCP, /*e5m2=*/false);
  if (name == "f8E5M2")
    return emu::fp8Format(Fp8Format::OCP, /*e5m2=*/true);
  throw py::value_error("unknown fp8 type '" + name +
                        "'; known: f8E4M3FNUZ, f8E5M2FNUZ (gfx942), "
                        "f8E4M3FN, f8E5M2 (gfx950)");
}

py::array_t<uint8_t> encodeFp8(const InputArray<double> &values,
                               const std::string &format, bool saturate) {
  const emu::MiniFloat &fp8 = lookupFp8(format);
  return mapElements<uint8_t>(values, [&](double value) {
    return uint8_t(emu::encodeMiniFloat(value, fp8, saturate));
  });
}

py::array_t<float> decodeFp8(const InputArray<uint8_t> &bits,
                             const std::string &format) {
  const emu::MiniFloat &fp8 = lookupFp8(format);
  return mapElements<float>(bits, [&](uint8_t value) {
    return float(emu::decodeMiniFloat(value, fp8));
  });
}

py::dict describeChip(const std::string &name) {
  const ChipInfo &chip = lookupChip(name);
  py::dict d;
  d["name"] = chip.name.str();
  d["products"] = chip.products.str();
  d["generation"] = chip.generation.str();
  d["compute_units"] = chip.computeUnits;
  d["xcds"] = chip.xcds;
  d["lds_bytes"] = chip.ldsBytesPerWorkgroup;
  d["wave_size"] = chip.waveSize;
  return d;
}

} // namespace

PYBIND11_MODULE(_hk, m) {
  m.doc() = "Native part of the hk package (see hk's docstrings).";
  py::register_exception<CompileFailure>(m, "CompileError", PyExc_RuntimeError);
  py::register_exception<LaunchFailure>(m, "LaunchError", PyExc_RuntimeError);

  m.def("chips", [] {
    std::vector<std::string> names;
    for (const ChipInfo &chip : ChipInfo::all())
      names.push_back(chip.name.str());
    return names;
  });
  m.def("chip_info", &describeChip, py::arg("name"));

  py::class_<PyModule>(m, "CompiledModule")
      .def_property_readonly(
          "chip", [](const PyModule &m) { return m.chip->name.str(); })
      .def_property_readonly(
          "hsaco",
          [](const PyModule &m) { return py::bytes(m.compiled.hsaco); })
      .def_property_readonly(
          "seconds", [](const PyModule &m) { return m.compiled.seconds; })
      .def_property_readonly(
          "unswitch_spilled",
          [](const PyModule &m) { return m.compiled.unswitchSpilled; })
      .def_property_readonly("kernels", &describeKernels);

  m.def("compile", &compile, py::arg("source"), py::arg("buffer_name"),
        py::arg("chip"), py::arg("options"));
  m.def("compile_options", [] {
    py::list list;
    for (const CompileOptionInfo &info : listCompileOptions()) {
      py::dict d;
      d["name"] = info.name;
      d["kind"] = info.kind;
      d["default"] = info.defaultText;
      d["description"] = info.description;
      d["values"] = info.values;
      list.append(d);
    }
    return list;
  });

  py::class_<emu::Device>(m, "Device")
      .def(py::init([](const std::string &chip) {
             return std::make_unique<emu::Device>(lookupChip(chip));
           }),
           py::arg("chip"))
      .def_property_readonly("chip", [](const emu::Device &device) {
        return device.getChip().name.str();
      });

  m.def("launch", &launch, py::arg("module"), py::arg("device"),
        py::arg("kernel"), py::arg("grid"), py::arg("args"),
        py::arg("sanitizers"), py::arg("threads"), py::arg("max_reports"),
        py::arg("watchdog"), py::arg("shared"), py::arg("timing") = py::none(),
        py::arg("clock") = 0.0);

  py::class_<HipDevice>(m, "HipDevice")
      .def(py::init([](const std::string &library) {
             auto device = HipDevice::open(library);
             if (!device)
               raise<LaunchFailure>(device.takeError());
             return std::move(*device);
           }),
           py::arg("library"))
      .def_property_readonly(
          "chip",
          [](const HipDevice &device) { return device.getChip().name.str(); })
      .def_property_readonly("name", &HipDevice::getName)
      .def_property_readonly("library", &HipDevice::getLibrary);

  m.def("launch_hip", &launchHip, py::arg("module"), py::arg("device"),
        py::arg("kernel"), py::arg("grid"), py::arg("args"), py::arg("shared"));

  m.def("reference", &reference, py::arg("kind"), py::arg("inputs"),
        py::arg("out_type"), py::arg("scalar"), py::arg("flag"));

  m.def(
      "encode_bf16",
      [](const InputArray<float> &values) {
        return mapElements<uint16_t>(values, emu::f32ToBf16);
      },
      py::arg("values"));
  m.def(
      "decode_bf16",
      [](const InputArray<uint16_t> &bits) {
        return mapElements<float>(bits, emu::bf16ToF32);
      },
      py::arg("bits"));
  m.def("encode_fp8", &encodeFp8, py::arg("values"), py::arg("format"),
        py::arg("saturate"));
  m.def("decode_fp8", &decodeFp8, py::arg("bits"), py::arg("format"));
}
