// hk-schedule rejects an interleave group without MFMAs before it looks at
// any kernel.
// RUN: not hk-opt %s --hk-schedule="mfma-per-group=0" 2>&1 | FileCheck %s
// CHECK: error: hk-schedule: mfma-per-group must be at least 1
hk.kernel @k() waves(4) {
  hk.return
}
