//===- RowsToAMDGPU.cpp - Row and column ops: vectors, masks, softmax -----===//
//
// Register vectors hold one value per row (column) of a tile, aligned with
// the tile's layout (#hk.vec): each lane keeps exactly the values of the
// rows (columns) its tile elements lie in. Broadcasts are therefore a
// shuffle inside the lane; reductions combine a lane's own elements first
// and then the lanes that hold the same rows, with a butterfly of
// cross-lane moves (DPP within rows of 16 lanes, ds_swizzle within 32,
// v_permlane32_swap or ds_bpermute across the two halves of the wave).
// Vectors move to and from global memory (one writer per value) and LDS;
// masks and softmax work on the lowered tile vectors.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

namespace {

/// How the slots of a lane's tile vector map onto the slots of a row
/// (column) vector aligned with it.
struct Alignment {
  FragmentLayout layout;
  bool alongRows;
  int64_t rows, cols;

  int64_t tileSlots() const { return rows * cols / 64; }
  int64_t vectorSlots() const {
    return layout.getVectorElementsPerLane(alongRows, alongRows ? rows : cols);
  }
  int64_t vectorIndex(int64_t slot) const {
    return layout.getVectorIndex(alongRows, slot, cols);
  }
};

Alignment alignmentOf(RegisterTileType tile, bool alongRows) {
  return {*FragmentLayout::get(tile.getLayout()), alongRows, tile.getRows(),
          tile.getCols()};
}

/// The vector repeated so that slot s holds the value of tile slot s's row
/// (column).
Value expandVector(OpBuilder &b, Location loc, const Alignment &align,
                   Value vector) {
  SmallVector<int64_t> mask;
  for (int64_t slot = 0; slot < align.tileSlots(); ++slot)
    mask.push_back(align.vectorIndex(slot));
  return vector::ShuffleOp::create(b, loc, vector, vector, mask);
}

/// Max and Min are IEEE maximum/minimum (a NaN wins), as hk.row_max and
/// kin promise. SoftmaxMax is the hardware's v_max_f32 with no-NaN flags:
/// otherwise LLVM quiets each operand that came from another lane before
/// every combining step. hk.softmax only needs it where a NaN score reaches
/// its row's sum anyway (exp2 of NaN is NaN).
enum class Combine { Max, Min, Sum, SoftmaxMax };

Value combine(OpBuilder &b, Location loc, Combine kind, Value lhs, Value rhs) {
  auto noNaN =
      arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::nnan);
  switch (kind) {
  case Combine::Max:
    return arith::MaximumFOp::create(b, loc, lhs, rhs);
  case Combine::Min:
    return arith::MinimumFOp::create(b, loc, lhs, rhs);
  case Combine::Sum:
    return arith::AddFOp::create(b, loc, lhs, rhs);
  case Combine::SoftmaxMax:
    return arith::MaxNumFOp::create(b, loc, lhs, rhs, noNaN);
  }
  llvm_unreachable("unknown combine");
}

/// For an all-reduce step: `value` (f32 scalars or vector) from a lane
/// holding the values the lane whose id differs from this lane's by `bit`
/// holds. `reduced` names the lane bits already combined, over which
/// values are uniform: a mirror then serves as the exchange.
///
/// Cheapest first: DPP (a VALU operand modifier) for bits 1 and 2
/// (quad_perm) and, once the lower bits are uniform, 4 and 8 (row half
/// mirror, row mirror); ds_swizzle for 16; for 32, v_permlane32_swap on
/// gfx950 and ds_bpermute (addressed in bytes) on gfx942.
Value fromLaneXor(OpBuilder &b, Location loc, Value value, unsigned bit,
                  unsigned reduced, const ChipInfo &chip) {
  // Every lane reads a lane of its own row, so the instruction's fallback
  // value is never used: leaving it undefined lets LLVM fold the move into
  // the combining instruction as a DPP operand.
  auto dpp = [&](amdgpu::DPPPerm kind, Attribute argument) {
    return mapElements(b, loc, value, [&](Value scalar) -> Value {
      Value undefined = LLVM::PoisonOp::create(b, loc, scalar.getType());
      return amdgpu::DPPOp::create(b, loc, scalar.getType(), undefined, scalar,
                                   kind, argument, /*row_mask=*/0xf,
                                   /*bank_mask=*/0xf, /*bound_ctrl=*/true);
    });
  };
  auto quad = [&](ArrayRef<int32_t> lanes) { return b.getI32ArrayAttr(lanes); };
  if (bit == 1)
    return dpp(amdgpu::DPPPerm::quad_perm, quad({1, 0, 3, 2}));
  if (bit == 2)
    return dpp(amdgpu::DPPPerm::quad_perm, quad({2, 3, 0, 1}));
  if (bit == 4 && (reduced & 3) == 3)
    return dpp(amdgpu::DPPPerm::row_half_mirror, Attribute());
  if (bit == 8 && (reduced & 7) == 7)
    return dpp(amdgpu::DPPPerm::row_mirror, Attribute());
  // gfx950 swaps rows of 16 and halves of 32 lanes in the VALU; the LDS
  // crossbar's ds_swizzle is the fallback.
  if ((bit == 16 || bit == 32) && chip.hasPermlaneSwap)
    return amdgpu::PermlaneSwapOp::create(b, loc, value, /*row_length=*/bit);
  if (bit < 32)
    return amdgpu::SwizzleBitModeOp::create(b, loc, value, /*and_mask=*/0x1f,
                                            /*or_mask=*/0, /*xor_mask=*/bit);
  Type i32 = b.getI32Type();
  Value address = arith::ShLIOp::create(
      b, loc,
      arith::XOrIOp::create(b, loc, laneId(b, loc), constI32(b, loc, bit)),
      constI32(b, loc, 2));
  return mapElements(b, loc, value, [&](Value scalar) -> Value {
    Value bits = arith::BitcastOp::create(b, loc, i32, scalar);
    Value moved = ROCDL::DsBpermuteOp::create(b, loc, i32, address, bits);
    return arith::BitcastOp::create(b, loc, scalar.getType(), moved);
  });
}

