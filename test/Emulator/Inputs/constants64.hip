// Inline float constants of 64-bit operands. The hardware expands such a
// constant to the operand's width: 64-bit operands, integer or float, read
// the f64 encoding (1.0 is 0x3ff0000000000000), 32-bit operands of the same
// instruction the f32 one.
#include "hip_shim.h"

typedef double double4_t __attribute__((ext_vector_type(4)));
typedef unsigned long long uint64_t;

// clang materialises the operands of
// __builtin_amdgcn_mfma_f64_16x16x4f64(1.0, 1.0, 0) with v_mov_b64 of the
// inline constant 1.0; every element of the product is 4.0 (K = 4).
extern "C" __global__ void mfma_ones(double *out) {
  double4_t d =
      __builtin_amdgcn_mfma_f64_16x16x4f64(1.0, 1.0, double4_t{}, 0, 0, 0);
  for (int i = 0; i < 4; ++i)
    out[threadIdxX() * 4 + i] = d[i];
}

#define VMOV64(constant)                                                       \
  ({                                                                           \
    uint64_t r;                                                                \
    asm volatile("v_mov_b64 %0, " #constant : "=v"(r));                        \
    r;                                                                         \
  })

// One instruction per value, each with an inline float constant; `x` (the
// f64 bits of 1.0 in the test) is a kernel argument so that nothing folds.
extern "C" __global__ void constants(uint64_t *out, uint64_t x) {
  if (threadIdxX() != 0)
    return;
  uint64_t r;
  out[0] = VMOV64(0.5);
  out[1] = VMOV64(-0.5);
  out[2] = VMOV64(1.0);
  out[3] = VMOV64(-1.0);
  out[4] = VMOV64(2.0);
  out[5] = VMOV64(-2.0);
  out[6] = VMOV64(4.0);
  out[7] = VMOV64(-4.0);
  out[8] = VMOV64(0.15915494309189532);
  asm volatile("s_mov_b64 %0, -4.0" : "=s"(r));
  out[9] = r;
  // The shift count is 32 bits wide (f32 1.0: 0x3f800000, count 0), the
  // addend 64 bits (f64 2.0).
  asm volatile("v_lshl_add_u64 %0, %1, 1.0, 2.0" : "=v"(r) : "v"(x));
  out[10] = r;
  asm volatile("s_xor_b64 %0, %1, 0.5" : "=s"(r) : "s"(x));
  out[11] = r;
  // The shifted value is 64 bits wide, the shift count 32 bits (f32 bits
  // 0x40000000: count 0).
  asm volatile("s_lshl_b64 %0, 1.0, 2.0" : "=s"(r));
  out[12] = r;
  double f;
  asm volatile("v_add_f64 %0, 1.0, %1" : "=v"(f) : "v"(x));
  out[13] = __builtin_bit_cast(uint64_t, f);
  unsigned equal;
  asm volatile("v_cmp_eq_u64 vcc, 1.0, %1\n"
               "v_cndmask_b32 %0, 0, 1, vcc"
               : "=v"(equal)
               : "v"(x)
               : "vcc");
  out[14] = equal;
}
