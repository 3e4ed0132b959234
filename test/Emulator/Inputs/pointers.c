// A table of pointers between globals (relative relocations), in plain C
// for the amdgcn target. out[t] = *cells[t % 4] + t.
int values[4] = {10, 20, 30, 40};
int *cells[4] = {&values[3], &values[2], &values[1], &values[0]};

__attribute__((device_kernel)) void pointers(int *out) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  out[t] = *cells[t % 4] + (int)t;
}
