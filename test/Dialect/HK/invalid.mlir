// Every diagnostic the hk dialect gives, one case each.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// expected-error @below {{MFMA layouts exist for 16x16 and 32x32 blocks, got 16x32}}
func.func private @f() -> !hk.rt<16x32xf32, #hk.mfma<a, 16x32x16>>

// -----

// expected-error @below {{MFMA K of 3 does not spread over 64 lanes for 16x16 blocks}}
func.func private @f() -> !hk.rt<16x16xf32, #hk.mfma<b, 16x16x3>>

// -----

// expected-error @below {{expected MFMA operand 'a', 'b' or 'acc', got 'd'}}
func.func private @f() -> !hk.rt<16x16xf32, #hk.mfma<d, 16x16x16>>

// -----

// expected-error @below {{expected an MxNxK shape}}
func.func private @f() -> !hk.rt<16x16xf32, #hk.mfma<a, 16x16>>

// -----

// expected-error @below {{MFMA dimensions must be positive}}
func.func private @f() -> !hk.rt<16x16xf32, #hk.mfma<a, 0x16x16>>

// -----

// expected-error @below {{expected 'rows' or 'cols', got 'diag'}}
func.func private @f() -> !hk.rv<16xf32, #hk.vec<diag, row>>

// -----

// expected-error @below {{vector layout must name a register-tile layout (row, col or #hk.mfma), got 5 : i64}}
func.func private @f() -> !hk.rv<16xf32, #hk.vec<rows, 5>>

// -----

// expected-error @below {{swizzle vec must be a power of two, got 3}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 3, per_phase = 1, max_phase = 8>>

// -----

// expected-error @below {{swizzle per_phase must be a power of two, got 0}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 0, max_phase = 8>>

// -----

// expected-error @below {{swizzle max_phase must be a power of two, got 6}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 6>>

// -----

// expected-error @below {{a swizzle with flip needs max_phase >= 2: the identity has no phase bit to flip}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 1, flip>>

// -----

// expected-error @below {{expected 'flip' or 'mask = N' once each, got 'flop'}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8, flop>>

// -----

// expected-error @below {{expected 'flip' or 'mask = N' once each, got 'flip'}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8, flip, flip>>

// -----

// expected-error @below {{swizzle mask must be a small non-negative integer, got -1}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8, mask = -1>>

// -----

// expected-error @below {{swizzle vec must be a small non-negative integer, got -8}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = -8, per_phase = 1, max_phase = 8>>

// -----

// expected-error @below {{swizzle mask must not be zero: the identity is #hk.swizzle<none>}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8, mask = 0>>

// -----

// expected-error @below {{swizzle mask must keep some but not all of the 3 phase bits (1 to 6 with max_phase = 8), got 7}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8, mask = 7>>

// -----

// expected-error @below {{a swizzle mask needs max_phase >= 4, got 2: one phase bit is either kept (no mask) or dropped (the identity)}}
func.func private @f() -> !hk.st<64x64xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 2, mask = 1>>

// -----

