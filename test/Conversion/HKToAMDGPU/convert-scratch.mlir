// A layout conversion moves data through the wave's LDS scratch, written
// and read as a shared tile whose swizzle is chosen for the pair of
// layouts (here the attention probabilities: accumulator rows to the MFMA
// A operand, whose sixteen rows an unswizzled scratch puts in the same
// banks). scratch-swizzle=false keeps the scratch row-major.
// RUN: hk-opt %s --convert-hk-to-amdgpu | FileCheck %s --check-prefix=SWIZZLED
// RUN: hk-opt %s --convert-hk-to-amdgpu=scratch-swizzle=false | FileCheck %s --check-prefix=PLAIN

// SWIZZLED-LABEL: llvm.func @probs
// SWIZZLED: llvm.fence syncscope("wavefront") acq_rel
// SWIZZLED: arith.xori
// SWIZZLED: llvm.store {{.*}} : bf16, !llvm.ptr<3>
// SWIZZLED: llvm.fence syncscope("wavefront") acq_rel
// SWIZZLED: arith.xori
// SWIZZLED: llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xbf16>

// PLAIN-LABEL: llvm.func @probs
// PLAIN-NOT: arith.xori
// PLAIN: llvm.store {{.*}} : bf16, !llvm.ptr<3>
// PLAIN-NOT: arith.xori
// PLAIN: llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xbf16>
// PLAIN-NOT: arith.xori
// PLAIN: llvm.return
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @probs(%o: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %p = hk.zero : !hk.rt<16x64xbf16, #hk.mfma<acc, 16x16x32>>
  %a = hk.convert_layout %p : !hk.rt<16x64xbf16, #hk.mfma<acc, 16x16x32>>
      -> !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
  hk.store %a, %o[%c0, %c0]
      : !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?xbf16>
  hk.return
}
}
