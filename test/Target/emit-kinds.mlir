// Every --emit kind; the assembly shows the chip difference in f32 -> bf16
// rounding (a packed instruction on gfx950, integer rounding on gfx942).
// RUN: hk-opt %s --hk-pipeline=chip=gfx942 | hk-translate --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: hk-opt %s --hk-pipeline=chip=gfx942 | hk-translate --emit=asm | FileCheck %s --check-prefix=GFX942
// RUN: hk-opt %s --hk-pipeline=chip=gfx950 | hk-translate --emit=asm | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt %s --hk-pipeline=chip=gfx950 | hk-translate --emit=obj -o %t.o
// RUN: llvm-readelf --file-header %t.o | FileCheck %s --check-prefix=OBJ

// LLVM: target triple = "amdgcn-amd-amdhsa"
// LLVM: define amdgpu_kernel void @to_bf16(ptr addrspace(1)
// LLVM: !{i32 1, !"amdhsa_code_object_version", i32 500}

// GFX942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// GFX942-NOT: v_cvt_pk_bf16_f32
// GFX942: .end_amdhsa_kernel
// GFX950: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// GFX950: v_cvt_pk_bf16_f32

// OBJ: Type: REL (Relocatable file)

hk.kernel @to_bf16(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %b = hk.convert %t : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xbf16, row>
  hk.store %b, %y[%c0, %c0] : !hk.rt<16x16xbf16, row> -> !hk.gl<?x?xbf16>
  hk.return
}
