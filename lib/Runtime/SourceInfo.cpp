//===- SourceInfo.cpp - Source lines and shared tiles of a code object ----===//

#include "hk/Runtime/SourceInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/DIContext.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugLine.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <tuple>

using namespace hk;

std::string SourceLocation::str() const {
  if (!known())
    return "";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << file << ":" << line;
  if (column)
    os << ":" << column;
  if (!op.empty())
    os << " (" << op << ")";
  return s;
}

std::string SharedTileInfo::describe() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (isScratch())
    os << "the layout-conversion scratch";
  else
    os << "shared tile " << type;
  if (allocation.known())
    os << " allocated at " << allocation.str();
  os << " (LDS " << llvm::format_hex(offset, 2) << "-"
     << llvm::format_hex(uint64_t(offset) + size - 1, 2) << ")";
  return s;
}

const std::vector<unsigned> *
KernelSourceInfo::tilesAccessedAt(const SourceLocation &loc) const {
  auto it = accesses.find({loc.file, loc.line, loc.column});
  return it == accesses.end() ? nullptr : &it->second;
}

const SharedTileInfo *
KernelSourceInfo::tileAt(uint32_t address,
                         const std::vector<unsigned> *preferred) const {
  const SharedTileInfo *found = nullptr;
  for (const SharedTileInfo &tile : tiles) {
    if (address < tile.offset || address - tile.offset >= tile.size)
      continue;
    if (!preferred || llvm::is_contained(*preferred, tile.id))
      return &tile;
    if (!found)
      found = &tile;
  }
  return found;
}

const KernelSourceInfo *SourceInfo::findKernel(llvm::StringRef name) const {
  auto it = kernels.find(name);
  return it == kernels.end() ? nullptr : &it->second;
}

SourceLocation SourceInfo::locate(uint64_t pc) const {
  auto it = std::upper_bound(
      rows.begin(), rows.end(), pc,
      [](uint64_t address, const Row &row) { return address < row.address; });
  if (it == rows.begin())
    return {};
  const Row &row = *std::prev(it);
  if (row.endSequence || row.line == 0)
    return {};
  SourceLocation loc;
  loc.file = files[row.file];
  loc.line = row.line;
  loc.column = row.column;
  auto op = ops.find({loc.file, loc.line, loc.column});
  if (op != ops.end())
    loc.op = op->second;
  return loc;
}

/// Reads FILE, LINE, COLUMN from fields[first..first+2].
static bool parseLocation(llvm::ArrayRef<llvm::StringRef> fields, size_t first,
                          SourceLocation &loc) {
  if (fields.size() < first + 3)
    return false;
  loc.file = fields[first].str();
  return !fields[first + 1].getAsInteger(10, loc.line) &&
         !fields[first + 2].getAsInteger(10, loc.column);
}

void SourceInfo::parseSourceSection(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.empty() || !lines[0].starts_with("hk-source\t1"))
    return;
  KernelSourceInfo *kernel = nullptr;
  for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front()) {
    llvm::SmallVector<llvm::StringRef> f;
    line.split(f, '\t');
    llvm::StringRef kind = f[0];
    if (kind == "op" && f.size() == 5) {
      SourceLocation loc;
      if (parseLocation(f, 1, loc))
        ops[{loc.file, loc.line, loc.column}] = f[4].str();
    } else if (kind == "kernel" && f.size() == 2) {
      kernel = &kernels[f[1]];
    } else if (kind == "tile" && f.size() == 8 && kernel) {
      SharedTileInfo tile;
      if (f[1].getAsInteger(10, tile.id) ||
          f[2].getAsInteger(10, tile.offset) ||
          f[3].getAsInteger(10, tile.size) ||
          !parseLocation(f, 5, tile.allocation))
        continue;
      tile.type = f[4].str();
      kernel->tiles.push_back(std::move(tile));
    } else if (kind == "scratch" && f.size() == 5 && kernel) {
      SharedTileInfo tile;
      if (f[1].getAsInteger(10, tile.id) ||
          f[2].getAsInteger(10, tile.offset) ||
          f[3].getAsInteger(10, tile.size) ||
          f[4].getAsInteger(10, tile.perWave) || tile.perWave == 0)
        continue;
      kernel->tiles.push_back(std::move(tile));
    } else if (kind == "access" && f.size() == 5 && kernel) {
      SourceLocation loc;
      if (!parseLocation(f, 1, loc))
        continue;
      llvm::SmallVector<llvm::StringRef> ids;
      f[4].split(ids, ',');
      std::vector<unsigned> tiles;
      for (llvm::StringRef id : ids) {
        unsigned n;
        if (!id.getAsInteger(10, n))
          tiles.push_back(n);
      }
      kernel->accesses[{loc.file, loc.line, loc.column}] = std::move(tiles);
    }
  }
  // Every tile id an access names must exist, or the access says nothing.
  for (auto &entry : kernels) {
    KernelSourceInfo &info = entry.second;
    for (auto it = info.accesses.begin(); it != info.accesses.end();) {
      bool valid = llvm::all_of(it->second, [&](unsigned id) {
        return llvm::any_of(info.tiles, [&](const SharedTileInfo &tile) {
          return tile.id == id;
        });
      });
      it = valid && !it->second.empty() ? std::next(it)
                                        : info.accesses.erase(it);
    }
  }
}

SourceInfo SourceInfo::read(llvm::StringRef elf) {
  SourceInfo info;
  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(elf, "code object"));
  if (!object) {
    llvm::consumeError(object.takeError());
    return info;
  }
  for (const llvm::object::SectionRef &section : (*object)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != kSourceSectionName)
      continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      continue;
    }
    info.parseSourceSection(*contents);
  }

  // Errors in the DWARF are ignored: what cannot be read is not reported.
  std::unique_ptr<llvm::DWARFContext> dwarf = llvm::DWARFContext::create(
      **object, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr,
      "", [](llvm::Error e) { llvm::consumeError(std::move(e)); },
      [](llvm::Error e) { llvm::consumeError(std::move(e)); });
  llvm::StringMap<uint32_t> fileIndex;
  for (const auto &unit : dwarf->compile_units()) {
    const llvm::DWARFDebugLine::LineTable *table =
        dwarf->getLineTableForUnit(unit.get());
    if (!table)
      continue;
    // The unit's directory joined to the file's: the path the compiler was
    // given (MLIR locations keep it whole), which `.hk.source` names too.
    const char *compDir = unit->getCompilationDir();
    for (const llvm::DWARFDebugLine::Row &row : table->Rows) {
      std::string file;
      if (!table->getFileNameByIndex(
              row.File, compDir ? compDir : "",
              llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath,
              file))
        file = "<unknown>";
      auto [it, inserted] = fileIndex.try_emplace(file, info.files.size());
      if (inserted)
        info.files.push_back(file);
      info.rows.push_back({row.Address.Address, it->second, row.Line,
                           row.Column, bool(row.EndSequence)});
    }
  }
  // An end-of-sequence row sorts before a row that starts the next sequence
  // at the same address; otherwise rows keep the table's order.
  std::vector<std::pair<Row, size_t>> ordered;
  ordered.reserve(info.rows.size());
  for (size_t i = 0; i < info.rows.size(); ++i)
    ordered.push_back({info.rows[i], i});
  std::sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
    return std::make_tuple(a.first.address, !a.first.endSequence, a.second) <
           std::make_tuple(b.first.address, !b.first.endSequence, b.second);
  });
  for (size_t i = 0; i < ordered.size(); ++i)
    info.rows[i] = ordered[i].first;
  return info;
}
