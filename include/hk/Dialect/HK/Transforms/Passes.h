//===- Passes.h - hk dialect passes -------------------------------*- C++
//-*-===//

#ifndef HK_DIALECT_HK_TRANSFORMS_PASSES_H
#define HK_DIALECT_HK_TRANSFORMS_PASSES_H

#include "hk/Dialect/HK/IR/HKDialect.h"
#include "hk/Dialect/HK/Transforms/Options.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace hk {

#define GEN_PASS_DECL
#include "hk/Dialect/HK/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hk/Dialect/HK/Transforms/Passes.h.inc"

} // namespace hk

#endif // HK_DIALECT_HK_TRANSFORMS_PASSES_H
