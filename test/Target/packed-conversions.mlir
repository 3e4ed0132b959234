// Storing an f32 accumulator to a bf16 shared tile on gfx950 converts two
// rows at a time (v_cvt_pk_bf16_f32 of two registers) and writes the two
// halves of each result (ds_write_b16, ds_write_b16_d16_hi), rather than
// converting each element against a zero.
// RUN: hk-opt %s --hk-pipeline=chip=gfx950 | hk-translate --emit=asm | FileCheck %s

// CHECK-LABEL: accumulator_to_lds:
// CHECK-COUNT-8: v_cvt_pk_bf16_f32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
// CHECK-NOT: v_cvt_pk_bf16_f32
// CHECK: ds_write_b16_d16_hi
// CHECK: s_endpgm

hk.kernel @accumulator_to_lds(%A: !hk.gl<?x?xbf16>, %B: !hk.gl<?x?xbf16>,
                              %C: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<32x16xbf16>
  %b = hk.load %B[%c0, %c0] : !hk.gl<?x?xbf16> -> !hk.rt<16x32xbf16>
  %z = hk.zero : !hk.rt<32x32xf32>
  %d = hk.mma ab %a, %b, %z : !hk.rt<32x16xbf16>, !hk.rt<16x32xbf16>, !hk.rt<32x32xf32>
  %s = hk.alloc : !hk.st<32x32xbf16>
  hk.store %d, %s : !hk.rt<32x32xf32> -> !hk.st<32x32xbf16>
  hk.barrier
  hk.group_store %s, %C[%c0, %c0] : !hk.st<32x32xbf16>, !hk.gl<?x?xbf16>
  hk.return
}
