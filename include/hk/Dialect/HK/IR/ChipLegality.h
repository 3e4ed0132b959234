//===- ChipLegality.h - Checks of hk ops against a chip -------------*- C++
//-*-===//
//
// What an op alone determines is checked by its verifier; what depends on
// the chip it is compiled for (matrix-core shapes, fp8 formats, LDS size,
// bytes per lane of direct-to-LDS loads) is checked here, against a chip
// given by the caller: the hk-check-chip pass and the lowering, once the
// target is known.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_CHIPLEGALITY_H
#define HK_DIALECT_HK_IR_CHIPLEGALITY_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace hk {

struct ChipInfo;

/// Checks every hk op under `root` (root included) against `chip`, with one
/// error per illegal op.
mlir::LogicalResult verifyChipLegality(mlir::Operation *root,
                                       const ChipInfo &chip);

} // namespace hk

#endif // HK_DIALECT_HK_IR_CHIPLEGALITY_H
