// hk-buffer-loads gives each global access a transfer path: buffer for
// register-tile traffic and group stores; for group loads, direct-to-LDS
// where the chip moves 16 bytes per lane that way (gfx950) and buffer
// (staged through registers) where it moves 4 (gfx942).
// RUN: hk-opt %s --hk-target=chip=gfx950 --hk-buffer-loads | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt %s --hk-target=chip=gfx942 --hk-buffer-loads | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: hk-opt %s --hk-target=chip=gfx942 --hk-buffer-loads=direct=always | FileCheck %s --check-prefixes=CHECK,ALWAYS
// RUN: hk-opt %s --hk-target=chip=gfx950 --hk-buffer-loads=direct=never | FileCheck %s --check-prefixes=CHECK,NEVER

// CHECK-LABEL: hk.kernel @paths
hk.kernel @paths(%a: !hk.gl<?x?xbf16>, %c: !hk.gl<?x?xf32>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  // GFX950: hk.group_load %{{.*}}, %{{.*}} {path = #hk.path<direct>}
  // GFX942: hk.group_load %{{.*}}, %{{.*}} {path = #hk.path<buffer>}
  // ALWAYS: hk.group_load %{{.*}}, %{{.*}} {path = #hk.path<direct>}
  // NEVER: hk.group_load %{{.*}}, %{{.*}} {path = #hk.path<buffer>}
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // A transposing load goes through registers, even with direct=always.
  // CHECK: hk.group_load %{{.*}}, %{{.*}} transpose {path = #hk.path<buffer>}
  hk.group_load %a[%c0, %c0], %s transpose : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  // A path chosen by hand is kept.
  // CHECK: hk.group_load async {{.*}} {path = #hk.path<global>}
  %t = hk.group_load async %a[%c0, %c0], %s {path = #hk.path<global>}
      : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  hk.wait [%t]
  // CHECK: hk.group_store {{.*}} {path = #hk.path<buffer>}
  hk.group_store %s, %a[%c0, %c0] : !hk.st<64x64xbf16>, !hk.gl<?x?xbf16>
  // Register tiles: global accesses get buffer, LDS accesses no path.
  // CHECK: hk.load %{{.*}}[%{{.*}}] {path = #hk.path<buffer>} : !hk.gl
  %r = hk.load %c[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32>
  // CHECK: hk.load %{{.*}}[%{{.*}}] : !hk.st
  %x = hk.load %s[%c0, %c0] : !hk.st<64x64xbf16> -> !hk.rt<16x16xbf16>
  // CHECK: hk.store {{.*}} {path = #hk.path<buffer>} : !hk.rt<16x16xf32> -> !hk.gl
  hk.store %r, %c[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
  hk.return
}
