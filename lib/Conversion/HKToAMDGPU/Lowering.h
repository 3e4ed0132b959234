//===- Lowering.h - Shared pieces of the hk to AMDGPU lowering ----*- C++
//-*-===//
//
// Private to lib/Conversion/HKToAMDGPU: the type converter, the builders the
// patterns share, and how each group of patterns is registered.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_CONVERSION_HKTOAMDGPU_LOWERING_H
#define HK_LIB_CONVERSION_HKTOAMDGPU_LOWERING_H

#include "hk/Dialect/HK/IR/HKOps.h"
#include "hk/Dialect/HK/IR/Layouts.h"
#include "hk/Dialect/HK/IR/TileAccess.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace hk::lowering {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Register tiles become `vector<(R*C/64) x T>` (each lane's elements in
/// layout order); shared tiles and vectors become LDS pointers.
class HKTypeConverter : public mlir::TypeConverter {
public:
  HKTypeConverter();
};

/// The LLVM dialect has no fp8 types: memory holds them as bytes.
mlir::Type getMemoryElementType(mlir::Type type);
int64_t getElementBytes(mlir::Type type);

//===----------------------------------------------------------------------===//
// Where each kernel's LDS lives
//===----------------------------------------------------------------------===//

/// LDS placement decided before conversion: one `addrspace(3)` global per
/// kernel (`<kernel>__lds`), a byte offset for every hk.alloc, and a
/// per-wave scratch area that layout conversions move data through.
struct KernelLds {
  int64_t bytes = 0;
  int64_t scratchOffset = 0;
  int64_t scratchPerWave = 0;
};

struct LdsPlan {
  llvm::DenseMap<mlir::Operation *, int64_t> allocOffsets;
  llvm::StringMap<KernelLds> kernels;
  /// Alias scope of direct-to-LDS writes. Tile reads and writes of LDS are
  /// marked as not aliasing them: their order is the program's (hk.wait,
  /// hk.barrier), as for any asynchronous copy, so LLVM need not drain
  /// vmcnt before every LDS access.
  mlir::LLVM::AliasScopeAttr directScope;

  /// Marks an LDS load or store as ordered against direct-to-LDS writes by
  /// the program.
  void markTileAccess(mlir::Operation *op) const;

  /// Pointer to the executing wave's layout-conversion scratch in the LDS
  /// of `op`'s kernel; null when none was planned.
  mlir::Value getWaveScratch(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Operation *op) const;
};

/// Plans the LDS of every kernel in `module` and creates the globals.
mlir::LogicalResult planLds(mlir::ModuleOp module, LdsPlan &plan);

/// The records of the code object's `.hk.source` section for `kernel`
/// (hk/Runtime/SourceInfo.h), taken before its ops are lowered.
mlir::ArrayAttr describeKernelSource(KernelOp kernel, const LdsPlan &plan);

/// The vmcnt each token wait needs, decided before conversion: the fewest
/// direct-to-LDS instructions any path issues between the awaited loads and
/// the wait. Waits absent from the map need no vmcnt (their loads went
/// through registers and are complete); waits without tokens drain.
struct WaitPlan {
  llvm::DenseMap<mlir::Operation *, int64_t> vmcnt;
  /// Waits directly followed by an hk.barrier: they also wait for the LDS
  /// counter, which the barrier then need not do in an instruction of its
  /// own.
  llvm::DenseSet<mlir::Operation *> drainLds;
  /// Barriers directly after such a wait (or after one without tokens,
  /// which drains every counter).
  llvm::DenseSet<mlir::Operation *> ldsDrained;
};

/// Plans every hk.wait of `module`.
void planWaits(mlir::ModuleOp module, WaitPlan &plan);

