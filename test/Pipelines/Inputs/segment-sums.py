import numpy as np


def reference(x, y, period):
    """Each segment of `period` consecutive 16-row tiles of x, summed."""
    tiles = x.shape[0] // 16
    segments = tiles // int(period)
    sums = x[:segments * int(period) * 16].reshape(segments, int(period), 16,
                                                  x.shape[1]).sum(axis=1)
    return sums.reshape(segments * 16, x.shape[1])
