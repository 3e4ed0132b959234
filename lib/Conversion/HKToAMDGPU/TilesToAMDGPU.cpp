//===- TilesToAMDGPU.cpp - Slices, concatenation and transposes -----------===//
//
// A register tile's lane vector lists its layout's base blocks in row-major
// order, each block's elements together (Layouts.h); a register vector
// lists its blocks along the vector. Cutting along whole blocks is
// therefore a choice of registers: slices are vector shuffles and
// concatenations rebuild the lane vector from the inputs' slots; a
// transpose keeps every element in its lane and reorders the slots. A row
// slice of a shared tile is a pointer into the same LDS.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

namespace {

/// Where the blocks of a register value lie in its lane vector.
struct BlockGrid {
  SmallVector<int64_t, 2> block; ///< Extent of a block per dimension.
  SmallVector<int64_t, 2> shape;
  int64_t slotsPerBlock;

  static BlockGrid of(Type type) {
    if (auto tile = dyn_cast<RegisterTileType>(type)) {
      FragmentLayout layout = *FragmentLayout::get(tile.getLayout());
      return {{layout.getBaseRows(), layout.getBaseCols()},
              {tile.getRows(), tile.getCols()},
              layout.getElementsPerBlock()};
    }
    auto vector = cast<RegisterVectorType>(type);
    auto vecLayout = cast<VectorLayoutAttr>(vector.getLayout());
    FragmentLayout layout = *FragmentLayout::get(vecLayout.getTile());
    bool rows = vecLayout.getRows();
    return {{layout.getBaseExtent(rows)},
            {vector.getLength()},
            layout.getVectorSlots(rows)};
  }

  /// Blocks along the last dimension.
  int64_t blocksPerRow() const { return shape.back() / block.back(); }
  int64_t numBlocks() const {
    int64_t n = 1;
    for (auto [extent, size] : llvm::zip(shape, block))
      n *= extent / size;
    return n;
  }
  /// The block that holds element `coords` (a block corner).
  int64_t blockAt(ArrayRef<int64_t> coords) const {
    if (coords.size() == 1)
      return coords[0] / block[0];
    return coords[0] / block[0] * blocksPerRow() + coords[1] / block[1];
  }
  /// The corner of block `index`.
  SmallVector<int64_t, 2> corner(int64_t index) const {
    if (shape.size() == 1)
      return {index * block[0]};
    return {index / blocksPerRow() * block[0],
            index % blocksPerRow() * block[1]};
  }
};

struct SliceLowering : public OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> offsets = op.getOffsets();
    if (auto shared = dyn_cast<SharedTileType>(op.getSource().getType())) {
      int64_t bytes = offsets[0] * shared.getCols() *
                      getElementBytes(shared.getElementType());
      Value ptr = adaptor.getSource();
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, ptr.getType(),
                                               rewriter.getI8Type(), ptr,
                                               ArrayRef<LLVM::GEPArg>{bytes});
      return success();
    }
    BlockGrid from = BlockGrid::of(op.getSource().getType());
    BlockGrid to = BlockGrid::of(op.getType());
    SmallVector<int64_t> mask;
    for (int64_t index = 0; index < to.numBlocks(); ++index) {
      SmallVector<int64_t, 2> at = to.corner(index);
      for (auto [dim, offset] : llvm::enumerate(offsets))
        at[dim] += offset;
      int64_t first = from.blockAt(at) * from.slotsPerBlock;
      for (int64_t slot = 0; slot < to.slotsPerBlock; ++slot)
        mask.push_back(first + slot);
    }
    Value source = adaptor.getSource();
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, source, source, mask);
    return success();
  }
};

struct ConcatLowering : public OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_if_present<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "type not lowered");
    Location loc = op.getLoc();
    unsigned along = op.getAxis() && *op.getAxis() == Axis::Cols ? 1 : 0;
    BlockGrid result = BlockGrid::of(op.getType());
    // Each result block comes from the input whose range along the joined
    // dimension holds its corner.
    SmallVector<Value> slots;
    for (int64_t index = 0; index < result.numBlocks(); ++index) {
      SmallVector<int64_t, 2> at = result.corner(index);
      for (auto [input, lowered] :
           llvm::zip(op.getInputs(), adaptor.getInputs())) {
        BlockGrid part = BlockGrid::of(input.getType());
        if (at[along] >= part.shape[along]) {
          at[along] -= part.shape[along];
          continue;
        }
        int64_t first = part.blockAt(at) * part.slotsPerBlock;
        for (int64_t slot = 0; slot < part.slotsPerBlock; ++slot)
          slots.push_back(
              vector::ExtractOp::create(rewriter, loc, lowered, first + slot));
        break;
      }
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, slots);
    return success();
  }
};

/// The lanes keep their elements (the verifier checks the layouts), so a
/// transpose is a shuffle of each lane's slots.
struct TransposeLowering : public OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RegisterTileType src = op.getSource().getType();
    std::optional<SmallVector<int64_t>> slots =
        transposeSlots(src.getLayout(), op.getType().getLayout(), src.getRows(),
                       src.getCols());
    if (!slots)
      return rewriter.notifyMatchFailure(op, "layouts are not transposed");
    Value source = adaptor.getSource();
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, source, source, *slots);
    return success();
  }
};

} // namespace

void lowering::populateTilePatterns(HKTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<SliceLowering, ConcatLowering, TransposeLowering>(
      converter, patterns.getContext());
}
