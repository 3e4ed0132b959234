// Buffer accesses go through one wave-uniform resource per view: base
// pointer, stride 0 (raw buffer), num_records = bytes from the view's first
// element to its last (0 for an empty view), and the chip's flags word
// (0x27000: 32-bit data format, raw addressing). Offsets past num_records
// read zero and drop writes, which is what masked edge elements use.
// RUN: hk-opt %s -split-input-file --hk-mfma-layout --hk-buffer-loads --convert-hk-to-amdgpu --canonicalize | FileCheck %s

// CHECK-LABEL: llvm.func @resource(
// CHECK-SAME: %[[PTR:[^:]*]]: !llvm.ptr<1> {hk.name = "{{[a-z0-9_]*}}"}, %[[ROWS:[^:]*]]: i32 {hk.name = "{{[a-z0-9_]*}}"}, %[[COLS:[^:]*]]: i32 {hk.name = "{{[a-z0-9_]*}}"}, %[[STRIDE:[^:]*]]: i32 {hk.name = "{{[a-z0-9_]*}}"})
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 159744 : i32
// CHECK-DAG: %[[ZERO16:.*]] = arith.constant 0 : i16
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK: %[[LASTROW:.*]] = arith.subi %[[ROWS]], %[[ONE]]
// CHECK: %[[ROWSPAN:.*]] = arith.muli %[[LASTROW]], %[[STRIDE]]
// CHECK: %[[SPAN0:.*]] = arith.addi %[[ROWSPAN]], %[[ONE]]
// CHECK: %[[NOROWS:.*]] = arith.cmpi eq, %[[ROWS]], %{{.*}}
// CHECK: %[[LASTCOL:.*]] = arith.subi %[[COLS]], %[[ONE]]
// CHECK: %[[SPAN:.*]] = arith.addi %[[SPAN0]], %[[LASTCOL]]
// CHECK: %[[NOCOLS:.*]] = arith.cmpi eq, %[[COLS]], %{{.*}}
// CHECK: %[[EMPTY:.*]] = arith.ori %[[NOROWS]], %[[NOCOLS]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[SPAN]], %[[FOUR]]
// CHECK: %[[SPANNED:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[BYTES]]
// The fields are uniform; readfirstlane keeps the backend from placing the
// resource in VGPRs (and wrapping every access in a waterfall loop).
// CHECK: %[[RECORDS:.*]] = rocdl.readfirstlane %[[SPANNED]] : i32
// CHECK: %[[RECORDS64:.*]] = arith.extui %[[RECORDS]] : i32 to i64
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %[[PTR]], %[[ZERO16]], %[[RECORDS64]], %[[FLAGS]] : <1> to <8>
// Inside the view: 16-byte loads. At the edge: element loads whose offset
// is num_records where the element lies outside.
// CHECK: rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}} : vector<4xf32>
// CHECK: } else {
// CHECK: %[[OFF:.*]] = arith.select %{{.*}}, %{{.*}}, %[[RECORDS]] : i32
// CHECK: rocdl.raw.ptr.buffer.load %[[RSRC]], %[[OFF]], %{{.*}} : f32
// The store builds the same resource for itself.
// CHECK: %[[RSRC2:.*]] = rocdl.make.buffer.rsrc %[[PTR]], %[[ZERO16]], %{{.*}}, %[[FLAGS]]
// CHECK: rocdl.raw.ptr.buffer.store %{{.*}}, %[[RSRC2]], %{{.*}} : vector<4xf32>
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @resource(%a: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %r = hk.load %a[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32>
  hk.store %r, %a[%c0, %c0] : !hk.rt<16x16xf32> -> !hk.gl<?x?xf32>
  hk.return
}
}

// -----

// gfx950 uses the same flags. Narrow elements move as dwords: 16 fp8
// bytes are one vector<4xi32> buffer load, bitcast.
// CHECK-LABEL: llvm.func @fp8
// CHECK: rocdl.make.buffer.rsrc %{{.*}}, %{{.*}}, %{{.*}}, %c159744_i32
// CHECK: %[[DWORDS:.*]] = rocdl.raw.ptr.buffer.load %{{.*}} : vector<4xi32>
// CHECK: llvm.bitcast %[[DWORDS]] : vector<4xi32> to vector<16xi8>
module attributes {hk.target = #hk.target<"gfx950">} {
hk.kernel @fp8(%a: !hk.gl<?x?xf8E4M3FN>) waves(1) {
  %c0 = arith.constant 0 : index
  %s = hk.alloc : !hk.st<64x128xf8E4M3FN>
  hk.group_load %a[%c0, %c0], %s {path = #hk.path<buffer>} : !hk.gl<?x?xf8E4M3FN>, !hk.st<64x128xf8E4M3FN>
  hk.return
}
}

// -----

// A register vector of a 2-D view lies on one line (row %i): its buffer
// ends after that line's last element, or is empty when the row is outside
// the view, so the range check masks the elements past the line and no
// element needs a condition of its own. The 16x16 accumulator's rows
// vector holds 4 rows per lane: 4 unconditional loads, and the store's
// only condition is the one lane (of the replicas) that writes.
// CHECK-LABEL: llvm.func @line
// CHECK-SAME: %[[PTR:[^:]*]]: !llvm.ptr<1> {hk.name = "v"}, %[[ROWS:[^:]*]]: i32 {hk.name = "v_size0"}, %[[COLS:[^:]*]]: i32 {hk.name = "v_size1"}, %[[STRIDE:[^:]*]]: i32 {hk.name = "v_stride0"}, %[[I:[^:]*]]: i32 {hk.name = "i32"}
// CHECK: %[[LINE:.*]] = arith.muli %[[I]], %[[STRIDE]]
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[I]], %[[ROWS]]
// CHECK: %[[END:.*]] = arith.addi %[[LINE]], %[[COLS]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[END]], %c4_i32
// CHECK: %[[SEL:.*]] = arith.select %[[INSIDE]], %[[BYTES]], %c0_i32
// CHECK: %[[RECORDS:.*]] = rocdl.readfirstlane %[[SEL]] : i32
// CHECK: %[[RECORDS64:.*]] = arith.extui %[[RECORDS]] : i32 to i64
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %[[PTR]], %{{.*}}, %[[RECORDS64]], %{{.*}} : <1> to <8>
// CHECK-NOT: arith.select
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}} : f32
// CHECK: arith.select %{{.*}}, %{{.*}}, %c0_i32
// CHECK-NEXT: rocdl.readfirstlane
// CHECK: rocdl.make.buffer.rsrc %[[PTR]]
// CHECK: %[[WRITER:.*]] = arith.cmpi eq
// CHECK-COUNT-4: arith.select %[[WRITER]]
// CHECK-NOT: arith.select
module attributes {hk.target = #hk.target<"gfx942">} {
hk.kernel @line(%v: !hk.gl<?x?xf32>, %i32: i32) waves(1) {
  %c1 = arith.constant 1 : index
  %i = arith.index_cast %i32 : i32 to index
  %r = hk.load %v[%i, %c1] : !hk.gl<?x?xf32>
      -> !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>>
  hk.store %r, %v[%i, %c1]
      : !hk.rv<16xf32, #hk.vec<rows, #hk.mfma<acc, 16x16x16>>> -> !hk.gl<?x?xf32>
  hk.return
}
}
