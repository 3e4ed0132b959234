// Direct-to-LDS group loads and the vmcnt of the waits on their tokens.
// RUN: hk-opt %s -split-input-file --hk-buffer-loads --convert-hk-to-amdgpu | FileCheck %s
// RUN: hk-opt %s -split-input-file --hk-buffer-loads=direct=never --convert-hk-to-amdgpu | FileCheck %s --check-prefix=STAGED
// RUN: hk-opt %s -split-input-file --hk-buffer-loads --convert-hk-to-amdgpu=exact-waits=false | FileCheck %s --check-prefix=DRAIN

// A 64x64 bf16 tile is 8 KiB: on gfx950, eight 1 KiB instructions of 16
// bytes per lane, two per wave of four. The LDS writes carry the alias scope
// that LDS reads of tiles are declared not to alias, so LLVM need not drain
// vmcnt before every ds_read. Waiting for the first of two loads leaves the
// second's two instructions in flight; waiting for both drains.
// CHECK-LABEL: llvm.func @two_loads
// CHECK-COUNT-2: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c16_i32{{.*}} {alias_scopes = [#alias_scope]}
// CHECK-NOT: rocdl.raw.ptr.buffer.load.lds
// CHECK: } else {
// CHECK-COUNT-2: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c16_i32{{.*}} {alias_scopes = [#alias_scope]}
// CHECK-NOT: rocdl.raw.ptr.buffer.load.lds
// CHECK: } else {
// CHECK: rocdl.sched.barrier 0
// CHECK-NEXT: amdgpu.memory_counter_wait load(2)
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK: rocdl.sched.barrier 0
// CHECK-NEXT: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: rocdl.sched.barrier 0
// Without exact waits, every token wait drains.
// DRAIN-LABEL: llvm.func @two_loads
// DRAIN: amdgpu.memory_counter_wait load(0)
// DRAIN: amdgpu.memory_counter_wait load(0)
// DRAIN-NOT: amdgpu.memory_counter_wait load({{[1-9]}}
// STAGED-LABEL: llvm.func @two_loads
// STAGED-NOT: buffer.load.lds
// STAGED-NOT: memory_counter_wait
// STAGED: llvm.return
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @two_loads(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s0 = hk.alloc : !hk.st<64x64xbf16>
  %s1 = hk.alloc : !hk.st<64x64xbf16>
  %t0 = hk.group_load async %a[%c0, %c0], %s0 : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  %t1 = hk.group_load async %a[%c0, %c0], %s1 : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  hk.wait [%t0]
  hk.wait [%t0, %t1]
  hk.return
}
}

// -----

// Double buffering: the token of iteration k's loads is carried into
// iteration k+1, which issues the next loads before waiting. On every path
// to the wait (from the prologue or around the back edge) two loads of two
// instructions each are in flight, so the wait leaves four. The barrier
// right after it needs the LDS counter drained: the wait does that too, and
// the barrier adds no wait of its own.
// CHECK-LABEL: llvm.func @carried
// CHECK: scf.for {{.*}} iter_args
// CHECK: amdgpu.memory_counter_wait load(4) ds(0)
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK-NEXT: llvm.inline_asm
// CHECK-NEXT: rocdl.s.barrier
// CHECK: scf.yield
// After the loop nothing follows the last loads.
// CHECK: amdgpu.memory_counter_wait load(0)
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @carried(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %n = hk.dim %a[1] : !hk.gl<?x?xbf16>
  %c1 = arith.constant 1 : index
  %s0 = hk.alloc : !hk.st<64x64xbf16>
  %s1 = hk.alloc : !hk.st<64x64xbf16>
  %s2 = hk.alloc : !hk.st<64x64xbf16>
  %s3 = hk.alloc : !hk.st<64x64xbf16>
  %ta = hk.group_load async %a[%c0, %c0], %s0 : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  %tb = hk.group_load async %a[%c0, %c0], %s1 : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  %ra, %rb = scf.for %k = %c0 to %n step %c1 iter_args(%x = %ta, %y = %tb) -> (!hk.token, !hk.token) {
    %nx = hk.group_load async %a[%c0, %k], %s2 : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
    %ny = hk.group_load async %a[%c0, %k], %s3 : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
    hk.wait [%x, %y]
    hk.barrier
    scf.yield %nx, %ny : !hk.token, !hk.token
  }
  hk.wait [%ra, %rb]
  hk.return
}
}

// -----