/// v_permlane16_swap or v_permlane32_swap (`bit` 16 or 32) of the f32
/// `value` with itself (gfx950): the two results hold, in every lane, the
/// value of that lane and of the lane `bit` away, in an order that depends
/// on the lane.
std::pair<Value, Value> swapWithPartner(OpBuilder &b, Location loc, Value value,
                                        unsigned bit) {
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, value);
  auto pair = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32});
  Value swapped =
      bit == 16 ? ROCDL::Permlane16SwapOp::create(b, loc, pair, bits, bits,
                                                  /*fi=*/false,
                                                  /*boundControl=*/false)
                      .getResult()
                : ROCDL::Permlane32SwapOp::create(b, loc, pair, bits, bits,
                                                  /*fi=*/false,
                                                  /*boundControl=*/false)
                      .getResult();
  auto half = [&](int64_t index) -> Value {
    Value word = LLVM::ExtractValueOp::create(b, loc, swapped, index);
    return arith::BitcastOp::create(b, loc, value.getType(), word);
  };
  return {half(0), half(1)};
}

/// Reduces the rows (columns) of a lane's tile vector `tile` (f32) into the
/// aligned f32 vector every lane holding those rows (columns) agrees on.
Value reduceTile(OpBuilder &b, Location loc, const Alignment &align, Value tile,
                 Combine kind, const ChipInfo &chip) {
  // A lane's own elements, in a tree so that the chains stay short: by
  // pairs for sums, by threes for maxima and minima, whose pairs of
  // combines LLVM fuses into one three-operand instruction (v_max3_f32):
  // eight elements in four instructions instead of five.
  unsigned arity = kind == Combine::Sum ? 2 : 3;
  SmallVector<SmallVector<Value>> groups(align.vectorSlots());
  for (int64_t slot = 0; slot < align.tileSlots(); ++slot)
    groups[align.vectorIndex(slot)].push_back(
        vector::ExtractOp::create(b, loc, tile, slot));
  SmallVector<Value> partial;
  for (SmallVector<Value> &group : groups) {
    while (group.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i < group.size(); i += arity) {
        Value acc = group[i];
        for (size_t j = i + 1; j < std::min(group.size(), i + arity); ++j)
          acc = combine(b, loc, kind, acc, group[j]);
        next.push_back(acc);
      }
      group = std::move(next);
    }
    partial.push_back(group.front());
  }
  auto type = VectorType::get({int64_t(partial.size())}, b.getF32Type());
  Value result = vector::FromElementsOp::create(b, loc, type, partial);
  // Then the lanes that hold other columns (rows) of the same rows
  // (columns).
  unsigned mask = align.layout.getReductionLaneMask(align.alongRows);
  unsigned reduced = 0;
  for (unsigned bit = 1; bit < 64; bit <<= 1) {
    if (!(mask & bit))
      continue;
    SmallVector<Value> combined;
    if ((bit == 16 || bit == 32) && chip.hasPermlaneSwap) {
      // A permlane swap of a value with itself leaves each lane its own
      // value in one result and its partner's in the other, which of the
      // two depending on the lane: every combine here is commutative, so
      // the pair is combined as it comes, with no select between them. It
      // runs in the VALU, where ds_swizzle would queue behind the CU's LDS
      // traffic and wait out its latency.
      for (int64_t i = 0; i < type.getNumElements(); ++i) {
        auto [own, other] = swapWithPartner(
            b, loc, vector::ExtractOp::create(b, loc, result, i), bit);
        combined.push_back(combine(b, loc, kind, own, other));
      }
    } else {
      // Element by element: a packed combine (v_pk_add_f32) cannot take a
      // DPP operand, and would leave every move a v_mov_b32_dpp of its own.
      Value moved = fromLaneXor(b, loc, result, bit, reduced, chip);
      for (int64_t i = 0; i < type.getNumElements(); ++i)
        combined.push_back(
            combine(b, loc, kind, vector::ExtractOp::create(b, loc, result, i),
                    vector::ExtractOp::create(b, loc, moved, i)));
    }
    result = vector::FromElementsOp::create(b, loc, type, combined);
    reduced |= bit;
  }
  return result;
}

Value splat(OpBuilder &b, Location loc, Type type, Value scalar) {
  return vector::BroadcastOp::create(b, loc, type, scalar);
}

Value floatSplat(OpBuilder &b, Location loc, VectorType type, double value) {
  return arith::ConstantOp::create(
      b, loc, type,
      DenseElementsAttr::get(
          type, b.getFloatAttr(type.getElementType(), value).getValue()));
}

//===----------------------------------------------------------------------===//
// Broadcasts
//===----------------------------------------------------------------------===//

/// Whether `factors` is select(c, f, splat 1.0); sets `cond` to c.
static bool isSelectOfOnes(Value factors, Value &cond) {
  auto select = factors.getDefiningOp<arith::SelectOp>();
  DenseFPElementsAttr ones;
  if (!select || !matchPattern(select.getFalseValue(), m_Constant(&ones)) ||
      !ones.isSplat() || !ones.getSplatValue<APFloat>().isExactlyValue(1.0))
    return false;
  cond = select.getCondition();
  return true;
}

/// Per element, whether a factor may not be 1: c for select(c, f, 1),
/// factor != 1 (NaN included) otherwise.
static Value factorsMayNotBeOne(OpBuilder &b, Location loc, Value factors) {
  Value cond;
  if (isSelectOfOnes(factors, cond))
    return cond;
  return arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::UNE, factors,
      floatSplat(b, loc, cast<VectorType>(factors.getType()), 1.0));
}

/// `factors` recomputed at `b` when it is select(c, f, 1) and nothing else
/// uses it yet: the select, and the pure ops f comes from that nothing else
/// uses, cloned (the originals then die). `factors` itself otherwise.
static Value cloneSelectedFactors(OpBuilder &b, Value factors) {
  Value cond;
  if (!isSelectOfOnes(factors, cond) || !factors.use_empty())
    return factors;
  Operation *select = factors.getDefiningOp();
  Block *block = select->getBlock();
  // The chain: ops in the select's block whose results feed only the
  // chain, found from the select backwards.
  llvm::SetVector<Operation *> chain;
  chain.insert(select);
  for (size_t i = 0; i < chain.size(); ++i)
    for (Value operand : chain[i]->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != block || chain.contains(def) ||
          !isPure(def) || def->getNumRegions() != 0)
        continue;
      if (llvm::all_of(def->getUsers(),
                       [&](Operation *user) { return chain.contains(user); }))
        chain.insert(def);
    }
  SmallVector<Operation *> ordered(chain.begin(), chain.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  IRMapping map;
  for (Operation *op : ordered)
    b.clone(*op, map);
  return map.lookup(factors);
}