/// How a direct-to-LDS group load splits into instructions: each moves
/// `laneBytes` per lane for 64 lanes into consecutive LDS bytes; wave `w`
/// issues instructions w, w + waves, w + 2*waves, ...
struct DirectCopyPlan {
  int64_t laneBytes;
  int64_t instructions; ///< For the whole tile.
  int64_t waves;        ///< Waves taking part.
  /// Instructions every taking-part wave issues (the fewest of any wave).
  int64_t perWaveMinimum() const { return instructions / waves; }
  int64_t rounds() const { return (instructions + waves - 1) / waves; }
};

DirectCopyPlan planDirectCopy(GroupLoadOp op, const ChipInfo &chip);

/// Name of the kernel `op` belongs to (before or after its lowering).
llvm::StringRef getKernelName(mlir::Operation *op);

/// Pointer to byte `offset` of the LDS of `op`'s kernel.
mlir::Value getLdsPointer(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Operation *op, mlir::Value offset);

/// True when converting between the layouts moves data between lanes.
bool conversionMovesData(ConvertLayoutOp op);

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

mlir::Value constI32(mlir::OpBuilder &b, mlir::Location loc, int64_t value);
mlir::Value toI32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value index);
mlir::Value addI32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                   int64_t rhs);
mlir::Value mulI32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                   int64_t rhs);
mlir::Value ult(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                mlir::Value rhs);
mlir::Value ule(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                mlir::Value rhs);
mlir::Value andAll(mlir::OpBuilder &b, mlir::Location loc,
                   llvm::ArrayRef<mlir::Value> conditions);
mlir::Value zeroOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);
mlir::Value threadId(mlir::OpBuilder &b, mlir::Location loc);
/// Lane in the wave (blocks are 1-D and a whole number of waves).
mlir::Value laneId(mlir::OpBuilder &b, mlir::Location loc);
/// Wave in the block, uniform (in a scalar register).
mlir::Value waveId(mlir::OpBuilder &b, mlir::Location loc);
/// Whether `flags` (an i1, or a vector of i1 a lane holds) is true anywhere
/// in the wave's active lanes: a uniform i1 (a ballot).
mlir::Value anyInWave(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value flags);
mlir::Value indexFromI32(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value);
/// Keeps the compiler from moving memory operations across this point, so
/// lanes of one wave can exchange data through LDS.
void waveBarrier(mlir::OpBuilder &b, mlir::Location loc);

/// Converts a scalar or vector between element types (float widths, fp8
/// formats, integer widths); fp8 arrives from memory as bytes.
mlir::Value convertElements(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value value, mlir::Type toElem);

/// `fn` applied to every element of `value` (a scalar or a 1-D vector).
mlir::Value mapElements(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value,
                        llvm::function_ref<mlir::Value(mlir::Value)> fn);

/// `vector.insert`/`insert_strided_slice` of `part` (scalar or vector) at
/// `slot`.
mlir::Value insertAt(mlir::OpBuilder &b, mlir::Location loc, mlir::Value part,
                     mlir::Value into, int64_t slot);
/// The inverse: `width` elements from `slot` (a scalar when width is 1).
mlir::Value extractAt(mlir::OpBuilder &b, mlir::Location loc, mlir::Value from,
                      int64_t slot, int64_t width);

//===----------------------------------------------------------------------===//
// Lanes and accesses
//===----------------------------------------------------------------------===//

/// The lane-dependent row and column of a lane's elements in a tile.
struct LanePlacement {
  mlir::Value row, col;
};
LanePlacement placeLane(mlir::OpBuilder &b, mlir::Location loc,
                        const FragmentLayout &layout);

/// Where the slots of a lane's tile vector lie: the lane's row and column
/// (lane-dependent values) plus constant offsets per slot.
struct SlotPlacement {
  LanePlacement lane;
  llvm::SmallVector<int32_t> rowOffsets, colOffsets;
};
SlotPlacement placeSlots(mlir::OpBuilder &b, mlir::Location loc,
                         RegisterTileType tile);

/// The row (column) of a register vector's layout that each position of a
/// lane's vector holds: the lane's part and a constant per position.
struct VectorPlacement {
  mlir::Value lane;
  llvm::SmallVector<int32_t> offsets;
};
VectorPlacement placeVector(mlir::OpBuilder &b, mlir::Location loc,
                            RegisterVectorType type);

