// A layout conversion moves data through the wave's LDS scratch, written
// and read as a shared tile (the tile or its transpose) whose swizzle is
// chosen for the pair of layouts. Here the attention probabilities:
// accumulator rows to the MFMA A operand, whose sixteen rows an unswizzled
// row-major scratch puts in the same banks. scratch-swizzle=false keeps the
// scratch unswizzled.
// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu | FileCheck %s --check-prefix=SWIZZLED
// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu=scratch-swizzle=false | FileCheck %s --check-prefix=PLAIN

// gfx942: the tile itself, swizzled; each lane writes its accumulator
// elements one by one (they run down columns) and reads 4-element rows.
// SWIZZLED-LABEL: llvm.func @probs_gfx942
// SWIZZLED: llvm.fence syncscope("wavefront") acq_rel
// SWIZZLED: arith.xori
// SWIZZLED-COUNT-16: llvm.store {{.*}} : bf16, !llvm.ptr<3>
// SWIZZLED: llvm.fence syncscope("wavefront") acq_rel
// SWIZZLED: arith.xori
// SWIZZLED-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xbf16>

// Unswizzled, either orientation conflicts; whichever is chosen, no
// address is swizzled.
// PLAIN-LABEL: llvm.func @probs_gfx942
// PLAIN-NOT: arith.xori
// PLAIN: llvm.store {{.*}}, !llvm.ptr<3>
// PLAIN-NOT: arith.xori
// PLAIN: llvm.load {{.*}} : !llvm.ptr<3> -> {{.*}}bf16
// PLAIN-NOT: arith.xori
// PLAIN: llvm.return
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @probs_gfx942(%o: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %p = hk.zero : !hk.rt<16x64xbf16, #hk.mfma<acc, 16x16x16>>
  %a = hk.convert_layout %p : !hk.rt<16x64xbf16, #hk.mfma<acc, 16x16x16>>
      -> !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x16>>
  hk.store %a, %o[%c0, %c0]
      : !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x16>> -> !hk.gl<?x?xbf16>
  hk.return
}
}

// -----

// gfx950: the transpose is cheaper for the wave: its accumulator elements
// become rows of the scratch (four 8-byte writes instead of sixteen 2-byte
// ones) and the A operand's rows its columns, which the transposing reads
// fetch (four instead of two 16-byte reads). The lanes keep their
// elements; the renamings between the layouts and their transposes are
// register shuffles.
// SWIZZLED-LABEL: llvm.func @probs_gfx950
// SWIZZLED: vector.shuffle
// SWIZZLED: llvm.fence syncscope("wavefront") acq_rel
// SWIZZLED-COUNT-4: llvm.store {{.*}} : vector<4xbf16>, !llvm.ptr<3>
// SWIZZLED: llvm.fence syncscope("wavefront") acq_rel
// SWIZZLED-COUNT-4: rocdl.ds.read.tr16.b64 {{.*}} -> vector<4xbf16>
// SWIZZLED: vector.shuffle

// PLAIN-LABEL: llvm.func @probs_gfx950
// PLAIN-NOT: arith.xori
// PLAIN-COUNT-4: llvm.store {{.*}} : vector<4xbf16>, !llvm.ptr<3>
// PLAIN-NOT: arith.xori
// PLAIN-COUNT-4: rocdl.ds.read.tr16.b64 {{.*}} -> vector<4xbf16>
// PLAIN-NOT: arith.xori
// PLAIN: llvm.return
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @probs_gfx950(%o: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %p = hk.zero : !hk.rt<16x64xbf16, #hk.mfma<acc, 16x16x32>>
  %a = hk.convert_layout %p : !hk.rt<16x64xbf16, #hk.mfma<acc, 16x16x32>>
      -> !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>>
  hk.store %a, %o[%c0, %c0]
      : !hk.rt<16x64xbf16, #hk.mfma<a, 16x16x32>> -> !hk.gl<?x?xbf16>
  hk.return
}
}