// gfx942 moves at most 4 bytes per lane directly: with direct=always
// (forced below) the 8 KiB tile takes 32 instructions, 8 per wave. A round
// of 4 waves covers 1 KiB (8 whole rows of 128 bytes), so four rounds share
// an LDS pointer (one M0 write) and differ in the immediate offset, which
// moves the global and the LDS address alike.
// CHECK-LABEL: llvm.func @gfx942_dword
// CHECK: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %{{.*}}, %{{.*}}, %c0_i32{{.*}}, %{{.*}}
// CHECK: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %{{.*}}, %{{.*}}, %c1024_i32{{.*}}, %{{.*}}
// CHECK: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %{{.*}}, %{{.*}}, %c2048_i32{{.*}}, %{{.*}}
// CHECK: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %{{.*}}, %{{.*}}, %c3072_i32{{.*}}, %{{.*}}
// CHECK: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %{{.*}}, %{{.*}}, %c0_i32{{.*}}, %{{.*}}
// CHECK: amdgpu.memory_counter_wait load(8)
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @gfx942_dword(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s0 = hk.alloc : !hk.st<64x64xbf16>
  %s1 = hk.alloc : !hk.st<64x64xbf16>
  %t0 = hk.group_load async %a[%c0, %c0], %s0 {path = #hk.path<direct>} : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  %t1 = hk.group_load async %a[%c0, %c0], %s1 {path = #hk.path<direct>} : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  hk.wait [%t0]
  hk.return
}
}

// -----

// A round that ends inside a row (1 KiB of a 2 KiB row) could give a lane
// a global offset below the immediate: every round has its own LDS pointer.
// CHECK-LABEL: llvm.func @half_rows
// CHECK-NOT: %c1024_i32{{.*}}, %{{.*}} {alias_scopes
// CHECK: amdgpu.memory_counter_wait load(0)
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @half_rows(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s0 = hk.alloc : !hk.st<16x1024xbf16>
  %t0 = hk.group_load async %a[%c0, %c0], %s0 {path = #hk.path<direct>} : !hk.gl<?x?xbf16>, !hk.st<16x1024xbf16> -> !hk.token
  hk.wait [%t0]
  hk.return
}
}

// -----

// Loads issued under a branch may not run: they do not count, and the
// wait drains.
// CHECK-LABEL: llvm.func @branch
// CHECK: scf.if
// CHECK: amdgpu.memory_counter_wait load(0)
// CHECK: }
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK-NEXT: amdgpu.memory_counter_wait load(0)
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @branch(%a: !hk.gl<?x?xbf16>, %x: i32) waves(4) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %p = arith.cmpi eq, %x, %c0_i32 : i32
  %s0 = hk.alloc : !hk.st<64x64xbf16>
  %s1 = hk.alloc : !hk.st<64x64xbf16>
  %t0 = hk.group_load async %a[%c0, %c0], %s0 : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  scf.if %p {
    %t1 = hk.group_load async %a[%c0, %c0], %s1 : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
    hk.wait [%t1]
  }
  hk.wait [%t0]
  hk.return
}
}

// -----

// A round of four waves covers 32 whole rows of 128 bytes, and the swizzle's
// phases repeat every 16 rows: round r fetches round 0's columns 32 * r rows
// further down, so its lane offsets are round 0's plus r * 32 row strides,
// one add each, instead of the swizzle recomputed per instruction.
// RUN: hk-opt %s -split-input-file --hk-buffer-loads --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s --check-prefix=STEP
// STEP-LABEL: llvm.func @whole_rounds
// STEP: %[[STEP1:.*]] = arith.muli %arg3, %c32_i32 : i32
// STEP: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c16_i32, %[[FIRST:[0-9]+]],
// STEP-NEXT: %[[SECOND:.*]] = arith.addi %[[FIRST]], %[[STEP1]] : i32
// STEP: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c16_i32, %[[SECOND]],
// STEP: %[[STEP3:.*]] = arith.muli %arg3, %c96_i32 : i32
// STEP-NEXT: %[[FOURTH:.*]] = arith.addi %[[FIRST]], %[[STEP3]] : i32
// STEP: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %c16_i32, %[[FOURTH]],
// STEP: } else {
// With phases that repeat only every 64 rows, each round computes its own.
// STEP-LABEL: llvm.func @long_period
// STEP-COUNT-4: arith.xori
// STEP: } else {
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @whole_rounds(%a: !hk.gl<?x?xf8E4M3FN>) waves(4) {
  %c0 = arith.constant 0 : index
  %s0 = hk.alloc : !hk.st<128x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 2, max_phase = 8, mask = 5>>
  %t0 = hk.group_load async %a[%c0, %c0], %s0 : !hk.gl<?x?xf8E4M3FN>, !hk.st<128x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 2, max_phase = 8, mask = 5>> -> !hk.token
  hk.wait [%t0]
  hk.return
}
hk.kernel @long_period(%a: !hk.gl<?x?xf8E4M3FN>) waves(4) {
  %c0 = arith.constant 0 : index
  %s0 = hk.alloc : !hk.st<128x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 8, max_phase = 8>>
  %t0 = hk.group_load async %a[%c0, %c0], %s0 : !hk.gl<?x?xf8E4M3FN>, !hk.st<128x128xf8E4M3FN, #hk.swizzle<vec = 16, per_phase = 8, max_phase = 8>> -> !hk.token
  hk.wait [%t0]
  hk.return
}
}
