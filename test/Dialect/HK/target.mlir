// RUN: hk-opt %s -split-input-file --hk-target=chip=gfx942 -verify-diagnostics | FileCheck %s

// CHECK: module attributes {hk.target = #hk.target<"gfx942">}
module {}

// -----

// A module that already names the same chip is left alone.
// CHECK: module attributes {hk.target = #hk.target<"gfx942">}
module attributes {hk.target = #hk.target<"gfx942">} {}

// -----

// expected-error @below {{module targets gfx950, not gfx942}}
module attributes {hk.target = #hk.target<"gfx950">} {}
