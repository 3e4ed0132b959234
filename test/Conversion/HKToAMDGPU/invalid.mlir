// RUN: hk-opt %s -split-input-file --convert-hk-to-amdgpu -verify-diagnostics

hk.kernel @k() waves(1) {
  // expected-error @below {{register tile '!hk.rt<16x16xf32>' has no layout; run hk-mfma-layout first}}
  %t = hk.zero : !hk.rt<16x16xf32>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  // expected-error @below {{register vector '!hk.rv<16xf32>' has no layout; run hk-mfma-layout first}}
  %v = hk.zero : !hk.rv<16xf32>
  hk.return
}
