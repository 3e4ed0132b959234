//===- ComputeToAMDGPU.cpp - hk compute ops to vector, math and amdgpu ----===//

#include "Lowering.h"

#include "hk/Dialect/HK/IR/LdsCost.h"
#include "hk/Timing/DeviceModel.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <optional>

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

namespace {

VectorType convertToVector(const TypeConverter *converter, Type type) {
  return dyn_cast_if_present<VectorType>(converter->convertType(type));
}

struct ZeroLowering : public OpConversionPattern<ZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ZeroOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = convertToVector(getTypeConverter(), op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "register vectors not lowered");
    rewriter.replaceOp(op, zeroOf(rewriter, op.getLoc(), type));
    return success();
  }
};

struct FillLowering : public OpConversionPattern<FillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = convertToVector(getTypeConverter(), op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "register vectors not lowered");
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getValue());
    return success();
  }
};

/// Equivalent layouts convert for free. Otherwise each lane writes its
/// elements to the wave's LDS scratch, seen as a shared tile, and reads back
/// the elements its new layout gives it. The scratch holds the tile or its
/// transpose (each lane renaming its registers to the transposed layouts
/// first and after), with a swizzle, whichever the cost model of
/// hk-lds-layout prices lower for this pair of layouts: an MFMA
/// accumulator written transposed is 8-byte writes instead of 2-byte ones,
/// and on gfx950 an A operand read back from the transpose is transposing
/// reads. Without a swizzle, the rows of an MFMA operand read from
/// row-major scratch meet in the same banks.
struct ConvertLayoutLowering : public OpConversionPattern<ConvertLayoutOp> {
  ConvertLayoutLowering(HKTypeConverter &converter, MLIRContext *ctx,
                        const LdsPlan &plan, bool swizzle)
      : OpConversionPattern(converter, ctx), plan(plan), swizzle(swizzle) {}

  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = dyn_cast<RegisterTileType>(op.getSource().getType());
    auto to = dyn_cast<RegisterTileType>(op.getType());
    if (!from || !to)
      return rewriter.notifyMatchFailure(op, "not a tile conversion");
    if (!conversionMovesData(op)) {
      rewriter.replaceOp(op, adaptor.getSource());
      return success();
    }
    Location loc = op.getLoc();
    const ChipInfo *chip = lookupTargetChip(op);
    Value scratch = plan.getWaveScratch(rewriter, loc, op);
    if (!scratch || !chip)
      return rewriter.notifyMatchFailure(op, "no scratch was planned");
    Scratch choice = chooseScratch(*chip, from, to, swizzle);
    Type memElem = getMemoryElementType(from.getElementType());

