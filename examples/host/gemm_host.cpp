// A host program that embeds the bf16 GEMM of examples/gemm/gemm_abt.mlir
// through the header hk-translate --emit=header writes, and runs it with
// HIP's runtime API: on an MI300X/MI325X (gfx942) or MI350X/MI355X (gfx950)
// when linked with HIP's libamdhip64, or on any machine when linked with
// HK-MLIR's libhkhip (the emulator behind the same API). The source is the
// same for both; see README.md for the commands.
//
//   gemm_host [MxNxK ...]     (default: 256x256x128 200x136x72)
//
// C = A * B^T in bf16 with f32 accumulation, checked element by element
// against a double-precision reference: |C - ref| <= 2^-8 |ref| +
// K 2^-23 sum|a b| (one bf16 rounding of the output, f32 accumulation in
// any order). Exit code 0 when every element is within bound.

#include "gemm_abt.h"

#include <hip/hip_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    hipError_t error_ = (call);                                                \
    if (error_ != hipSuccess) {                                                \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   hipGetErrorString(error_));                                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// bf16 <-> f32, rounding to nearest even (inputs are finite).
static uint16_t toBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

static float fromBf16(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &word, 4);
  return value;
}

// Runs one M x N x K case; returns the number of elements out of bound.
static long runCase(hipModule_t module, hipStream_t stream, int m, int n, int k,
                    unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<uint16_t> a(size_t(m) * k), b(size_t(n) * k), c(size_t(m) * n);
  for (uint16_t &x : a)
    x = toBf16(dist(rng));
  for (uint16_t &x : b)
    x = toBf16(dist(rng));

  uint16_t *dA, *dB, *dC;
  CHECK(hipMalloc(reinterpret_cast<void **>(&dA), a.size() * 2));
  CHECK(hipMalloc(reinterpret_cast<void **>(&dB), b.size() * 2));
  CHECK(hipMalloc(reinterpret_cast<void **>(&dC), c.size() * 2));
  CHECK(hipMemcpy(dA, a.data(), a.size() * 2, hipMemcpyHostToDevice));
  CHECK(hipMemcpyAsync(dB, b.data(), b.size() * 2, hipMemcpyHostToDevice,
                       stream));
  // NaN everywhere: an element the kernel does not write fails the check.
  CHECK(hipMemsetAsync(dC, 0xff, c.size() * 2, stream));

  // The header's struct holds the kernarg words in ABI order: pointers,
  // each view's sizes, each view's row strides.
  gemm_abt_bf16_args args = {dA, dB, dC, m, k, n, k, m, n, k, k, n};
  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, stream));
  CHECK(gemm_abt_bf16_launch(module, gemm_abt_bf16_grid(&args), &args, stream));
  CHECK(hipEventRecord(stop, stream));
  CHECK(hipStreamSynchronize(stream));
  float ms = 0;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  CHECK(hipMemcpyAsync(c.data(), dC, c.size() * 2, hipMemcpyDeviceToHost,
                       stream));
  CHECK(hipStreamSynchronize(stream));

  long failures = 0;
  double worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (int kk = 0; kk < k; ++kk) {
        double p = double(fromBf16(a[size_t(i) * k + kk])) *
                   fromBf16(b[size_t(j) * k + kk]);
        sum += p;
        magnitude += std::fabs(p);
      }
      double got = fromBf16(c[size_t(i) * n + j]);
      double bound = std::ldexp(1.0, -8) * std::fabs(sum) +
                     k * std::ldexp(1.0, -23) * magnitude + 1e-30;
      double error = std::fabs(got - sum);
      if (!(error <= bound)) {
        if (failures++ == 0)
          std::printf("  C[%d][%d] = %g, expected %g (bound %g)\n", i, j, got,
                      sum, bound);
      } else if (error / bound > worst) {
        worst = error / bound;
      }
    }
  dim3 grid = gemm_abt_bf16_grid(&args);
  std::printf("%s gemm_abt_bf16 M=%d N=%d K=%d: grid %ux%u of %u work-items, "
              "%.2f ms, worst error/bound %.3f\n",
              failures ? "FAIL" : "PASS", m, n, k, grid.x, grid.y,
              gemm_abt_bf16_block_size(), double(ms), worst);
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  CHECK(hipFree(dA));
  CHECK(hipFree(dB));
  CHECK(hipFree(dC));
  return failures;
}

int main(int argc, char **argv) {
  int count = 0;
  hipError_t error = hipGetDeviceCount(&count);
  if (error != hipSuccess || count == 0) {
    std::fprintf(stderr, "no HIP device: %s\n", hipGetErrorString(error));
    return 2;
  }
  CHECK(hipSetDevice(0));
  hipDeviceProp_t props;
  CHECK(hipGetDeviceProperties(&props, 0));
  // gcnArchName is "gfx950:sramecc+:xnack-": the chip comes first.
  std::string arch = props.gcnArchName;
  if (arch.substr(0, arch.find(':')) != gemm_abt_chip()) {
    std::fprintf(stderr,
                 "the embedded code object is for %s, device 0 is %s (%s): "
                 "regenerate gemm_abt.h for it\n",
                 gemm_abt_chip(), props.gcnArchName, props.name);
    return 2;
  }
  std::printf("device 0: %s, %s, %d compute units\n", props.name,
              props.gcnArchName, props.multiProcessorCount);

  hipModule_t module;
  CHECK(gemm_abt_load(&module));
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));

  std::vector<std::string> cases;
  for (int i = 1; i < argc; ++i)
    cases.push_back(argv[i]);
  if (cases.empty())
    cases = {"256x256x128", "200x136x72"};
  long failures = 0;
  unsigned seed = 1;
  for (const std::string &shape : cases) {
    int m, n, k;
    if (std::sscanf(shape.c_str(), "%dx%dx%d", &m, &n, &k) != 3 || m < 1 ||
        n < 1 || k < 1) {
      std::fprintf(stderr, "bad case '%s': expected MxNxK\n", shape.c_str());
      return 2;
    }
    failures += runCase(module, stream, m, n, k, seed++);
  }

  CHECK(hipStreamDestroy(stream));
  CHECK(hipModuleUnload(module));
  CHECK(hipDeviceSynchronize());
  return failures ? 1 : 0;
}
