/* The csmith runtime for a csmith program compiled as a GPU kernel (plain C
 * for the amdgcn target, freestanding): the same checksum as csmith's own
 * runtime, kept in a variable the kernel stores to its output instead of
 * printed. csmith's safe-arithmetic wrappers come from its installed
 * headers (libcsmith-dev). Used by scripts/csmith-diff.py. */
#ifndef HK_CSMITH_DEVICE_H
#define HK_CSMITH_DEVICE_H

#include <float.h>
#include <limits.h>
#include <stdint.h>

/* What csmith's random_inc.h sets up before safe_math.h. */
#define STATIC static
#define FUNC_NAME(x) (safe_##x)
#define LOG_INDEX
#define LOG_EXEC
#define UNDEFINED(value) (value)
#define INT_BIT (sizeof(int) * CHAR_BIT)
#define _CSMITH_BITFIELD(x) (((x) > INT_BIT) ? ((x) % INT_BIT) : (x))
#define fabsf __builtin_fabsf
#define fabs __builtin_fabs
#include "safe_math.h"

/* Nothing is printed on the device: csmith prints only when asked for
 * per-variable hashes (print_hash_value, 0 without arguments). */
#define printf(...) 0

static uint32_t crc32_table[256];
static uint32_t crc32_context = 0xFFFFFFFFu;
/* The checksum platform_main_end was given: the kernel's result. */
static uint32_t csmith_checksum;

/* The reflected CRC-32 (polynomial 0xEDB88320) table. */
static void crc32_gentab(void) {
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    crc32_table[byte] = crc;
  }
}

static void crc32_byte(uint8_t b) {
  crc32_context = (crc32_context >> 8) ^ crc32_table[(crc32_context ^ b) & 0xFF];
}

/* Values are hashed as 8 little-endian bytes, as csmith does with long
 * long enabled. */
static void transparent_crc(uint64_t value, char *name, int flag) {
  (void)name;
  (void)flag;
  for (int i = 0; i < 8; ++i)
    crc32_byte((uint8_t)(value >> (8 * i)));
}

static void transparent_crc_bytes(char *bytes, int count, char *name,
                                  int flag) {
  (void)name;
  (void)flag;
  for (int i = 0; i < count; ++i)
    crc32_byte((uint8_t)bytes[i]);
}

static void platform_main_begin(void) {}

static void platform_main_end(uint32_t crc, int flag) {
  (void)flag;
  csmith_checksum = crc;
}

#endif
