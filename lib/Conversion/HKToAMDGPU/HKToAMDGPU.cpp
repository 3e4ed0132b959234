//===- HKToAMDGPU.cpp - hk tile programs to amdgpu, rocdl and vector ------===//
//
// Register tiles become one vector per lane, ordered by the tile's layout
// (see Layouts.h). Kernels become llvm.func AMDGPU kernels with the compact
// ABI: one pointer per global view, then each view's runtime sizes, then
// each view's strides (every dimension but the innermost), then the scalar
// arguments, all sizes and strides as i32. The kernel records their names
// for the code object's metadata.
//
//===----------------------------------------------------------------------===//

#include "hk/Conversion/Passes.h"
#include "hk/Dialect/HK/IR/ChipLegality.h"
#include "hk/Dialect/HK/IR/KernelSignature.h"
#include "hk/Target/HSACO.h"

#include "Lowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace hk {
#define GEN_PASS_DEF_CONVERTHKTOAMDGPU
#include "hk/Conversion/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

namespace {

//===----------------------------------------------------------------------===//
// Kernels and ids
//===----------------------------------------------------------------------===//

/// hk.kernel -> llvm.func with the compact ABI.
struct KernelLowering : public OpConversionPattern<KernelOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(KernelOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
    Type i32 = rewriter.getI32Type();
    ArrayRef<Type> argTypes = op.getArgumentTypes();

    // Pointers, then sizes, then strides, then scalars: A, A_size0,
    // A_stride0, s. Size and stride names count dimensions of the view, so
    // a static dimension's absence shows.
    SmallVector<Type> abiTypes;
    SmallVector<Attribute> abiNames;
    SmallVector<int64_t> ptrIndex(argTypes.size(), -1),
        sizeIndex(argTypes.size(), -1), strideIndex(argTypes.size(), -1),
        scalarIndex(argTypes.size(), -1);
    auto addArgument = [&](Type type, const Twine &name) {
      abiTypes.push_back(type);
      abiNames.push_back(rewriter.getStringAttr(name));
    };
    for (auto [i, type] : llvm::enumerate(argTypes))
      if (isa<GlobalViewType>(type)) {
        ptrIndex[i] = abiTypes.size();
        addArgument(ptrType, getKernelArgumentName(op, i));
      }
    for (auto [i, type] : llvm::enumerate(argTypes))
      if (auto view = dyn_cast<GlobalViewType>(type)) {
        sizeIndex[i] = abiTypes.size();
        for (auto [d, size] : llvm::enumerate(view.getShape()))
          if (ShapedType::isDynamic(size))
            addArgument(i32, getKernelArgumentName(op, i) + "_size" + Twine(d));
      }
    for (auto [i, type] : llvm::enumerate(argTypes))
      if (auto view = dyn_cast<GlobalViewType>(type)) {
        strideIndex[i] = abiTypes.size();
        for (int64_t d = 0; d + 1 < view.getRank(); ++d)
          addArgument(i32, getKernelArgumentName(op, i) + "_stride" + Twine(d));
      }
    for (auto [i, type] : llvm::enumerate(argTypes))
      if (!isa<GlobalViewType>(type)) {
        scalarIndex[i] = abiTypes.size();
        addArgument(type, getKernelArgumentName(op, i));
      }

    auto funcType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), abiTypes);
    auto func =
        LLVM::LLVMFuncOp::create(rewriter, loc, op.getSymName(), funcType);
    int64_t lanes = int64_t(op.getWaves()) * 64;
    func->setAttr("rocdl.kernel", rewriter.getUnitAttr());
    for (auto [i, name] : llvm::enumerate(abiNames))
      func.setArgAttr(i, kArgNameAttrName, name);
    func->setAttr("rocdl.flat_work_group_size",
                  rewriter.getStringAttr(Twine(lanes) + "," + Twine(lanes)));
    func->setAttr(
        "rocdl.reqd_work_group_size",
        rewriter.getDenseI32ArrayAttr({static_cast<int32_t>(lanes), 1, 1}));
    // What launchers and headers need beyond the code object's metadata:
    // the views behind the ABI's words and the grid the outputs need.
    func->setAttr(kKernelTypeAttrName,
                  TypeAttr::get(rewriter.getFunctionType(argTypes, {})));
    if (Attribute grid = op->getAttr(kLaunchGridAttrName))
      func->setAttr(kLaunchGridAttrName, grid);

    Block *entry =
        rewriter.createBlock(&func.getBody(), {}, abiTypes,
                             SmallVector<Location>(abiTypes.size(), loc));
    SmallVector<Value> replacements;
    for (auto [i, type] : llvm::enumerate(argTypes)) {
      auto view = dyn_cast<GlobalViewType>(type);
      if (!view) {
        replacements.push_back(entry->getArgument(scalarIndex[i]));
        continue;
      }
      SmallVector<Value> parts = {entry->getArgument(ptrIndex[i])};
      for (int64_t d = 0; d < view.getNumDynamicDims(); ++d)
        parts.push_back(entry->getArgument(sizeIndex[i] + d));
      for (int64_t d = 0; d + 1 < view.getRank(); ++d)
        parts.push_back(entry->getArgument(strideIndex[i] + d));
      replacements.push_back(
          UnrealizedConversionCastOp::create(rewriter, loc, type, parts)
              .getResult(0));
    }
    rewriter.mergeBlocks(&op.getBody().front(), entry, replacements);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnLowering : public OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    return success();
  }
};

