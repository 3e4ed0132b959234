// RUN: hk-opt %s --convert-hk-to-amdgpu | FileCheck %s

// CHECK-LABEL: llvm.func @math
hk.kernel @math(%s: f32) waves(1) {
  // CHECK: vector.broadcast %{{.*}} : f32 to vector<4xf32>
  %f = hk.fill %s : f32 -> !hk.rt<16x16xf32, row>
  // CHECK: arith.constant dense<0.000000e+00> : vector<4xf32>
  %z = hk.zero : !hk.rt<16x16xf32, row>
  // CHECK: arith.addf
  %a = hk.add %f, %z : !hk.rt<16x16xf32, row>
  // A scalar right-hand side is broadcast.
  // CHECK: %[[B:.*]] = vector.broadcast
  // CHECK: arith.mulf %{{.*}}, %[[B]]
  %m = hk.mul %a, %s : !hk.rt<16x16xf32, row>, f32
  // CHECK: arith.subf
  // CHECK: arith.divf
  // CHECK: arith.maximumf
  // CHECK: arith.minimumf
  %b0 = hk.sub %m, %a : !hk.rt<16x16xf32, row>
  %b1 = hk.div %b0, %a : !hk.rt<16x16xf32, row>
  %b2 = hk.max %b1, %a : !hk.rt<16x16xf32, row>
  %b3 = hk.min %b2, %a : !hk.rt<16x16xf32, row>
  // CHECK: math.exp2
  // CHECK: math.exp
  // CHECK: math.log
  // CHECK: math.log2
  // CHECK: math.absf
  // CHECK: arith.negf
  // CHECK: arith.maxnumf
  // CHECK: math.sqrt
  // CHECK: llvm.call_intrinsic "llvm.amdgcn.rsq"
  %u0 = hk.exp2 %b3 : !hk.rt<16x16xf32, row>
  %u1 = hk.exp %u0 : !hk.rt<16x16xf32, row>
  %u2 = hk.log %u1 : !hk.rt<16x16xf32, row>
  %u3 = hk.log2 %u2 : !hk.rt<16x16xf32, row>
  %u4 = hk.abs %u3 : !hk.rt<16x16xf32, row>
  %u5 = hk.neg %u4 : !hk.rt<16x16xf32, row>
  %u6 = hk.relu %u5 : !hk.rt<16x16xf32, row>
  %u7 = hk.sqrt %u6 : !hk.rt<16x16xf32, row>
  %u8 = hk.rsqrt %u7 : !hk.rt<16x16xf32, row>
  // CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
  %c = hk.convert %u8 : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xbf16, row>
  // Equivalent layouts convert for free.
  // CHECK-NOT: hk.convert_layout
  %l = hk.convert_layout %c : !hk.rt<16x16xbf16, row> -> !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  // A barrier is a compiler memory fence, an LDS drain and s_barrier; it
  // leaves global loads in flight.
  // CHECK: llvm.inline_asm has_side_effects "", "~{memory}"
  // CHECK-NEXT: amdgpu.memory_counter_wait ds(0)
  // CHECK-NEXT: rocdl.s.barrier
  // CHECK-NEXT: llvm.inline_asm has_side_effects "", "~{memory}"
  hk.barrier
  // CHECK: amdgpu.memory_counter_wait load(0) store(0) ds(0)
  hk.wait
  // A cluster is fenced by scheduling barriers.
  // CHECK: rocdl.sched.barrier 0
  // CHECK-NEXT: math.exp2
  // CHECK-NEXT: rocdl.sched.barrier 0
  %r = hk.cluster compute {
    %e = hk.exp2 %f : !hk.rt<16x16xf32, row>
    hk.yield %e : !hk.rt<16x16xf32, row>
  } : !hk.rt<16x16xf32, row>
  hk.return
}