/// The hk.mul_row and hk.mul_col ops after `op` in its block that multiply
/// by `op`'s vector, whose tiles exist where `op` is (so that `op`'s
/// lowering can compute them in its branch).
static SmallVector<Operation *> laterMultipliesBy(Operation *op) {
  Value factors = op->getOperand(1);
  SmallVector<Operation *> later;
  for (Operation *user : factors.getUsers()) {
    if (user == op || !isa<MulRowOp, MulColOp>(user) ||
        user->getOperand(1) != factors || user->getBlock() != op->getBlock() ||
        !op->isBeforeInBlock(user))
      continue;
    // The tile dominates `user`, in `op`'s block: it dominates `op` unless
    // it is defined in the block after `op`.
    Operation *def = user->getOperand(0).getDefiningOp();
    if (def && def->getBlock() == op->getBlock() && !def->isBeforeInBlock(op))
      continue;
    later.push_back(user);
  }
  llvm::sort(later,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return later;
}

template <typename SourceOp, typename FloatOp>
struct BroadcastLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Alignment align =
        alignmentOf(op.getTile().getType(), SourceOp::alongRows());
    Location loc = op.getLoc();
    Value vector = adaptor.getVector();
    if constexpr (std::is_same_v<SourceOp, DivRowOp> ||
                  std::is_same_v<SourceOp, DivColOp>) {
      if (op.getReciprocal()) {
        // One division per entry the lane holds, then multiplications.
        auto type = cast<VectorType>(vector.getType());
        vector = arith::DivFOp::create(
            rewriter, loc, floatSplat(rewriter, loc, type, 1.0), vector);
        Value expanded = expandVector(rewriter, loc, align, vector);
        rewriter.replaceOpWithNewOp<arith::MulFOp>(op, adaptor.getTile(),
                                                   expanded);
        return success();
      }
    }
    auto apply = [&](OpBuilder &b) -> Value {
      Value expanded = expandVector(b, loc, align, vector);
      return FloatOp::create(b, loc, adaptor.getTile(), expanded);
    };
    if constexpr (std::is_same_v<SourceOp, MulRowOp> ||
                  std::is_same_v<SourceOp, MulColOp>) {
      if (op.getSkipOnes()) {
        // Multiply unless every factor of every lane is exactly 1 (NaN is
        // not, so it still reaches the tile). Factors chosen as
        // select(c, f, 1) (hk.softmax's with a max_slack) are 1 wherever c
        // is false: the branch tests c, and f's computation, cloned into
        // the branch, runs only where some factor may not be 1. Later
        // multiplies by the same factors join the branch (x * 1 is x), so
        // that none of them needs f outside it.
        SmallVector<Operation *> siblings = laterMultipliesBy(op);
        SmallVector<Value> tiles{adaptor.getTile()};
        for (Operation *sibling : siblings)
          tiles.push_back(rewriter.getRemappedValue(sibling->getOperand(0)));
        Value factors = vector;
        Value moving = factorsMayNotBeOne(rewriter, loc, factors);
        auto branch =
            scf::IfOp::create(rewriter, loc, ValueRange(tiles).getTypes(),
                              anyInWave(rewriter, loc, moving),
                              /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(branch.thenBlock());
        vector = cloneSelectedFactors(rewriter, factors);
        SmallVector<Value> scaled{apply(rewriter)};
        for (auto [sibling, tile] :
             llvm::zip(siblings, ArrayRef<Value>(tiles).drop_front())) {
          auto tileType =
              cast<RegisterTileType>(sibling->getOperand(0).getType());
          Alignment along = alignmentOf(tileType, isa<MulRowOp>(sibling));
          scaled.push_back(arith::MulFOp::create(
              rewriter, loc, tile, expandVector(rewriter, loc, along, vector)));
        }
        scf::YieldOp::create(rewriter, loc, scaled);
        rewriter.setInsertionPointToStart(branch.elseBlock());
        scf::YieldOp::create(rewriter, loc, tiles);
        rewriter.replaceOp(op, branch.getResult(0));
        for (auto [sibling, result] :
             llvm::zip(siblings, branch.getResults().drop_front()))
          rewriter.replaceOp(sibling, result);
        return success();
      }
    }
    rewriter.replaceOp(op, apply(rewriter));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

template <typename SourceOp, Combine kind>
struct ReduceLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterTileType tileType = op.getTile().getType();
    Type elem = tileType.getElementType();
    Alignment align = alignmentOf(tileType, SourceOp::alongRows());
    // Narrow floats are reduced in f32 and rounded once.
    Value tile = convertElements(rewriter, loc, adaptor.getTile(),
                                 rewriter.getF32Type());
    const ChipInfo *chip = lookupTargetChip(op);
    if (!chip)
      return rewriter.notifyMatchFailure(op, "no target chip");
    Value result = reduceTile(rewriter, loc, align, tile, kind, *chip);
    if (Value init = adaptor.getInit())
      result =
          combine(rewriter, loc, kind, result,
                  convertElements(rewriter, loc, init, rewriter.getF32Type()));
    rewriter.replaceOp(op, convertElements(rewriter, loc, result, elem));
    return success();
  }
};

/// Of two (value, index) candidates (scalars or vectors), the one
/// numpy's argmax (`isMax`) or argmin keeps: the better value, a NaN over
/// any number, and the smaller index among equals (NaNs equal each other).
std::pair<Value, Value> combineArg(OpBuilder &b, Location loc, bool isMax,
                                   Value a, Value ia, Value c, Value ic) {
  using P = arith::CmpFPredicate;
  auto cmp = [&](P p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y).getResult();
  };
  Value nanA = cmp(P::UNO, a, a), nanC = cmp(P::UNO, c, c);
  Value better = cmp(isMax ? P::OGT : P::OLT, c, a);
  Value equal = arith::OrIOp::create(b, loc, cmp(P::OEQ, c, a),
                                     arith::AndIOp::create(b, loc, nanA, nanC));
  Value earlier =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ic, ia);
  Value notNanA = cmp(P::ORD, a, a);
  Value takeC = arith::OrIOp::create(
      b, loc,
      arith::OrIOp::create(b, loc, arith::AndIOp::create(b, loc, nanC, notNanA),
                           better),
      arith::AndIOp::create(b, loc, equal, earlier));
  return {arith::SelectOp::create(b, loc, takeC, c, a),
          arith::SelectOp::create(b, loc, takeC, ic, ia)};
}

