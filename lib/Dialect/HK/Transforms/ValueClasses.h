//===- ValueClasses.h - Values that must share one type -----------*- C++
//-*-===//
//
// Union-find over values of one hk type kind that must end up with the same
// layout or swizzle: values carried around loops, yielded by branches and
// clusters, or chosen between by arith.select. The passes that assign
// layouts and swizzles add their own op-specific merges.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_DIALECT_HK_TRANSFORMS_VALUECLASSES_H
#define HK_LIB_DIALECT_HK_TRANSFORMS_VALUECLASSES_H

#include "hk/Dialect/HK/IR/HKOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace hk {

template <typename TypeT> class ValueClasses {
public:
  mlir::Value find(mlir::Value v) {
    auto it = parent.find(v);
    if (it == parent.end()) {
      parent[v] = v;
      return v;
    }
    if (it->second == v)
      return v;
    mlir::Value root = find(it->second);
    parent[v] = root;
    return root;
  }

  void record(mlir::Value v) {
    if (llvm::isa<TypeT>(v.getType()) && !parent.count(v)) {
      parent[v] = v;
      order.push_back(v);
    }
  }

  void merge(mlir::Value a, mlir::Value b) {
    if (!llvm::isa<TypeT>(a.getType()) || !llvm::isa<TypeT>(b.getType()))
      return;
    record(a);
    record(b);
    mlir::Value ra = find(a), rb = find(b);
    if (ra != rb)
      parent[rb] = ra;
  }

  /// Every value grouped by class root, in first-seen order.
  llvm::MapVector<mlir::Value, llvm::SmallVector<mlir::Value>> classes() {
    llvm::MapVector<mlir::Value, llvm::SmallVector<mlir::Value>> result;
    for (mlir::Value v : order)
      result[find(v)].push_back(v);
    return result;
  }

  /// Records the results and block arguments of `op`, and merges the values
  /// its control flow makes one. Returns true when `op` is such an op.
  bool visitControlFlow(mlir::Operation *op) {
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        for (mlir::BlockArgument arg : block.getArguments())
          record(arg);
    for (mlir::Value result : op->getResults())
      record(result);

    if (auto select = llvm::dyn_cast<mlir::arith::SelectOp>(op)) {
      merge(select.getTrueValue(), select.getResult());
      merge(select.getFalseValue(), select.getResult());
      return true;
    }
    if (auto forOp = llvm::dyn_cast<mlir::scf::ForOp>(op)) {
      auto yield =
          llvm::cast<mlir::scf::YieldOp>(forOp.getBody()->getTerminator());
      for (auto [init, arg, yielded, result] :
           llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs(),
                     yield.getOperands(), forOp.getResults())) {
        merge(init, arg);
        merge(arg, yielded);
        merge(arg, result);
      }
      return true;
    }
    if (auto ifOp = llvm::dyn_cast<mlir::scf::IfOp>(op)) {
      for (mlir::Region *region :
           {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        if (region->empty())
          continue;
        auto yield =
            llvm::cast<mlir::scf::YieldOp>(region->front().getTerminator());
        for (auto [yielded, result] :
             llvm::zip(yield.getOperands(), ifOp.getResults()))
          merge(yielded, result);
      }
      return true;
    }
    if (auto cluster = llvm::dyn_cast<ClusterOp>(op)) {
      auto yield =
          llvm::cast<YieldOp>(cluster.getBody().front().getTerminator());
      for (auto [yielded, result] :
           llvm::zip(yield.getValues(), cluster.getResults()))
        merge(yielded, result);
      return true;
    }
    return false;
  }

private:
  llvm::DenseMap<mlir::Value, mlir::Value> parent;
  llvm::SmallVector<mlir::Value> order;
};

} // namespace hk

#endif // HK_LIB_DIALECT_HK_TRANSFORMS_VALUECLASSES_H
