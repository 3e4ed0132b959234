"""Inputs and references of struct_args.hip.

  check_struct_args.py make DIR       writes x.npy, y.npy, m.npy (a 5x7
                                      matrix in rows of stride 8), the raw
                                      Axpy struct axpy.bin (pointers zero,
                                      n = 64, alpha = 2.5) and the raw
                                      kernarg segment of row_sums
  check_struct_args.py axpy OUT...    compares each OUT with 2.5 * x + y
  check_struct_args.py sums OUT       compares OUT with m's row sums
"""

import os
import struct
import sys

import numpy as np

X = (np.arange(64) * 0.5).astype(np.float32)
Y = (1.0 - np.arange(64) / 8).astype(np.float32)
M = np.arange(5 * 8, dtype=np.float32).reshape(5, 8) / 4


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == "make":
        out = args[0]
        np.save(os.path.join(out, "x.npy"), X)
        np.save(os.path.join(out, "y.npy"), Y)
        np.save(os.path.join(out, "m.npy"), M)
        with open(os.path.join(out, "axpy.bin"), "wb") as f:
            f.write(struct.pack("<QQQIf", 0, 0, 0, 64, 2.5))
        # row_sums: View{data, rows 5, cols 7, rowStride 8, pad}, sums, count.
        with open(os.path.join(out, "row_sums.bin"), "wb") as f:
            f.write(struct.pack("<QiiiiQQ", 0, 5, 7, 8, 0, 0, 0))
        return
    if what == "axpy":
        want = np.float32(2.5) * X + Y
    else:
        want = M[:, :7].sum(axis=1, dtype=np.float32)
    # Products and sums of these values are exact in f32.
    print([int((np.load(path) != want).sum()) for path in args],
          "mismatches")


main()
