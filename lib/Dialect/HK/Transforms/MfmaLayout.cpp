//===- MfmaLayout.cpp - MFMA instructions and register-tile layouts -------===//

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/Layouts.h"
#include "hk/Dialect/HK/Transforms/Passes.h"

#include "ValueClasses.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace hk {
#define GEN_PASS_DEF_HKMFMALAYOUT
#include "hk/Dialect/HK/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

using LayoutClasses = ValueClasses<RegisterTileType>;
using VectorClasses = ValueClasses<RegisterVectorType>;

/// Collects the classes: ops whose operands and results must agree on the
/// layout, and values carried through control flow.
void buildClasses(Operation *root, LayoutClasses &classes) {
  root->walk([&](Operation *op) {
    if (classes.visitControlFlow(op))
      return;
    if (op->hasTrait<trait::SameLayout>()) {
      for (Value operand : op->getOperands())
        for (Value result : op->getResults())
          classes.merge(operand, result);
      return;
    }
    if (auto mma = dyn_cast<MmaOp>(op)) {
      classes.merge(mma.getAcc(), mma.getResult());
      return;
    }
    if (auto softmax = dyn_cast<SoftmaxOp>(op))
      classes.merge(softmax.getScores(), softmax.getProbs());
  });
}

/// On a chip with transposing LDS reads, a shared tile that holds a
/// transposed copy (every write an `hk.group_load ... transpose`) only for
/// the B operands of `hk.mma abt` is kept untransposed instead, and those
/// MFMAs read it as `ab`: the copy can then go direct to LDS (a transposing
/// one is staged through registers, and its LDS writes wait for its loads
/// at once), and the transposing reads rearrange the fragments. A tile read
/// at [i, j] as R x C is the untransposed tile's C x R block at [j, i]. Not
/// done for a tile read in a loop that holds none of its writes.
void untransposeSharedTiles(ModuleOp module) {
  module.walk([](AllocOp alloc) {
    auto type = dyn_cast<SharedTileType>(alloc.getType());
    const ChipInfo *chip = lookupTargetChip(alloc);
    if (!type || type.getSwizzle() || !chip || !chip->hasLdsTransposeRead)
      return;
    // A read of the whole tile or of a block at [i, j], without a written
    // layout, used only as B of `abt` MFMAs (and not also as their A).
    auto isBOperandRead = [](LoadOp read) {
      auto tile = dyn_cast<RegisterTileType>(read.getType());
      size_t indices = read.getIndices().size();
      return tile && !tile.getLayout() && (indices == 0 || indices == 2) &&
             !read.getResult().use_empty() &&
             llvm::all_of(read.getResult().getUses(), [](OpOperand &use) {
               auto mma = dyn_cast<MmaOp>(use.getOwner());
               return mma && mma.getForm() == MmaForm::ABt &&
                      use.get() == mma.getB() && mma.getA() != mma.getB();
             });
    };
    SmallVector<GroupLoadOp> writes;
    SmallVector<LoadOp> reads;
    for (Operation *user : alloc.getResult().getUsers()) {
      if (auto write = dyn_cast<GroupLoadOp>(user);
          write && write.getDest() == alloc.getResult() &&
          write.getTranspose()) {
        writes.push_back(write);
        continue;
      }
      auto read = dyn_cast<LoadOp>(user);
      if (!read || !isBOperandRead(read))
        return;
      reads.push_back(read);
    }
    if (writes.empty() || reads.empty())
      return;
    // A transposing read moves 8 bytes per lane where a plain one moves 16:
    // worth it for a copy made as often as it is read (a prefetch in the
    // loop that reads it), not for one made once and read on every
    // iteration of a loop around the reads alone.
    auto readMoreOftenThanWritten = [&](LoadOp read) {
      for (auto loop = read->getParentOfType<LoopLikeOpInterface>(); loop;
           loop = loop->getParentOfType<LoopLikeOpInterface>())
        if (llvm::none_of(writes, [&](GroupLoadOp write) {
              return loop->isProperAncestor(write);
            }))
          return true;
      return false;
    };
    if (llvm::any_of(reads, readMoreOftenThanWritten))
      return;
    alloc.getResult().setType(
        SharedTileType::get(type.getContext(), {type.getCols(), type.getRows()},
                            type.getElementType(), Attribute()));
    for (GroupLoadOp write : writes)
      write.setTranspose(false);
    for (LoadOp read : reads) {
      auto tile = cast<RegisterTileType>(read.getType());
      SmallVector<Value> indices(llvm::reverse(read.getIndices()));
      OpBuilder b(read);
      auto untransposed =
          LoadOp::create(b, read.getLoc(),
                         RegisterTileType::get({tile.getCols(), tile.getRows()},
                                               tile.getElementType()),
                         alloc.getResult(), indices, read.getPathAttr());
      for (OpOperand &use : llvm::make_early_inc_range(read->getUses())) {
        auto mma = cast<MmaOp>(use.getOwner());
        mma.setForm(MmaForm::AB);
        use.set(untransposed.getResult());
      }
      read.erase();
    }
  });
}

