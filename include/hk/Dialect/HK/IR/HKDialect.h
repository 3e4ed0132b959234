//===- HKDialect.h - The hk tile dialect --------------------------*- C++
//-*-===//

#ifndef HK_DIALECT_HK_IR_HKDIALECT_H
#define HK_DIALECT_HK_IR_HKDIALECT_H

#include "mlir/IR/Dialect.h"

#include "hk/Dialect/HK/IR/HKDialect.h.inc"

#endif // HK_DIALECT_HK_IR_HKDIALECT_H