/// Argmax and argmin: each lane reduces its own (value, index) pairs per
/// row (column), then exchanges them with the lanes holding other columns
/// (rows) of the same rows (columns), as reduceTile does for values.
template <typename SourceOp>
struct ArgReduceLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    bool rows = SourceOp::alongRows(), isMax = SourceOp::isMax();
    RegisterTileType tileType = op.getTile().getType();
    const ChipInfo *chip = lookupTargetChip(op);
    if (!chip)
      return rewriter.notifyMatchFailure(op, "no target chip");
    Alignment align = alignmentOf(tileType, rows);
    Value tile = convertElements(b, loc, adaptor.getTile(), b.getF32Type());
    SlotPlacement slots = placeSlots(b, loc, tileType);
    Value laneIndex = rows ? slots.lane.col : slots.lane.row;

    SmallVector<std::optional<std::pair<Value, Value>>> best(
        align.vectorSlots());
    for (int64_t slot = 0; slot < align.tileSlots(); ++slot) {
      Value value = vector::ExtractOp::create(b, loc, tile, slot);
      Value index =
          addI32(b, loc, laneIndex,
                 rows ? slots.colOffsets[slot] : slots.rowOffsets[slot]);
      auto &current = best[align.vectorIndex(slot)];
      current = current ? combineArg(b, loc, isMax, current->first,
                                     current->second, value, index)
                        : std::make_pair(value, index);
    }
    SmallVector<Value> values, indices;
    for (auto &entry : best) {
      values.push_back(entry->first);
      indices.push_back(entry->second);
    }
    int64_t n = values.size();
    Value value = vector::FromElementsOp::create(
        b, loc, VectorType::get({n}, b.getF32Type()), values);
    Value index = vector::FromElementsOp::create(
        b, loc, VectorType::get({n}, b.getI32Type()), indices);
    auto f32Vec = VectorType::get({n}, b.getF32Type());
    unsigned mask = align.layout.getReductionLaneMask(rows);
    unsigned reduced = 0;
    for (unsigned bit = 1; bit < 64; bit <<= 1) {
      if (!(mask & bit))
        continue;
      // Indices travel as the bits of f32 values.
      Value otherValue = fromLaneXor(b, loc, value, bit, reduced, *chip);
      Value otherIndex = arith::BitcastOp::create(
          b, loc, index.getType(),
          fromLaneXor(b, loc, arith::BitcastOp::create(b, loc, f32Vec, index),
                      bit, reduced, *chip));
      std::tie(value, index) =
          combineArg(b, loc, isMax, value, index, otherValue, otherIndex);
      reduced |= bit;
    }
    rewriter.replaceOp(op, index);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Masks
//===----------------------------------------------------------------------===//

/// Masks are computed arithmetically, as all-ones (drop) or zero words per
/// slot from the sign of a difference: a compare per slot would hold one
/// SGPR pair per slot, which a tile of masks turns into SGPR spills.
///
/// Drops slot s unless `constants[s] <= limit`, or `constants[s] < limit`
/// when `strict`, or `constants[s] >= limit` when `reversed`. The
/// lane-dependent part lives in `limit`, one register per mask.
Value dropSlots(OpBuilder &b, Location loc, ArrayRef<int32_t> constants,
                Value limit, bool strict = false, bool reversed = false) {
  auto type = VectorType::get({int64_t(constants.size())}, b.getI32Type());
  SmallVector<int32_t> shifted(constants);
  if (strict)
    for (int32_t &c : shifted)
      c += 1;
  Value lhs = arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, ArrayRef<int32_t>(shifted)));
  Value rhs = splat(b, loc, type, limit);
  Value margin = reversed ? arith::SubIOp::create(b, loc, lhs, rhs)
                          : arith::SubIOp::create(b, loc, rhs, lhs);
  return arith::ShRSIOp::create(
      b, loc, margin,
      arith::ConstantOp::create(
          b, loc, type,
          DenseElementsAttr::get(type, b.getI32IntegerAttr(31).getValue())));
}

/// The tile with `fill` where `drop` is all-ones: (x & ~drop) | (fill &
/// drop) on the elements' bits.
Value maskedFill(OpBuilder &b, Location loc, Value drop, Value tile,
                 std::optional<APFloat> fill) {
  auto type = cast<VectorType>(tile.getType());
  double value =
      fill ? fill->convertToDouble() : -std::numeric_limits<double>::infinity();
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  auto intType = VectorType::get(type.getShape(), b.getIntegerType(bits));
  if (bits < 32)
    drop = arith::TruncIOp::create(b, loc, intType, drop);
  Value fillBits = arith::BitcastOp::create(b, loc, intType,
                                            floatSplat(b, loc, type, value));
  Value tileBits = arith::BitcastOp::create(b, loc, intType, tile);
  Value allOnes = arith::ConstantOp::create(
      b, loc, intType,
      DenseElementsAttr::get(
          intType, b.getIntegerAttr(b.getIntegerType(bits), -1).getValue()));
  Value kept = arith::AndIOp::create(
      b, loc, tileBits, arith::XOrIOp::create(b, loc, drop, allOnes));
  Value filled = arith::AndIOp::create(b, loc, fillBits, drop);
  return arith::BitcastOp::create(b, loc, type,
                                  arith::OrIOp::create(b, loc, kept, filled));
}

Value sub(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return arith::SubIOp::create(b, loc, lhs, rhs);
}

Value sle(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, lhs, rhs);
}

/// `tile` where the wave-uniform `keepAll` holds (interior tiles, tiles
/// wholly on the kept side of a diagonal: a branch over the whole tile),
/// else `masked()`.
Value maskUnless(OpBuilder &b, Location loc, Value keepAll, Value tile,
                 function_ref<Value()> masked) {
  auto branch = scf::IfOp::create(b, loc, tile.getType(), keepAll,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  scf::YieldOp::create(b, loc, tile);
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(b, loc, masked());
  return branch.getResult(0);
}

/// tril and causal_mask keep `col - row <= diagonal`, triu keeps
/// `col - row >= diagonal`: with col = col0 + laneCol + colOffset (and the
/// same for rows), the slot's `colOffset - rowOffset` is compared with
/// `diagonal - (col0 - row0) - (laneCol - laneRow)`. Tiles wholly on the
/// kept side skip the masking.
template <typename SourceOp, bool keepAbove>
struct TriangleLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterTileType tile = op.getTile().getType();
    Value origin = sub(rewriter, loc, toI32(rewriter, loc, adaptor.getCol()),
                       toI32(rewriter, loc, adaptor.getRow()));
    Value diagonal = constI32(rewriter, loc, op.getDiagonal());
    // col - row over the tile spans origin - (R - 1) to origin + (C - 1).
    Value keepAll =
        keepAbove
            ? sle(rewriter, loc, diagonal,
                  addI32(rewriter, loc, origin, 1 - tile.getRows()))
            : sle(rewriter, loc,
                  addI32(rewriter, loc, origin, tile.getCols() - 1), diagonal);
    rewriter.replaceOp(
        op, maskUnless(rewriter, loc, keepAll, adaptor.getTile(), [&] {
          SlotPlacement slots = placeSlots(rewriter, loc, tile);
          SmallVector<int32_t> diffs;
          for (auto [r, c] : llvm::zip(slots.rowOffsets, slots.colOffsets))
            diffs.push_back(c - r);
          Value lane = sub(rewriter, loc, slots.lane.col, slots.lane.row);
          Value limit = sub(rewriter, loc, diagonal,
                            arith::AddIOp::create(rewriter, loc, origin, lane));
          Value drop = dropSlots(rewriter, loc, diffs, limit,
                                 /*strict=*/false, /*reversed=*/keepAbove);
          return maskedFill(rewriter, loc, drop, adaptor.getTile(),
                            op.getFill());
        }));
    return success();
  }
};

