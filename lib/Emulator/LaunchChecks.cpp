//===- LaunchChecks.cpp - Source-aware checks of one launch ---------------===//
//
// Shared-tile bounds: hk-translate records each kernel's shared tiles and,
// per source location of an op that touches shared memory, the tiles that
// op may address (a double buffer is two tiles). An LDS access must lie in
// one tile the op addresses, or, for instructions without such a record, in
// some tile; per-wave conversion scratch must stay in the wave's own part.
//
// Global races: all workgroups of a launch may run at once, so two
// workgroups that write the same byte, or one that reads a byte another
// writes, race unless the accesses are atomics. The detector keeps, per
// byte, the two lowest (workgroup, pc) pairs of different workgroups that
// wrote it and that read it; both pairs are the same whatever order the
// host threads ran the workgroups in, so the reports are too.
//
//===----------------------------------------------------------------------===//

#include "LaunchChecks.h"

#include "Interp.h"

#include "llvm/Support/Format.h"

#include <map>
#include <tuple>

using namespace hk;
using namespace hk::emu;

std::atomic<uint64_t> LaunchChecks::nextSerial{1};

static std::string hex(uint64_t value) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format_hex(value, 2);
  return s;
}

LaunchChecks::LaunchChecks(const Module &module, const KernelInfo &kernel,
                           const GlobalMemory &memory,
                           const SanitizerOptions &options)
    : module(module), kernel(kernel), source(module.getSourceInfo()),
      memory(memory), serial(nextSerial++) {
  const KernelSourceInfo *info = source.findKernel(kernel.name);
  if (options.tileBounds && info && !info->tiles.empty())
    tiles = info;
  raceChecks = options.globalRace;
  const std::vector<Instr> &instrs = module.getProgram().all();
  atomic.resize(instrs.size());
  allowedTiles.assign(instrs.size(), nullptr);
  for (size_t i = 0; i < instrs.size(); ++i) {
    const isa::InstrDesc *desc = instrs[i].desc;
    if (!desc)
      continue;
    // Atomic loads and stores at agent or system scope compile to plain
    // vector-memory loads and stores with sc1 set, the device-coherent
    // cache policy (LLVM's AMDGPU memory model for gfx942 and gfx950):
    // like read-modify-write atomics, they synchronize rather than race.
    bool coherent = instrs[i].sc1 && (desc->mem.kind == isa::MemKind::Load ||
                                      desc->mem.kind == isa::MemKind::Store);
    atomic[i] = desc->mem.kind == isa::MemKind::Atomic || coherent;
    if (tiles && (desc->unit == isa::Unit::Lds ||
                  desc->unit == isa::Unit::DirectToLds || instrs[i].lds))
      allowedTiles[i] = tiles->tilesAccessedAt(source.locate(instrs[i].pc));
  }
}

LaunchChecks::~LaunchChecks() = default;

std::string LaunchChecks::where(uint64_t pc) const {
  SourceLocation loc = source.locate(pc);
  return loc.known() ? "at " + loc.str() + " " : "";
}

// Shared tiles
// --------------------------------------------------------------------

void LaunchChecks::checkTileAccess(Wave &w, const Instr &in, uint32_t address,
                                   unsigned size, int lane, bool write) const {
  const std::vector<unsigned> *allowed =
      allowedTiles[&in - module.getProgram().all().data()];
  const SharedTileInfo *tile = tiles->tileAt(address, allowed);
  uint64_t end = uint64_t(address) + size;
  bool inside = tile && end <= uint64_t(tile->offset) + tile->size;
  bool addressed = tile && (!allowed || llvm::is_contained(*allowed, tile->id));
  if (inside && addressed && tile->isScratch()) {
    uint64_t mine = uint64_t(tile->offset) + uint64_t(w.id) * tile->perWave;
    if (address >= mine && end <= mine + tile->perWave)
      return;
    w.wg->report(
        SanitizerReport::SharedTileOutOfBounds, w, in.pc, lane, address,
        llvm::Twine(write ? "write" : "read") + " of " + llvm::Twine(size) +
            " bytes at LDS address " + hex(address) + " is outside wave " +
            llvm::Twine(w.id) + "'s part (" + hex(mine) + "-" +
            hex(mine + tile->perWave - 1) + ") of " + tile->describe() + " (" +
            in.mnemonic() + ")");
    return;
  }
  if (inside && addressed)
    return;

  std::string meant;
  if (allowed) {
    for (unsigned id : *allowed)
      for (const SharedTileInfo &t : tiles->tiles)
        if (t.id == id)
          meant += (meant.empty() ? "" : " or ") + t.describe();
  }
  std::string landed = !tile    ? "outside every shared tile"
                       : inside ? "in " + tile->describe()
                                : "across the end of " + tile->describe();
  w.wg->report(
      SanitizerReport::SharedTileOutOfBounds, w, in.pc, lane, address,
      llvm::Twine(write ? "write" : "read") + " of " + llvm::Twine(size) +
          " bytes at LDS address " + hex(address) + " lands " + landed +
          (meant.empty() ? std::string()
                         : ", not in the tile the op addresses: " + meant) +
          " (" + in.mnemonic() + ")");
}

// Global races
// --------------------------------------------------------------------

