// hk.in_bounds and group loads marked inbounds: the check is the one the
// group load makes before choosing its interior path (the tile's last row
// and column inside the view, its row stride a multiple of the 8-element
// chunks); an inbounds load is that interior path alone, with no branch to
// an edge path.
// RUN: hk-opt %s --hk-buffer-loads=direct=never --convert-hk-to-amdgpu | FileCheck %s

module attributes {hk.target = #hk.target<"gfx942">} {
  // CHECK-LABEL: llvm.func @checked
  // The whole-tile check, then a branch between the interior path (16-byte
  // chunks) and the edge path (a loop of element loads).
  // CHECK: arith.cmpi ule
  // CHECK: arith.remui %{{.*}}, %{{.*}} : i32
  // CHECK: scf.if
  // CHECK: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
  // CHECK: } else {
  // CHECK: scf.for
  // CHECK: rocdl.raw.ptr.buffer.load {{.*}} : bf16
  hk.kernel @checked(%a: !hk.gl<?x?xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    hk.return
  }

  // CHECK-LABEL: llvm.func @unchecked
  // CHECK-NOT: else
  // CHECK-NOT: scf.for
  // CHECK-NOT: : bf16
  // CHECK: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
  // CHECK-NOT: else
  // CHECK-NOT: scf.for
  // CHECK-NOT: : bf16
  // CHECK: llvm.return
  hk.kernel @unchecked(%a: !hk.gl<?x?xbf16>) waves(4) {
    %c0 = arith.constant 0 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    hk.group_load %a[%c0, %c0], %s inbounds : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    hk.return
  }

  // The check alone, for tile (1, 0): 64 * 1 + 64 <= rows (argument 1),
  // 64 * 0 + 64 <= cols (argument 2), rows that do not overlap (cols <= the
  // row stride, argument 3), the row stride a multiple of 8 elements, all
  // and-ed.
  // CHECK-LABEL: llvm.func @check
  // CHECK: %[[ROWS:.*]] = arith.cmpi ule, %{{.*}}, %arg1 : i32
  // CHECK: %[[COLS:.*]] = arith.cmpi ule, %{{.*}}, %arg2 : i32
  // CHECK: %[[APART:.*]] = arith.cmpi ule, %arg2, %arg3 : i32
  // CHECK: %[[REM:.*]] = arith.remui %arg3, %{{.*}} : i32
  // CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : i32
  // CHECK: %[[A:.*]] = arith.andi %{{.*}}, %[[ROWS]] : i1
  // CHECK-NEXT: %[[B:.*]] = arith.andi %[[A]], %[[COLS]] : i1
  // CHECK-NEXT: %[[C:.*]] = arith.andi %[[B]], %[[APART]] : i1
  // CHECK-NEXT: arith.andi %[[C]], %[[ALIGNED]] : i1
  // CHECK-NEXT: llvm.return
  hk.kernel @check(%a: !hk.gl<?x?xbf16>, %i: i32) waves(4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = hk.alloc : !hk.st<64x64xbf16>
    %ok = hk.in_bounds %a[%c1, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
    hk.return
  }
}