/// The same as values, each plus `base` when given.
llvm::SmallVector<mlir::Value> vectorCoordinates(mlir::OpBuilder &b,
                                                 mlir::Location loc,
                                                 RegisterVectorType type,
                                                 mlir::Value base = {});

/// A vector of i32 per-slot values: `lane` (one value per lane) plus a
/// constant per slot.
mlir::Value laneCoordinates(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value lane, llvm::ArrayRef<int32_t> offsets);

//===----------------------------------------------------------------------===//
// Global views
//===----------------------------------------------------------------------===//

/// The ABI values of one global view (i32 sizes and strides for every
/// dimension; the innermost stride is the constant 1).
struct ViewABI {
  GlobalViewType type;
  mlir::Value ptr;
  llvm::SmallVector<mlir::Value, 4> sizes;
  llvm::SmallVector<mlir::Value, 4> strides;
};

/// The kernel lowering replaces every !hk.gl argument by an unrealized cast
/// of its ABI values; accesses read them back from that cast.
mlir::FailureOr<ViewABI> getViewABI(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value view);

/// Where a tile starts inside a view, and whether it lies inside.
struct TileOrigin {
  mlir::Value offset;     ///< Element offset of the tile's (0, 0).
  mlir::Value rowBase;    ///< Matrix row of the tile's first row.
  mlir::Value colBase;    ///< Matrix column of the tile's first column.
  mlir::Value rows, cols; ///< Matrix extent of the last two dimensions.
  mlir::Value rowStride;  ///< Elements between rows.
  mlir::Value outerValid; ///< Every outer index is inside the view.

  /// True when the whole rows x cols tile is inside the view and every row
  /// starts on a multiple of `width` elements.
  mlir::Value isInside(mlir::OpBuilder &b, mlir::Location loc, int64_t rows,
                       int64_t cols, int64_t width) const;
  /// True when the element at (row, col) of the matrix is inside.
  mlir::Value contains(mlir::OpBuilder &b, mlir::Location loc, mlir::Value row,
                       mlir::Value col) const;
  /// The same for (row, col) of the tile.
  mlir::Value containsTileElement(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value row, mlir::Value col) const;
  /// Element offset of (row, col) of the tile in the view.
  mlir::Value tileElementOffset(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value row, mlir::Value col) const;
  /// The same without the tile's origin (`offset`): the part that differs
  /// between lanes and not between tiles.
  mlir::Value withinTileOffset(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value row, mlir::Value col) const;
};

TileOrigin locateTile(mlir::OpBuilder &b, mlir::Location loc,
                      const ViewABI &view, mlir::ValueRange indices,
                      int64_t tileRows, int64_t tileCols);

mlir::Value elementPointer(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value ptr, mlir::Type memElem,
                           mlir::Value offset);

/// A raw buffer resource over a whole view: out-of-range accesses read
/// zeros and drop writes, which is how masked elements are handled.
struct ViewBuffer {
  mlir::Value resource;   ///< !llvm.ptr<8>
  mlir::Value numRecords; ///< Bytes the view spans (i32).
  int64_t elementBytes;

  /// Byte offset of element `offset`, or one past the range when `valid` is
  /// false.
  mlir::Value maskedOffset(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value valid, mlir::Value offset) const;
  /// A load at `byteOffset` (per lane) plus `uniformByteOffset` (the same
  /// for every lane, kept in the instruction's scalar offset, so that a
  /// tile's moving origin costs no vector instruction). Only byteOffset is
  /// range-checked: pass a uniform part only where the access is known to
  /// be inside the view.
  mlir::Value load(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                   mlir::Value byteOffset,
                   mlir::Value uniformByteOffset = {}) const;
  void store(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
             mlir::Value byteOffset) const;
};

ViewBuffer makeViewBuffer(mlir::OpBuilder &b, mlir::Location loc,
                          const ViewABI &view, mlir::Type memElem,
                          const ChipInfo &chip);

