//===- Layouts.h - Lane layouts of register tiles -----------------*- C++
//-*-===//
//
// Every register-tile layout of the hk dialect (`row`, `col`, `#hk.mfma<...>`)
// is a fragment layout: a base block of `baseRows x baseCols` elements spread
// over the 64 lanes of a wave, repeated in a row-major grid over the tile.
// This file is the one definition of where element (r, c) lives; the
// verifier, the lowering and the tests all ask it.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_LAYOUTS_H
#define HK_DIALECT_HK_IR_LAYOUTS_H

#include "mlir/IR/Attributes.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace hk {

class FragmentLayout {
public:
  enum class Kind {
    /// Lanes hold runs of `run` consecutive elements along a row; lane
    /// `r + period*(c/run)`. The MFMA A-operand shape.
    RowRuns,
    /// Lanes hold runs of `run` consecutive elements along a column; lane
    /// `c + period*(r/run)`. The MFMA B-operand shape.
    ColRuns,
    /// The MFMA accumulator of an MxN block (M = N = period).
    Accumulator,
  };

  /// Where one element lives: a lane and its position in the lane's vector.
  struct Slot {
    unsigned lane;
    int64_t index;
    bool operator==(const Slot &o) const {
      return lane == o.lane && index == o.index;
    }
  };

  static FragmentLayout rowRuns(unsigned period, unsigned run);
  static FragmentLayout colRuns(unsigned period, unsigned run);
  static FragmentLayout accumulator(unsigned m, unsigned n);

  /// The fragment layout of a `row`, `col` or `#hk.mfma` attribute; nullopt
  /// for anything else (including a missing layout).
  static std::optional<FragmentLayout> get(mlir::Attribute layout);

  Kind getKind() const { return kind; }
  unsigned getPeriod() const { return period; }
  unsigned getRun() const { return run; }
  int64_t getBaseRows() const { return baseRows; }
  int64_t getBaseCols() const { return baseCols; }
  /// Elements each lane holds per base block.
  int64_t getElementsPerBlock() const { return baseRows * baseCols / 64; }

  /// True when a rows x cols tile is a whole number of base blocks.
  bool tiles(int64_t rows, int64_t cols) const {
    return rows > 0 && cols > 0 && rows % baseRows == 0 && cols % baseCols == 0;
  }
  /// Elements each lane holds for a rows x cols tile.
  int64_t getElementsPerLane(int64_t rows, int64_t cols) const {
    return rows * cols / 64;
  }

  /// Lane and slot of element (r, c) inside one base block.
  Slot locateInBlock(int64_t r, int64_t c) const;

  /// The inverse, split into a lane part and a slot part: with
  /// `p = lane % period` and `q = lane / period`, the element a lane holds in
  /// slot `s` of a base block is at
  ///   row = p*rowPerP + q*rowPerQ + slotRow(s),
  ///   col = p*colPerP + q*colPerQ + slotCol(s).
  struct LaneTerms {
    int64_t rowPerP, rowPerQ, colPerP, colPerQ;
  };
  LaneTerms getLaneTerms() const;
  std::pair<int64_t, int64_t> getSlotOffset(int64_t slot) const;
  /// (row, col) of the element in `lane`, slot `slot` of a base block.
  std::pair<int64_t, int64_t> coordinatesInBlock(unsigned lane,
                                                 int64_t slot) const;

  /// Consecutive slots that hold consecutive columns of one row (the width
  /// of a row-major vector access); 1 when a lane's elements run down a
  /// column.
  int64_t getColumnRun() const { return kind == Kind::RowRuns ? run : 1; }
  /// Lane and slot of element (r, c) of a tile that is `cols` wide.
  Slot locate(int64_t r, int64_t c, int64_t cols) const;

  std::string describe() const;

  // Register vectors aligned with this layout (`#hk.vec<rows|cols, ...>`):
  // a lane holds the value of every row (column) its tile elements lie in,
  // so broadcasts move no data. `alongRows` picks rows or columns.

  /// Positions a lane holds per base block: the block's elements per lane
  /// when a lane's elements run along that dimension, else 1.
  int64_t getVectorSlots(bool alongRows) const;
  /// Rows (columns) of one base block.
  int64_t getBaseExtent(bool alongRows) const {
    return alongRows ? baseRows : baseCols;
  }
  /// True when a vector of `length` is a whole number of base blocks.
  bool tilesVector(bool alongRows, int64_t length) const {
    return length > 0 && length % getBaseExtent(alongRows) == 0;
  }
  /// Elements per lane of a vector of `length`.
  int64_t getVectorElementsPerLane(bool alongRows, int64_t length) const {
    return length / getBaseExtent(alongRows) * getVectorSlots(alongRows);
  }
  /// Position in a lane's vector of the row (column) that tile slot `slot`
  /// of a tile `cols` wide lies in.
  int64_t getVectorIndex(bool alongRows, int64_t slot, int64_t cols) const;
  /// Row (column) of the value at position `index` of `lane`'s vector.
  int64_t getVectorCoordinate(bool alongRows, unsigned lane,
                              int64_t index) const;
  /// Lane-id bits that move along the other dimension only: xor-ing lane
  /// ids with them visits every lane holding the same rows (columns).
  unsigned getReductionLaneMask(bool alongRows) const;

private:
  FragmentLayout(Kind kind, unsigned period, unsigned run, int64_t baseRows,
                 int64_t baseCols)
      : kind(kind), period(period), run(run), baseRows(baseRows),
        baseCols(baseCols) {}

  Kind kind;
  unsigned period;
  unsigned run;
  int64_t baseRows;
  int64_t baseCols;
};

/// True when two layouts put every element of a rows x cols tile in the same
/// lane and slot (so a conversion between them moves no data).
bool layoutsEquivalent(mlir::Attribute a, mlir::Attribute b, int64_t rows,
                       int64_t cols);

/// True when two `#hk.vec` layouts put every element of a vector of
/// `length` in the same lanes and positions.
bool vectorLayoutsEquivalent(mlir::Attribute a, mlir::Attribute b,
                             int64_t length);

/// A layout that holds the transpose of a tile in `layout` in the same
/// lanes: row runs become column runs and back, and an MFMA accumulator's
/// runs of four rows become runs of four columns. `row` and `col` map to
/// each other; others become `#hk.mfma<a|b, ...>` layouts. Null for a
/// layout that is not a fragment layout.
mlir::Attribute transposedLayout(mlir::Attribute layout);

/// For a `rows x cols` tile in layout `from` and its transpose (`cols x
/// rows`) in layout `to`: the slot of the tile that holds each slot of the
/// transpose, when every element stays in its lane and the map is the
/// same for every lane (a register renaming); nullopt otherwise.
std::optional<llvm::SmallVector<int64_t>> transposeSlots(mlir::Attribute from,
                                                         mlir::Attribute to,
                                                         int64_t rows,
                                                         int64_t cols);

} // namespace hk

#endif // HK_DIALECT_HK_IR_LAYOUTS_H
