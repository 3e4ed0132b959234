// f32 division and multiplication, element by element: the division is
// LLVM's scaled sequence (v_div_scale, v_rcp, v_fma, v_div_fmas,
// v_div_fixup); compiled with -fgpu-flush-denormals-to-zero, the kernel
// descriptor flushes f32 denormals and the sequence switches MODE's
// denormal field with s_setreg around its fused multiply-adds.
#include "hip_shim.h"

extern "C" __global__ void divide(const float *a, const float *b, float *out,
                                  int n) {
  int i = blockIdxX() * 64 + threadIdxX();
  if (i < n)
    out[i] = a[i] / b[i];
}

extern "C" __global__ void multiply(const float *a, const float *b,
                                    float *out, int n) {
  int i = blockIdxX() * 64 + threadIdxX();
  if (i < n)
    out[i] = a[i] * b[i];
}

extern "C" __global__ void divide64(const double *a, const double *b,
                                    double *out, int n) {
  int i = blockIdxX() * 64 + threadIdxX();
  if (i < n)
    out[i] = a[i] / b[i];
}
