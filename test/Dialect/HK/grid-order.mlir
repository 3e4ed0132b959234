// A kernel asks for its block order with hk.grid_order; hk-grid-swizzle
// gives it that order whatever its options, and the options to kernels that
// ask for none. The request is consumed; hk.grid_swizzle records the order.
// RUN: hk-opt %s --hk-grid-swizzle | FileCheck %s --check-prefix=OWN
// RUN: hk-opt %s --hk-grid-swizzle="chunk=2 group=2" | FileCheck %s --check-prefix=OPTS

// OWN-LABEL: hk.kernel @asks_for_order
// OWN-SAME: attributes {hk.grid_swizzle = #hk.grid_swizzle<chunk = 4, group = 8, xcds = 8>}
// OWN: arith.constant 32 : index
// OWN: rocdl.readfirstlane
// OWN-NOT: hk.block_id
// OWN: hk.return
// OWN-LABEL: hk.kernel @keeps_hardware_order
// OWN-NOT: hk.grid
// OWN-NEXT: hk.block_id x
// OWN-LABEL: hk.kernel @asks_for_none
// OWN-NOT: hk.grid
// OWN-NEXT: hk.block_id x

// OPTS-LABEL: hk.kernel @asks_for_order
// OPTS-SAME: #hk.grid_swizzle<chunk = 4, group = 8, xcds = 8>
// OPTS-LABEL: hk.kernel @keeps_hardware_order
// OPTS-NOT: hk.grid
// OPTS-NEXT: hk.block_id x
// OPTS-NOT: arith
// OPTS: hk.return
// OPTS-LABEL: hk.kernel @asks_for_none
// OPTS-SAME: #hk.grid_swizzle<chunk = 2, group = 2, xcds = 8>
// OPTS-NOT: hk.grid_order
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @asks_for_order(%a: !hk.gl<?x?xbf16>) waves(4)
    attributes {hk.grid_order = #hk.grid_order<chunk = 4, group = 8>} {
  %bx = hk.block_id x
  %by = hk.block_id y
  %s = hk.alloc : !hk.st<64x64xbf16>
  hk.group_load %a[%bx, %by], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.return
}
hk.kernel @keeps_hardware_order(%a: !hk.gl<?x?xbf16>) waves(4)
    attributes {hk.grid_order = #hk.grid_order<chunk = 0, group = 0>} {
  %bx = hk.block_id x
  %by = hk.block_id y
  %s = hk.alloc : !hk.st<64x64xbf16>
  hk.group_load %a[%bx, %by], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.return
}
hk.kernel @asks_for_none(%a: !hk.gl<?x?xbf16>) waves(4) {
  %bx = hk.block_id x
  %by = hk.block_id y
  %s = hk.alloc : !hk.st<64x64xbf16>
  hk.group_load %a[%bx, %by], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.return
}
}
