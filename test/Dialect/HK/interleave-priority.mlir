// hk-interleave's issue priorities: a compute cluster that holds MFMAs and
// a softmax runs the softmax at priority 0 (from the first operation after
// the MFMAs before it) and the MFMAs after it at 1; the loop is entered at
// 1 and the code after it runs at 0. A kernel with its own hk.priority, or
// priorities=false, gets none.
// RUN: hk-opt %s -split-input-file --hk-interleave="mfma-per-group=1 ds-reads-per-group=0 vmem-per-group=0" | FileCheck %s
// RUN: hk-opt %s -split-input-file --hk-interleave="mfma-per-group=1 ds-reads-per-group=0 vmem-per-group=0 priorities=false" | FileCheck %s --check-prefix=OFF
// RUN: hk-opt %s -split-input-file --hk-interleave="mfma-per-group=1 ds-reads-per-group=0 vmem-per-group=0 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: interleave-priority.mlir:[[@LINE+37]]:{{.*}} remark: hk-interleave: the MFMAs issue at priority 1, the softmax at 0
// REMARK: interleave-priority.mlir:[[@LINE+80]]:{{.*}} remark: hk-interleave: the MFMAs issue at priority 1, the softmax at 0
// REMARK-NOT: priority 1

// CHECK-LABEL: hk.kernel @softmax_between
// CHECK: hk.priority 1
// CHECK-NEXT: scf.for
// CHECK-NEXT: hk.cluster compute {
// CHECK-NEXT: hk.zero
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.bounds_mask
// CHECK-NEXT: hk.softmax
// CHECK-NEXT: hk.mul_col
// CHECK-NEXT: hk.convert
// CHECK-NEXT: hk.priority 1
// CHECK-NEXT: hk.mma
// CHECK: hk.yield
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.return
// OFF-LABEL: hk.kernel @softmax_between
// OFF-NOT: hk.priority
#acc = #hk.mfma<acc, 16x16x32>
#cols = #hk.vec<cols, #hk.mfma<acc, 16x16x32>>
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @softmax_between(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = hk.dim %A[0] : !hk.gl<?x?xbf16>
    %a = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>
    %b = hk.zero : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %v = hk.zero : !hk.rt<32x16xbf16, #acc>
    %m0 = hk.zero : !hk.rv<16xf32, #cols>
    %o0 = hk.zero : !hk.rt<16x16xf32, #acc>
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%m = %m0, %o = %o0) -> (!hk.rv<16xf32, #cols>, !hk.rt<16x16xf32, #acc>) {
      %d:2 = hk.cluster compute {
        %z = hk.zero : !hk.rt<32x16xf32, #acc>
        %s = hk.mma abt %a, %b, %z {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x16xf32, #acc>
        %sm = hk.bounds_mask %s[%k, %c0] within [%n, %n] : !hk.rt<32x16xf32, #acc>
        %p, %m1, %l1, %f = hk.softmax cols %sm, %m, %m0 : !hk.rt<32x16xf32, #acc>, !hk.rv<16xf32, #cols>
        %os = hk.mul_col %o, %f : !hk.rt<16x16xf32, #acc>, !hk.rv<16xf32, #cols>
        %pb = hk.convert %p : !hk.rt<32x16xf32, #acc> -> !hk.rt<32x16xbf16, #acc>
        %o1 = hk.mma atb %v, %pb, %os {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<32x16xbf16, #acc>, !hk.rt<32x16xbf16, #acc>, !hk.rt<16x16xf32, #acc>
        hk.yield %m1, %o1 : !hk.rv<16xf32, #cols>, !hk.rt<16x16xf32, #acc>
      } : !hk.rv<16xf32, #cols>, !hk.rt<16x16xf32, #acc>
      scf.yield %d#0, %d#1 : !hk.rv<16xf32, #cols>, !hk.rt<16x16xf32, #acc>
    }
    hk.return
  }
}

// -----

// A cluster that ends with its softmax raises the priority again at its
// start.
// CHECK-LABEL: hk.kernel @softmax_last
// OFF-LABEL: hk.kernel @softmax_last
// OFF-NOT: hk.priority
// CHECK: hk.priority 1
// CHECK-NEXT: scf.for
// CHECK-NEXT: hk.cluster compute {
// CHECK-NEXT: hk.priority 1
// CHECK-NEXT: hk.zero
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.priority 0
// CHECK-NEXT: hk.softmax
// CHECK-NOT: hk.priority
// CHECK: hk.yield
#acc = #hk.mfma<acc, 16x16x32>
#cols = #hk.vec<cols, #hk.mfma<acc, 16x16x32>>
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @softmax_last(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = hk.dim %A[0] : !hk.gl<?x?xbf16>
    %a = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>
    %b = hk.zero : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %m0 = hk.zero : !hk.rv<16xf32, #cols>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%m = %m0) -> (!hk.rv<16xf32, #cols>) {
      %d = hk.cluster compute {
        %z = hk.zero : !hk.rt<32x16xf32, #acc>
        %s = hk.mma abt %a, %b, %z {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x16xf32, #acc>
        %p, %m1, %l1, %f = hk.softmax cols %s, %m, %m0 : !hk.rt<32x16xf32, #acc>, !hk.rv<16xf32, #cols>
        hk.yield %m1 : !hk.rv<16xf32, #cols>
      } : !hk.rv<16xf32, #cols>
      scf.yield %d : !hk.rv<16xf32, #cols>
    }
    hk.return
  }
}

// -----

// The kernel's own priorities are kept, and none added.
// CHECK-LABEL: hk.kernel @own
// OFF-LABEL: hk.kernel @own
// CHECK-COUNT-1: hk.priority
// CHECK-NOT: hk.priority
#acc = #hk.mfma<acc, 16x16x32>
#cols = #hk.vec<cols, #hk.mfma<acc, 16x16x32>>
module attributes {hk.target = #hk.target<"gfx950">} {
  hk.kernel @own(%A: !hk.gl<?x?xbf16>) waves(4) schedule(#hk.interleave<waves = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = hk.dim %A[0] : !hk.gl<?x?xbf16>
    %a = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>
    %b = hk.zero : !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>
    %m0 = hk.zero : !hk.rv<16xf32, #cols>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%m = %m0) -> (!hk.rv<16xf32, #cols>) {
      %d = hk.cluster compute {
        %z = hk.zero : !hk.rt<32x16xf32, #acc>
        %s = hk.mma abt %a, %b, %z {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<16x32xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<32x16xf32, #acc>
        hk.priority 2
        %p, %m1, %l1, %f = hk.softmax cols %s, %m, %m0 : !hk.rt<32x16xf32, #acc>, !hk.rv<16xf32, #cols>
        hk.yield %m1 : !hk.rv<16xf32, #cols>
      } : !hk.rv<16xf32, #cols>
      scf.yield %d : !hk.rv<16xf32, #cols>
    }
    hk.return
  }
}
