//===- TileAccess.h - Which elements each lane touches, per access -*- C++
//-*-===//
//
// The memory accesses the lowering emits for register tiles and group
// copies, as plain data: which lane reads or writes which elements in which
// instruction. The lowering builds its IR from these; hk-lds-layout
// simulates the same accesses against the chip's LDS banks.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_TILEACCESS_H
#define HK_DIALECT_HK_IR_TILEACCESS_H

#include "hk/Dialect/HK/IR/Layouts.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace hk {

class SwizzleAttr;

/// One memory access of a lane: `width` consecutive columns of one row,
/// at `slot` onwards in the lane's vector. (row, col) is relative to the
/// lane's first element (FragmentLayout::coordinatesInBlock(lane, 0)).
///
/// A `transposed` unit is one of gfx950's transposing LDS reads
/// (`ds_read_b64_tr_b16`): the lane receives `width` (4) consecutive rows of
/// its column, but the address it supplies is of another lane's data,
/// `transposedReadOffset(lane)` away from (row, col).
struct AccessUnit {
  int64_t slot;
  int64_t row, col;
  int64_t width;
  bool transposed = false;
};

/// Splits a rows x cols register tile into the accesses of one lane; each is
/// at most `maxBytes` and at most `maxWidth` elements.
llvm::SmallVector<AccessUnit> enumerateAccesses(const FragmentLayout &layout,
                                                int64_t rows, int64_t cols,
                                                int64_t elementBytes,
                                                int64_t maxWidth = 64,
                                                int64_t maxBytes = 16);

/// The reads of a rows x cols register tile of 16-bit elements through
/// transposing LDS reads, or nullopt when its layout does not suit them.
/// A `ds_read_b64_tr_b16` reads 8 bytes (4 elements along a row) per lane;
/// within each group of 16 lanes, lane `4*r + q` supplies row `r`, columns
/// `4*q .. 4*q+3` of a 4x16 tile and lane `c` receives column `c`. A layout
/// suits when each group of 16 lanes holds 16 consecutive columns of the
/// same rows and every lane's elements run down its column in fours
/// (`#hk.mfma<b,...>` and `col` layouts, MFMA accumulators of N >= 16), and
/// the shared tile keeps at least 4 elements of a row contiguous
/// (`contiguous`).
std::optional<llvm::SmallVector<AccessUnit>>
enumerateTransposedReads(const FragmentLayout &layout, int64_t rows,
                         int64_t cols, int64_t elementBytes,
                         int64_t contiguous);

/// The accesses of a register tile to a shared tile keeping `contiguous`
/// elements of a row together: transposing reads where `transposedReads`
/// (a read on a chip that has them) and the layout suits them, else
/// enumerateAccesses'.
llvm::SmallVector<AccessUnit>
enumerateSharedAccesses(const FragmentLayout &layout, int64_t rows,
                        int64_t cols, int64_t elementBytes, int64_t contiguous,
                        bool transposedReads);

/// Where `lane`'s address in a transposed unit lies, as (rows, cols) from
/// the element the lane receives first.
inline std::pair<int64_t, int64_t> transposedReadOffset(unsigned lane) {
  int64_t inGroup = lane % 16;
  return {inGroup / 4, 4 * (inGroup % 4) - inGroup};
}

/// How the lanes of a block split a rows x cols copy between global memory
/// and LDS into chunks: lane `t` takes chunks t, t + lanes, t + 2*lanes...
/// of `chunkElems` consecutive elements along a row.
struct GroupCopyPlan {
  int64_t rows, cols;
  int64_t chunkElems;   ///< Elements per chunk (16 bytes, or less).
  int64_t chunksPerRow; ///< cols / chunkElems.
  int64_t chunks;       ///< Chunks in the tile.
  int64_t lanes;        ///< Lanes taking part.
  int64_t rounds;       ///< ceil(chunks / lanes).
  int64_t pieceElems;   ///< Contiguous elements on the LDS side.
  /// Consecutive chunks go down a column of chunks rather than along a row:
  /// the order of a transposing copy, whose lanes then write consecutive
  /// LDS elements of one row of the transposed tile.
  bool downRows = false;
  /// Rows go in the order 0, 8, 1, 9, ..., 7, 15 within every 16 (a wave's
  /// copy of 128-byte rows, planWaveCopy): each 16-lane LDS phase reads
  /// two rows 8 apart, which an XOR swizzle of 16-byte groups over 16 or
  /// more phases puts in different halves of the banks, instead of two
  /// neighbouring rows in the same half. Stores still write whole rows.
  bool pairRows = false;

  /// (row, col) of the chunk lane `lane` copies in `round`, or false when
  /// the lane has none.
  bool chunkOf(int64_t lane, int64_t round, int64_t &row, int64_t &col) const;
};

/// `contiguous`: elements that stay together in LDS (the swizzle's vec).
GroupCopyPlan planGroupCopy(int64_t rows, int64_t cols, int64_t elementBytes,
                            int64_t lanes, int64_t contiguous);

/// The plan of one wave's copy of a `rows x cols` tile (64 lanes), rows
/// paired (`pairRows`) when they are 8 chunks wide and come in sixteens.
GroupCopyPlan planWaveCopy(int64_t rows, int64_t cols, int64_t elementBytes,
                           int64_t contiguous);

/// The plan of a transposing group load into a `rows x cols` shared tile:
/// the global tile is `cols x rows`, copied in 16-byte chunks of its rows
/// taken down its columns, each element written on its own.
GroupCopyPlan planTransposedCopy(int64_t rows, int64_t cols,
                                 int64_t elementBytes, int64_t lanes);

/// Elements that stay contiguous in a row under `swizzle` (null: no
/// swizzle).
int64_t swizzleContiguousElements(SwizzleAttr swizzle, int64_t cols);

/// Element index of (row, col) in a row-major rows x cols shared tile after
/// `swizzle` (null: none).
int64_t swizzledElementIndex(SwizzleAttr swizzle, int64_t cols, int64_t row,
                             int64_t col);

} // namespace hk

#endif // HK_DIALECT_HK_IR_TILEACCESS_H
