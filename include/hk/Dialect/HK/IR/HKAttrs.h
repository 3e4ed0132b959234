//===- HKAttrs.h - hk attributes ----------------------------------*- C++
//-*-===//

#ifndef HK_DIALECT_HK_IR_HKATTRS_H
#define HK_DIALECT_HK_IR_HKATTRS_H

#include "hk/Support/ChipInfo.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "hk/Dialect/HK/IR/HKEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "hk/Dialect/HK/IR/HKAttrs.h.inc"

#endif // HK_DIALECT_HK_IR_HKATTRS_H
