// The pipeline leaves only the LLVM and ROCDL dialects, for both chips, and
// names the target on the module.
// RUN: hk-opt %s --hk-pipeline=chip=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hk-opt %s --hk-pipeline=chip=gfx950 | FileCheck %s --check-prefixes=CHECK,GFX950

// GFX942: module attributes {hk.target = #hk.target<"gfx942">}
// GFX950: module attributes {hk.target = #hk.target<"gfx950">}
// Only the argument names (for the code object's metadata) are hk's.
// CHECK: llvm.func @to_bf16({{.*}}: !llvm.ptr<1> {hk.name = "x"}{{.*}}
// CHECK-NOT: hk.
// CHECK-NOT: arith.
// CHECK-NOT: vector.
// CHECK-NOT: scf.
// CHECK-NOT: amdgpu.
// CHECK: llvm.return
hk.kernel @to_bf16(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xbf16>) waves(1) {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%i, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %e = hk.exp2 %t : !hk.rt<16x16xf32, row>
  %b = hk.convert %e : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xbf16, row>
  hk.store %b, %y[%i, %c0] : !hk.rt<16x16xbf16, row> -> !hk.gl<?x?xbf16>
  hk.return
}