// expected-error @below {{ping-pong runs two groups of four waves (one per SIMD each), so it needs 8 waves, got 4}}
module attributes {test.s = #hk.pingpong<waves = 4>} {}

// -----

// expected-error @below {{a ping-pong iteration has 1 to 64 memory/compute cluster pairs (clusters), got 0}}
module attributes {test.s = #hk.pingpong<waves = 8, clusters = 0>} {}

// -----

// expected-error @below {{a ping-pong iteration has 1 to 64 memory/compute cluster pairs (clusters), got -1}}
module attributes {test.s = #hk.pingpong<waves = 8, clusters = -1>} {}

// -----

// expected-error @below {{invalid kind of attribute specified}}
// expected-error @below {{failed to parse HK_PingPongAttr parameter 'setprio' which is to be a `::mlir::BoolAttr`}}
module attributes {test.s = #hk.pingpong<waves = 8, setprio = 2>} {}

// -----

// expected-error @below {{invalid kind of attribute specified}}
// expected-error @below {{failed to parse HK_PingPongAttr parameter 'vector_in_memory' which is to be a `::mlir::BoolAttr`}}
module attributes {test.s = #hk.pingpong<waves = 8, vector_in_memory = 3>} {}

// -----

// expected-error @below {{interleave runs one wave per SIMD, so it needs 4 waves, got 8}}
module attributes {test.s = #hk.interleave<waves = 8>} {}

// -----

// expected-error @below {{interleave groups need at least one MFMA each}}
module attributes {test.s = #hk.interleave<waves = 4, mfma = 0>} {}

// -----

// expected-error @below {{interleave keeps 2 to 8 copies of each loaded shared tile, got stages = 9}}
module attributes {test.s = #hk.interleave<waves = 4, stages = 9>} {}

// -----

// expected-error @below {{interleave keeps 2 to 8 copies of each loaded shared tile, got stages = 1}}
module attributes {test.s = #hk.interleave<waves = 4, stages = 1>} {}

// -----

// expected-error @below {{interleave keeps 2 to 8 copies of each loaded shared tile, got stages = -1}}
module attributes {test.s = #hk.interleave<waves = 4, stages = -1>} {}

// -----

// expected-error @below {{ping-pong keeps 2 to 8 copies of each loaded shared tile, got stages = 9}}
module attributes {test.s = #hk.pingpong<waves = 8, stages = 9>} {}

// -----

// expected-error @below {{ping-pong keeps 2 to 8 copies of each loaded shared tile, got stages = 0}}
module attributes {test.s = #hk.pingpong<waves = 8, stages = 0>} {}

// -----

// expected-error @below {{unknown chip 'gfx9000'; known chips: gfx942, gfx950}}
module attributes {hk.target = #hk.target<"gfx9000">} {}

// -----

// expected-error @below {{unknown hk attribute 'hk.chip'}}
module attributes {hk.chip = "gfx950"} {}

// -----

module {
  // expected-error @below {{'hk.target' belongs on a builtin.module}}
  func.func private @f() attributes {hk.target = #hk.target<"gfx950">}
}

// -----

// expected-error @below {{'hk.target' must be a #hk.target<"chip">, got "gfx950"}}
module attributes {hk.target = "gfx950"} {}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{register tile must be 2-D, got rank 3}}
func.func private @f() -> !hk.rt<16x16x16xf32>

// -----

// expected-error @below {{register tile element type must be f32, f16, bf16, an fp8 type, i8, i32 or i1 (a mask), got 'f64'}}
func.func private @f() -> !hk.rt<16x16xf64>

// -----

// expected-error @below {{register tile layout must be row, col or #hk.mfma, got #hk.swizzle<none>}}
func.func private @f() -> !hk.rt<16x16xf32, #hk.swizzle<none>>

// -----

// expected-error @below {{register tile 24x32 is not a whole number of its 16x16 base blocks}}
func.func private @f() -> !hk.rt<24x32xf32, row>

// -----

// expected-error @below {{register tile 16x16 is not a whole number of its 16x32 base blocks}}
func.func private @f() -> !hk.rt<16x16xbf16, #hk.mfma<b, 32x32x16>>

// -----

// expected-error @below {{register tile 256x256x'f32' needs 1024 registers per lane; a wave has 512}}
func.func private @f() -> !hk.rt<256x256xf32>

// -----

// expected-error @below {{expected attribute value}}
func.func private @f() -> !hk.rt<16x16xf32, diagonal>

// -----

// expected-error @below {{register vector length must be a positive multiple of 16, got 20}}
func.func private @f() -> !hk.rv<20xf32>

// -----

// expected-error @below {{register vector element type must be f32, f16, bf16, an fp8 type, i8, i32 or i1 (a mask), got 'i16'}}
func.func private @f() -> !hk.rv<16xi16>

// -----

// expected-error @below {{register vector layout must be #hk.vec, got #hk.layout<row>}}
func.func private @f() -> !hk.rv<16xf32, #hk.layout<row>>

// -----

// expected-error @below {{register vector of 16 is not a whole number of 32-element blocks of #hk.vec<rows, #hk.mfma<acc, 32x32x8>>}}
func.func private @f() -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 32x32x8>>>

// -----

// expected-error @below {{expected a 1-D vector shape, got rank 2}}
func.func private @f() -> !hk.sv<16x16xf32>

// -----

// expected-error @below {{shared tile must be 2-D, got rank 1}}
func.func private @f() -> !hk.st<64xf32>

// -----

// expected-error @below {{shared tile element type must be f32, f16, bf16, an fp8 type, i8 or i32, got 'index'}}
func.func private @f() -> !hk.st<16x16xindex>

// -----

// expected-error @below {{shared tile 20x32 must have dimensions that are multiples of 16}}
func.func private @f() -> !hk.st<20x32xbf16>

// -----

// expected-error @below {{shared tile swizzle must be #hk.swizzle, got #hk.layout<row>}}
func.func private @f() -> !hk.st<32x32xbf16, #hk.layout<row>>

// -----

// expected-error @below {{swizzle permutes groups of 8 elements over 8 phases, spanning 64 columns, but the tile has 32}}
func.func private @f() -> !hk.st<32x32xbf16, #hk.swizzle<vec = 8, per_phase = 1, max_phase = 8>>

// -----

// expected-error @below {{shared vector length must be positive, got 0}}
func.func private @f() -> !hk.sv<0xf32>

// -----

// expected-error @below {{shared vector element type must be f32, f16, bf16, an fp8 type, i8 or i32, got 'f64'}}
func.func private @f() -> !hk.sv<16xf64>

// -----

// expected-error @below {{global view rank must be 1 to 4, got 5}}
func.func private @f() -> !hk.gl<?x?x?x?x?xf32>

// -----

// expected-error @below {{global view dimensions must be positive or '?', got 0}}
func.func private @f() -> !hk.gl<0x?xf32>

// -----

// expected-error @below {{global view element type must be f32, f16, bf16, an fp8 type, i8 or i32, got 'i1'}}
func.func private @f() -> !hk.gl<?xi1>

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{a block holds at most 16 waves (1024 lanes), got 20}}
hk.kernel @k() waves(20) {
  hk.return
}

// -----

// expected-error @below {{'waves' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
hk.kernel @k() waves(0) {
  hk.return
}

// -----

// expected-error @below {{schedule must be #hk.pingpong or #hk.interleave, got 8 : i64}}
hk.kernel @k() waves(8) schedule(8) {
  hk.return
}

// -----

// expected-error @below {{schedule #hk.pingpong<waves = 8> needs 8 waves, but the kernel has 4}}
hk.kernel @k() waves(4) schedule(#hk.pingpong<waves = 8>) {
  hk.return
}

// -----

// A schedule named on a loop (hk.schedule).

hk.kernel @k() waves(8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{schedule #hk.interleave<waves = 4> needs 4 waves, but the kernel has 8}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {hk.schedule = #hk.interleave<waves = 4>}
  hk.return
}

// -----

hk.kernel @k() waves(8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{schedule must be #hk.pingpong or #hk.interleave, got "fast"}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {hk.schedule = "fast"}
  hk.return
}

// -----

hk.kernel @k() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'hk.schedule' on a loop of a kernel that has a schedule of its own; put the schedule on the kernel or on one loop, not both}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {hk.schedule = #hk.pingpong<waves = 8>}
  hk.return
}

// -----

hk.kernel @k() waves(8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
  } {hk.schedule = #hk.pingpong<waves = 8>}
  // expected-error @below {{'hk.schedule' on a second loop; a kernel schedules at most one loop}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {hk.schedule = #hk.pingpong<waves = 8>}
  hk.return
}

// -----

hk.kernel @k() waves(8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    // expected-error @below {{'hk.schedule' belongs on an scf.for directly in an hk.kernel body}}
    scf.for %j = %c0 to %c1 step %c1 {
    } {hk.schedule = #hk.pingpong<waves = 8>}
  }
  hk.return
}

// -----

// expected-error @below {{'hk.schedule' belongs on an scf.for directly in an hk.kernel body}}
hk.kernel @k() waves(8) attributes {hk.schedule = #hk.pingpong<waves = 8>} {
  hk.return
}

// -----

// expected-error @below {{kernels return nothing, got 1 result type(s)}}
hk.kernel @k() -> i32 waves(4) {
  hk.return
}

// -----

// expected-error @below {{argument 1 must be an !hk.gl, i32 or f32, got 'index'}}
hk.kernel @k(%a: !hk.gl<?xf32>, %i: index) waves(4) {
  hk.return
}

// -----

func.func @f() {
  // expected-error @below {{'hk.return' op expects parent op 'hk.kernel'}}
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xf32>) waves(4) {
  // expected-error @below {{dimension 2 is out of range for a rank-2 global view}}
  %d = hk.dim %a[2] : !hk.gl<?x?xf32>
  hk.return
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

// -----

func.func @f() {
  // expected-error @below {{must be inside an hk.kernel}}
  %a = hk.alloc : !hk.st<16x16xbf16>
  return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xi8>) waves(4) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{converts only between float element types, got 'i8' and 'f32'}}
  %t = hk.load %a[%c0, %c0] : !hk.gl<?x?xi8> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xf32>) waves(4) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{expects 2 indices for a rank-2 global view, got 1}}
  %t = hk.load %a[%c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?xf32>) waves(4) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{moves a 2-D register tile, which needs a global view of rank 2 or more, got rank 1}}
  %t = hk.load %a[%c0] : !hk.gl<?xf32> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.alloc : !hk.st<64x64xf32>
  // expected-error @below {{moves a shared tile to or from a register tile, not '!hk.rv<64xf32>'}}
  %t = hk.load %s : !hk.st<64x64xf32> -> !hk.rv<64xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.alloc : !hk.st<64x64xf32>
  // expected-error @below {{register tile 32x32 must match shared tile 64x64 (or index one of its subtiles)}}
  %t = hk.load %s : !hk.st<64x64xf32> -> !hk.rt<32x32xf32, row>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xf32>
  // expected-error @below {{expects 0 or 2 subtile indices for a shared tile, got 1}}
  %t = hk.load %s[%c0] : !hk.st<64x64xf32> -> !hk.rt<32x32xf32, row>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xf32>
  // expected-error @below {{register tile 48x32 does not divide shared tile 64x64 into subtiles}}
  %t = hk.load %s[%c0, %c0] : !hk.st<64x64xf32> -> !hk.rt<48x32xf32, row>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.alloc : !hk.sv<64xf32>
  // expected-error @below {{moves a shared vector to or from a register vector, not '!hk.rt<16x16xf32, row>'}}
  %t = hk.load %s : !hk.sv<64xf32> -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.sv<64xf32>
  // expected-error @below {{expects 0 or 1 index for a shared vector, got 2}}
  %t = hk.load %s[%c0, %c0] : !hk.sv<64xf32> -> !hk.rv<32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.alloc : !hk.sv<64xf32>
  // expected-error @below {{register vector of 48 does not match shared vector of 64}}
  %t = hk.load %s : !hk.sv<64xf32> -> !hk.rv<48xf32>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?x?xf32>) waves(4) {
  %c0 = arith.constant 0 : index
  %t = hk.zero : !hk.rt<16x16xf32, row>
  // expected-error @below {{expects 3 indices for a rank-3 global view, got 2}}
  hk.store %t, %a[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?x?xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.alloc : !hk.st<16x16xf32>
  %t = hk.zero : !hk.rt<16x16xf32, row>
  // expected-error @below {{stores via a shared tile only a register tile to a global view}}
  hk.store %t, %s via %s[] : !hk.rt<16x16xf32, row> -> !hk.st<16x16xf32>, !hk.st<16x16xf32>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?xf32>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<16x16xf32>
  %t = hk.zero : !hk.rv<16xf32>
  // expected-error @below {{stores via a shared tile only a register tile to a global view}}
  hk.store %t, %a[%c0] via %s[] : !hk.rv<16xf32> -> !hk.gl<?xf32>, !hk.st<16x16xf32>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<16x16xf32>
  %t = hk.zero : !hk.rt<16x16xf32, row>
  // expected-error @below {{stages 'bf16' elements in a shared tile of 'f32'; the two must hold the same type}}
  hk.store %t, %a[%c0, %c0] via %s[] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xbf16>, !hk.st<16x16xf32>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<48x48xbf16>
  %t = hk.zero : !hk.rt<32x32xf32, row>
  // expected-error @below {{register tile 32x32 does not divide shared tile 48x48 into subtiles}}
  hk.store %t, %a[%c0, %c0] via %s[%c0, %c0] : !hk.rt<32x32xf32, row> -> !hk.gl<?x?xbf16>, !hk.st<48x48xbf16>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %t = hk.zero : !hk.rt<16x16xf32, row>
  // expected-error @below {{is 'staged' but names no shared tile to copy from (`via %tile[i, j]`)}}
  hk.store %t, %a[%c0, %c0] staged : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xbf16>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  // expected-error @below {{copies a 2-D shared tile, which needs a global view of rank 2 or more, got rank 1}}
  hk.group_load %a[%c0], %s : !hk.gl<?xbf16>, !hk.st<64x64xbf16>
  hk.return
}

// -----

// hk.in_bounds checks its operands as the group load it stands for.
hk.kernel @k(%a: !hk.gl<?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  // expected-error @below {{'hk.in_bounds' op copies a 2-D shared tile, which needs a global view of rank 2 or more, got rank 1}}
  %ok = hk.in_bounds %a[%c0], %s : !hk.gl<?xbf16>, !hk.st<64x64xbf16>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  // expected-error @below {{expects 2 indices for a rank-2 global view, got 3}}
  hk.group_load %a[%c0, %c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xf16>
  // expected-error @below {{copies raw elements, but the global view holds 'bf16' and the shared tile 'f16'}}
  hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xf16>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  // expected-error @below {{uses a group of 8 waves, but the kernel has 4}}
  hk.group_load %a[%c0, %c0], %s {waves = 8 : i32} : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  // expected-error @below {{async group load must return a !hk.token}}
  hk.group_load async %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  // expected-error @below {{synchronous group load returns no token; add 'async'}}
  %t = hk.group_load %a[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x64xbf16> -> !hk.token
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xf16>) waves(4) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x64xbf16>
  // expected-error @below {{copies raw elements, but the global view holds 'f16' and the shared tile 'bf16'}}
  hk.group_store %s, %a[%c0, %c0] : !hk.st<64x64xbf16>, !hk.gl<?x?xf16>
  hk.return
}

//===----------------------------------------------------------------------===//
// Creation and conversion
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k(%x: f32) waves(4) {
  %h = arith.truncf %x : f32 to f16
  // expected-error @below {{fill value of type 'f16' does not match element type 'f32'}}
  %t = hk.fill %h : f16 -> !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<16x16xf32, row>
  // expected-error @below {{changes element types only, but '!hk.rt<16x16xf32, row>' and '!hk.rt<32x16xbf16, row>' differ in kind or shape}}
  %u = hk.convert %t : !hk.rt<16x16xf32, row> -> !hk.rt<32x16xbf16, row>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<16x16xf32, row>
  // expected-error @below {{keeps the layout; use hk.convert_layout to move between #hk.layout<row> and #hk.layout<col>}}
  %u = hk.convert %t : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xbf16, col>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<16x16xf32, row>
  // expected-error @below {{changes the layout only, but '!hk.rt<16x16xf32, row>' and '!hk.rt<16x16xbf16, col>' differ in kind, shape or element type}}
  %u = hk.convert_layout %t : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xbf16, col>
  hk.return
}

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x32xbf16>
  %b = hk.zero : !hk.rt<32x64xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  // expected-error @below {{operand A of 'ab' must be MxK with M = 64 (the accumulator's rows), got 32x32}}
  %d = hk.mma ab %a, %b, %c : !hk.rt<32x32xbf16>, !hk.rt<32x64xbf16>, !hk.rt<64x64xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<64x32xbf16>
  %b = hk.zero : !hk.rt<64x64xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  // expected-error @below {{operand A of 'atb' must be KxM with M = 64 (the accumulator's rows), got 64x32}}
  %d = hk.mma atb %a, %b, %c : !hk.rt<64x32xbf16>, !hk.rt<64x64xbf16>, !hk.rt<64x64xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<64x32xbf16>
  %b = hk.zero : !hk.rt<32x32xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  // expected-error @below {{operand B of 'abt' must be NxK = 64x32, got 32x32}}
  %d = hk.mma abt %a, %b, %c : !hk.rt<64x32xbf16>, !hk.rt<32x32xbf16>, !hk.rt<64x64xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<64x32xbf16>
  %b = hk.zero : !hk.rt<64x32xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  // expected-error @below {{operand B of 'ab' must be KxN = 32x64, got 64x32}}
  %d = hk.mma ab %a, %b, %c : !hk.rt<64x32xbf16>, !hk.rt<64x32xbf16>, !hk.rt<64x64xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<64x32xbf16>
  %b = hk.zero : !hk.rt<32x64xf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  // expected-error @below {{multiplies 'bf16' by 'f16'; A and B must share an element type (or be two fp8 types of one format)}}
  %d = hk.mma ab %a, %b, %c : !hk.rt<64x32xbf16>, !hk.rt<32x64xf16>, !hk.rt<64x64xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<64x32xi32>
  %b = hk.zero : !hk.rt<32x64xi32>
  %c = hk.zero : !hk.rt<64x64xi32>
  // expected-error @below {{has no matrix-core form for 'i32' operands}}
  %d = hk.mma ab %a, %b, %c : !hk.rt<64x32xi32>, !hk.rt<32x64xi32>, !hk.rt<64x64xi32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<64x32xbf16>
  %b = hk.zero : !hk.rt<32x64xbf16>
  %c = hk.zero : !hk.rt<64x64xbf16>
  // expected-error @below {{accumulates 'bf16' products in 'f32', got 'bf16'}}
  %d = hk.mma ab %a, %b, %c : !hk.rt<64x32xbf16>, !hk.rt<32x64xbf16>, !hk.rt<64x64xbf16>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x16>>
  %b = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x16>>
  %c = hk.zero : !hk.rt<32x32xf32>
  // expected-error @below {{operand B of 'ab' needs the 'b' MFMA layout, got #hk.mfma<a, 16x16x16>}}
  %d = hk.mma ab %a, %b, %c : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<32x32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x16>>
  %b = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<b, 16x16x16>>
  %c = hk.zero : !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
  // expected-error @below {{operand C is laid out for 32x32 blocks, but operand B for 16x16}}
  %d = hk.mma ab %a, %b, %c : !hk.rt<32x32xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<32x32xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>
  %b = hk.zero : !hk.rt<64x32xbf16, #hk.mfma<b, 16x16x16>>
  %c = hk.zero : !hk.rt<32x32xf32>
  // expected-error @below {{operands A and B must hold the same K per block; operand A holds 32, operand B 16}}
  %d = hk.mma ab %a, %b, %c : !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x32>>, !hk.rt<64x32xbf16, #hk.mfma<b, 16x16x16>>, !hk.rt<32x32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x16>>
  %c = hk.zero : !hk.rt<32x32xf32>
  // expected-error @below {{operand A holds 16 K elements per block, not a multiple of the pinned #hk.mfma_shape<16x16x32>}}
  %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<32x64xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<32x32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x64xbf16, #hk.mfma<a, 32x32x16>>
  %c = hk.zero : !hk.rt<32x32xf32>
  // expected-error @below {{operand A is laid out for 32x32 blocks, but the pinned instruction is #hk.mfma_shape<16x16x16>}}
  %d = hk.mma abt %a, %a, %c {instr = #hk.mfma_shape<16x16x16>} : !hk.rt<32x64xbf16, #hk.mfma<a, 32x32x16>>, !hk.rt<32x64xbf16, #hk.mfma<a, 32x32x16>>, !hk.rt<32x32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<64x48xbf16>
  %b = hk.zero : !hk.rt<48x64xbf16>
  %c = hk.zero : !hk.rt<64x64xf32>
  // expected-error @below {{MxNxK = 64x64x48 is not a multiple of the MFMA #hk.mfma_shape<16x16x32>}}
  %d = hk.mma ab %a, %b, %c {instr = #hk.mfma_shape<16x16x32>} : !hk.rt<64x48xbf16>, !hk.rt<48x64xbf16>, !hk.rt<64x64xf32>
  hk.return
}

//===----------------------------------------------------------------------===//
// Elementwise, broadcasts, reductions
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<16x16xi32, row>
  // expected-error @below {{expects floating-point elements, got 'i32'}}
  %u = hk.exp2 %t : !hk.rt<16x16xi32, row>
  hk.return
}

// -----

hk.kernel @k(%s: f32) waves(4) {
  %h = arith.truncf %s : f32 to f16
  %t = hk.zero : !hk.rt<16x16xf32, row>
  // expected-error @below {{right-hand side must be '!hk.rt<16x16xf32, row>' or a scalar 'f32', got 'f16'}}
  %u = hk.add %t, %h : !hk.rt<16x16xf32, row>, f16
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<32x64xf32>
  %v = hk.zero : !hk.rv<64xf32>
  // expected-error @below {{vector needs one value per row (32), got a vector of 64}}
  %u = hk.sub_row %t, %v : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<32x64xf32>
  %v = hk.zero : !hk.rv<64xbf16>
  // expected-error @below {{vector element type 'bf16' differs from the tile's 'f32'}}
  %u = hk.mul_col %t, %v : !hk.rt<32x64xf32>, !hk.rv<64xbf16>
  hk.return
}

// -----

// An option the op does not have (hk.mul_col's, not hk.div_row's) is an
// error rather than kept and ignored; a dialect-prefixed attribute is kept.
hk.kernel @k() waves(4) {
  %t = hk.zero {mine.note = 1 : i32} : !hk.rt<32x16xf32>
  %v = hk.zero : !hk.rv<32xf32>
  // expected-error @below {{'hk.div_row' op has no attribute named 'skip_ones'}}
  %u = hk.div_row %t, %v {skip_ones} : !hk.rt<32x16xf32>, !hk.rv<32xf32>
  hk.return
}

// -----

// The generic form reaches the same check.
hk.kernel @k() waves(4) {
  // expected-error @below {{'hk.wave_id' op has no attribute named 'axis'}}
  %w = "hk.wave_id"() {axis = 0 : i32} : () -> index
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<32x32xf32, col>
  %v = hk.zero : !hk.rv<32xf32, #hk.vec<cols, col>>
  // expected-error @below {{vector layout #hk.vec<cols, col> is not aligned with the rows of a tile in layout #hk.layout<col>}}
  %u = hk.div_row %t, %v : !hk.rt<32x32xf32, col>, !hk.rv<32xf32, #hk.vec<cols, col>>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<32x32xf32, col>
  %v = hk.zero : !hk.rv<32xf32, #hk.vec<rows, col>>
  // expected-error @below {{vector layout #hk.vec<rows, col> is not aligned with the columns of a tile in layout #hk.layout<col>}}
  %u = hk.mul_col %t, %v : !hk.rt<32x32xf32, col>, !hk.rv<32xf32, #hk.vec<rows, col>>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<32x64xf32>
  // expected-error @below {{result needs one value per column (64), got a vector of 32}}
  %m = hk.col_max %t : !hk.rt<32x64xf32> -> !hk.rv<32xf32>
  hk.return
}

// -----

// Row statistics and broadcasts are float arithmetic.
hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<16x16xi32, row>
  // expected-error @below {{'hk.row_sum' op expects floating-point elements, got 'i32'}}
  %s = hk.row_sum %t : !hk.rt<16x16xi32, row> -> !hk.rv<16xi32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<16x16xi32, row>
  %v = hk.zero : !hk.rv<16xi32>
  // expected-error @below {{'hk.mul_col' op expects floating-point elements, got 'i32'}}
  %y = hk.mul_col %t, %v : !hk.rt<16x16xi32, row>, !hk.rv<16xi32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %t = hk.zero : !hk.rt<32x64xf32>
  // expected-note @below {{prior use here}}
  %i = hk.zero : !hk.rv<64xf32>
  // expected-error @below {{use of value '%i' expects different type than prior uses: '!hk.rv<32xf32>' vs '!hk.rv<64xf32>'}}
  %m = hk.row_max %t, %i : !hk.rt<32x64xf32> -> !hk.rv<32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %c0 = arith.constant 0 : index
  %t = hk.zero : !hk.rt<16x16xi32, row>
  // expected-error @below {{expects floating-point elements, got 'i32'}}
  %m = hk.causal_mask %t[%c0, %c0] : !hk.rt<16x16xi32, row>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.zero : !hk.rt<32x32xbf16>
  %m = hk.zero : !hk.rv<32xbf16>
  // expected-error @below {{works on f32 scores, got 'bf16'}}
  %p, %m1, %l1, %r = hk.softmax %s, %m, %m : !hk.rt<32x32xbf16>, !hk.rv<32xbf16>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.zero : !hk.rt<32x64xf32>
  %m = hk.zero : !hk.rv<64xf32>
  // expected-error @below {{running max needs one value per row (32), got a vector of 64}}
  %p, %m1, %l1, %r = hk.softmax %s, %m, %m : !hk.rt<32x64xf32>, !hk.rv<64xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.zero : !hk.rt<32x64xf32>
  %m = hk.zero : !hk.rv<32xf32>
  // expected-error @below {{running max needs one value per column (64), got a vector of 32}}
  %p, %m1, %l1, %r = hk.softmax cols %s, %m, %m : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.zero : !hk.rt<32x64xf32>
  %m = hk.zero : !hk.rv<32xf32>
  // expected-error @below {{max_slack must be between 0 and 64, got -1}}
  %p, %m1, %l1, %r = hk.softmax %s, %m, %m {max_slack = -1.0 : f32} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %s = hk.zero : !hk.rt<32x64xf32>
  %m = hk.zero : !hk.rv<32xf32>
  // expected-error @below {{max_slack must be between 0 and 64, got 100}}
  %p, %m1, %l1, %r = hk.softmax %s, %m, %m {max_slack = 100.0 : f32} : !hk.rt<32x64xf32>, !hk.rv<32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<acc, 16x16x16>>
  %c = hk.zero : !hk.rt<32x32xf32>
  // expected-error @below {{multiplies operands in the 16x16 accumulator layout, which needs a 16x16xK instruction with K a multiple of 16, got #hk.mfma_shape<32x32x8>}}
  %d = hk.mma atb %a, %a, %c {instr = #hk.mfma_shape<32x32x8>} : !hk.rt<32x32xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<32x32xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<32x32xf32>
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %a = hk.zero : !hk.rt<32x32xbf16, #hk.mfma<acc, 16x16x16>>
  %b = hk.zero : !hk.rt<32x32xbf16>
  %c = hk.zero : !hk.rt<32x32xf32>
  // Only both operands in the accumulator layout pair their K order.
  // expected-error @below {{operand A of 'atb' needs the 'b' MFMA layout, got #hk.mfma<acc, 16x16x16>}}
  %d = hk.mma atb %a, %b, %c : !hk.rt<32x32xbf16, #hk.mfma<acc, 16x16x16>>, !hk.rt<32x32xbf16>, !hk.rt<32x32xf32>
  hk.return
}

//===----------------------------------------------------------------------===//
// Clusters
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k() waves(8) {
  %a = hk.zero : !hk.rt<16x16xf32, col>
  // expected-error @below {{yields ('!hk.rt<16x16xf32, col>') but returns ('!hk.rt<16x16xf32, row>')}}
  %r = hk.cluster compute {
    hk.yield %a : !hk.rt<16x16xf32, col>
  } : !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k() waves(8) {
  // expected-error @below {{holds an hk.barrier; clusters are fenced by the barriers between them, not inside them}}
  hk.cluster memory {
    hk.barrier
    hk.yield
  }
  hk.return
}

// -----

hk.kernel @k() waves(8) {
  %a = hk.zero : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>
  %z = hk.zero : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  // expected-error @below {{is a memory cluster but holds an hk.mma; put matrix work in a compute cluster}}
  %r = hk.cluster memory {
    %d = hk.mma abt %a, %a, %z : !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xbf16, #hk.mfma<a, 16x16x16>>, !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
    hk.yield %d : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  } : !hk.rt<16x16xf32, #hk.mfma<acc, 16x16x16>>
  hk.return
}

//===----------------------------------------------------------------------===//
// Transfer paths
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k() waves(1) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<16x16xf32>
  // expected-error @below {{path #hk.path<buffer> applies to global memory, not '!hk.st<16x16xf32>'}}
  %r = hk.load %s[%c0, %c0] {path = #hk.path<buffer>} : !hk.st<16x16xf32> -> !hk.rt<16x16xf32>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %r = hk.zero : !hk.rt<16x16xf32>
  // expected-error @below {{direct-to-LDS transfers are for hk.group_load only}}
  hk.store %r, %a[%c0, %c0] {path = #hk.path<direct>} : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<16x16xf32>
  // expected-error @below {{direct-to-LDS transfers are for hk.group_load only}}
  hk.group_store %s, %a[%c0, %c0] {path = #hk.path<direct>} : !hk.st<16x16xf32>, !hk.gl<?x?xf32>
  hk.return
}

// -----

hk.kernel @k(%a: !hk.gl<?x?xbf16>) waves(1) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<16x64xbf16>
  // expected-error @below {{transposes through registers; a direct-to-LDS load cannot transpose}}
  hk.group_load %a[%c0, %c0], %s transpose {path = #hk.path<direct>}
      : !hk.gl<?x?xbf16>, !hk.st<16x64xbf16>
  hk.return
}

//===----------------------------------------------------------------------===//
// Wave-group barriers and cluster priorities
//===----------------------------------------------------------------------===//

// -----

hk.kernel @k() waves(8) {
  // expected-error @below {{with a wave group needs a kernel with a #hk.pingpong schedule}}
  hk.barrier group 1
  hk.return
}

// -----

hk.kernel @k() waves(8) schedule(#hk.pingpong<waves = 8>) {
  // expected-error @below {{a ping-pong kernel has wave groups 0 and 1, got 2}}
  hk.barrier group 2
  hk.return
}

// -----

hk.kernel @k() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    // expected-error @below {{with a wave group must sit directly in the kernel body, where it runs once}}
    hk.barrier group 0
  }
  hk.return
}

// -----

// expected-error @below {{wave-group barriers do not balance: group 0 runs 1, group 1 runs 2; each group must run as many as the other}}
hk.kernel @k() waves(8) schedule(#hk.pingpong<waves = 8>) {
  hk.barrier group 1
  hk.barrier group 1
  hk.barrier group 0
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  // expected-error @below {{attribute 'priority' failed to satisfy constraint}}
  hk.cluster compute priority 4 {
  }
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  // expected-error @below {{attribute 'level' failed to satisfy constraint}}
  hk.priority 4
  hk.return
}

// -----

// `hk.wait fence`: token-less, directly after a ping-pong kernel's loop.
hk.kernel @k(%A: !hk.gl<?x?xbf16>) waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x32xbf16>
  %t = hk.group_load async %A[%c0, %c0], %s : !hk.gl<?x?xbf16>, !hk.st<64x32xbf16> -> !hk.token
  // expected-error @below {{fence waits for every outstanding memory operation; it takes no tokens}}
  hk.wait [%t] fence
  hk.return
}

// -----

hk.kernel @k() waves(8) schedule(#hk.pingpong<waves = 8>) {
  // expected-error @below {{fence must directly follow the main loop of a #hk.pingpong kernel, in the kernel body}}
  hk.wait fence
  hk.return
}

// -----

hk.kernel @k() waves(4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %c1 step %c1 {
  }
  // expected-error @below {{fence must directly follow the main loop of a #hk.pingpong kernel, in the kernel body}}
  hk.wait fence
  hk.return
}

// -----

hk.kernel @k() waves(8) schedule(#hk.pingpong<waves = 8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %c1 step %c1 {
    // expected-error @below {{fence must directly follow the main loop of a #hk.pingpong kernel, in the kernel body}}
    hk.wait fence
  }
  hk.return
}

// -----

hk.kernel @k() waves(8) schedule(#hk.pingpong<waves = 8>) {
  // expected-error @below {{'fence' is a unit attribute: write `hk.wait fence`}}
  hk.wait {fence = 1}
  hk.return
}
