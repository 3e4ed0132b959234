//===- ChipLegality.cpp - Checks of hk ops against a chip -----------------===//
//
// The chip-dependent half of the hk ops' invariants. Verifiers never look
// for an enclosing hk.target: an op is valid or not by itself, and whether
// a chip can run it is asked here, with the chip passed in.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/IR/ChipLegality.h"

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/SharedMemory.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hk;

static std::string shapeString(const MfmaInstr &instr) {
  return std::to_string(instr.m) + "x" + std::to_string(instr.n) + "x" +
         std::to_string(instr.k);
}

static std::string listShapes(ArrayRef<const MfmaInstr *> instrs) {
  std::string out;
  for (const MfmaInstr *instr : instrs) {
    if (!out.empty())
      out += ", ";
    out += shapeString(*instr);
  }
  return out.empty() ? "none" : out;
}

/// Checks that the fp8 flavour of `type` is the one the chip's matrix cores
/// read.
static LogicalResult checkFp8Format(Operation *op, const ChipInfo &chip,
                                    Type type) {
  if (isFnuzFp8(type) && chip.fp8Format != Fp8Format::FNUZ)
    return op->emitOpError()
           << "uses " << type << ", an FNUZ fp8 format, but " << chip.name
           << " matrix cores read OCP fp8 (f8E4M3FN, f8E5M2)";
  if (isOcpFp8(type) && chip.fp8Format != Fp8Format::OCP)
    return op->emitOpError()
           << "uses " << type << ", an OCP fp8 format, but " << chip.name
           << " matrix cores read FNUZ fp8 (f8E4M3FNUZ, f8E5M2FNUZ)";
  return success();
}

/// The chip must read the operands' fp8 format and have an MFMA for them:
/// the pinned one, or else one whose shape divides the tiles.
static LogicalResult checkMma(MmaOp mma, const ChipInfo &chip) {
  auto a = cast<RegisterTileType>(mma.getA().getType());
  auto b = cast<RegisterTileType>(mma.getB().getType());
  Type ea = a.getElementType(), eb = b.getElementType();
  if (failed(checkFp8Format(mma, chip, ea)) ||
      failed(checkFp8Format(mma, chip, eb)))
    return failure();
  SmallVector<const MfmaInstr *> candidates = getMfmaCandidates(chip, ea, eb);
  if (MfmaShapeAttr shape = mma.getInstrAttr()) {
    if (!getMfmaInstr(chip, mma))
      return mma.emitOpError()
             << "MFMA " << shape << " for " << ea
             << " operands is not available on " << chip.name
             << " (available: " << listShapes(candidates) << ")";
    return success();
  }
  int64_t m = mma.getM(), n = mma.getN(), k = mma.getK();
  bool fits = llvm::any_of(candidates, [&](const MfmaInstr *instr) {
    return m % instr->m == 0 && n % instr->n == 0 && k % instr->k == 0;
  });
  if (!fits)
    return mma.emitOpError()
           << "no MFMA on " << chip.name << " for " << ea
           << " operands divides MxNxK = " << m << "x" << n << "x" << k
           << " (available: " << listShapes(candidates) << ")";
  return success();
}

static LogicalResult checkAlloc(AllocOp alloc, const ChipInfo &chip) {
  int64_t bytes = getAllocationBytes(alloc);
  if (bytes > chip.ldsBytesPerWorkgroup)
    return alloc.emitOpError()
           << "needs " << bytes << " bytes of LDS, but " << chip.name << " has "
           << chip.ldsBytesPerWorkgroup << " per workgroup";
  return success();
}

/// Each lane of a direct-to-LDS load writes its bytes at consecutive LDS
/// addresses, so the swizzle must keep them together.
static LogicalResult checkGroupLoad(GroupLoadOp load, const ChipInfo &chip) {
  if (load.getPath() != TransferPath::Direct)
    return success();
  SharedTileType shared = load.getDest().getType();
  int64_t elementBytes = getElementBits(shared.getElementType()) / 8;
  int64_t laneBytes = std::min<int64_t>(chip.maxDirectToLdsBytes(),
                                        shared.getCols() * elementBytes);
  auto swizzle = dyn_cast_if_present<SwizzleAttr>(shared.getSwizzle());
  if (swizzle && !swizzle.isIdentity() &&
      int64_t(swizzle.getVec()) * elementBytes < laneBytes)
    return load.emitOpError()
           << "swizzle " << swizzle << " moves groups of "
           << swizzle.getVec() * elementBytes
           << " bytes, but each lane of a direct-to-LDS load on " << chip.name
           << " writes " << laneBytes << " consecutive bytes";
  return success();
}

/// The kernel's shared allocations together must fit the chip's LDS.
static LogicalResult checkKernel(KernelOp kernel, const ChipInfo &chip) {
  int64_t bytes = kernel.getSharedMemoryBytes();
  if (bytes > chip.ldsBytesPerWorkgroup)
    return kernel.emitOpError()
           << "allocates " << bytes << " bytes of LDS, but " << chip.name
           << " has " << chip.ldsBytesPerWorkgroup
           << " per workgroup; use smaller tiles, or end one tile's use "
              "with `hk.wait` then `hk.barrier` before another's first use "
              "so that the two share bytes";
  return success();
}

LogicalResult hk::verifyChipLegality(Operation *root, const ChipInfo &chip) {
  bool legal = true;
  // Post-order: a kernel's total is checked only when each of its
  // allocations fits, so one oversized tile gives one error.
  root->walk([&](Operation *op) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](MmaOp mma) { return checkMma(mma, chip); })
            .Case([&](AllocOp alloc) { return checkAlloc(alloc, chip); })
            .Case([&](GroupLoadOp load) { return checkGroupLoad(load, chip); })
            .Case([&](KernelOp kernel) {
              bool allocsFit = true;
              kernel.walk([&](AllocOp alloc) {
                allocsFit &=
                    getAllocationBytes(alloc) <= chip.ldsBytesPerWorkgroup;
              });
              return allocsFit ? checkKernel(kernel, chip) : success();
            })
            .Default([](Operation *) { return success(); });
    legal &= succeeded(result);
  });
  return success(legal);
}