    Value values = convertElements(rewriter, loc, adaptor.getSource(), memElem);
    if (choice.written != from)
      values = renameSlots(rewriter, loc, values, from, choice.written);
    waveBarrier(rewriter, loc);
    storeSharedTile(rewriter, loc, plan, scratch, choice.type, {},
                    choice.written, values);
    waveBarrier(rewriter, loc);
    Value raw = loadSharedTile(rewriter, loc, plan, *chip, scratch, choice.type,
                               {}, choice.read);
    waveBarrier(rewriter, loc);
    if (choice.read != to)
      raw = renameSlots(rewriter, loc, raw, choice.read, to);
    rewriter.replaceOp(
        op, convertElements(rewriter, loc, raw, to.getElementType()));
    return success();
  }

  /// The scratch seen as a shared tile, and the register tiles written to
  /// and read from it: `from` and `to`, or their transposes.
  struct Scratch {
    SharedTileType type;
    RegisterTileType written, read;
  };

  /// `tile`'s transpose in the same lanes, or null when its layout has none.
  static RegisterTileType transposedTile(RegisterTileType tile) {
    Attribute layout = transposedLayout(tile.getLayout());
    if (!layout || !transposeSlots(tile.getLayout(), layout, tile.getRows(),
                                   tile.getCols()))
      return {};
    return RegisterTileType::get(tile.getContext(),
                                 {tile.getCols(), tile.getRows()},
                                 tile.getElementType(), layout);
  }

  /// `values` of tile `from` in the slots of `to`, its transpose (or the
  /// reverse): the lanes keep their elements, only the slots move.
  static Value renameSlots(OpBuilder &b, Location loc, Value values,
                           RegisterTileType from, RegisterTileType to) {
    SmallVector<int64_t> slots = *transposeSlots(
        from.getLayout(), to.getLayout(), from.getRows(), from.getCols());
    return vector::ShuffleOp::create(b, loc, values, values, slots);
  }

  static Scratch chooseScratch(const ChipInfo &chip, RegisterTileType from,
                               RegisterTileType to, bool swizzle) {
    MLIRContext *ctx = from.getContext();
    SmallVector<std::pair<RegisterTileType, RegisterTileType>, 2> options = {
        {from, to}};
    if (RegisterTileType fromT = transposedTile(from))
      if (RegisterTileType toT = transposedTile(to))
        options.push_back({fromT, toT});
    unsigned issueCadence = timing::DeviceModel::defaultFor(chip).issueCadence;
    std::optional<std::pair<uint64_t, Scratch>> best;
    for (const auto &option : options) {
      RegisterTileType written = option.first, read = option.second;
      auto type = SharedTileType::get(ctx, written.getShape(),
                                      written.getElementType(), Attribute());
      LdsAccessModel model(chip, type);
      auto cost = [&](SwizzleAttr candidate) -> std::optional<LdsCost> {
        LdsCost cost;
        model.addTileAccesses(cost, candidate, written, /*subtile=*/false,
                              /*write=*/true);
        model.addTileAccesses(cost, candidate, read, /*subtile=*/false,
                              /*write=*/false);
        return cost;
      };
      SwizzleAttr chosen =
          swizzle
              ? pickSwizzle(ctx, written.getCols(),
                            getElementBits(written.getElementType()) / 8, cost)
              : SwizzleAttr::get(ctx, 1, 1, 1);
      LdsCost total = *cost(chosen);
      // The wave issues each instruction (one issue opportunity per
      // cadence) and waits for the LDS to work through its phases and
      // conflicts, with a wave barrier between the writes and the reads.
      uint64_t waveCycles = total.instructions * issueCadence + total.cycles;
      if (!best || waveCycles < best->first)
        best = {waveCycles, Scratch{type.withSwizzle(chosen), written, read}};
    }
    return best->second;
  }

  const LdsPlan &plan;
  bool swizzle;
};

template <typename SourceOp, typename FloatOp, typename IntOp>
struct BinaryLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = convertToVector(this->getTypeConverter(), op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "register vectors not lowered");
    Value rhs = adaptor.getRhs();
    if (!isa<VectorType>(rhs.getType()))
      rhs = vector::BroadcastOp::create(rewriter, op.getLoc(), type, rhs);
    if (isa<FloatType>(type.getElementType()))
      rewriter.replaceOpWithNewOp<FloatOp>(op, adaptor.getLhs(), rhs);
    else
      rewriter.replaceOpWithNewOp<IntOp>(op, adaptor.getLhs(), rhs);
    return success();
  }
};

template <typename SourceOp, typename TargetOp>
struct UnaryLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!convertToVector(this->getTypeConverter(), op.getType()))
      return rewriter.notifyMatchFailure(op, "register vectors not lowered");
    rewriter.replaceOpWithNewOp<TargetOp>(op, adaptor.getSource());
    return success();
  }
};