struct WaveIdLowering : public OpConversionPattern<WaveIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaveIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op, indexFromI32(rewriter, loc, waveId(rewriter, loc)));
    return success();
  }
};

struct BlockIdLowering : public OpConversionPattern<BlockIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value id;
    switch (op.getDim()) {
    case Dim::X:
      id = ROCDL::BlockIdXOp::create(rewriter, loc, i32);
      break;
    case Dim::Y:
      id = ROCDL::BlockIdYOp::create(rewriter, loc, i32);
      break;
    case Dim::Z:
      id = ROCDL::BlockIdZOp::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOp(op, indexFromI32(rewriter, loc, id));
    return success();
  }
};

/// Blocks per grid dimension, from the HSA dispatch packet: grid_size_{x,y,z}
/// (work-items, at bytes 12/16/20) over the block size. A kernel is launched
/// with the block size its `rocdl.reqd_work_group_size` requires, so the
/// division is by a constant (by 1 in y and z); without that attribute, by
/// the packet's workgroup_size_{x,y,z} (u16 at bytes 4/6/8).
struct GridDimLowering : public OpConversionPattern<GridDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GridDimOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto constPtr = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/4);
    Value packet =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, Type(constPtr),
            rewriter.getStringAttr("llvm.amdgcn.dispatch.ptr"), ValueRange{})
            .getResult(0);
    int64_t dim = static_cast<int64_t>(op.getDim());
    Type i8 = rewriter.getI8Type();
    auto fieldPtr = [&](int64_t byte) {
      return LLVM::GEPOp::create(rewriter, loc, constPtr, i8, packet,
                                 ArrayRef<LLVM::GEPArg>{byte});
    };
    Value gridSize = LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(),
                                          fieldPtr(12 + 4 * dim), 4);
    // The kernel's block is 64 * waves work-items in x, as its LLVM
    // function (once converted) requires.
    std::optional<int64_t> required;
    if (auto kernel = op->getParentOfType<KernelOp>())
      required = dim == 0 ? int64_t(kernel.getWaves()) * 64 : 1;
    else if (auto func = op->getParentOfType<LLVM::LLVMFuncOp>())
      if (auto size = func->getAttrOfType<DenseI32ArrayAttr>(
              "rocdl.reqd_work_group_size"))
        required = size[dim];
    Value groupSize;
    if (required) {
      groupSize = constI32(rewriter, loc, *required);
    } else {
      groupSize = LLVM::LoadOp::create(rewriter, loc, rewriter.getI16Type(),
                                       fieldPtr(4 + 2 * dim), 2);
      groupSize = arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(),
                                         groupSize);
    }
    Value blocks = arith::DivUIOp::create(rewriter, loc, gridSize, groupSize);
    rewriter.replaceOp(op, indexFromI32(rewriter, loc, blocks));
    return success();
  }
};

