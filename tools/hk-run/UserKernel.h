//===- UserKernel.h - hk-run on a kernel and reference of one's own -*- C++
//-*-===//
//
//   hk-run k.mlir --kernel=axpy --arg=x=x.npy --arg=y=random:300x200
//       --arg=out=out:300x200 --arg=alpha=2.5 --reference=ref.py
//
// Each kernel argument is named: a view takes a .npy file (of the dtype
// that holds its element type: f4 for f32, u2 for bf16...), seeded random
// values (random:SHAPE, uniform in [-1, 1)), zeros (zeros:SHAPE) or, for an
// output the kernel must write whole, out:SHAPE; a scalar takes a number.
// --output=NAME makes a view with data an output too (updated in place).
// Every output is checked against --expect=NAME=FILE.npy (values, or the
// element type's bits) or the outputs of a Python function (--reference=
// FILE.py[:FUNCTION], default `reference`), called with every argument's
// value before the launch (views as float64 arrays) and returning the
// outputs (an array, a tuple in argument order, or a dict by name). The
// bound is atol + rtol*|ref|. Outputs given as out:SHAPE must be written
// everywhere; the other views must stay as they were.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HK_RUN_USERKERNEL_H
#define HK_TOOLS_HK_RUN_USERKERNEL_H

#include "hk/Runtime/Workloads.h"

#include <optional>
#include <string>
#include <vector>

namespace hk::run {

struct UserKernelOptions {
  std::vector<std::string> args;    ///< NAME=SPEC.
  std::vector<std::string> outputs; ///< NAME.
  std::vector<std::string> expects; ///< NAME=FILE.npy.
  std::string reference;            ///< FILE.py[:FUNCTION].
  std::string grid;                 ///< X[,Y[,Z]]; empty: the kernel's own.
  std::optional<double> rtol, atol;
};

/// The workload running a user's kernel as `options` say; its run()
/// ignores the shape. The options are checked here, the arguments against
/// the kernel's signature when it runs.
llvm::Expected<std::unique_ptr<Workload>>
makeUserWorkload(const UserKernelOptions &options);

} // namespace hk::run

#endif // HK_TOOLS_HK_RUN_USERKERNEL_H