struct ReluLowering : public OpConversionPattern<ReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = convertToVector(getTypeConverter(), op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "register vectors not lowered");
    rewriter.replaceOpWithNewOp<arith::MaxNumFOp>(
        op, adaptor.getSource(), zeroOf(rewriter, op.getLoc(), type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

/// The base blocks of one MFMA operand inside its register tile. A base
/// block of an A/B operand may hold a multiple (`pack`) of the
/// instruction's K: instruction step j of the block then reads the lane's
/// elements [j*KL, (j+1)*KL).
struct OperandBlocks {
  int64_t blocksPerRow; ///< Base blocks along the tile's columns.
  int64_t perBlock;     ///< Elements per lane per block.
  int64_t pack = 1;     ///< Instruction K steps per block.
  bool transposed;      ///< Block coordinates are (k, outer), not (outer, k).

  /// First slot of instruction K step `kk` for block row/column `outer`.
  int64_t slot(int64_t outer, int64_t kk) const {
    int64_t kb = kk / pack;
    int64_t block =
        transposed ? kb * blocksPerRow + outer : outer * blocksPerRow + kb;
    return block * perBlock + (kk % pack) * (perBlock / pack);
  }
  int64_t width() const { return perBlock / pack; }
};

OperandBlocks operandBlocks(RegisterTileType tile, const MfmaInstr &instr,
                            bool transposed, bool accumulator) {
  FragmentLayout layout = *FragmentLayout::get(tile.getLayout());
  OperandBlocks blocks{tile.getCols() / layout.getBaseCols(),
                       layout.getElementsPerBlock(), 1, transposed};
  if (!accumulator)
    blocks.pack = layout.getElementsPerBlock() / instr.kPerLane();
  return blocks;
}

/// D = C + op(A) op(B) as a grid of MFMAs: for every (M, N) block of the
/// accumulator, a chain over the K blocks.
struct MmaLowering : public OpConversionPattern<MmaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MfmaShapeAttr shape = op.getInstrAttr();
    if (!shape)
      return rewriter.notifyMatchFailure(op, "no MFMA chosen");
    Location loc = op.getLoc();
    MmaForm form = op.getForm();
    bool aTransposed = form == MmaForm::AtB || form == MmaForm::AtBt;
    bool bTransposed = form == MmaForm::ABt || form == MmaForm::AtBt;
    RegisterTileType aType = op.getA().getType(), bType = op.getB().getType();
    int64_t mBlocks = op.getM() / shape.getM();
    int64_t nBlocks = op.getN() / shape.getN();
    int64_t kBlocks = op.getK() / shape.getK();

    const ChipInfo *chip = lookupTargetChip(op);
    const MfmaInstr *instr = chip ? getMfmaInstr(*chip, op) : nullptr;
    if (!instr)
      return rewriter.notifyMatchFailure(op, "MFMA not on the target chip");
    OperandBlocks c = operandBlocks(op.getAcc().getType(), *instr, false, true);
    bool accOperands = hasAccumulatorOperands(op);
    // Operands in the instruction's own layouts are sliced by block;
    // operands in the accumulator layout are gathered by accOperand below.
    std::optional<OperandBlocks> a, b;
    if (!accOperands) {
      a = operandBlocks(aType, *instr, aTransposed, false);
      // B's blocks are (k, n) unless B is stored N x K.
      b = operandBlocks(bType, *instr, !bTransposed, false);
    }

    Value accAll = adaptor.getAcc();
    Value aAll = adaptor.getA(), bAll = adaptor.getB();
    // An operand in the 16x16 accumulator layout (K x outer, see
    // hasAccumulatorOperands): instruction step kk reads the lane's 4 rows
    // of each of its consecutive 16-row blocks in column block `outer`.
    auto accOperand = [&](Value all, RegisterTileType type, int64_t outer,
                          int64_t kk) -> Value {
      int64_t blocksPerRow = type.getCols() / 16;
      int64_t blocks = shape.getK() / 16;
      SmallVector<Value> elements;
      for (int64_t b = 0; b < blocks; ++b) {
        int64_t first = ((kk * blocks + b) * blocksPerRow + outer) * 4;
        for (int64_t i = 0; i < 4; ++i)
          elements.push_back(
              vector::ExtractOp::create(rewriter, loc, all, first + i));
      }
      auto vecType =
          VectorType::get({int64_t(elements.size())}, elements[0].getType());
      return vector::FromElementsOp::create(rewriter, loc, vecType, elements);
    };
    for (int64_t mi = 0; mi < mBlocks; ++mi)
      for (int64_t nj = 0; nj < nBlocks; ++nj) {
        int64_t cSlot = c.slot(mi, nj);
        Value acc = extractAt(rewriter, loc, accAll, cSlot, c.width());
        for (int64_t kk = 0; kk < kBlocks; ++kk) {
          Value av = accOperands ? accOperand(aAll, aType, mi, kk)
                                 : extractAt(rewriter, loc, aAll,
                                             a->slot(mi, kk), a->width());
          Value bv = accOperands ? accOperand(bAll, bType, nj, kk)
                                 : extractAt(rewriter, loc, bAll,
                                             b->slot(nj, kk), b->width());
          acc = emitMfma(rewriter, loc, *instr, av, bv, acc);
        }
        accAll = insertAt(rewriter, loc, acc, accAll, cSlot);
      }
    rewriter.replaceOp(op, accAll);
    return success();
  }

  static Value emitMfma(OpBuilder &b, Location loc, const MfmaInstr &instr,
                        Value av, Value bv, Value acc) {
    if (!instr.scaled)
      return amdgpu::MFMAOp::create(b, loc, acc.getType(), instr.m, instr.n,
                                    instr.k, /*blocks=*/1, av, bv, acc);
    // Unit scales: an E8M0 exponent of 127 is 2^0.
    Type e8m0 = b.getType<Float8E8M0FNUType>();
    Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(e8m0, 1.0));
    return amdgpu::ScaledMFMAOp::create(b, loc, acc.getType(), instr.m, instr.n,
                                        instr.k, av, bv, acc, one, one,
                                        /*scalesIdxA=*/0,
                                        /*scalesIdxB=*/0);
  }
};

} // namespace

