//===- SharedMemory.h - Where each hk.alloc lives in LDS --------*- C++ -*-===//
//
// A kernel's hk.alloc ops are placed in its LDS one after the other, except
// that two allocations may share bytes when a fence separates their uses:
// every use of the one (and of the loop-carried values it flows into) lies
// before the fence and every use of the other after it. A fence is a
// token-less hk.wait directly followed by an hk.barrier without wave group,
// both in the kernel body: each wave has drained its loads and LDS accesses
// and every wave has arrived, so nothing still reads or writes the first
// allocation's bytes when the second one's uses begin. A GEMM's epilogue can
// then stage its output tile in the bytes its main loop's buffers used.
//
//   SharedMemoryLayout layout = layoutSharedMemory(kernel);
//   int64_t offset = layout.offsets.lookup(alloc);
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_SHAREDMEMORY_H
#define HK_DIALECT_HK_IR_SHAREDMEMORY_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>

namespace hk {

class AllocOp;
class KernelOp;

struct SharedMemoryLayout {
  /// The byte offset of each hk.alloc (16-byte aligned).
  llvm::DenseMap<mlir::Operation *, int64_t> offsets;
  /// The bytes the allocations span.
  int64_t bytes = 0;
};

/// The bytes `alloc` takes: its shared tile's or vector's size.
int64_t getAllocationBytes(AllocOp alloc);

/// An allocation that does not exist yet: `bytes` used by the kernel-body
/// op that holds `user` (a buffer a pass is about to add to a loop).
struct PlannedAllocation {
  int64_t bytes;
  mlir::Operation *user;
};

/// Places every hk.alloc of `kernel` (and `planned`, whose offsets are not
/// returned), sharing bytes between allocations a fence separates.
SharedMemoryLayout
layoutSharedMemory(KernelOp kernel,
                   llvm::ArrayRef<PlannedAllocation> planned = {});

} // namespace hk

#endif // HK_DIALECT_HK_IR_SHAREDMEMORY_H
