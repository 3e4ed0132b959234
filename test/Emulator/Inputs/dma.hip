// Direct-to-LDS copy: each lane's buffer load goes straight to
// LDS[M0 + lane*size] (16 bytes per lane on gfx950, 4 on gfx942), then the
// workgroup reads the tile back transposed and stores it.
#include "hip_shim.h"

#if defined(__gfx950__)
#define BYTES 16
#else
#define BYTES 4
#endif

extern "C" __global__ void dma(const uint32_t *in, uint32_t *out, int n) {
  // 256 lanes x BYTES bytes.
  __shared__ uint32_t tile[256 * BYTES / 4];
  unsigned t = threadIdxX(), wave = t / 64;
  unsigned base = blockIdxX() * (256 * BYTES / 4);
  __amdgpu_buffer_rsrc_t rsrc =
      __builtin_amdgcn_make_buffer_rsrc((void *)in, 0, n * 4, 0x00020000);
  // Each wave fills its own 64*BYTES slice of the tile.
  __builtin_amdgcn_raw_ptr_buffer_load_lds(
      rsrc, (__attribute__((address_space(3))) void *)(tile + wave * 64 * BYTES / 4),
      BYTES, (base + t * (BYTES / 4)) * 4, 0, 0, 0);
  __builtin_amdgcn_s_waitcnt(0x0f70); // vmcnt(0)
  syncThreads();
  // Element e of the tile goes to position (e % 4) * (len / 4) + e / 4.
  unsigned len = 256 * BYTES / 4;
  for (unsigned e = t; e < len; e += 256)
    out[base + (e % 4) * (len / 4) + e / 4] = tile[e];
}

// The same copy with global_load_lds (a 64-bit address per lane instead of
// a buffer resource).
extern "C" __global__ void dma_global(const uint32_t *in, uint32_t *out,
                                      int n) {
  __shared__ uint32_t tile[256 * BYTES / 4];
  unsigned t = threadIdxX(), wave = t / 64;
  unsigned base = blockIdxX() * (256 * BYTES / 4);
  __builtin_amdgcn_global_load_lds(
      (void *)(in + base + t * (BYTES / 4)),
      (__attribute__((address_space(3))) void *)(tile + wave * 64 * BYTES / 4),
      BYTES, 0, 0);
  __builtin_amdgcn_s_waitcnt(0x0f70); // vmcnt(0)
  syncThreads();
  unsigned len = 256 * BYTES / 4;
  for (unsigned e = t; e < len; e += 256)
    out[base + (e % 4) * (len / 4) + e / 4] = tile[e];
}