void lowering::populateComputePatterns(HKTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LdsPlan &plan,
                                       bool scratchSwizzle) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConvertLayoutLowering>(converter, ctx, plan, scratchSwizzle);
  patterns.add<ZeroLowering, FillLowering, ReluLowering, MmaLowering>(converter,
                                                                      ctx);
  patterns.add<BinaryLowering<AddOp, arith::AddFOp, arith::AddIOp>,
               BinaryLowering<SubOp, arith::SubFOp, arith::SubIOp>,
               BinaryLowering<MulOp, arith::MulFOp, arith::MulIOp>,
               BinaryLowering<DivOp, arith::DivFOp, arith::DivSIOp>,
               BinaryLowering<MaxOp, arith::MaximumFOp, arith::MaxSIOp>,
               BinaryLowering<MinOp, arith::MinimumFOp, arith::MinSIOp>,
               BinaryLowering<AndOp, arith::AndIOp, arith::AndIOp>,
               BinaryLowering<OrOp, arith::OrIOp, arith::OrIOp>,
               BinaryLowering<XorOp, arith::XOrIOp, arith::XOrIOp>,
               BinaryLowering<UMaxOp, arith::MaxUIOp, arith::MaxUIOp>,
               BinaryLowering<UMinOp, arith::MinUIOp, arith::MinUIOp>>(
      converter, ctx);
  patterns.add<
      UnaryLowering<Exp2Op, math::Exp2Op>, UnaryLowering<ExpOp, math::ExpOp>,
      UnaryLowering<LogOp, math::LogOp>, UnaryLowering<Log2Op, math::Log2Op>,
      UnaryLowering<AbsOp, math::AbsFOp>, UnaryLowering<NegOp, arith::NegFOp>,
      UnaryLowering<SqrtOp, math::SqrtOp>>(converter, ctx);
}
