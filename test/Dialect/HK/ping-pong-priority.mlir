// hk-ping-pong's choice of the compute clusters' priority. By default
// (setprio=auto) a cost function decides: without the priority, the older
// group's memory cluster takes the issue slots of what it shares with the
// younger group's compute cluster (vector ALU, LDS); with it, every compute
// cluster issues two s_setprio. The kernel's #hk.pingpong<setprio = ...>
// overrides the pass option, which overrides the cost function.
// RUN: hk-opt %s -split-input-file --hk-ping-pong | FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: hk-opt %s -split-input-file --hk-ping-pong=setprio=false | FileCheck %s --check-prefixes=CHECK,OFF
// RUN: hk-opt %s -split-input-file --hk-ping-pong=setprio=true | FileCheck %s --check-prefixes=CHECK,ON
// The choice and its costs as remarks:
// RUN: hk-opt %s -split-input-file --hk-ping-pong=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,AUTO-REMARK
// RUN: hk-opt %s -split-input-file --hk-ping-pong="setprio=false remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,OFF-REMARK
// RUN: hk-opt %s -split-input-file --hk-ping-pong="setprio=true remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,ON-REMARK
// The attribute survives a round trip.
// RUN: hk-opt %s -split-input-file | hk-opt -split-input-file | FileCheck %s --check-prefix=PRINT

// A compute-bound loop whose memory clusters only read LDS: the priority
// would win nothing and costs two issue slots of 4 cycles in each of the
// two intervals in which a group computes (16 MFMAs of 16 cycles each).
// AUTO-REMARK: remark: hk-ping-pong: compute clusters at the wave's priority (cost function; predicted cycles of an iteration: 528 with s_setprio, 512 without; memory clusters: 0 VALU, 8 LDS instructions)
// OFF-REMARK: remark: hk-ping-pong: compute clusters at the wave's priority (the setprio option;
// ON-REMARK: remark: hk-ping-pong: compute clusters at priority 1 (the setprio option;
// CHECK-LABEL: hk.kernel @reads_only
// AUTO: hk.cluster compute {
// OFF: hk.cluster compute {
// ON: hk.cluster compute priority 1 {
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @reads_only(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%c = %zero) -> !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>> {
      %a:2 = hk.cluster memory {
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %y = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x, %y : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.cluster compute {
        %y = hk.mma abt %a#0, %a#1, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}

// -----

// The same loop with a multiplication in the memory cluster: 16 VALU
// instructions a wave (a 64x32 bf16 tile, 16 registers) that would take
// 16 of group 1's issue slots, 64 cycles, against the priority's 16.
// AUTO-REMARK: remark: hk-ping-pong: compute clusters at priority 1 (cost function; predicted cycles of an iteration: 528 with s_setprio, 576 without; memory clusters: 16 VALU, 8 LDS instructions)
// OFF-REMARK: remark: hk-ping-pong: compute clusters at the wave's priority (the setprio option;
// ON-REMARK: remark: hk-ping-pong: compute clusters at priority 1 (the setprio option;
// CHECK-LABEL: hk.kernel @scales_fragments
// AUTO: hk.cluster compute priority 1 {
// OFF: hk.cluster compute {
// ON: hk.cluster compute priority 1 {
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @scales_fragments(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%c = %zero) -> !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>> {
      %a:2 = hk.cluster memory {
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %y = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %z = hk.mul %x, %x : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %z, %y : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.cluster compute {
        %y = hk.mma abt %a#0, %a#1, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}

// -----

// Memory clusters of eight reads bound both intervals in which a group
// computes (32 LDS instructions a wave, 4 waves: 576 cycles, against 256 of
// MFMAs): the priority would win nothing, a tie, which keeps the wave's
// priority and saves the two instructions.
// AUTO-REMARK: remark: hk-ping-pong: compute clusters at the wave's priority (cost function; predicted cycles of an iteration: 1152 with s_setprio, 1152 without; memory clusters: 0 VALU, 32 LDS instructions)
// OFF-REMARK: remark: hk-ping-pong: compute clusters at the wave's priority (the setprio option;
// ON-REMARK: remark: hk-ping-pong: compute clusters at priority 1 (the setprio option;
// CHECK-LABEL: hk.kernel @reads_bound
// AUTO: hk.cluster compute {
// OFF: hk.cluster compute {
// ON: hk.cluster compute priority 1 {
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @reads_bound(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%c = %zero) -> !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>> {
      %a:8 = hk.cluster memory {
        %x0 = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %x1 = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %x2 = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %x3 = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %x4 = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %x5 = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %x6 = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %x7 = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7 : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.cluster compute {
        %y = hk.mma abt %a#0, %a#1, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}

// -----

// The kernel's setprio wins over the option and the cost function.
// REMARK: remark: hk-ping-pong: compute clusters at priority 1 (the kernel's #hk.pingpong setprio; predicted cycles of an iteration: 528 with s_setprio, 512 without;
// CHECK-LABEL: hk.kernel @reads_only_forced
// CHECK-SAME: schedule(#hk.pingpong<waves = 8, setprio = true>)
// CHECK: hk.cluster compute priority 1 {
// PRINT-LABEL: hk.kernel @reads_only_forced
// PRINT-SAME: schedule(#hk.pingpong<waves = 8, setprio = true>)
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @reads_only_forced(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8, setprio = true>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s = hk.alloc : !hk.st<64x32xbf16>
    %zero = hk.zero : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%c = %zero) -> !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>> {
      %a:2 = hk.cluster memory {
        %x = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        %y = hk.load %s[%c0, %c0] : !hk.st<64x32xbf16> -> !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
        hk.yield %x, %y : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
      } : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>
      %d = hk.cluster compute {
        %y = hk.mma abt %a#0, %a#1, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
        hk.yield %y : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      } : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
      scf.yield %d : !hk.rt<64x64xf32, #hk.mfma<acc, 16x16x32>>
    }
    hk.return
  }
}
