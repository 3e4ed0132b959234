// One-byte and two-byte element outputs: hk-emu allocates, prints and
// writes them at their real width.
#include "hip_shim.h"

extern "C" __global__ void bytes(signed char *i8, unsigned char *u8,
                                 short *i16) {
  unsigned t = threadIdxX();
  i8[t] = (signed char)(t * 37);
  u8[t] = (unsigned char)(t * 37);
  i16[t] = (short)(t * 1000);
}