struct DimLowering : public OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ViewABI> abi =
        getViewABI(rewriter, op.getLoc(), adaptor.getView());
    if (failed(abi))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    rewriter.replaceOp(op,
                       indexFromI32(rewriter, op.getLoc(),
                                    abi->sizes[op.getIndexAttr().getInt()]));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Synchronization and clusters
//===----------------------------------------------------------------------===//

/// A compiler-only memory barrier: an empty asm statement that may touch
/// any memory, so no memory access moves across it or merges with one on
/// the other side. It emits nothing and waits for nothing.
void compilerMemoryBarrier(OpBuilder &b, Location loc) {
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, ValueRange{}, "", "~{memory}",
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

/// Completes this wave's LDS accesses, then meets the other waves. Unlike a
/// workgroup fence it does not wait for direct-to-LDS loads in flight: those
/// are waited for through their tokens (hk.wait), which is what lets a
/// pipelined loop keep the next tile's loads in flight across it.
struct BarrierLowering : public OpConversionPattern<BarrierOp> {
  BarrierLowering(HKTypeConverter &converter, MLIRContext *ctx,
                  const WaitPlan &plan)
      : OpConversionPattern(converter, ctx), plan(plan) {}

  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    compilerMemoryBarrier(rewriter, loc);
    // The wave's LDS accesses complete before the barrier (unless its
    // reads may stay in flight); the wait just before it may have seen to
    // that already.
    if (!op.getReadsInFlight() && !plan.ldsDrained.contains(op))
      amdgpu::MemoryCounterWaitOp::create(
          rewriter, loc, IntegerAttr(), IntegerAttr(),
          rewriter.getI32IntegerAttr(0), IntegerAttr(), IntegerAttr());
    ROCDL::SBarrierOp::create(rewriter, loc);
    compilerMemoryBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }

  const WaitPlan &plan;
};

/// Without tokens, a wait drains every memory counter (a fence, fenced by
/// scheduling barriers as the barrier it stands for is). With tokens it
/// waits for vmcnt to fall to the count the wait plan computed, fenced by
/// scheduling barriers so that no instruction moves across it; a wait whose
/// loads went through registers needs nothing.
struct WaitLowering : public OpConversionPattern<WaitOp> {
  WaitLowering(HKTypeConverter &converter, MLIRContext *ctx,
               const WaitPlan &plan)
      : OpConversionPattern(converter, ctx), plan(plan) {}

  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto i32 = [&](int64_t v) { return rewriter.getI32IntegerAttr(v); };
    if (op.getTokens().empty()) {
      // A fence stands for a barrier: nothing may move across it (the
      // epilogue's LDS writes above the wait for the loop's last
      // direct-to-LDS loads, say).
      if (op.getFence())
        ROCDL::SchedBarrier::create(rewriter, loc, i32(0));
      auto wait = rewriter.replaceOpWithNewOp<amdgpu::MemoryCounterWaitOp>(
          op, i32(0), i32(0), i32(0), IntegerAttr(), IntegerAttr());
      if (op.getFence()) {
        rewriter.setInsertionPointAfter(wait);
        ROCDL::SchedBarrier::create(rewriter, loc, i32(0));
      }
      return success();
    }
    auto it = plan.vmcnt.find(op);
    // Before a barrier, the wait also covers the barrier's LDS wait.
    IntegerAttr lds = plan.drainLds.contains(op) ? i32(0) : IntegerAttr();
    if (it == plan.vmcnt.end() && !lds) {
      rewriter.eraseOp(op);
      return success();
    }
    // The vmcnt field holds at most 63 on these chips.
    IntegerAttr load = it == plan.vmcnt.end()
                           ? IntegerAttr()
                           : i32(std::min<int64_t>(it->second, 63));
    ROCDL::SchedBarrier::create(rewriter, loc, i32(0));
    amdgpu::MemoryCounterWaitOp::create(rewriter, loc, load, IntegerAttr(), lds,
                                        IntegerAttr(), IntegerAttr());
    rewriter.replaceOpWithNewOp<ROCDL::SchedBarrier>(op, i32(0));
    return success();
  }

  const WaitPlan &plan;
};

