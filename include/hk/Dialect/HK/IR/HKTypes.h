//===- HKTypes.h - hk types ---------------------------------------*- C++
//-*-===//

#ifndef HK_DIALECT_HK_IR_HKTYPES_H
#define HK_DIALECT_HK_IR_HKTYPES_H

#include "hk/Dialect/HK/IR/HKAttrs.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "hk/Dialect/HK/IR/HKTypes.h.inc"

namespace hk {

/// Element types tiles may hold: f32, f16, bf16, the four fp8 types, i8 and
/// i32.
bool isTileElementType(mlir::Type type);

/// True for the fp8 formats gfx942's matrix cores read (FNUZ) or gfx950's
/// (OCP); false for every other type.
bool isFnuzFp8(mlir::Type type);
bool isOcpFp8(mlir::Type type);

/// Storage bits of one element of a tile element type.
unsigned getElementBits(mlir::Type type);

} // namespace hk

#endif // HK_DIALECT_HK_IR_HKTYPES_H
