//===- GridSwizzle.cpp - XCD remap and grouped block order ----------------===//
//
// Rewrites the block ids a kernel sees into a permutation of the grid. The
// permutation is built from the hardware ids at the kernel's entry, once,
// from wave-uniform index arithmetic.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/KernelSignature.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace hk {
#define GEN_PASS_DEF_HKGRIDSWIZZLE
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// Index arithmetic at one insertion point.
struct IndexBuilder {
  OpBuilder &b;
  Location loc;

  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value sub(Value l, Value r) { return arith::SubIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }
  Value div(Value l, Value r) { return arith::DivUIOp::create(b, loc, l, r); }
  Value rem(Value l, Value r) { return arith::RemUIOp::create(b, loc, l, r); }
  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }
  Value ult(Value l, Value r) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, l, r);
  }
  /// `v`, known to be the same in every lane, read from the first lane so
  /// that the backend keeps it in a scalar register (block ids fit in i32).
  Value uniform(Value v) {
    Value narrow = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), v);
    Value read = ROCDL::ReadfirstlaneOp::create(b, loc, b.getI32Type(), narrow);
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), read);
  }
};

/// The XCD remap of linear block id `pid` in a grid of `count` blocks.
Value remapToXcds(IndexBuilder &ib, Value pid, Value count, unsigned xcds,
                  unsigned chunk) {
  Value xcdCount = ib.constant(xcds);
  Value chunkSize = ib.constant(chunk);
  Value run = ib.constant(int64_t(xcds) * chunk);
  Value whole = ib.mul(ib.div(count, run), run);
  Value local = ib.div(pid, xcdCount);
  Value remapped = ib.add(ib.add(ib.mul(ib.div(local, chunkSize), run),
                                 ib.mul(ib.rem(pid, xcdCount), chunkSize)),
                          ib.rem(local, chunkSize));
  return ib.select(ib.ult(pid, whole), remapped, pid);
}

class GridSwizzlePass : public hk::impl::HKGridSwizzleBase<GridSwizzlePass> {
public:
  using HKGridSwizzleBase::HKGridSwizzleBase;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      if (kernel->hasAttr(HKDialect::getGridSwizzleAttrName()))
        return WalkResult::advance();
      // The kernel's own order, if it asks for one, else the options.
      unsigned kernelChunk = chunk, kernelGroup = group;
      if (auto order = kernel->getAttrOfType<GridOrderAttr>(
              HKDialect::getGridOrderAttrName())) {
        kernelChunk = order.getChunk();
        kernelGroup = order.getGroup();
        kernel->removeAttr(HKDialect::getGridOrderAttrName());
      }
      if (kernelChunk == 0 && kernelGroup == 0)
        return WalkResult::advance();
      if (failed(swizzle(kernel, kernelChunk, kernelGroup)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

private:
  LogicalResult swizzle(KernelOp kernel, unsigned xcdChunk, unsigned rowGroup) {
    unsigned xcds = 1;
    if (xcdChunk > 0) {
      const ChipInfo *chip = lookupTargetChip(kernel);
      if (!chip)
        return kernel.emitOpError()
               << "needs a target chip to know its XCD count; run hk-target "
                  "first";
      xcds = chip->xcds;
    }
    // The renumbered block ids no longer show which grid the outputs need.
    recordLaunchGrid(kernel);
    SmallVector<BlockIdOp> uses;
    kernel.walk([&](BlockIdOp op) { uses.push_back(op); });

    Block &entry = kernel.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    Location loc = kernel.getLoc();
    IndexBuilder ib{b, loc};
    Value gx = GridDimOp::create(b, loc, Dim::X);
    Value gy = GridDimOp::create(b, loc, Dim::Y);
    Value x = BlockIdOp::create(b, loc, Dim::X);
    Value y = BlockIdOp::create(b, loc, Dim::Y);
    Value z = BlockIdOp::create(b, loc, Dim::Z);

    // Each z slice is permuted within itself: the hardware deals a slice's
    // blocks to the XCDs in turn like the whole grid's, its first XCD
    // rotated by z * slice, which the remap does not need to know. Keeping
    // z saves a division by the slice's size at every block's start.
    Value inSlice = ib.add(ib.mul(y, gx), x);
    if (xcdChunk > 0)
      inSlice = remapToXcds(ib, inSlice, ib.mul(gx, gy), xcds, xcdChunk);
    Value newZ = z;
    Value newX, newY;
    if (rowGroup > 0) {
      // A whole group's block (group g, column c, row r in it) sits at
      // (g * gy + c) * rows + r, so its id divided by `rows` (a constant)
      // is divided by gy; the last group's, of fewer rows, at c * last + r
      // past the whole groups, is divided by `last`. One division by the
      // divisor the block's side selects serves both.
      // (The side is told from the quotient by `rows`: compared with the
      // difference, LLVM fuses compare and subtraction into a vector
      // subtraction with borrow.)
      Value rows = ib.constant(rowGroup);
      Value groups = ib.div(gx, rows);
      Value wholeRows = ib.mul(groups, rows);
      Value wholeBlocks = ib.mul(wholeRows, gy);
      Value step = ib.div(inSlice, rows);
      Value inWhole = ib.ult(step, ib.mul(groups, gy));
      Value dividend = ib.select(inWhole, step, ib.sub(inSlice, wholeBlocks));
      Value divisor = ib.select(inWhole, gy, ib.sub(gx, wholeRows));
      Value quotient = ib.div(dividend, divisor);
      Value remainder = ib.rem(dividend, divisor);
      newX = ib.select(inWhole,
                       ib.add(ib.mul(quotient, rows), ib.rem(inSlice, rows)),
                       ib.add(wholeRows, remainder));
      newY = ib.select(inWhole, remainder, quotient);
    } else {
      newX = ib.rem(inSlice, gx);
      newY = ib.div(inSlice, gx);
    }

    newX = ib.uniform(newX);
    newY = ib.uniform(newY);
    for (BlockIdOp op : uses) {
      Value replacement = op.getDim() == Dim::X   ? newX
                          : op.getDim() == Dim::Y ? newY
                                                  : newZ;
      op.replaceAllUsesWith(replacement);
      op.erase();
    }
    kernel->setAttr(
        HKDialect::getGridSwizzleAttrName(),
        GridSwizzleAttr::get(&getContext(), xcdChunk, rowGroup, xcds));
    return success();
  }
};

} // namespace