/// Keeps `row0 + laneRow + rowOffset < rows` and the same for columns;
/// tiles wholly inside skip the masking.
struct BoundsMaskLowering : public OpConversionPattern<BoundsMaskOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BoundsMaskOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterTileType tile = op.getTile().getType();
    auto room = [&](Value limit, Value origin) {
      return sub(rewriter, loc, toI32(rewriter, loc, limit),
                 toI32(rewriter, loc, origin));
    };
    Value rowRoom = room(adaptor.getRows(), adaptor.getRow());
    Value colRoom = room(adaptor.getCols(), adaptor.getCol());
    Value inside = arith::AndIOp::create(
        rewriter, loc,
        sle(rewriter, loc, constI32(rewriter, loc, tile.getRows()), rowRoom),
        sle(rewriter, loc, constI32(rewriter, loc, tile.getCols()), colRoom));
    rewriter.replaceOp(
        op, maskUnless(rewriter, loc, inside, adaptor.getTile(), [&] {
          SlotPlacement slots = placeSlots(rewriter, loc, tile);
          Value drop = arith::OrIOp::create(
              rewriter, loc,
              dropSlots(rewriter, loc, slots.rowOffsets,
                        sub(rewriter, loc, rowRoom, slots.lane.row),
                        /*strict=*/true),
              dropSlots(rewriter, loc, slots.colOffsets,
                        sub(rewriter, loc, colRoom, slots.lane.col),
                        /*strict=*/true));
          return maskedFill(rewriter, loc, drop, adaptor.getTile(),
                            op.getFill());
        }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Online softmax
//===----------------------------------------------------------------------===//

/// One step of online softmax, as the op documents. A row whose maximum is
/// still -inf (every score masked so far) uses the lowest finite float in
/// its place, so that its probabilities and rescale factor are 0 rather
/// than NaN.
struct SoftmaxLowering : public OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const ChipInfo *chip = lookupTargetChip(op);
    if (!chip)
      return rewriter.notifyMatchFailure(op, "no target chip");
    Location loc = op.getLoc();
    Alignment align = alignmentOf(op.getScores().getType(), op.alongRows());
    auto tileType = cast<VectorType>(adaptor.getScores().getType());
    auto vecType = cast<VectorType>(adaptor.getMax().getType());

    Value scores = adaptor.getScores();
    float scale = op.getScale().convertToFloat();
    // A positive scale commutes with the row max, exactly (rounding is
    // monotonic): the scores are reduced raw, only the row maxima are
    // scaled, and the exponent is one fused scale-and-subtract per element.
    bool scaleAfterMax = scale > 0.0f;
    Value x = scores;
    if (!scaleAfterMax)
      x = arith::MulFOp::create(rewriter, loc, x,
                                floatSplat(rewriter, loc, tileType, scale));
    Value rowMax =
        reduceTile(rewriter, loc, align, x, Combine::SoftmaxMax, *chip);
    if (scaleAfterMax && scale != 1.0f)
      rowMax = arith::MulFOp::create(rewriter, loc, rowMax,
                                     floatSplat(rewriter, loc, vecType, scale));
    Value max = adaptor.getMax();
    std::optional<APFloat> slack = op.getMaxSlack();
    // With a slack, a row's max moves only when the tile's passes it by
    // more than the slack (from -inf, any finite max does; a NaN never).
    Value grows;
    Value newMax;
    if (slack) {
      Value limit = arith::AddFOp::create(
          rewriter, loc, max,
          floatSplat(rewriter, loc, vecType, slack->convertToDouble()));
      grows = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT,
                                    rowMax, limit);
      newMax = arith::SelectOp::create(rewriter, loc, grows, rowMax, max);
    } else {
      newMax = arith::MaxNumFOp::create(rewriter, loc, max, rowMax);
    }
    // A row whose max is still -inf pivots on the lowest finite float
    // instead (one v_max_f32): its scores are all -inf, so x - pivot is
    // -inf, never NaN, and so is the old max minus it.
    Value pivot = arith::MaxNumFOp::create(
        rewriter, loc, newMax,
        floatSplat(rewriter, loc, vecType,
                   -double(std::numeric_limits<float>::max())));
    // The exponents are at most 0 (at most the slack), so results are in
    // [0, 1] ([0, 2^slack]): the hardware's v_exp_f32 serves alone, without
    // the range scaling math.exp2 adds to keep denormal results (far below
    // what P's bf16 rounding keeps).
    auto exp2 = [&](Value v) {
      return mapElements(rewriter, loc, v, [&](Value scalar) -> Value {
        return ROCDL::ROCDLExp2::create(rewriter, loc, scalar.getType(),
                                        scalar);
      });
    };
    Value pivots = expandVector(rewriter, loc, align, pivot);
    Value exponents =
        scaleAfterMax ? Value(math::FmaOp::create(
                            rewriter, loc, scores,
                            floatSplat(rewriter, loc, tileType, scale),
                            arith::NegFOp::create(rewriter, loc, pivots)))
                      : Value(arith::SubFOp::create(rewriter, loc, x, pivots));
    Value probs = exp2(exponents);
    Value rescale = exp2(arith::SubFOp::create(rewriter, loc, max, pivot));
    // Rows whose max stays are rescaled by exactly 1, wholly masked ones too.
    if (slack)
      rescale =
          arith::SelectOp::create(rewriter, loc, grows, rescale,
                                  floatSplat(rewriter, loc, vecType, 1.0));
    // An unused sum is not computed: its multiply would keep the rescale
    // factors alive outside a hk.mul_col {skip_ones} branch.
    Value newSum = adaptor.getSum();
    if (!op.getResult(2).use_empty())
      newSum = arith::AddFOp::create(
          rewriter, loc,
          arith::MulFOp::create(rewriter, loc, rescale, adaptor.getSum()),
          reduceTile(rewriter, loc, align, probs, Combine::Sum, *chip));
    rewriter.replaceOp(op, {probs, newMax, newSum, rescale});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Vectors in global memory
//===----------------------------------------------------------------------===//

/// True in the one lane, of those holding the same values of a vector,
/// that writes them: the lane with zero in every replica lane bit.
Value isVectorWriter(OpBuilder &b, Location loc, RegisterVectorType type) {
  auto vecLayout = cast<VectorLayoutAttr>(type.getLayout());
  unsigned replicas = FragmentLayout::get(vecLayout.getTile())
                          ->getReductionLaneMask(vecLayout.getRows());
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, laneId(b, loc), constI32(b, loc, replicas)),
      constI32(b, loc, 0));
}

