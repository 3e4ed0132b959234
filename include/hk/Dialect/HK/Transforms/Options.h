//===- Options.h - Enumerated options of the hk passes -------------*- C++
//-*-===//
//
// Enumerated pass options, with the one list of their command-line values
// that the passes, the pipeline, hk-run and the Python package all parse
// through (llvm::cl::values), so that a value is validated in one place.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_TRANSFORMS_OPTIONS_H
#define HK_DIALECT_HK_TRANSFORMS_OPTIONS_H

#include "llvm/Support/CommandLine.h"

namespace hk {

/// Which group loads hk-buffer-loads makes direct-to-LDS buffer loads.
enum class DirectMode {
  Auto,   ///< Where the chip moves 16 bytes per lane that way (gfx950).
  Always, ///< On every chip (4 bytes per lane on gfx942).
  Never,  ///< None: staged through registers everywhere.
};

/// Whether hk-ping-pong runs compute clusters at raised priority
/// (s_setprio); a kernel's `#hk.pingpong<setprio = ...>` overrides it.
enum class PriorityMode {
  Auto,   ///< Where the cost function predicts the priority pays.
  Always, ///< Every compute cluster.
  Never,  ///< None (hk-interleave's softmax priorities neither).
};

} // namespace hk

/// The values of a PriorityMode option: "true" and "false" read as the
/// on/off switch the option was before the cost function.
#define HK_PRIORITY_MODE_VALUES                                                \
  ::llvm::cl::values(clEnumValN(::hk::PriorityMode::Auto, "auto",              \
                                "where the cost function predicts it pays"),   \
                     clEnumValN(::hk::PriorityMode::Always, "true",            \
                                "every ping-pong compute cluster"),            \
                     clEnumValN(::hk::PriorityMode::Never, "false", "never"))

/// The values of a DirectMode option.
#define HK_DIRECT_MODE_VALUES                                                  \
  ::llvm::cl::values(                                                          \
      clEnumValN(::hk::DirectMode::Auto, "auto",                               \
                 "where the chip moves 16 bytes per lane that way"),           \
      clEnumValN(::hk::DirectMode::Always, "always", "on every chip"),         \
      clEnumValN(::hk::DirectMode::Never, "never",                             \
                 "never: stage group loads through registers"))

#endif // HK_DIALECT_HK_TRANSFORMS_OPTIONS_H
