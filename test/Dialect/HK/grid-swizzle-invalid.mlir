// RUN: hk-opt %s -split-input-file --hk-grid-swizzle="chunk=4" -verify-diagnostics

// expected-error @below {{needs a target chip to know its XCD count; run hk-target first}}
hk.kernel @no_target() waves(1) {
  %x = hk.block_id x
  hk.return
}

// -----

// expected-error @below {{'hk.grid_swizzle' belongs on an hk.kernel}}
module attributes {hk.grid_swizzle = #hk.grid_swizzle<chunk = 1, group = 1, xcds = 8>} {
}

// -----

// expected-error @below {{'hk.grid_swizzle' must be a #hk.grid_swizzle<...>, got 4 : i32}}
hk.kernel @wrong_kind() waves(1) attributes {hk.grid_swizzle = 4 : i32} {
  hk.return
}
