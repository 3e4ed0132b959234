//===- SourceInfo.h - Source lines and shared tiles -------------*- C++ -*-===//
//
// What a code object says about the source it came from, for reports in
// source terms:
// - the DWARF line table (`.debug_line`), which maps an instruction's address
//   to a file, line and column. hk-translate always writes one (the MLIR
//   locations of the ops); clang writes one with -g or -gline-tables-only;
// - HK's `.hk.source` section, which hk-translate writes for kernels
//   lowered from the hk dialect: the op at each source location, and each
//   kernel's shared tiles (LDS offset, size, type, where allocated) with, per
//   op location that accesses shared memory, the tiles that op may address.
//
// `.hk.source` is text, one record per line, fields separated by tabs:
//   hk-source	1
//   op	FILE	LINE	COLUMN	NAME
//   kernel	NAME
//   tile	ID	OFFSET	SIZE	TYPE	FILE	LINE	COLUMN
//   scratch	ID	OFFSET	SIZE	PER_WAVE
//   access	FILE	LINE	COLUMN	ID[,ID...]
// `tile`, `scratch` and `access` records belong to the last `kernel`. IDs
// number a kernel's tiles from 0; `scratch` is the per-wave scratch of
// layout conversions (wave w owns PER_WAVE bytes at OFFSET + w * PER_WAVE).
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_SOURCEINFO_H
#define HK_RUNTIME_SOURCEINFO_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace hk {

/// The section hk-translate writes.
inline constexpr llvm::StringLiteral kSourceSectionName = ".hk.source";

struct SourceLocation {
  std::string file;
  unsigned line = 0; ///< 0: unknown.
  unsigned column = 0;
  std::string op; ///< The hk op there, when the code object names it.

  bool known() const { return line != 0; }
  /// "gemm.mlir:35:12 (hk.load)", "k.hip:12:7", or "" when unknown.
  std::string str() const;
};

/// A shared tile of a kernel's LDS, or its per-wave conversion scratch.
struct SharedTileInfo {
  unsigned id = 0;
  uint32_t offset = 0;
  uint32_t size = 0;
  std::string type;          ///< "!hk.st<128x64xbf16, ...>"; empty: scratch.
  SourceLocation allocation; ///< Where the hk.alloc is.
  uint32_t perWave = 0;      ///< Scratch: bytes each wave owns.

  bool isScratch() const { return perWave != 0; }
  /// "shared tile !hk.st<...> allocated at gemm.mlir:27:11 (LDS 0x0-0x3fff)".
  std::string describe() const;
};

struct KernelSourceInfo {
  std::vector<SharedTileInfo> tiles;
  /// Per source location of an op that reads or writes shared memory: the
  /// ids of the tiles it may address (all of them through loop-carried
  /// double buffers).
  std::map<std::tuple<std::string, unsigned, unsigned>, std::vector<unsigned>>
      accesses;

  /// The tiles the op at `loc` may address, or null when unknown.
  const std::vector<unsigned> *tilesAccessedAt(const SourceLocation &loc) const;
  /// The tile holding LDS byte `address`, or null. Tiles whose lifetimes do
  /// not overlap may share bytes: one of `preferred` (ids) holding the byte
  /// comes first.
  const SharedTileInfo *
  tileAt(uint32_t address,
         const std::vector<unsigned> *preferred = nullptr) const;
};

class SourceInfo {
public:
  /// Reads the line table and `.hk.source` of a code object (an ELF
  /// image). Never fails: what is missing or malformed is left out, and a
  /// code object without either gives an empty SourceInfo.
  static SourceInfo read(llvm::StringRef elf);

  /// Where the instruction at `pc` came from; unknown without a line table
  /// row for it (or with a row of line 0, code with no single source).
  SourceLocation locate(uint64_t pc) const;
  /// HK's facts about kernel `name`, or null.
  const KernelSourceInfo *findKernel(llvm::StringRef name) const;
  bool hasLineTable() const { return !rows.empty(); }

  /// Parses the text of a `.hk.source` section into this object (exposed
  /// for tests). Malformed records are skipped.
  void parseSourceSection(llvm::StringRef text);

private:
  struct Row {
    uint64_t address;
    uint32_t file; ///< Index into `files`.
    uint32_t line, column;
    bool endSequence;
  };
  std::vector<Row> rows; ///< Sorted by address.
  std::vector<std::string> files;
  std::map<std::tuple<std::string, unsigned, unsigned>, std::string> ops;
  llvm::StringMap<KernelSourceInfo> kernels;
};

} // namespace hk

#endif // HK_RUNTIME_SOURCEINFO_H
