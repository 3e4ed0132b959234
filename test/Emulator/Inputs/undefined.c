// A kernel reading a variable another code object would define: the
// linker leaves it to the loader (a GOT entry with an absolute relocation
// against an undefined symbol; link with -z undefs). Plain C for the amdgcn
// target.
extern __attribute__((visibility("default"))) int elsewhere;

__attribute__((device_kernel)) void reads_elsewhere(int *out) {
  out[0] = elsewhere;
}
