// RUN: hk-opt %s --hk-buffer-loads -verify-diagnostics
// RUN: not hk-opt %s --hk-buffer-loads=direct=sometimes 2>&1 | FileCheck %s --check-prefix=OPTION

// OPTION: for the --direct option: Cannot find option named 'sometimes'!

hk.kernel @no_target(%a: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<16x64xbf16>
  // expected-error @below {{needs a target chip to choose a transfer path; run hk-target first}}
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<16x64xbf16>
  hk.return
}
