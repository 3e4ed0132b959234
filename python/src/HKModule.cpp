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
#include "hk/Runtime/KernelABI.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <limits>
#include <memory>
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

py::dict describeResources(const KernelInfo *info) {
  py::dict d;
  if (!info)
    return d;
  d["vgprs"] = info->vgprCount;
  d["agprs"] = info->agprCount;
  d["sgprs"] = info->sgprCount;
  d["lds_bytes"] = info->groupSegmentFixedSize;
  d["scratch_bytes"] = info->privateSegmentFixedSize;
  d["vgpr_spills"] = info->vgprSpillCount;
  d["sgpr_spills"] = info->sgprSpillCount;
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
    kernel["resources"] =
        describeResources(module.object.findKernel(signature.name));
    kernels.append(kernel);
  }
  return kernels;
}

std::unique_ptr<PyModule> compile(const std::string &source,
                                  const std::string &bufferName,
                                  const std::string &chipName, bool ldsSwizzle,
                                  bool exactWaits, const std::string &direct,
                                  unsigned gridChunk, unsigned gridGroup) {
  const ChipInfo &chip = lookupChip(chipName);
  if (direct != "auto" && direct != "always" && direct != "never")
    throw py::value_error("direct must be 'auto', 'always' or 'never', got '" +
                          direct + "'");
  CompileSettings settings;
  settings.ldsSwizzle = ldsSwizzle;
  settings.exactWaits = exactWaits;
  settings.direct = direct;
  settings.gridChunk = gridChunk;
  settings.gridGroup = gridGroup;
  llvm::Expected<CompiledModule> compiled = [&] {
    py::gil_scoped_release release;
    return compileSource(source, bufferName, chip, settings);
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

/// Device memory of one launch, released when the launch is over.
class LaunchBuffers {
public:
  explicit LaunchBuffers(emu::Device &device) : device(device) {}
  LaunchBuffers(const LaunchBuffers &) = delete;
  LaunchBuffers &operator=(const LaunchBuffers &) = delete;
  ~LaunchBuffers() {
    for (emu::DevicePtr ptr : pointers)
      llvm::consumeError(device.free(ptr));
  }

  emu::DevicePtr allocate(uint64_t bytes, const std::string &label) {
    pointers.push_back(device.malloc(bytes, label));
    return pointers.back();
  }

private:
  emu::Device &device;
  std::vector<emu::DevicePtr> pointers;
};

/// One array argument: the host array and its device copy.
struct StagedView {
  py::array array;
  emu::DevicePtr device = 0;
};

std::string argumentName(const KernelSignature &signature, size_t index) {
  return "kernel '" + signature.name + "' argument " + std::to_string(index);
}

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

/// Copies the arrays in, runs `kernelName` over `grid`, copies every
/// writeable array back out.
py::dict launch(PyModule &module, emu::Device &device,
                const std::string &kernelName, std::array<uint32_t, 3> grid,
                const py::list &args, bool sanitizers, unsigned threads,
                unsigned maxReports) {
  const KernelSignature *signature = module.compiled.findKernel(kernelName);
  if (!signature)
    throw py::value_error("no kernel '" + kernelName + "' in the module");
  if (&device.getChip() != module.chip)
    throw py::value_error("the module was compiled for " +
                          module.chip->name.str() + ", the device is a " +
                          device.getChip().name.str());
  if (args.size() != signature->params.size())
    throw py::type_error("kernel '" + signature->name + "' takes " +
                         std::to_string(signature->params.size()) +
                         " arguments, got " + std::to_string(args.size()));
  if (!module.loaded) {
    auto loaded = device.loadModule(module.compiled.hsaco);
    if (!loaded)
      raise<LaunchFailure>(loaded.takeError());
    module.loaded = std::move(*loaded);
  }

  // Check every argument (packKernelArgs with null addresses) before any
  // array is copied.
  std::vector<ArgValue> values;
  std::vector<std::pair<size_t, py::array>> arrays;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelParam &param = signature->params[i];
    std::string where = argumentName(*signature, i);
    if (param.kind != KernelParam::View) {
      values.push_back(scalarValue(args[i], param, where));
      continue;
    }
    py::array array = checkedArray(args[i], param, where);
    ViewValue value;
    value.sizes.assign(array.shape(), array.shape() + array.ndim());
    value.strides = rowMajorStrides(value.sizes);
    values.push_back(ArgValue::ofView(std::move(value)));
    arrays.emplace_back(i, std::move(array));
  }
  if (llvm::Error error = packKernelArgs(*signature, values).takeError())
    throw py::value_error(llvm::toString(std::move(error)));

  // The same array passed twice is one buffer, as one pointer would be on a
  // GPU: copied in once, and out once.
  LaunchBuffers buffers(device);
  std::vector<StagedView> views;
  for (auto &entry : arrays) {
    size_t index = entry.first;
    const py::array &array = entry.second;
    uint64_t bytes = array.nbytes();
    auto same = llvm::find_if(views, [&](const StagedView &view) {
      return view.array.data() == array.data() &&
             uint64_t(view.array.nbytes()) == bytes;
    });
    if (same != views.end()) {
      values[index].view.address = same->device;
      continue;
    }
    emu::DevicePtr ptr = buffers.allocate(bytes, "arg" + std::to_string(index));
    if (bytes)
      if (llvm::Error error = device.memcpyHtoD(ptr, array.data(), bytes))
        raise<LaunchFailure>(std::move(error));
    values[index].view.address = ptr;
    views.push_back({array, ptr});
  }
  llvm::Expected<std::vector<uint8_t>> kernargs =
      packKernelArgs(*signature, values);
  if (!kernargs)
    raise<LaunchFailure>(kernargs.takeError());

  emu::LaunchOptions options;
  if (!sanitizers)
    options.sanitizers = emu::SanitizerOptions::none();
  options.threads = threads;
  options.maxReports = maxReports;
  emu::Dim3 gridDims{grid[0], grid[1], grid[2]};
  emu::Dim3 block{signature->waves * module.chip->waveSize, 1, 1};
  llvm::Expected<emu::LaunchResult> result = [&] {
    py::gil_scoped_release release;
    return device.launch(*module.loaded, kernelName, gridDims, block, *kernargs,
                         options);
  }();
  if (!result)
    raise<LaunchFailure>(result.takeError());

  for (StagedView &view : views) {
    uint64_t bytes = view.array.nbytes();
    if (!bytes || !view.array.writeable())
      continue;
    if (llvm::Error error =
            device.memcpyDtoH(view.array.mutable_data(), view.device, bytes))
      raise<LaunchFailure>(std::move(error));
  }

  py::list reports;
  for (const emu::SanitizerReport &report : result->reports)
    reports.append(describeReport(report));
  py::dict d;
  d["counters_json"] =
      llvm::formatv("{0}", llvm::json::Value(result->counters.toJson())).str();
  d["reports"] = reports;
  d["total_reports"] = result->totalReports;
  d["workgroups_run"] = result->workgroupsRun;
  d["seconds"] = result->seconds;
  return d;
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
      .def_property_readonly("kernels", &describeKernels);

  m.def("compile", &compile, py::arg("source"), py::arg("buffer_name"),
        py::arg("chip"), py::arg("lds_swizzle"), py::arg("exact_waits"),
        py::arg("direct"), py::arg("grid_chunk"), py::arg("grid_group"));

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
        py::arg("sanitizers"), py::arg("threads"), py::arg("max_reports"));

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
