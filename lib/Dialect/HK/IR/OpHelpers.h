//===- OpHelpers.h - Checks the hk op verifiers share -------------*- C++
//-*-===//
//
// Private to lib/Dialect/HK/IR: small queries and checks used by the
// verifiers of several op files.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_DIALECT_HK_IR_OPHELPERS_H
#define HK_LIB_DIALECT_HK_IR_OPHELPERS_H

#include "hk/Dialect/HK/IR/HKOps.h"

namespace hk::detail {

/// The element type of an hk tile, vector or view; other types themselves.
mlir::Type getElementTypeOf(mlir::Type type);

/// True when two register values are both tiles of one shape or both
/// vectors of one length.
bool sameShape(mlir::Type a, mlir::Type b);

/// The layout of a register tile or vector (null when not yet assigned).
mlir::Attribute getLayoutOf(mlir::Type type);

/// Fails unless `type` holds floating-point elements.
mlir::LogicalResult verifyFloatElements(mlir::Operation *op, mlir::Type type);

/// Fails unless `rhs` is `lhs` or a scalar of its element type.
mlir::LogicalResult verifyBinary(mlir::Operation *op, mlir::Type lhs,
                                 mlir::Type rhs);

/// Checks a binary arithmetic op: `rhs` is `lhs` or a scalar of its element
/// type, and the elements are f32, f16 or bf16, or i32 when `integers`.
mlir::LogicalResult verifyArithmetic(mlir::Operation *op, mlir::Type lhs,
                                     mlir::Type rhs, bool integers);

/// Checks that hk.convert has a defined conversion from `from` to `to`.
mlir::LogicalResult verifyElementConversion(mlir::Operation *op,
                                            mlir::Type from, mlir::Type to);

/// Checks that the part of a register tile (or vector) `type` at `offsets`
/// of extent `sizes` is a whole number of its layout's base blocks.
mlir::LogicalResult verifyBlockCut(mlir::Operation *op, mlir::Type type,
                                   llvm::ArrayRef<int64_t> offsets,
                                   llvm::ArrayRef<int64_t> sizes);

/// Checks that `vector` holds one value per row (or column) of `tile`, in
/// the tile's element type and a layout aligned with it.
mlir::LogicalResult verifyAlignedVector(mlir::Operation *op,
                                        RegisterTileType tile,
                                        RegisterVectorType vector,
                                        bool alongRows, llvm::StringRef what);

} // namespace hk::detail

#endif // HK_LIB_DIALECT_HK_IR_OPHELPERS_H
