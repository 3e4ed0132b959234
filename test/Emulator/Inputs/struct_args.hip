// Kernels that take their arguments in a struct passed by value, as
// HipKittens' kernels take a struct of global views: the code object's
// metadata describes one `by_value` argument of the struct's size, and
// hk-emu builds it from fields (struct:OFFSET=SPEC,...) or a file
// (raw:FILE,...). See docs/emulator.md.
#include "hip_shim.h"

// A view of a row-major matrix in global memory: 8 + 3 * 4 bytes, padded
// to 24.
struct View {
  float *data;   // offset 0
  int rows;      // offset 8
  int cols;      // offset 12
  int rowStride; // offset 16 (elements)
};

// out = alpha * x + y over n elements: 32 bytes.
struct Axpy {
  const float *x; // offset 0
  const float *y; // offset 8
  float *out;     // offset 16
  unsigned n;     // offset 24
  float alpha;    // offset 28
};

extern "C" __global__ void axpy(Axpy a) {
  unsigned t = threadIdxX() + blockIdxX() * 64;
  if (t < a.n)
    a.out[t] = a.alpha * a.x[t] + a.y[t];
}

// Row sums of a view, written to sums[row] (one work-item per row), and
// the view's element count to count[0]: a struct next to plain arguments.
extern "C" __global__ void row_sums(View m, float *sums, int *count) {
  unsigned row = threadIdxX();
  if (row == 0)
    count[0] = m.rows * m.cols;
  if (row >= unsigned(m.rows))
    return;
  float sum = 0;
  for (int c = 0; c < m.cols; ++c)
    sum += m.data[row * m.rowStride + c];
  sums[row] = sum;
}