void LaunchChecks::insert(RaceSlot (&slots)[2], RaceSlot pair) {
  auto less = [](RaceSlot a, RaceSlot b) {
    return a.wg != b.wg ? a.wg < b.wg : a.pc < b.pc;
  };
  if (!slots[0].wg) {
    slots[0] = pair;
  } else if (pair.wg == slots[0].wg) {
    if (less(pair, slots[0]))
      slots[0] = pair;
  } else if (less(pair, slots[0])) {
    // The old lowest pair is the lowest of another workgroup than `pair`'s.
    slots[1] = slots[0];
    slots[0] = pair;
  } else if (!slots[1].wg || less(pair, slots[1])) {
    slots[1] = pair;
  }
}

LaunchChecks::Shadow *LaunchChecks::findShadow(uint64_t address) {
  struct Cached {
    uint64_t serial = 0, lo = 1, hi = 0;
    Shadow *shadow = nullptr;
  };
  thread_local Cached cached;
  if (cached.serial == serial && address >= cached.lo && address < cached.hi)
    return cached.shadow;
  const Allocation *alloc = memory.find(address, 1);
  if (!alloc)
    return nullptr;
  std::lock_guard<std::mutex> lock(shadowsMutex);
  std::unique_ptr<Shadow> &slot = shadows[alloc->base];
  if (!slot) {
    slot = std::make_unique<Shadow>();
    slot->base = alloc->base;
    slot->size = alloc->size;
    slot->label = alloc->label;
    if (alloc->size <= kMaxRaceCheckedAllocationBytes) {
      slot->entries.reset(new RaceEntry[alloc->size]);
      shadowBytes += alloc->size * sizeof(RaceEntry);
    }
  }
  cached = {serial, alloc->base, alloc->base + alloc->size, slot.get()};
  return slot.get();
}

void LaunchChecks::noteGlobalAccess(const Wave &w, const Instr &in,
                                    uint64_t address, unsigned size,
                                    bool write) {
  if (atomic[&in - module.getProgram().all().data()])
    return;
  Shadow *shadow = findShadow(address);
  if (!shadow || !shadow->entries)
    return;
  uint64_t first = address - shadow->base;
  uint64_t last = std::min<uint64_t>(first + size, shadow->size);
  RaceSlot pair{uint32_t(w.wg->linearId + 1), uint32_t(in.pc)};
  std::lock_guard<std::mutex> lock(shadow->stripes[(first >> 12) % 64]);
  for (uint64_t b = first; b < last; ++b) {
    RaceEntry &entry = shadow->entries[b];
    insert(write ? entry.write : entry.read, pair);
  }
}

void LaunchChecks::collectRaces(std::vector<SanitizerReport> &reports,
                                uint64_t &count) const {
  struct Found {
    uint64_t address;
    uint64_t bytes = 0;
    const Shadow *shadow;
    RaceSlot first, second;
  };
  // By (write-after-write?, first pc, second pc): the lowest address.
  std::map<std::tuple<bool, uint32_t, uint32_t>, Found> found;
  std::vector<const Shadow *> ordered;
  for (const auto &entry : shadows)
    ordered.push_back(entry.second.get());
  std::sort(ordered.begin(), ordered.end(),
            [](const Shadow *a, const Shadow *b) { return a->base < b->base; });
  auto note = [&](bool ww, RaceSlot a, RaceSlot b, const Shadow *shadow,
                  uint64_t offset) {
    Found &f = found
                   .try_emplace({ww, a.pc, b.pc},
                                Found{shadow->base + offset, 0, shadow, a, b})
                   .first->second;
    ++f.bytes;
  };
  for (const Shadow *shadow : ordered) {
    if (!shadow->entries)
      continue;
    for (uint64_t b = 0; b < shadow->size; ++b) {
      const RaceEntry &e = shadow->entries[b];
      if (!e.write[0].wg)
        continue;
      if (e.write[1].wg)
        note(true, e.write[0], e.write[1], shadow, b);
      // The lowest (writer, reader) pair of different workgroups.
      std::optional<std::pair<RaceSlot, RaceSlot>> rw;
      for (const RaceSlot &writer : e.write)
        for (const RaceSlot &reader : e.read)
          if (writer.wg && reader.wg && writer.wg != reader.wg &&
              (!rw || std::tie(writer.wg, writer.pc, reader.wg, reader.pc) <
                          std::tie(rw->first.wg, rw->first.pc, rw->second.wg,
                                   rw->second.pc)))
            rw = std::make_pair(writer, reader);
      if (rw)
        note(false, rw->first, rw->second, shadow, b);
    }
  }
  for (const auto &[key, f] : found) {
    bool ww = std::get<0>(key);
    count += f.bytes;
    SanitizerReport r;
    r.kind = SanitizerReport::GlobalRace;
    r.kernel = kernel.name;
    r.pc = f.second.pc;
    r.workgroup = f.second.wg - 1;
    r.wave = 0;
    r.lane = -1;
    r.address = f.address;
    std::string buffer =
        f.shadow->label.empty() ? "" : " (buffer '" + f.shadow->label + "')";
    r.message =
        (stringifyReportKind(r.kind) + ": kernel '" + kernel.name + "' " +
         where(f.second.pc) + "pc " + hex(f.second.pc) + " workgroup " +
         llvm::Twine(r.workgroup) + ": " + (ww ? "write" : "read") +
         " of global " + hex(f.address) + buffer +
         " races with the write by workgroup " + llvm::Twine(f.first.wg - 1) +
         " " + where(f.first.pc) + "pc " + hex(f.first.pc) + " (" +
         llvm::Twine(f.bytes) + " byte(s) in all): " +
         (ww ? "two workgroups of one launch write the same bytes"
             : "a workgroup reads bytes another writes in the same launch") +
         " without atomics")
            .str();
    reports.push_back(std::move(r));
  }
}
