// Every diagnostic of the compare, select, index, integer and bit-cast ops
// and of hk.convert's element pairs, one case each.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

hk.kernel @k(%x: f32) waves(1) {
  %i = hk.iota rows : !hk.rt<16x16xi32, row>
  // expected-error @below {{compares f32, f16 or bf16 elements, got 'i32'; use hk.cmpi}}
  %m = hk.cmpf olt, %i, %i : !hk.rt<16x16xi32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{compares i32 elements, got 'f32'; use hk.cmpf}}
  %m = hk.cmpi slt, %f, %f : !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32, %n: i32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{right-hand side must be '!hk.rt<16x16xf32, row>' or a scalar 'f32', got 'i32'}}
  %m = hk.cmpf olt, %f, %n : !hk.rt<16x16xf32, row>, i32
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{condition must be a mask (i1 elements), got '!hk.rt<16x16xf32, row>'}}
  %s = hk.select %f, %f, %f : !hk.rt<16x16xf32, row>, !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  %m = hk.cmpf olt, %f, %f : !hk.rt<16x16xf32, row>
  %g = hk.fill %x : f32 -> !hk.rt<16x16xf32, col>
  // expected-error @below {{condition '!hk.rt<16x16xi1, row>' must have the shape and layout of '!hk.rt<16x16xf32, col>'}}
  %s = hk.select %m, %g, %g : !hk.rt<16x16xi1, row>, !hk.rt<16x16xf32, col>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  %m = hk.cmpf olt, %f, %f : !hk.rt<16x16xf32, row>
  %c = hk.convert %f : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xi8, row>
  // expected-error @below {{selects f32, f16, bf16, i32 or i1 elements, got 'i8'}}
  %s = hk.select %m, %c, %c : !hk.rt<16x16xi1, row>, !hk.rt<16x16xi8, row>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  // expected-error @below {{of a tile needs 'rows' or 'cols'}}
  %i = hk.iota : !hk.rt<16x16xi32, row>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  // expected-error @below {{of a vector numbers its elements; 'rows' or 'cols' applies to tiles only}}
  %i = hk.iota rows : !hk.rv<16xi32>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  // expected-error @below {{makes i32 or f32 indices, got 'bf16'}}
  %i = hk.iota rows : !hk.rt<16x16xbf16, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{works on i32 or i1 elements, got 'f32'}}
  %a = hk.and %f, %f : !hk.rt<16x16xf32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  %m = hk.cmpf olt, %f, %f : !hk.rt<16x16xf32, row>
  // expected-error @below {{works on i32 elements, got 'i1'}}
  %a = hk.shl %m, %m : !hk.rt<16x16xi1, row>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  %i = hk.iota rows : !hk.rt<16x16xi32, row>
  // expected-error @below {{computes on f32, f16 or bf16 elements, got 'i32' (integer division is not provided)}}
  %d = hk.div %i, %i : !hk.rt<16x16xi32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  %m = hk.cmpf olt, %f, %f : !hk.rt<16x16xf32, row>
  // expected-error @below {{computes on f32, f16 or bf16 or i32 elements, got 'i1'}}
  %a = hk.add %m, %m : !hk.rt<16x16xi1, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{cannot make a mask from 'f32'; compare with hk.cmpf or hk.cmpi}}
  %m = hk.convert %f : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xi1, row>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  %i = hk.iota rows : !hk.rt<16x16xi32, row>
  // expected-error @below {{has no direct conversion from 'i32' to 'bf16'; integers convert to and from f32 only (convert through f32 in two steps)}}
  %b = hk.convert %i : !hk.rt<16x16xi32, row> -> !hk.rt<16x16xbf16, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{reinterprets elements of one width, got 'f32' and 'i8'}}
  %b = hk.bitcast %f : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xi8, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  // expected-error @below {{keeps shape and layout, but '!hk.rt<16x16xf32, row>' and '!hk.rt<16x16xi32, col>' differ}}
  %b = hk.bitcast %f : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xi32, col>
  hk.return
}

// -----

hk.kernel @k() waves(1) {
  %i = hk.iota rows : !hk.rt<16x16xi32, row>
  // expected-error @below {{computes on f32, f16 or bf16 elements, got 'i32'}}
  %t = hk.tanh %i : !hk.rt<16x16xi32, row>
  hk.return
}

// -----

hk.kernel @k(%x: f32) waves(1) {
  %f = hk.fill %x : f32 -> !hk.rt<16x16xf32, row>
  %q = hk.convert %f : !hk.rt<16x16xf32, row> -> !hk.rt<16x16xf8E4M3FN, row>
  // expected-error @below {{computes on f32, f16 or bf16 elements, got 'f8E4M3FN'}}
  %g = hk.gelu %q : !hk.rt<16x16xf8E4M3FN, row>
  hk.return
}