/// The layout an operand of `mma` needs for instruction `shape` when A and
/// B hold `operandK` K elements per block (a multiple of the instruction's
/// K; see the hk.mma verifier).
MfmaLayoutAttr requiredLayout(MmaOp mma, MfmaShapeAttr shape, int64_t operandK,
                              MfmaOperand role) {
  int64_t k = role == MfmaOperand::Acc ? shape.getK() : operandK;
  return MfmaLayoutAttr::get(mma.getContext(), role, shape.getM(), shape.getN(),
                             k);
}

/// Layout conversions inserted so far, so that one conversion of a value
/// serves every later use it dominates that needs the same layout (a
/// probability tile multiplied twice, a rescale vector broadcast onto two
/// tiles) instead of moving the data once per use.
class SharedConversions {
public:
  explicit SharedConversions(ModuleOp module) : dominance(module) {}

  /// `value` converted to `target`, for `user`: an earlier conversion
  /// that dominates it, or a new one right before it.
  Value get(Value value, Type target, Operation *user) {
    Value &conversion = converted[{value, target}];
    if (!conversion || !dominance.properlyDominates(conversion, user)) {
      OpBuilder builder(user);
      conversion =
          ConvertLayoutOp::create(builder, user->getLoc(), target, value);
    }
    return conversion;
  }

private:
  DominanceInfo dominance;
  llvm::DenseMap<std::pair<Value, Type>, Value> converted;
};

struct MmaOperandRole {
  OpOperand *operand;
  MfmaOperand role;
};

SmallVector<MmaOperandRole, 3> operandRoles(MmaOp mma) {
  return {{&mma.getAMutable(), getRequiredMfmaOperand(mma.getForm(), true)},
          {&mma.getBMutable(), getRequiredMfmaOperand(mma.getForm(), false)},
          {&mma.getAccMutable(), MfmaOperand::Acc}};
}

/// True when every tile of a class is a whole number of `layout`'s base
/// blocks, and slices of them cut along those blocks.
bool layoutFits(Attribute layout, ArrayRef<Value> members) {
  FragmentLayout fragment = *FragmentLayout::get(layout);
  return llvm::all_of(members, [&](Value v) {
    auto type = cast<RegisterTileType>(v.getType());
    if (!fragment.tiles(type.getRows(), type.getCols()))
      return false;
    auto slice = v.getDefiningOp<SliceOp>();
    return !slice || (slice.getOffsets()[0] % fragment.getBaseRows() == 0 &&
                      slice.getOffsets()[1] % fragment.getBaseCols() == 0);
  });
}

/// Register K-depth of an instruction: how many K elements one operand
/// register group covers per 16 rows; deeper is faster per byte read.
int64_t kDepth(const MfmaInstr &instr) { return instr.k * instr.m / 16; }

/// K elements per operand block that give each lane 16 contiguous bytes
/// (one ds_read_b128 instead of several narrower reads) while dividing the
/// tile's K: the instruction's K times the largest such power of two.
int64_t preferredOperandK(const MfmaInstr &instr, int64_t elementBytes,
                          int64_t tileK) {
  int64_t runBytes = instr.kPerLane() * elementBytes;
  int64_t pack = std::max<int64_t>(1, 16 / runBytes);
  while (pack > 1 && tileK % (instr.k * pack) != 0)
    pack /= 2;
  return instr.k * pack;
}

