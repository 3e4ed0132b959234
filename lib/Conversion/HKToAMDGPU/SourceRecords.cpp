//===- SourceRecords.cpp - What a code object says about its hk source ----===//
//
// The records of the `.hk.source` section (hk/Runtime/SourceInfo.h) for one
// kernel, taken before its ops are lowered: the op at each source location,
// the kernel's shared tiles with their LDS offsets, and for each op that
// reads or writes a shared tile, the tiles (hk.allocs) that operand can be.
// The emulator checks LDS accesses against them and names ops in reports.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "hk/Dialect/HK/IR/SharedMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Location.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

/// The file position of `loc`, looking through names, call sites and
/// fusions as the translation to debug info does.
static std::optional<FileLineColLoc> findFileLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto name = dyn_cast<NameLoc>(loc))
    return findFileLoc(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return findFileLoc(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (auto file = findFileLoc(part))
        return file;
  return std::nullopt;
}

/// "FILE\tLINE\tCOLUMN", or "" without a file position.
static std::string formatLoc(Location loc) {
  std::optional<FileLineColLoc> file = findFileLoc(loc);
  if (!file)
    return "";
  return (file->getFilename().getValue() + "\t" + Twine(file->getLine()) +
          "\t" + Twine(file->getColumn()))
      .str();
}

/// Adds the hk.allocs `tile` can be to `allocs`; false when a path leads
/// somewhere the walk does not follow (then nothing is recorded).
static bool collectAllocs(Value tile, llvm::SetVector<Operation *> &allocs,
                          llvm::DenseSet<Value> &seen) {
  if (!seen.insert(tile).second)
    return true;
  if (auto alloc = tile.getDefiningOp<AllocOp>()) {
    allocs.insert(alloc);
    return true;
  }
  auto both = [&](Value a, Value b) {
    return collectAllocs(a, allocs, seen) && collectAllocs(b, allocs, seen);
  };
  if (auto arg = dyn_cast<BlockArgument>(tile)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
      return false;
    unsigned i = arg.getArgNumber() - 1;
    return both(loop.getInitArgs()[i],
                loop.getBody()->getTerminator()->getOperand(i));
  }
  auto result = cast<OpResult>(tile);
  unsigned i = result.getResultNumber();
  Operation *def = result.getOwner();
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return both(loop.getInitArgs()[i],
                loop.getBody()->getTerminator()->getOperand(i));
  if (auto branch = dyn_cast<scf::IfOp>(def))
    return branch.elseBlock() && both(branch.thenYield().getOperand(i),
                                      branch.elseYield().getOperand(i));
  // A slice of a shared tile is a view of its rows: checked against the
  // whole tile it views.
  if (auto slice = dyn_cast<SliceOp>(def))
    return collectAllocs(slice.getSource(), allocs, seen);
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return both(select.getTrueValue(), select.getFalseValue());
  return false;
}

static bool isSharedType(Type type) {
  return isa<SharedTileType, SharedVectorType>(type);
}

ArrayAttr lowering::describeKernelSource(KernelOp kernel, const LdsPlan &plan) {
  SmallVector<std::string> records;
  // Ops by location: the first op written at a location names it.
  std::set<std::string> seenLocs;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    std::string loc = formatLoc(op->getLoc());
    if (!loc.empty() && seenLocs.insert(loc).second)
      records.push_back("op\t" + loc + "\t" +
                        op->getName().getStringRef().str());
  });

  records.push_back(("kernel\t" + kernel.getSymName()).str());
  llvm::DenseMap<Operation *, unsigned> tileIds;
  kernel.walk([&](AllocOp alloc) {
    auto offset = plan.allocOffsets.find(alloc);
    if (offset == plan.allocOffsets.end())
      return;
    unsigned id = tileIds.size();
    tileIds[alloc] = id;
    Type type = alloc.getType();
    int64_t size = getAllocationBytes(alloc);
    std::string typeText;
    llvm::raw_string_ostream os(typeText);
    type.print(os);
    std::string loc = formatLoc(alloc.getLoc());
    records.push_back(("tile\t" + Twine(id) + "\t" + Twine(offset->second) +
                       "\t" + Twine(size) + "\t" + typeText + "\t" +
                       (loc.empty() ? "?\t0\t0" : loc))
                          .str());
  });
  std::optional<unsigned> scratchId;
  auto lds = plan.kernels.find(kernel.getSymName());
  if (lds != plan.kernels.end() && lds->second.scratchPerWave) {
    scratchId = tileIds.size();
    records.push_back(("scratch\t" + Twine(*scratchId) + "\t" +
                       Twine(lds->second.scratchOffset) + "\t" +
                       Twine(lds->second.scratchPerWave * kernel.getWaves()) +
                       "\t" + Twine(lds->second.scratchPerWave))
                          .str());
  }

  // Tiles each located op may address; a location whose ops reach a tile
  // the walk cannot trace gets no record.
  std::map<std::string, std::set<unsigned>> accesses;
  std::set<std::string> untraced;
  kernel.walk([&](Operation *op) {
    if (isa<AllocOp, scf::ForOp, scf::YieldOp, scf::IfOp, arith::SelectOp>(op))
      return;
    std::string loc = formatLoc(op->getLoc());
    if (loc.empty())
      return;
    if (auto convert = dyn_cast<ConvertLayoutOp>(op);
        convert && scratchId && conversionMovesData(convert))
      accesses[loc].insert(*scratchId);
    // Ops without memory effects take shared tiles for their types only
    // (hk.in_bounds, hk.slice): they address nothing.
    if (isMemoryEffectFree(op))
      return;
    for (Value operand : op->getOperands()) {
      if (!isSharedType(operand.getType()))
        continue;
      llvm::SetVector<Operation *> allocs;
      llvm::DenseSet<Value> seen;
      if (!collectAllocs(operand, allocs, seen)) {
        untraced.insert(loc);
        continue;
      }
      for (Operation *alloc : allocs)
        if (auto id = tileIds.find(alloc); id != tileIds.end())
          accesses[loc].insert(id->second);
    }
  });
  for (const auto &[loc, ids] : accesses) {
    if (untraced.count(loc) || ids.empty())
      continue;
    std::string list;
    for (unsigned id : ids)
      list += (list.empty() ? "" : ",") + std::to_string(id);
    records.push_back("access\t" + loc + "\t" + list);
  }

  Builder b(kernel.getContext());
  SmallVector<Attribute> attrs;
  for (const std::string &record : records)
    attrs.push_back(b.getStringAttr(record));
  return b.getArrayAttr(attrs);
}
