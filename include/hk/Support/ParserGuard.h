//===- ParserGuard.h - Input MLIR's parser is known to crash on ---*- C++
//-*-===//
//
// MLIR 22's textual parser crashes (instead of reporting an error) on a few
// inputs. Every hk tool that parses MLIR text scans it with
// findKnownParserCrash first and reports what it finds as an ordinary
// located error. docs/known-issues.md lists the reduced cases.
//
//===----------------------------------------------------------------------===//

#ifndef HK_SUPPORT_PARSERGUARD_H
#define HK_SUPPORT_PARSERGUARD_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace hk {

/// A place in MLIR source text that the parser would crash on.
struct KnownParserCrash {
  size_t offset = 0; ///< Byte offset of the offending token in the text.
  std::string message;
};

/// Scans MLIR source text (MLIR bytecode is left alone) for constructs MLIR
/// 22's parser crashes on:
/// - a dense array of `index` elements, `array<index: 1>`, also through a
///   type alias (`!t = index` ... `array<!t>`): the parser accepts the
///   element type and then asks `index` for its bit width.
std::optional<KnownParserCrash> findKnownParserCrash(llvm::StringRef source);

/// Runs findKnownParserCrash on the main buffer of `sourceMgr` and prints
/// what it finds as a located error (file:line:col: error: ..., the line and
/// a caret) to `os`. Returns true when the input must not be parsed.
bool reportKnownParserCrash(const llvm::SourceMgr &sourceMgr,
                            llvm::raw_ostream &os);

} // namespace hk

#endif // HK_SUPPORT_PARSERGUARD_H
