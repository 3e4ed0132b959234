// The `hk.source` records of a kernel: per located op that reads or writes
// shared memory, the tiles it may address (numbered in allocation order).
// The emulator's shared-tile check holds each LDS instruction to its op's
// tiles. hk.in_bounds takes a tile for its shape only and gets no record:
// with one, LDS instructions given its location (the pipeliner gives its
// checks the loop's) would be held to the tiles it names.
// RUN: hk-opt %s --hk-mfma-layout --hk-buffer-loads=direct=never --convert-hk-to-amdgpu | FileCheck %s
// RUN: hk-opt %s --hk-mfma-layout --hk-buffer-loads=direct=never --convert-hk-to-amdgpu | FileCheck %s --check-prefix=NONE

module attributes {hk.target = #hk.target<"gfx942">} {
  // CHECK-LABEL: llvm.func @records
  // CHECK-SAME: hk.source = [
  // CHECK-DAG: "access\09{{[^"]*}}source-records.mlir\09[[#@LINE+9]]\095\090"
  // CHECK-DAG: "access\09{{[^"]*}}source-records.mlir\09[[#@LINE+9]]\095\091"
  // CHECK-DAG: "access\09{{[^"]*}}source-records.mlir\09[[#@LINE+10]]\0910\090"
  hk.kernel @records(%a: !hk.gl<?x?xbf16>, %o: !hk.gl<?x?xf32>) waves(4) {
    %c0 = arith.constant 0 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %t = hk.alloc : !hk.st<64x64xbf16>
    // NONE-NOT: "access\09{{[^"]*}}\09[[#@LINE+1]]\09{{[0-9]+}}\09
    %inside = hk.in_bounds %a[%c0, %c0], %t : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    hk.group_load %a[%c0, %c0], %t : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    hk.barrier
    %r = hk.load %s[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x64xbf16>
    %f = hk.convert %r : !hk.rt<16x64xbf16> -> !hk.rt<16x64xf32>
    hk.store %f, %o[%c0, %c0] : !hk.rt<16x64xf32> -> !hk.gl<?x?xf32>
    hk.return
  }
}
