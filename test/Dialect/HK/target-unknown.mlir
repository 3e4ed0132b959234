// RUN: not hk-opt %s --hk-target=chip=gfx1100 2>&1 | FileCheck %s
// CHECK: error: hk-target: unknown chip 'gfx1100'; known chips: gfx942, gfx950
module {}
