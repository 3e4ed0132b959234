// RUN: hk-opt %s --hk-lds-layout -verify-diagnostics

hk.kernel @no_target() waves(1) {
  // expected-error @below {{needs a target chip to choose a swizzle; run hk-target first}}
  %s = hk.alloc : !hk.st<64x64xbf16>
  hk.return
}