/// arith.select between hk values (double-buffered shared tiles, register
/// tiles) selects between their lowered forms.
struct SelectLowering : public OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "unconvertible type");
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, type, adaptor.getCondition(), adaptor.getTrueValue(),
        adaptor.getFalseValue());
    return success();
  }
};

struct PriorityLowering : public OpConversionPattern<PriorityOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PriorityOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Fenced, as a cluster's ends are: the priority changes exactly here.
    Location loc = op.getLoc();
    ROCDL::SchedBarrier::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    ROCDL::SetPrioOp::create(rewriter, loc,
                             rewriter.getI16IntegerAttr(op.getLevel()));
    ROCDL::SchedBarrier::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClusterLowering : public OpConversionPattern<ClusterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClusterOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Scheduling barriers keep LLVM from moving instructions across the
    // cluster's ends; the priority holds while the cluster runs.
    Location loc = op.getLoc();
    auto fence = [&] {
      ROCDL::SchedBarrier::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    };
    auto setPriority = [&](int32_t priority) {
      ROCDL::SetPrioOp::create(rewriter, loc,
                               rewriter.getI16IntegerAttr(priority));
    };
    fence();
    if (op.getPriority())
      setPriority(*op.getPriority());
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Value> results(yield.getValues());
    rewriter.setInsertionPoint(yield);
    if (op.getPriority())
      setPriority(0);
    fence();
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&body, op);
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Reports what the lowering cannot handle with a message that says what to
/// do, before dialect conversion would report a bare legalization failure.
LogicalResult checkLowerable(ModuleOp module) {
  // The chip's rules, as hk-check-chip gives them, rather than a failure to
  // find an instruction half way through the conversion.
  if (const ChipInfo *chip = lookupTargetChip(module))
    if (failed(verifyChipLegality(module, *chip)))
      return failure();
  WalkResult result = module.walk([](Operation *op) {
    if (auto mma = dyn_cast<MmaOp>(op)) {
      if (!mma.getInstrAttr()) {
        mma.emitOpError() << "has no MFMA instruction; run hk-mfma-layout "
                             "first";
        return WalkResult::interrupt();
      }
      if (!lookupTargetChip(mma)) {
        mma.emitOpError() << "needs a target chip to lower its MFMA; run "
                             "hk-target first";
        return WalkResult::interrupt();
      }
    }
    for (Type type : op->getResultTypes()) {
      auto tile = dyn_cast<RegisterTileType>(type);
      if (tile && !tile.getLayout()) {
        op->emitError() << "register tile " << tile
                        << " has no layout; run hk-mfma-layout first";
        return WalkResult::interrupt();
      }
      auto vector = dyn_cast<RegisterVectorType>(type);
      if (vector && !vector.getLayout()) {
        op->emitError() << "register vector " << vector
                        << " has no layout; run hk-mfma-layout first";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct ConvertHKToAMDGPUPass
    : public hk::impl::ConvertHKToAMDGPUBase<ConvertHKToAMDGPUPass> {
  using ConvertHKToAMDGPUBase::ConvertHKToAMDGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkLowerable(module)))
      return signalPassFailure();
    // Read the grid off the block ids before their ops are rewritten.
    module.walk([](KernelOp kernel) { recordLaunchGrid(kernel); });
    // Body ops are converted after their kernel, when it is no longer there
    // to ask: group copies record the wave count they are shared by.
    module.walk([](KernelOp kernel) {
      OpBuilder b(kernel);
      auto waves = b.getI32IntegerAttr(kernel.getWaves());
      kernel.walk([&](Operation *op) {
        if (auto load = dyn_cast<GroupLoadOp>(op); load && !load.getWaves())
          load.setWavesAttr(waves);
        else if (auto store = dyn_cast<GroupStoreOp>(op);
                 store && !store.getWaves())
          store.setWavesAttr(waves);
      });
    });
    // A wave-group barrier is a barrier that only the waves of its group
    // reach.
    module.walk([](BarrierOp barrier) {
      std::optional<uint32_t> group = barrier.getGroup();
      auto kernel = barrier->getParentOfType<KernelOp>();
      if (!group || !kernel)
        return;
      OpBuilder b(barrier);
      Location loc = barrier.getLoc();
      Value groupSize =
          arith::ConstantIndexOp::create(b, loc, kernel.getWaves() / 2);
      Value waveGroup =
          arith::DivUIOp::create(b, loc, WaveIdOp::create(b, loc), groupSize);
      Value inGroup =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, waveGroup,
                                arith::ConstantIndexOp::create(b, loc, *group));
      auto guard = scf::IfOp::create(b, loc, inGroup, /*withElse=*/false);
      b.setInsertionPointToStart(guard.thenBlock());
      BarrierOp::create(b, loc, IntegerAttr(), barrier.getReadsInFlightAttr());
      barrier.erase();
    });
    // hk-schedule has realised the schedules by now; a loop that named one
    // leaves the kernel as a plain loop.
    module.walk([](scf::ForOp loop) {
      loop->removeAttr(HKDialect::getScheduleAttrName());
    });
    LdsPlan plan;
    if (failed(planLds(module, plan)))
      return signalPassFailure();
    llvm::StringMap<ArrayAttr> sourceRecords;
    module.walk([&](KernelOp kernel) {
      sourceRecords[kernel.getSymName()] = describeKernelSource(kernel, plan);
    });
    WaitPlan waits;
    planWaits(module, waits);
    if (!exactWaits)
      for (auto &entry : waits.vmcnt)
        entry.second = 0;

    MLIRContext *ctx = &getContext();
    HKTypeConverter typeConverter;
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<HKDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, ROCDL::ROCDLDialect,
                           amdgpu::AMDGPUDialect, arith::ArithDialect,
                           math::MathDialect, vector::VectorDialect>();
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
    target.addDynamicallyLegalOp<arith::SelectOp>([&](arith::SelectOp op) {
      return typeConverter.isLegal(op.getOperation());
    });
    scf::populateSCFStructuralTypeConversionsAndLegality(typeConverter,
                                                         patterns, target);
    populateKernelPatterns(typeConverter, patterns, plan, waits);
    populateMemoryPatterns(typeConverter, patterns, plan);
    populateComputePatterns(typeConverter, patterns, plan, scratchSwizzle);
    populateElementwisePatterns(typeConverter, patterns);
    populateMathPatterns(typeConverter, patterns);
    populateTilePatterns(typeConverter, patterns);
    populateGlobalPatterns(typeConverter, patterns);
    populateRowPatterns(typeConverter, patterns, plan);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (auto records = sourceRecords.find(func.getSymName());
          records != sourceRecords.end())
        func->setAttr(kSourceRecordsAttrName, records->second);

    // The view casts have served their purpose.
    module.walk([](UnrealizedConversionCastOp cast) {
      if (cast->use_empty() && cast.getNumResults() == 1 &&
          isa<GlobalViewType>(cast.getResult(0).getType()))
        cast.erase();
    });
  }
};

} // namespace

void lowering::populateKernelPatterns(HKTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const LdsPlan &, const WaitPlan &waits) {
  patterns.add<KernelLowering, ReturnLowering, WaveIdLowering, BlockIdLowering,
               GridDimLowering, DimLowering, ClusterLowering, PriorityLowering,
               SelectLowering>(converter, patterns.getContext());
  patterns.add<WaitLowering, BarrierLowering>(converter, patterns.getContext(),
                                              waits);
}