/// Where a lane's vector elements live in a global view: the last index
/// counts in vectors, the others in elements. Every position of the lane's
/// vector gets its element offset in a buffer over the vector's line of
/// the view, whose range check masks what lies past the line (or the whole
/// line when an outer index is outside the view): no per-element
/// conditions.
struct GlobalVectorAccess {
  ViewBuffer buffer;
  SmallVector<Value> offsets;
  Value lineLength; ///< The last dimension's size.
  int64_t rank = 1; ///< The view's.
};

FailureOr<GlobalVectorAccess> prepareVectorAccess(OpBuilder &b, Location loc,
                                                  Operation *op, Value view,
                                                  ValueRange indices,
                                                  RegisterVectorType type) {
  const ChipInfo *chip = lookupTargetChip(op);
  FailureOr<ViewABI> abi = getViewABI(b, loc, view);
  if (!chip || failed(abi))
    return failure();
  Type memElem = getMemoryElementType(abi->type.getElementType());

  int64_t rank = abi->type.getRank();
  Value lineOffset = constI32(b, loc, 0);
  SmallVector<Value> outer;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Value index = toI32(b, loc, indices[d]);
    lineOffset = arith::AddIOp::create(
        b, loc, lineOffset,
        arith::MulIOp::create(b, loc, index, abi->strides[d]));
    outer.push_back(ult(b, loc, index, abi->sizes[d]));
  }
  GlobalVectorAccess access;
  access.buffer = rank == 1 ? makeViewBuffer(b, loc, *abi, memElem, *chip)
                            : makeLineBuffer(b, loc, *abi, memElem, *chip,
                                             lineOffset, andAll(b, loc, outer));
  Value start =
      mulI32(b, loc, toI32(b, loc, indices[rank - 1]), type.getLength());
  Value offset = arith::AddIOp::create(b, loc, lineOffset, start);
  for (Value coordinate : vectorCoordinates(b, loc, type))
    access.offsets.push_back(arith::AddIOp::create(b, loc, offset, coordinate));
  access.lineLength = abi->sizes.back();
  access.rank = rank;
  return access;
}

/// The widest run of consecutive elements a lane's vector holds at every
/// lane's positions [i, i + width), for i a multiple of width: each run a
/// width-aligned block of the vector's coordinates (so, with the vector's
/// length a multiple of width, one naturally aligned load of width *
/// elementBytes at an aligned line), at most 16 bytes. 1 when the layout
/// scatters the lane's elements.
int64_t vectorRunWidth(RegisterVectorType type, int64_t elementBytes) {
  auto vecLayout = cast<VectorLayoutAttr>(type.getLayout());
  bool alongRows = vecLayout.getRows();
  FragmentLayout layout = *FragmentLayout::get(vecLayout.getTile());
  int64_t count = layout.getVectorElementsPerLane(alongRows, type.getLength());
  auto runsOf = [&](int64_t width) {
    if (count % width != 0 || type.getLength() % width != 0)
      return false;
    for (unsigned lane = 0; lane < 64; ++lane)
      for (int64_t first = 0; first < count; first += width) {
        int64_t base = layout.getVectorCoordinate(alongRows, lane, first);
        if (base % width != 0)
          return false;
        for (int64_t k = 1; k < width; ++k)
          if (layout.getVectorCoordinate(alongRows, lane, first + k) !=
              base + k)
            return false;
      }
    return true;
  };
  for (int64_t width = 16 / elementBytes; width > 1; width /= 2)
    if (runsOf(width))
      return width;
  return 1;
}

/// The runs a vector access of `type` through `access` moves
/// (vectorRunWidth), or 1 for element by element. Only a one-dimensional
/// view (a row of weights, a reduction's results) goes in runs: for a row
/// of a matrix its stride decides whether runs are aligned, and a branch
/// on it in a main loop (attention backward's L and Delta) costs more than
/// the runs save. Stores of one-byte elements go one by one: a dword the
/// view's end splits could drop three of them (storeVectorRuns).
int64_t accessRunWidth(const GlobalVectorAccess &access,
                       RegisterVectorType type, bool store) {
  int64_t bytes = access.buffer.elementBytes;
  if (access.rank != 1 || (store && bytes < 2))
    return 1;
  return vectorRunWidth(type, bytes);
}

/// A vector of a one-dimensional view loaded in runs of `width`
/// consecutive elements (vectorRunWidth), one load each (the view's base
/// aligned, as a tile's is for whole-chunk copies; the vector's start a
/// multiple of the runs). Runs wholly past the view's end read zero, as
/// elements do; one that the end splits inside a dword loses the view's
/// last elements, which are loaded again and put back, without a branch:
/// a per-element path compiled beside the runs would hold a register per
/// element wherever it is.
Value loadVectorRuns(OpBuilder &b, Location loc,
                     const GlobalVectorAccess &access, VectorType rawType,
                     int64_t width) {
  Type memElem = rawType.getElementType();
  int64_t bytes = access.buffer.elementBytes;
  auto runType = VectorType::get({width}, memElem);
  Value runs =
      arith::ConstantOp::create(b, loc, rawType, b.getZeroAttr(rawType));
  for (int64_t first = 0; first < rawType.getNumElements(); first += width) {
    Value run = access.buffer.load(
        b, loc, runType, mulI32(b, loc, access.offsets[first], bytes));
    runs =
        vector::InsertStridedSliceOp::create(b, loc, run, runs, {first}, {1});
  }
  if (bytes >= 4)
    return runs;
  // Element offsets count from the view's base, where its one line starts.
  Value end = access.lineLength;
  if (bytes == 2) {
    // A dword that holds the last element and one past it (only where the
    // view ends inside the vector at an odd element) is zeroed whole; it
    // becomes that element, zero-extended, where a lane holds it: an
    // aligned run's dwords hold positions 2k and 2k + 1, and position 2k
    // holds the last element only when the view's length is odd.
    int64_t count = rawType.getNumElements();
    auto wordsType = VectorType::get({count / 2}, b.getI32Type());
    Value words = vector::BitCastOp::create(b, loc, wordsType, runs);
    Value at = arith::SubIOp::create(b, loc, end, constI32(b, loc, 1));
    Value last = arith::ExtUIOp::create(
        b, loc, b.getI32Type(),
        arith::BitcastOp::create(
            b, loc, b.getI16Type(),
            access.buffer.load(b, loc, memElem, mulI32(b, loc, at, bytes))));
    for (int64_t word = 0; word < count / 2; ++word) {
      Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         access.offsets[2 * word], at);
      Value old = vector::ExtractOp::create(b, loc, words, word);
      words = vector::InsertOp::create(
          b, loc, arith::SelectOp::create(b, loc, here, last, old), words,
          word);
    }
    return vector::BitCastOp::create(b, loc, rawType, words);
  }
  // One-byte elements: the last three, where a lane holds them (loaded one
  // by one, whatever the runs got).
  Value patched = runs;
  for (int64_t back = 1; back < 4; ++back) {
    Value at = arith::SubIOp::create(b, loc, end, constI32(b, loc, back));
    Value element =
        access.buffer.load(b, loc, memElem, mulI32(b, loc, at, bytes));
    for (auto [position, offset] : llvm::enumerate(access.offsets)) {
      Value here =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, offset, at);
      Value old = vector::ExtractOp::create(b, loc, patched, int64_t(position));
      patched = vector::InsertOp::create(
          b, loc, arith::SelectOp::create(b, loc, here, element, old), patched,
          int64_t(position));
    }
  }
  return patched;
}

