// A kernel's own block order (hk.grid_order), checked with no pass options:
// the order comes from the kernel alone.
// RUN: hk-opt %s -split-input-file --hk-grid-swizzle -verify-diagnostics

// expected-error @below {{'hk.grid_order' belongs on an hk.kernel}}
module attributes {hk.grid_order = #hk.grid_order<chunk = 4, group = 8>} {
}

// -----

// expected-error @below {{'hk.grid_order' must be a #hk.grid_order<...>, got #hk.grid_swizzle<chunk = 4, group = 8, xcds = 8>}}
hk.kernel @wrong_order() waves(1) attributes {hk.grid_order = #hk.grid_swizzle<chunk = 4, group = 8, xcds = 8>} {
  hk.return
}

// -----

// expected-error @below {{needs a target chip to know its XCD count; run hk-target first}}
hk.kernel @order_without_target() waves(1) attributes {hk.grid_order = #hk.grid_order<chunk = 2, group = 0>} {
  hk.return
}

// -----

// A negative chunk wraps in the unsigned parameter and is caught by its
// bound.
// expected-error @below {{grid order chunk and group must be at most 1048576, got chunk = 4294967295, group = 8}}
hk.kernel @negative_chunk() waves(1) attributes {hk.grid_order = #hk.grid_order<chunk = -1, group = 8>} {
  hk.return
}
