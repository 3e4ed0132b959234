//===- MainLoop.h - The loop a kernel's schedule applies to -------*- C++
//-*-===//
//
// What the schedule passes (hk-double-buffer, hk-ping-pong, hk-interleave)
// share: finding a kernel's main loop, telling whether a kernel was
// scheduled before, and counting the MFMAs an hk.mma issues.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_DIALECT_HK_TRANSFORMS_MAINLOOP_H
#define HK_LIB_DIALECT_HK_TRANSFORMS_MAINLOOP_H

#include "hk/Dialect/HK/IR/HKOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace hk {

/// The loop a kernel's schedule applies to: the one that names a schedule
/// of its own (`hk.schedule`), or else the kernel's one top-level scf.for
/// holding hk.mma ops. Emits an error when there is none.
mlir::FailureOr<mlir::scf::ForOp> findMainLoop(KernelOp kernel);

/// Every hk.mma of `loop` has its MFMA instruction; emits an error naming
/// `pass` on the first one that does not.
mlir::LogicalResult checkMfmaInstrs(mlir::scf::ForOp loop,
                                    llvm::StringRef pass);

/// The kernel already has its wave-group barriers (ping-pong) or its
/// instruction groups (interleave).
bool hasWaveGroupBarriers(KernelOp kernel);
bool hasInstructionGroups(KernelOp kernel);

/// The loop's body is made of hk.cluster ops (anywhere in it).
bool hasClusters(mlir::scf::ForOp loop);

/// MFMA instructions an hk.mma with its instruction issues.
int64_t countMfmas(MmaOp mma);

/// The priority (s_setprio) of ping-pong's compute clusters.
constexpr int32_t kComputePriority = 1;

} // namespace hk

#endif // HK_LIB_DIALECT_HK_TRANSFORMS_MAINLOOP_H
