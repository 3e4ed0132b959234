// RUN: hk-opt --hk-peel-zero-start --split-input-file %s | FileCheck %s

// An accumulator that starts at zero and goes straight to the MFMA: the
// first iteration runs on its own when the loop runs at all, its MFMA
// adding to the zero constant; the loop starts one step later from its
// result, or from the zeros when it does not run.

// CHECK-LABEL: func.func @direct
// CHECK-SAME: (%[[A:.*]]: vector<4xbf16>, %[[B:.*]]: vector<4xbf16>, %[[LB:.*]]: index, %[[UB:.*]]: index)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : index
// CHECK-NEXT: %[[FIRST:.*]] = scf.if %[[RUNS]] -> (vector<4xf32>) {
// CHECK-NEXT: %[[D:.*]] = amdgpu.mfma 16x16x16 %[[A]] * %[[B]] + %[[ZERO]]
// CHECK-NEXT: scf.yield %[[D]] : vector<4xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ZERO]] : vector<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[LB]], %[[C2]] : index
// CHECK-NEXT: %[[R:.*]] = scf.for %{{.*}} = %[[NEXT]] to %[[UB]] step %[[C2]] iter_args(%[[ACC:.*]] = %[[FIRST]])
// CHECK-NEXT: amdgpu.mfma 16x16x16 %[[A]] * %[[B]] + %[[ACC]]
// CHECK: return %[[R]]
func.func @direct(%a: vector<4xbf16>, %b: vector<4xbf16>, %lb: index,
                  %ub: index) -> vector<4xf32> {
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %r = scf.for %i = %lb to %ub step %c2 iter_args(%acc = %zero) -> vector<4xf32> {
    %d = amdgpu.mfma 16x16x16 %a * %b + %acc blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  return %r : vector<4xf32>
}

// -----

// Through element moves (a slice of a wider register vector, put back),
// with the scaled MFMA; the induction variable of the copy is the lower
// bound. An unsigned loop compares unsigned.

// CHECK-LABEL: func.func @slices
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: arith.cmpi ult, %[[C0]], %{{.*}} : index
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[LOW:.*]] = vector.extract_strided_slice %[[ZERO]]
// CHECK-NEXT: %[[D:.*]] = amdgpu.scaled_mfma 16x16x128 {{.*}} + %[[LOW]]
// CHECK-NEXT: %[[PUT:.*]] = vector.insert_strided_slice %[[D]], %[[ZERO]]
// CHECK-NEXT: memref.store %[[C0]], %{{.*}}[%[[C0]]]
// CHECK-NEXT: scf.yield %[[PUT]]
// CHECK: scf.for unsigned
func.func @slices(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E4M3FN>,
                  %s: vector<4xf8E8M0FNU>, %n: index, %out: memref<4xindex>)
    -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %r = scf.for unsigned %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<8xf32> {
    %low = vector.extract_strided_slice %acc {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
    %d = amdgpu.scaled_mfma 16x16x128 (%s[0] * %a) * (%s[0] * %b) + %low : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, vector<4xf32>
    %put = vector.insert_strided_slice %d, %acc {offsets = [0], strides = [1]} : vector<4xf32> into vector<8xf32>
    memref.store %i, %out[%c0] : memref<4xindex>
    scf.yield %put : vector<8xf32>
  }
  return %r : vector<8xf32>
}

// -----

// Loops left alone: an accumulator that does not start at zero, one whose
// zeros are computed on before the MFMA reads them, one that no MFMA
// reads, and a loop that holds a loop (an edge tile's element path).

// CHECK-LABEL: func.func @kept
// CHECK-NOT: scf.if
// CHECK: return
func.func @kept(%a: vector<4xbf16>, %b: vector<4xbf16>, %n: index,
                %scale: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %one = arith.constant dense<1.0> : vector<4xf32>
  %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> vector<4xf32> {
    %d = amdgpu.mfma 16x16x16 %a * %b + %acc blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<4xf32> {
    %m = arith.mulf %acc, %scale : vector<4xf32>
    %d = amdgpu.mfma 16x16x16 %a * %b + %m blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  %r3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<4xf32> {
    %m = arith.addf %acc, %scale : vector<4xf32>
    scf.yield %m : vector<4xf32>
  }
  %r4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<4xf32> {
    %d = amdgpu.mfma 16x16x16 %a * %b + %acc blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
    %e = scf.for %j = %c0 to %n step %c1 iter_args(%x = %d) -> vector<4xf32> {
      %y = arith.addf %x, %scale : vector<4xf32>
      scf.yield %y : vector<4xf32>
    }
    scf.yield %e : vector<4xf32>
  }
  return %r1, %r2, %r3, %r4 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
}
