//===- ScriptWorkload.h - HK-RUN cases described by a Python script -*- C++
//-*-===//
//
//   // HK-RUN: script kernel=silu_and_mul case=activation.py:silu_and_mul
//   //         shapes=64x256,37x300
//
// The `script` workload lets an example describe its cases in Python
// (NumPy) instead of a workload compiled into hk-run: `case=FILE.py:FUNC`
// names a function of a file next to the example, called once per case as
// FUNC(shape, params, rng), with the case's shape as a tuple, the HK-RUN
// line's other key=value words as a dict of strings, and a seeded
// numpy.random.Generator. It returns a dict:
//
//   inputs      {name: array}: values of the kernel's input views (or of
//               arrays that `views` view), rounded to the view's element
//               type before anything else sees them;
//   views       {param: (array, shape, strides)}: a view argument that
//               addresses the memory of an input array with its own sizes
//               and strides (in elements; innermost stride 1);
//   outputs     {param: shape}: views the kernel must write whole (they
//               start as NaN, integer ones at their type's minimum), or
//               {param: array} for data the kernel updates in place;
//   scalars     {param: number}: the i32 and f32 arguments;
//   reference   a function called with the rounded inputs as keyword
//               arguments, returning {output: (values, bound, rule)}: the
//               exact result, the largest error each element may have (both
//               arrays of the output's shape) and the bound in words;
//   grid        optional (x[, y[, z]]): blocks to launch, else the grid the
//               kernel's output tiling needs;
//   description optional words naming the case ("M=64 N=256").
//
// hk-run then checks every output element within its bound (and written),
// and every input unchanged, as for the built-in workloads.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HK_RUN_SCRIPTWORKLOAD_H
#define HK_TOOLS_HK_RUN_SCRIPTWORKLOAD_H

#include "hk/Runtime/Workloads.h"

namespace hk::run {

/// The workload of a `script` HK-RUN line of the example at `examplePath`
/// (whose folder holds the script).
llvm::Expected<std::unique_ptr<Workload>>
makeScriptWorkload(const RunSpec &spec, llvm::StringRef examplePath);

} // namespace hk::run

#endif // HK_TOOLS_HK_RUN_SCRIPTWORKLOAD_H
