// Interior group loads put the tile's origin (uniform, moving from tile to
// tile) in the buffer instruction's scalar offset and keep each lane's
// offset within the tile in its vector offset, so a loop over tiles
// recomputes no lane address. The edge path keeps whole offsets, because
// only the vector offset is range-checked.
// RUN: hk-opt %s -split-input-file --hk-buffer-loads --convert-hk-to-amdgpu | FileCheck %s --check-prefix=DIRECT
// RUN: hk-opt %s -split-input-file --hk-buffer-loads=direct=never --convert-hk-to-amdgpu | FileCheck %s --check-prefix=STAGED

// The origin's element offset in bytes (x 2 for bf16) is the scalar offset
// of every interior load.
// DIRECT-LABEL: llvm.func @tile_loop
// DIRECT: scf.for
// DIRECT: %[[ORIGIN:.*]] = arith.addi
// DIRECT: scf.if
// DIRECT: %[[SOFF:.*]] = arith.muli %[[ORIGIN]], %c2_i32{{.*}} : i32
// DIRECT: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c16_i32{{[_0-9]*}}, %{{[0-9]+}}, %[[SOFF]], %c0_i32
// DIRECT: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c16_i32{{[_0-9]*}}, %{{[0-9]+}}, %[[SOFF]], %c0_i32
// DIRECT: } else {
// Edge path: element by element, scalar offset 0.
// DIRECT: rocdl.raw.ptr.buffer.load %{{.*}}, %{{.*}}, %c0_i32{{[_0-9]*}}, %c0_i32{{[_0-9]*}} : bf16
// STAGED-LABEL: llvm.func @tile_loop
// STAGED: scf.for
// STAGED: %[[ORIGIN:.*]] = arith.addi
// STAGED: scf.if
// STAGED: %[[VOFF:.*]] = arith.muli %{{.*}}, %c2_i32{{.*}} : i32
// STAGED: %[[SOFF:.*]] = arith.muli %[[ORIGIN]], %c2_i32{{.*}} : i32
// STAGED: rocdl.raw.ptr.buffer.load %{{.*}}, %[[VOFF]], %[[SOFF]], %c0_i32{{[_0-9]*}} : vector<4xi32>
// STAGED: } else {
// STAGED: rocdl.raw.ptr.buffer.load %{{.*}}, %{{.*}}, %c0_i32{{[_0-9]*}}, %c0_i32{{[_0-9]*}} : bf16
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @tile_loop(%a: !hk.gl<?x?xbf16>) waves(4) {
  %n = hk.dim %a[1] : !hk.gl<?x?xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  scf.for %k = %c0 to %n step %c1 {
    hk.group_load %a[%c0, %k], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    hk.barrier
  }
  hk.return
}
}
