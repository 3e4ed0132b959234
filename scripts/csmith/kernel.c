/* A csmith program as a single-lane GPU kernel: its main becomes a device
 * function, and the kernel stores the checksum main computed. Compiled
 * with -DCSMITH_PROGRAM='"path/to/program.c"' and this directory first on
 * the include path (its csmith.h replaces csmith's). */
#define main csmith_main
#include CSMITH_PROGRAM
#undef main

__attribute__((device_kernel)) void csmith_kernel(uint32_t *out) {
  csmith_main();
  out[0] = csmith_checksum;
}
