//===- hk-report.cpp - What a code object holds ---------------------------===//
//
//   hk-report kernel.hsaco [--json]
//
// Works on any AMDHSA code object for gfx942/gfx950, ours or foreign: chip,
// code object version, and per kernel its arguments, registers, spills, LDS,
// scratch and occupancy.
//
//===----------------------------------------------------------------------===//

#include "hk/Runtime/CodeObject.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory category("hk-report options");
static cl::list<std::string> inputs(cl::Positional, cl::OneOrMore,
                                    cl::desc("<code object>..."),
                                    cl::cat(category));
static cl::opt<bool> asJson("json", cl::desc("Print JSON"), cl::cat(category));

static unsigned wavesPerWorkgroup(const hk::KernelInfo &kernel) {
  unsigned lanes =
      kernel.maxFlatWorkgroupSize ? kernel.maxFlatWorkgroupSize : 256;
  return (lanes + kernel.wavefrontSize - 1) / kernel.wavefrontSize;
}

static unsigned occupancy(const hk::CodeObject &object,
                          const hk::KernelInfo &kernel) {
  return object.getChip().occupancy(kernel.vgprCount, kernel.agprCount,
                                    kernel.groupSegmentFixedSize,
                                    wavesPerWorkgroup(kernel));
}

static json::Object toJson(const hk::CodeObject &object,
                           const hk::KernelInfo &kernel) {
  json::Array args;
  for (const hk::KernelArg *arg : kernel.explicitArgs())
    args.push_back(json::Object{{"name", arg->name},
                                {"kind", arg->valueKind},
                                {"offset", arg->offset},
                                {"size", arg->size}});
  return json::Object{
      {"name", kernel.name},
      {"args", std::move(args)},
      {"kernarg_bytes", kernel.kernargSegmentSize},
      {"vgpr", kernel.vgprCount},
      {"agpr", kernel.agprCount},
      {"sgpr", kernel.sgprCount},
      {"vgpr_spill", kernel.vgprSpillCount},
      {"sgpr_spill", kernel.sgprSpillCount},
      {"lds_bytes", kernel.groupSegmentFixedSize},
      {"scratch_bytes", kernel.privateSegmentFixedSize},
      {"max_workgroup_size", kernel.maxFlatWorkgroupSize},
      {"waves_per_simd", occupancy(object, kernel)},
  };
}

static void printText(StringRef path, const hk::CodeObject &object) {
  const hk::ChipInfo &chip = object.getChip();
  outs() << path << ": " << chip.name << " (" << chip.products << ", "
         << chip.generation << "), code object v"
         << object.getCodeObjectVersion() << ", target " << object.getTarget()
         << "\n";
  for (const hk::KernelInfo &kernel : object.getKernels()) {
    outs() << "  kernel " << kernel.name << "\n";
    outs() << "    arguments  ";
    bool first = true;
    for (const hk::KernelArg *arg : kernel.explicitArgs()) {
      outs() << (first ? "" : ", ") << arg->valueKind << "@" << arg->offset;
      first = false;
    }
    outs() << " (" << kernel.kernargSegmentSize << " kernarg bytes)\n";
    outs() << "    registers  vgpr " << kernel.vgprCount << ", agpr "
           << kernel.agprCount << ", sgpr " << kernel.sgprCount << "\n";
    outs() << "    spills     vgpr " << kernel.vgprSpillCount << ", sgpr "
           << kernel.sgprSpillCount << ", scratch "
           << kernel.privateSegmentFixedSize << " B/lane\n";
    outs() << "    lds        " << kernel.groupSegmentFixedSize << " B of "
           << chip.ldsBytesPerWorkgroup << "\n";
    outs() << "    occupancy  " << occupancy(object, kernel)
           << " waves/SIMD (workgroup of up to " << kernel.maxFlatWorkgroupSize
           << " lanes)\n";
  }
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "HK-MLIR: report what AMDHSA code objects "
                              "hold\n");
  json::Array all;
  int status = 0;
  for (const std::string &path : inputs) {
    Expected<hk::CodeObject> object = hk::CodeObject::load(path);
    if (!object) {
      WithColor::error(errs(), "hk-report")
          << toString(object.takeError()) << "\n";
      status = 1;
      continue;
    }
    if (!asJson) {
      printText(path, *object);
      continue;
    }
    json::Array kernels;
    for (const hk::KernelInfo &kernel : object->getKernels())
      kernels.push_back(toJson(*object, kernel));
    all.push_back(
        json::Object{{"path", path},
                     {"chip", object->getChip().name},
                     {"code_object_version", object->getCodeObjectVersion()},
                     {"target", object->getTarget()},
                     {"kernels", std::move(kernels)}});
  }
  if (asJson)
    outs() << formatv("{0:2}", json::Value(std::move(all))) << "\n";
  return status;
}
