//===- Passes.h - hk conversion passes ----------------------------*- C++
//-*-===//

#ifndef HK_CONVERSION_PASSES_H
#define HK_CONVERSION_PASSES_H

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace hk {

#define GEN_PASS_DECL
#include "hk/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hk/Conversion/Passes.h.inc"

} // namespace hk

#endif // HK_CONVERSION_PASSES_H
