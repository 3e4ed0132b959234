//===- KernelSignature.h - A kernel as launchers see it ------------*- C++
//-*-===//
//
// The host-side description of an hk.kernel (hk::KernelSignature: its
// parameters with their names, its waves, the grid it needs), built from
// the hk.kernel itself or, after lowering, from its llvm.func.
//
// A kernel that stores its output tiles at indices `block_id * s + r`, with
// r drawn from the wave id and constants and lying in [0, s), covers s
// tiles of its output per block along that dimension; the grid it needs is
// then ceil(size / (s * tile extent)) blocks. inferLaunchGrid finds that
// rule for each grid dimension, so that launchers (hk-run, Python, the
// header hk-translate writes) can size the grid from the arguments.
//
// The rule travels through the lowering as `hk.launch_grid` on the kernel's
// llvm.func (and on the hk.kernel once hk-grid-swizzle has renumbered the
// blocks, after which the block ids no longer show it).
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_KERNELSIGNATURE_H
#define HK_DIALECT_HK_IR_KERNELSIGNATURE_H

#include "hk/Runtime/KernelABI.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::LLVM {
class LLVMFuncOp;
} // namespace mlir::LLVM

namespace hk {

class KernelOp;

/// The attribute holding a kernel's grid rule: three arrays (x, y, z) of
/// [parameter, dimension, extent] triples.
constexpr llvm::StringLiteral kLaunchGridAttrName = "hk.launch_grid";

/// The attribute on a lowered kernel's llvm.func holding the hk.kernel's
/// function type (its !hk.gl views and scalars), from which launchers and
/// headers rebuild the signature.
constexpr llvm::StringLiteral kKernelTypeAttrName = "hk.kernel_type";

/// The attribute on a lowered kernel's llvm.func holding, as an array of
/// strings, its records for the code object's `.hk.source` section
/// (hk/Runtime/SourceInfo.h: op names by source location, shared tiles, the
/// tiles each op addresses). convert-hk-to-amdgpu sets it; hk-translate
/// moves it into the section.
constexpr llvm::StringLiteral kSourceRecordsAttrName = "hk.source";

/// The grid `kernel`'s output stores fix, or nullopt when some block id
/// reaches a store index in a form the analysis does not follow (or reaches
/// no store at all). Uses the kernel's `hk.launch_grid` when it has one.
std::optional<LaunchGrid> inferLaunchGrid(KernelOp kernel);

mlir::ArrayAttr launchGridToAttr(mlir::MLIRContext *context,
                                 const LaunchGrid &grid);
/// nullopt when `attr` is not a well-formed grid rule for `numParams`
/// parameters.
std::optional<LaunchGrid> launchGridFromAttr(mlir::Attribute attr,
                                             unsigned numParams);

/// The name of argument `index` of `kernel`: the one its location gives
/// (`%A: ... loc("A")`, what the parser records for `%A`), else
/// "arg<index>".
std::string getKernelArgumentName(KernelOp kernel, unsigned index);

/// `kernel`'s signature: parameters with names, waves and launch grid.
KernelSignature getKernelSignature(KernelOp kernel);

/// The signature of a kernel convert-hk-to-amdgpu lowered to `func`, from
/// the attributes it left there (kKernelTypeAttrName, the argument names,
/// the work-group size, kLaunchGridAttrName); nullopt for any other
/// function.
std::optional<KernelSignature>
getLoweredKernelSignature(mlir::LLVM::LLVMFuncOp func);

/// Records inferLaunchGrid's result on `kernel` (before a pass renumbers
/// its blocks); does nothing when there is no rule.
void recordLaunchGrid(KernelOp kernel);

} // namespace hk

#endif // HK_DIALECT_HK_IR_KERNELSIGNATURE_H