/// The K per block A and B already hold when the user wrote their layouts.
std::optional<int64_t> writtenOperandK(MmaOp mma) {
  for (Value v : {mma.getA(), mma.getB()})
    if (auto layout = dyn_cast_if_present<MfmaLayoutAttr>(
            cast<RegisterTileType>(v.getType()).getLayout()))
      return layout.getK();
  return std::nullopt;
}

class MfmaLayoutPass : public hk::impl::HKMfmaLayoutBase<MfmaLayoutPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    untransposeSharedTiles(module);
    LayoutClasses classes;
    buildClasses(module, classes);
    recordFirstDemands(module, classes);
    WalkResult chosen = module.walk([&](MmaOp mma) {
      if (failed(chooseInstruction(mma, classes)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (chosen.wasInterrupted())
      return signalPassFailure();

    assignLayouts(module, classes);
    insertConversions(module);
    convertTransposes(module);
    if (failed(assignVectorLayouts(module)))
      signalPassFailure();
  }

private:
  /// The first MFMA operand (in program order) of each class: the use whose
  /// layout assignLayouts gives the class when nothing is written.
  struct Demand {
    MmaOp mma;
    MfmaOperand role;
  };
  llvm::DenseMap<Value, Demand> firstDemand;

  void recordFirstDemands(ModuleOp module, LayoutClasses &classes) {
    module.walk([&](MmaOp mma) {
      for (MmaOperandRole entry : operandRoles(mma))
        firstDemand.try_emplace(classes.find(entry.operand->get()),
                                Demand{mma, entry.role});
    });
  }

  /// The layout `value` will have whatever `mma` chooses: its written one,
  /// or the one an earlier MFMA, whose instruction is already chosen, gives
  /// its class (such as the accumulator of the product it was computed
  /// from). Null when `mma` decides it.
  Attribute expectedLayout(Value value, MmaOp mma, LayoutClasses &classes) {
    if (Attribute written = cast<RegisterTileType>(value.getType()).getLayout())
      return written;
    auto it = firstDemand.find(classes.find(value));
    if (it == firstDemand.end() || it->second.mma == mma)
      return {};
    MmaOp first = it->second.mma;
    MfmaShapeAttr shape = first.getInstrAttr();
    if (!shape || !operandK.count(first))
      return {};
    return requiredLayout(first, shape, operandK.lookup(first),
                          it->second.role);
  }

  /// Number of operands whose expected layout (see expectedLayout) would
  /// need a conversion for instruction `shape` with `operandK` K elements
  /// per block.
  unsigned countConversions(MmaOp mma, MfmaShapeAttr shape, int64_t operandK,
                            LayoutClasses &classes) {
    unsigned conversions = 0;
    bool accOperands = hasAccumulatorOperands(mma);
    for (MmaOperandRole entry : operandRoles(mma)) {
      if (accOperands && entry.operand != &mma.getAccMutable())
        continue;
      Value value = entry.operand->get();
      Attribute expected = expectedLayout(value, mma, classes);
      if (!expected)
        continue;
      auto type = cast<RegisterTileType>(value.getType());
      if (!layoutsEquivalent(expected,
                             requiredLayout(mma, shape, operandK, entry.role),
                             type.getRows(), type.getCols()))
        ++conversions;
    }
    return conversions;
  }

  LogicalResult chooseInstruction(MmaOp mma, LayoutClasses &classes) {
    const ChipInfo *chip = lookupTargetChip(mma);
    if (!chip)
      return mma.emitOpError()
             << "needs a target chip to choose an MFMA; run hk-target first";
    int64_t m = mma.getM(), n = mma.getN(), k = mma.getK();
    int64_t bytes = getElementBits(mma.getA().getType().getElementType()) / 8;
    MfmaShapeAttr pinned = mma.getInstrAttr();
    bool accOperands = hasAccumulatorOperands(mma);
    MfmaShapeAttr best;
    int64_t bestK = 0;
    std::tuple<unsigned, int64_t, int64_t, unsigned> bestScore;
    for (const MfmaInstr *instr :
         getMfmaCandidates(*chip, mma.getA().getType().getElementType(),
                           mma.getB().getType().getElementType())) {
      if (m % instr->m || n % instr->n || k % instr->k)
        continue;
      // Accumulator-laid operands feed 16-row blocks to 16x16 instructions.
      if (accOperands && (instr->m != 16 || instr->n != 16 || instr->k % 16))
        continue;
      auto shape =
          MfmaShapeAttr::get(mma.getContext(), instr->m, instr->n, instr->k);
      if (pinned && shape != pinned)
        continue;
      // Operand K: what written layouts hold, or the unpacked and the
      // 16-byte-run packings.
      SmallVector<int64_t, 2> operandKs;
      // Accumulator-laid operands hold 4 rows per 16-row block whatever
      // the instruction's K: their layouts name no operand K.
      if (accOperands)
        operandKs.push_back(instr->k);
      else if (std::optional<int64_t> written = writtenOperandK(mma))
        operandKs.push_back(*written);
      else
        operandKs = {int64_t(instr->k), preferredOperandK(*instr, bytes, k)};
      for (int64_t operandK : operandKs) {
        if (operandK % instr->k || k % operandK)
          continue;
        // Fewer conversions, deeper K per instruction, longer runs per lane,
        // then 16x16 blocks.
        std::tuple<unsigned, int64_t, int64_t, unsigned> score = {
            countConversions(mma, shape, operandK, classes), -kDepth(*instr),
            -operandK / int64_t(instr->k), instr->m};
        if (!best || score < bestScore) {
          best = shape;
          bestK = operandK;
          bestScore = score;
        }
      }
    }
    if (!best)
      return mma.emitOpError()
             << "no MFMA on " << chip->name << " divides MxNxK = " << m << "x"
             << n << "x" << k;
    mma.setInstrAttr(best);
    operandK[mma] = bestK;
    return success();
  }

  /// K per block of `mma`'s A and B operands.
  llvm::DenseMap<Operation *, int64_t> operandK;

  /// Gives every class without a user-written layout the layout of its
  /// first MFMA use, or `row`.
  void assignLayouts(ModuleOp module, LayoutClasses &classes) {
    llvm::DenseMap<Value, Attribute> demanded;
    module.walk([&](MmaOp mma) {
      MfmaShapeAttr shape = *mma.getInstr();
      for (MmaOperandRole entry : operandRoles(mma)) {
        Value root = classes.find(entry.operand->get());
        demanded.try_emplace(
            root, requiredLayout(mma, shape, operandK.lookup(mma), entry.role));
      }
    });
    propagateThroughTransposes(module, classes, demanded);
    MLIRContext *ctx = module.getContext();
    for (auto &[root, members] : classes.classes()) {
      auto rootType = cast<RegisterTileType>(root.getType());
      if (rootType.getLayout())
        continue; // Written by the user; the class shares it.
      Attribute layout = demanded.lookup(root);
      if (!layout || !layoutFits(layout, members))
        layout = TileLayoutAttr::get(ctx, TileLayout::Row);
      for (Value v : members) {
        auto type = cast<RegisterTileType>(v.getType());
        if (!type.getLayout())
          v.setType(type.withLayout(layout));
      }
    }
  }

  /// A transpose keeps every element in its lane, so the classes on its two
  /// sides want transposed layouts of each other: a class without a layout
  /// of its own takes the transpose of the other side's. Where neither side
  /// has one, the source is `row` and the result `col`.
  void propagateThroughTransposes(ModuleOp module, LayoutClasses &classes,
                                  llvm::DenseMap<Value, Attribute> &demanded) {
    SmallVector<TransposeOp> transposes;
    module.walk([&](TransposeOp t) { transposes.push_back(t); });
    auto layoutOf = [&](Value root) -> Attribute {
      if (Attribute written =
              cast<RegisterTileType>(root.getType()).getLayout())
        return written;
      return demanded.lookup(root);
    };
    MLIRContext *ctx = module.getContext();
    for (bool seeded = false;; seeded = true) {
      for (bool changed = true; changed;) {
        changed = false;
        for (TransposeOp t : transposes) {
          Value from = classes.find(t.getSource());
          Value to = classes.find(t.getResult());
          Attribute a = layoutOf(from), b = layoutOf(to);
          if (bool(a) == bool(b))
            continue;
          if (Attribute twin = transposedLayout(a ? a : b)) {
            demanded[a ? to : from] = twin;
            changed = true;
          }
        }
      }
      if (seeded)
        return;
      for (TransposeOp t : transposes) {
        Value from = classes.find(t.getSource());
        if (!layoutOf(from))
          demanded[from] = TileLayoutAttr::get(ctx, TileLayout::Row);
      }
    }
  }

  /// A transpose whose two sides took layouts that are not each other's
  /// transpose (an MFMA use on each side) keeps its elements in their lanes
  /// and converts its result to what the uses want.
  void convertTransposes(ModuleOp module) {
    module.walk([&](TransposeOp t) {
      RegisterTileType src = t.getSource().getType(), dst = t.getType();
      if (transposeSlots(src.getLayout(), dst.getLayout(), src.getRows(),
                         src.getCols()))
        return;
      Attribute twin = transposedLayout(src.getLayout());
      if (!twin)
        return; // The verifier reports it.
      t.getResult().setType(dst.withLayout(twin));
      OpBuilder builder(t);
      builder.setInsertionPointAfter(t);
      auto back =
          ConvertLayoutOp::create(builder, t.getLoc(), dst, t.getResult());
      t.getResult().replaceAllUsesExcept(back, back);
    });
  }

  /// Aligns every register vector without a written layout with the tiles
  /// it is broadcast onto or reduced from. A vector class that meets tiles
  /// whose rows (columns) sit in different lanes is an error.
  LogicalResult assignVectorLayouts(ModuleOp module) {
    VectorClasses classes;
    // The first demand on a class decides its layout: producers
    // (reductions, softmax) before broadcasts, each in program order. A
    // broadcast of a vector held in another placement gets a conversion.
    struct Demand {
      Operation *op;
      Value vector;
      VectorLayoutAttr layout;
      OpOperand *broadcast = nullptr; ///< The vector operand of a broadcast.
    };
    llvm::SmallVector<Demand> demands;
    MLIRContext *ctx = module.getContext();
    auto aligned = [&](Value tile, bool rows) {
      return VectorLayoutAttr::get(
          ctx, rows, cast<RegisterTileType>(tile.getType()).getLayout());
    };
    module.walk([&](Operation *op) {
      if (classes.visitControlFlow(op))
        return;
      for (Value operand : op->getOperands())
        classes.record(operand);
      for (Value result : op->getResults())
        classes.record(result);
      // Element-by-element ops keep their vectors in one layout; broadcasts
      // (one vector operand, tile results) also demand one below.
      if (op->hasTrait<trait::SameLayout>())
        for (Value operand : op->getOperands())
          for (Value result : op->getResults())
            classes.merge(operand, result);
      llvm::TypeSwitch<Operation *>(op)
          .Case<AddRowOp, SubRowOp, MulRowOp, DivRowOp, AddColOp, SubColOp,
                MulColOp, DivColOp>([&](auto b) {
            demands.push_back({b, b.getVector(),
                               aligned(b.getTile(), b.alongRows()),
                               &b.getVectorMutable()});
          })
          .Case<RowMaxOp, RowMinOp, RowSumOp, ColMaxOp, ColMinOp, ColSumOp>(
              [&](auto r) {
                if (r.getInit())
                  classes.merge(r.getInit(), r.getResult());
                demands.push_back(
                    {r, r.getResult(), aligned(r.getTile(), r.alongRows())});
              })
          .Case<RowArgMaxOp, RowArgMinOp, ColArgMaxOp, ColArgMinOp>(
              [&](auto r) {
                demands.push_back(
                    {r, r.getResult(), aligned(r.getTile(), r.alongRows())});
              })
          // Each lane needs the indices of the rows it holds.
          .Case([&](GatherOp g) {
            demands.push_back({g, g.getRows(), aligned(g.getResult(), true),
                               &g.getRowsMutable()});
          })
          .Case([&](ScatterOp sc) {
            demands.push_back({sc, sc.getRows(), aligned(sc.getValue(), true),
                               &sc.getRowsMutable()});
          })
          .Case([&](SoftmaxOp sm) {
            for (Value v :
                 {sm.getSum(), sm.getNewMax(), sm.getNewSum(), sm.getRescale()})
              classes.merge(sm.getMax(), v);
            demands.push_back(
                {sm, sm.getMax(), aligned(sm.getScores(), sm.alongRows())});
          });
    });

    // First demand per class, unless the user wrote a layout.
    llvm::DenseMap<Value, Attribute> chosen;
    auto demand = [&](Value v, VectorLayoutAttr layout) {
      Value root = classes.find(v);
      if (auto written = cast<RegisterVectorType>(root.getType()).getLayout())
        chosen.try_emplace(root, written);
      chosen.try_emplace(root, layout);
    };
    for (bool broadcasts : {false, true})
      for (const Demand &d : demands)
        if (bool(d.broadcast) == broadcasts)
          demand(d.vector, d.layout);
    for (auto &[root, members] : classes.classes()) {
      auto rootType = cast<RegisterVectorType>(root.getType());
      Attribute layout =
          rootType.getLayout() ? rootType.getLayout() : chosen.lookup(root);
      if (!layout)
        layout = VectorLayoutAttr::get(
            ctx, /*rows=*/true, TileLayoutAttr::get(ctx, TileLayout::Row));
      for (Value v : members) {
        auto type = cast<RegisterVectorType>(v.getType());
        if (!type.getLayout())
          v.setType(type.withLayout(layout));
      }
    }

    auto check = [&](Operation *op, Value v,
                     VectorLayoutAttr wanted) -> LogicalResult {
      auto type = cast<RegisterVectorType>(v.getType());
      if (vectorLayoutsEquivalent(type.getLayout(), wanted, type.getLength()))
        return success();
      return op->emitOpError()
             << "needs the vector in layout " << wanted
             << ", but its values are held as " << type.getLayout()
             << " for another use; convert it (hk.convert_layout) or give "
                "the tiles involved the same MFMA shape or layout";
    };
    SharedConversions conversions(module);
    for (const Demand &d : demands) {
      auto type = cast<RegisterVectorType>(d.vector.getType());
      if (d.broadcast && !vectorLayoutsEquivalent(type.getLayout(), d.layout,
                                                  type.getLength())) {
        d.broadcast->set(
            conversions.get(d.vector, type.withLayout(d.layout), d.op));
        continue;
      }
      if (failed(check(d.op, d.vector, d.layout)))
        return failure();
    }
    return success();
  }

  /// Converts MFMA operands whose layout is not what the instruction reads,
  /// and converts results back to their class's layout.
  void insertConversions(ModuleOp module) {
    SharedConversions conversions(module);
    module.walk([&](MmaOp mma) {
      MfmaShapeAttr shape = *mma.getInstr();
      OpBuilder builder(mma);
      bool accOperands = hasAccumulatorOperands(mma);
      for (MmaOperandRole entry : operandRoles(mma)) {
        // Accumulator-laid A and B are read as they are.
        if (accOperands && entry.operand != &mma.getAccMutable())
          continue;
        Value value = entry.operand->get();
        auto type = cast<RegisterTileType>(value.getType());
        MfmaLayoutAttr required =
            requiredLayout(mma, shape, operandK.lookup(mma), entry.role);
        // Equivalent placements move no data. An MFMA layout of another
        // role or K (an accumulator read as the next product's operand)
        // still gets its conversion, a free one, for the op's verifier
        // checks the names.
        auto mfma = dyn_cast_if_present<MfmaLayoutAttr>(type.getLayout());
        if (layoutsEquivalent(type.getLayout(), required, type.getRows(),
                              type.getCols()) &&
            (!mfma || mfma == required))
          continue;
        entry.operand->set(
            conversions.get(value, type.withLayout(required), mma));
      }
      auto accType = cast<RegisterTileType>(mma.getAcc().getType());
      auto resultType = cast<RegisterTileType>(mma.getType());
      if (accType == resultType)
        return;
      // The product lives in the accumulator layout; the class expects the
      // old one.
      mma.getResult().setType(accType);
      builder.setInsertionPointAfter(mma);
      auto back = ConvertLayoutOp::create(builder, mma.getLoc(), resultType,
                                          mma.getResult());
      mma.getResult().replaceAllUsesExcept(back, back);
    });
  }
};

} // namespace
