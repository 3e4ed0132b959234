// RUN: hk-opt %s --hk-ping-pong -verify-diagnostics
// With setprio given, the kernel without a target is scheduled.
// RUN: hk-opt %s --hk-ping-pong=setprio=true | FileCheck %s --check-prefix=ON
// RUN: hk-opt %s --hk-ping-pong=setprio=false | FileCheck %s --check-prefix=OFF
// ON-LABEL: hk.kernel @no_target
// ON: hk.cluster compute priority 1 {
// OFF-LABEL: hk.kernel @no_target
// OFF: hk.cluster compute {

// The priority's cost function reads the chip's figures: without a target
// (and without setprio given) the pass cannot choose.
// expected-error @below {{needs a target chip for hk-ping-pong's priority cost function (run hk-target first), or setprio given (the pass option or #hk.pingpong's)}}
hk.kernel @no_target() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc : !hk.st<16x32xbf16>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %z) -> !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>> {
    %a = hk.cluster memory {
      %x = hk.load %s[%c0, %c0] : !hk.st<16x32xbf16> -> !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
      hk.yield %x : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    } : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %d = hk.cluster compute {
      %y = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
      hk.yield %y : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
    scf.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x32>>
  }
  hk.return
}
