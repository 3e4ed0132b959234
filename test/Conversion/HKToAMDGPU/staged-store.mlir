// A register tile stored to global memory `via` a part of a shared tile:
// the wave writes the part, then its 64 lanes read it back in 16-byte
// pieces of rows and store those, 8 whole 128-byte rows per instruction,
// without a branch per round on the interior path; the edge path is one
// loop over the rounds. Rows go in pairs 8 apart (r % 16 is taken apart)
// so that a 16-lane LDS phase reads two halves of the banks. With `staged`
// the tile is already there: no LDS write.
// RUN: hk-opt %s -split-input-file --hk-buffer-loads --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: llvm.func @via
// CHECK: llvm.store %{{.*}}, %{{.*}} {{.*}} !llvm.ptr<3>
// CHECK: scf.if
// CHECK-NOT: llvm.store {{.*}}!llvm.ptr<3>
// CHECK-NOT: scf.if
// CHECK-COUNT-8: arith.andi %{{.*}}, %c15_i32
// CHECK-NOT: scf.if
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK: rocdl.raw.ptr.buffer.store %{{.*}} : vector<4xi32>
// CHECK-NOT: scf.if
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK-LABEL: llvm.func @staged
// CHECK-NOT: llvm.store {{.*}}!llvm.ptr<3>
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK: rocdl.raw.ptr.buffer.store
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @via(%C: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<128x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  %t = hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
  hk.store %t, %C[%c1, %c0] via %s[%c1, %c0] : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>> -> !hk.gl<?x?xbf16>, !hk.st<128x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  hk.return
}
hk.kernel @staged(%C: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<128x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  %t = hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
  hk.store %t, %C[%c1, %c0] via %s[%c1, %c0] staged : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>> -> !hk.gl<?x?xbf16>, !hk.st<128x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>
  hk.return
}
}
