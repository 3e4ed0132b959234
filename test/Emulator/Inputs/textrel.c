// A pointer table placed in the code section, linked with -z notext: the
// loader would have to patch code (a text relocation).
int values[2] = {1, 2};
__asm__(".pushsection .text.table,\"ax\",@progbits\n"
        ".p2align 3\n"
        "table_in_code: .quad values\n"
        ".popsection\n");

__attribute__((device_kernel)) void reads_values(int *out) {
  out[0] = values[1];
}