/// A vector of a one-dimensional view stored in runs of `width`
/// consecutive elements (vectorRunWidth), one store each, by the lanes
/// that write (`writer`). The range check drops every dword past the
/// view's end; with two-byte elements a view of odd length ends inside a
/// dword, which it drops whole with the view's last element: the lane
/// holding that element stores it again on its own (selected without a
/// branch). One-byte elements, up to three of which a dword could lose,
/// are not stored in runs.
void storeVectorRuns(OpBuilder &b, Location loc,
                     const GlobalVectorAccess &access, Value values,
                     int64_t width, Value writer) {
  int64_t count = cast<VectorType>(values.getType()).getNumElements();
  for (int64_t first = 0; first < count; first += width)
    access.buffer.store(
        b, loc,
        vector::ExtractStridedSliceOp::create(b, loc, values, {first}, {width},
                                              {1}),
        access.buffer.maskedOffset(b, loc, writer, access.offsets[first]));
  if (access.buffer.elementBytes != 2)
    return;
  // An aligned run's dwords hold positions 2k and 2k + 1; position 2k is
  // the view's last only when its length is odd.
  Value at =
      arith::SubIOp::create(b, loc, access.lineLength, constI32(b, loc, 1));
  Value holds = arith::ConstantIntOp::create(b, loc, 0, 1);
  Value last = vector::ExtractOp::create(b, loc, values, 0);
  for (int64_t position = 0; position < count; position += 2) {
    Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       access.offsets[position], at);
    last = arith::SelectOp::create(
        b, loc, here, vector::ExtractOp::create(b, loc, values, position),
        last);
    holds = arith::OrIOp::create(b, loc, holds, here);
  }
  access.buffer.store(
      b, loc, last,
      access.buffer.maskedOffset(
          b, loc, arith::AndIOp::create(b, loc, writer, holds), at));
}

struct VectorLoadLowering : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RegisterVectorType>(op.getType());
    if (!type || !isa<GlobalViewType>(op.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not a global vector load");
    Location loc = op.getLoc();
    FailureOr<GlobalVectorAccess> access = prepareVectorAccess(
        rewriter, loc, op, adaptor.getSource(), adaptor.getIndices(), type);
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Type memElem = getMemoryElementType(
        cast<GlobalViewType>(op.getSource().getType()).getElementType());
    int64_t bytes = access->buffer.elementBytes;
    auto rawType = VectorType::get({int64_t(access->offsets.size())}, memElem);
    int64_t width = accessRunWidth(*access, type, /*store=*/false);
    Value raw;
    if (width > 1) {
      raw = loadVectorRuns(rewriter, loc, *access, rawType, width);
    } else {
      SmallVector<Value> elements;
      for (Value offset : access->offsets)
        elements.push_back(access->buffer.load(
            rewriter, loc, memElem, mulI32(rewriter, loc, offset, bytes)));
      raw = vector::FromElementsOp::create(rewriter, loc, rawType, elements);
    }
    rewriter.replaceOp(
        op, convertElements(rewriter, loc, raw, type.getElementType()));
    return success();
  }
};

/// Every lane holding a value has it; only the lane with zero in all the
/// replica bits writes.
struct VectorStoreLowering : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RegisterVectorType>(op.getValue().getType());
    if (!type || !isa<GlobalViewType>(op.getDest().getType()))
      return rewriter.notifyMatchFailure(op, "not a global vector store");
    Location loc = op.getLoc();
    FailureOr<GlobalVectorAccess> access = prepareVectorAccess(
        rewriter, loc, op, adaptor.getDest(), adaptor.getIndices(), type);
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Type destElem =
        cast<GlobalViewType>(op.getDest().getType()).getElementType();
    Value values = convertElements(rewriter, loc, adaptor.getValue(), destElem);
    values =
        convertElements(rewriter, loc, values, getMemoryElementType(destElem));
    Value writer = isVectorWriter(rewriter, loc, type);
    int64_t width = accessRunWidth(*access, type, /*store=*/true);
    if (width > 1) {
      storeVectorRuns(rewriter, loc, *access, values, width, writer);
      rewriter.eraseOp(op);
      return success();
    }
    for (auto [index, offset] : llvm::enumerate(access->offsets))
      access->buffer.store(
          rewriter, loc,
          vector::ExtractOp::create(rewriter, loc, values, index),
          access->buffer.maskedOffset(rewriter, loc, writer, offset));
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Vectors in LDS: shared vectors and layout conversions
//===----------------------------------------------------------------------===//

