// LayerNorm over rows of H f32 values: one 256-thread workgroup per row,
// sums reduced through LDS with barriers, 1/sqrt by v_rsq_f32.
#include "hip_shim.h"

extern "C" __global__ void layernorm(const float *X, const float *gamma,
                                     const float *beta, float *Y, int H,
                                     float eps) {
  __shared__ float partial[2][256];
  unsigned t = threadIdxX(), r = blockIdxX();
  const float *x = X + r * H;
  float sum = 0, sq = 0;
  for (int i = t; i < H; i += 256) {
    float v = x[i];
    sum += v;
    sq += v * v;
  }
  partial[0][t] = sum;
  partial[1][t] = sq;
  syncThreads();
  for (unsigned stride = 128; stride > 0; stride /= 2) {
    if (t < stride) {
      partial[0][t] += partial[0][t + stride];
      partial[1][t] += partial[1][t + stride];
    }
    syncThreads();
  }
  float mean = partial[0][0] / H;
  float var = partial[1][0] / H - mean * mean;
  float rstd = __builtin_amdgcn_rsqf(var + eps);
  for (int i = t; i < H; i += 256)
    Y[r * H + i] = (x[i] - mean) * rstd * gamma[i] + beta[i];
}