/// A buffer over one line of `view` (fixed outer indices, the last
/// dimension free): its range ends after the line's last element, so the
/// hardware's range check reads zeros (drops writes) past the line, and
/// everywhere when `valid` (the outer indices are inside the view) is
/// false. `lineOffset` is the element offset of the line's first element.
ViewBuffer makeLineBuffer(mlir::OpBuilder &b, mlir::Location loc,
                          const ViewABI &view, mlir::Type memElem,
                          const ChipInfo &chip, mlir::Value lineOffset,
                          mlir::Value valid);

//===----------------------------------------------------------------------===//
// Shared tiles
//===----------------------------------------------------------------------===//

/// The column where element (row, col) of a shared tile is stored. XOR
/// swizzles are their own inverse: applied to a stored column, this gives
/// the element's column.
mlir::Value swizzledColumn(mlir::OpBuilder &b, mlir::Location loc,
                           SharedTileType type, mlir::Value row,
                           mlir::Value col);

/// Element offset of (row, col) in a shared tile, after its swizzle.
mlir::Value sharedElementOffset(mlir::OpBuilder &b, mlir::Location loc,
                                SharedTileType type, mlir::Value row,
                                mlir::Value col);

/// A register tile's elements (in the memory element type) read from the
/// shared tile at `base`: its subtile `indices`, or all of it without.
/// Column-run layouts of 16-bit elements use the chip's transposing LDS
/// reads where it has them (enumerateSharedAccesses).
mlir::Value loadSharedTile(mlir::OpBuilder &b, mlir::Location loc,
                           const LdsPlan &lds, const ChipInfo &chip,
                           mlir::Value base, SharedTileType shared,
                           mlir::ValueRange indices, RegisterTileType tile);
/// The inverse: writes `values` of `tile`, in the memory element type or,
/// with `convert`, converted to it piece by piece as they are stored.
void storeSharedTile(
    mlir::OpBuilder &b, mlir::Location loc, const LdsPlan &lds,
    mlir::Value base, SharedTileType shared, mlir::ValueRange indices,
    RegisterTileType tile, mlir::Value values,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value)> convert =
        nullptr);

/// Elements that stay contiguous in a row under the tile's swizzle.
inline int64_t sharedContiguousElements(SharedTileType type) {
  return swizzleContiguousElements(
      llvm::dyn_cast_if_present<SwizzleAttr>(type.getSwizzle()),
      type.getCols());
}

//===----------------------------------------------------------------------===//
// Pattern groups
//===----------------------------------------------------------------------===//

void populateKernelPatterns(HKTypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            const LdsPlan &plan, const WaitPlan &waits);
void populateMemoryPatterns(HKTypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            const LdsPlan &plan);
/// `scratchSwizzle`: swizzle the scratch of layout conversions.
void populateComputePatterns(HKTypeConverter &converter,
                             mlir::RewritePatternSet &patterns,
                             const LdsPlan &plan, bool scratchSwizzle);
/// Compares, selects, index tiles, integer shifts, bit casts and
/// hk.convert's value conversions.
void populateElementwisePatterns(HKTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// tanh, sigmoid, silu, erf, GELUs, sin, cos and rsqrt.
void populateMathPatterns(HKTypeConverter &converter,
                          mlir::RewritePatternSet &patterns);
/// Slices and concatenation.
void populateTilePatterns(HKTypeConverter &converter,
                          mlir::RewritePatternSet &patterns);
/// Atomic adds into global memory, gathers and scatters of rows.
void populateGlobalPatterns(HKTypeConverter &converter,
                            mlir::RewritePatternSet &patterns);
/// Broadcasts, reductions, masks, online softmax and register vectors in
/// memory and between layouts.
void populateRowPatterns(HKTypeConverter &converter,
                         mlir::RewritePatternSet &patterns,
                         const LdsPlan &plan);

} // namespace hk::lowering

#endif // HK_LIB_CONVERSION_HKTOAMDGPU_LOWERING_H