/// Writes a lane's values (in the memory element type) at `ptr` + their
/// coordinates; of the lanes holding a value only one writes it.
void storeVectorToLds(OpBuilder &b, Location loc, const LdsPlan &lds, Value ptr,
                      RegisterVectorType type, Value values, Value base) {
  auto guard = scf::IfOp::create(b, loc, isVectorWriter(b, loc, type),
                                 /*withElseRegion=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(guard.thenBlock());
  Type memElem = cast<VectorType>(values.getType()).getElementType();
  int64_t bytes = getElementBytes(memElem);
  for (auto [index, offset] :
       llvm::enumerate(vectorCoordinates(b, loc, type, base)))
    lds.markTileAccess(LLVM::StoreOp::create(
        b, loc, vector::ExtractOp::create(b, loc, values, index),
        elementPointer(b, loc, ptr, memElem, offset), bytes));
}

Value loadVectorFromLds(OpBuilder &b, Location loc, const LdsPlan &lds,
                        Value ptr, RegisterVectorType type, Type memElem,
                        Value base) {
  int64_t bytes = getElementBytes(memElem);
  SmallVector<Value> elements;
  for (Value offset : vectorCoordinates(b, loc, type, base)) {
    auto load = LLVM::LoadOp::create(
        b, loc, memElem, elementPointer(b, loc, ptr, memElem, offset), bytes);
    lds.markTileAccess(load);
    elements.push_back(load);
  }
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({int64_t(elements.size())}, memElem), elements);
}

/// Element offset of subvector `indices[0]` of a shared vector (0 without
/// an index).
Value sharedVectorBase(OpBuilder &b, Location loc, ValueRange indices,
                       RegisterVectorType type) {
  if (indices.empty())
    return constI32(b, loc, 0);
  return mulI32(b, loc, toI32(b, loc, indices.front()), type.getLength());
}

struct SharedVectorLoadLowering : public OpConversionPattern<LoadOp> {
  SharedVectorLoadLowering(HKTypeConverter &converter, MLIRContext *ctx,
                           const LdsPlan &lds)
      : OpConversionPattern(converter, ctx), lds(lds) {}
  const LdsPlan &lds;

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RegisterVectorType>(op.getType());
    auto shared = dyn_cast<SharedVectorType>(op.getSource().getType());
    if (!type || !shared)
      return rewriter.notifyMatchFailure(op, "not a shared vector load");
    Location loc = op.getLoc();
    Type memElem = getMemoryElementType(shared.getElementType());
    Value raw = loadVectorFromLds(
        rewriter, loc, lds, adaptor.getSource(), type, memElem,
        sharedVectorBase(rewriter, loc, adaptor.getIndices(), type));
    rewriter.replaceOp(
        op, convertElements(rewriter, loc, raw, type.getElementType()));
    return success();
  }
};

struct SharedVectorStoreLowering : public OpConversionPattern<StoreOp> {
  SharedVectorStoreLowering(HKTypeConverter &converter, MLIRContext *ctx,
                            const LdsPlan &lds)
      : OpConversionPattern(converter, ctx), lds(lds) {}
  const LdsPlan &lds;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RegisterVectorType>(op.getValue().getType());
    auto shared = dyn_cast<SharedVectorType>(op.getDest().getType());
    if (!type || !shared)
      return rewriter.notifyMatchFailure(op, "not a shared vector store");
    Location loc = op.getLoc();
    Value values =
        convertElements(rewriter, loc, adaptor.getValue(),
                        getMemoryElementType(shared.getElementType()));
    storeVectorToLds(
        rewriter, loc, lds, adaptor.getDest(), type, values,
        sharedVectorBase(rewriter, loc, adaptor.getIndices(), type));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Between layouts that place values differently, through the wave's LDS
/// scratch: the holders write, every lane reads what its new layout holds.
struct VectorConvertLayoutLowering
    : public OpConversionPattern<ConvertLayoutOp> {
  VectorConvertLayoutLowering(HKTypeConverter &converter, MLIRContext *ctx,
                              const LdsPlan &lds)
      : OpConversionPattern(converter, ctx), lds(lds) {}
  const LdsPlan &lds;

  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = dyn_cast<RegisterVectorType>(op.getSource().getType());
    auto to = dyn_cast<RegisterVectorType>(op.getType());
    if (!from || !to)
      return rewriter.notifyMatchFailure(op, "not a vector conversion");
    if (!conversionMovesData(op)) {
      rewriter.replaceOp(op, adaptor.getSource());
      return success();
    }
    Location loc = op.getLoc();
    Value scratch = lds.getWaveScratch(rewriter, loc, op);
    if (!scratch)
      return rewriter.notifyMatchFailure(op, "no scratch was planned");
    Type memElem = getMemoryElementType(from.getElementType());
    Value zero = constI32(rewriter, loc, 0);
    waveBarrier(rewriter, loc);
    storeVectorToLds(
        rewriter, loc, lds, scratch, from,
        convertElements(rewriter, loc, adaptor.getSource(), memElem), zero);
    waveBarrier(rewriter, loc);
    Value raw =
        loadVectorFromLds(rewriter, loc, lds, scratch, to, memElem, zero);
    waveBarrier(rewriter, loc);
    rewriter.replaceOp(
        op, convertElements(rewriter, loc, raw, to.getElementType()));
    return success();
  }
};

} // namespace

void lowering::populateRowPatterns(HKTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const LdsPlan &plan) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BroadcastLowering<AddRowOp, arith::AddFOp>,
               BroadcastLowering<SubRowOp, arith::SubFOp>,
               BroadcastLowering<MulRowOp, arith::MulFOp>,
               BroadcastLowering<DivRowOp, arith::DivFOp>,
               BroadcastLowering<AddColOp, arith::AddFOp>,
               BroadcastLowering<SubColOp, arith::SubFOp>,
               BroadcastLowering<MulColOp, arith::MulFOp>,
               BroadcastLowering<DivColOp, arith::DivFOp>>(converter, ctx);
  patterns.add<ReduceLowering<RowMaxOp, Combine::Max>,
               ReduceLowering<RowMinOp, Combine::Min>,
               ReduceLowering<RowSumOp, Combine::Sum>,
               ReduceLowering<ColMaxOp, Combine::Max>,
               ReduceLowering<ColMinOp, Combine::Min>,
               ReduceLowering<ColSumOp, Combine::Sum>,
               ArgReduceLowering<RowArgMaxOp>, ArgReduceLowering<RowArgMinOp>,
               ArgReduceLowering<ColArgMaxOp>, ArgReduceLowering<ColArgMinOp>>(
      converter, ctx);
  patterns.add<
      TriangleLowering<TrilOp, false>, TriangleLowering<CausalMaskOp, false>,
      TriangleLowering<TriuOp, true>, BoundsMaskLowering, SoftmaxLowering>(
      converter, ctx);
  patterns.add<VectorLoadLowering, VectorStoreLowering>(converter, ctx);
  patterns.add<SharedVectorLoadLowering, SharedVectorStoreLowering,
               VectorConvertLayoutLowering>(converter, ctx, plan);
}
