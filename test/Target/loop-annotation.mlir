// A loop annotation left on a back edge as a discardable attribute (as the
// SCF-to-CF lowering leaves it) becomes LLVM loop metadata.
// RUN: hk-translate %s --chip=gfx942 --emit=llvm -O0 | FileCheck %s
// CHECK: br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[UNROLL:[0-9]+]]}
// CHECK: ![[UNROLL]] = !{!"llvm.loop.unroll.disable"}
module {
  llvm.func @k(%n: i32) attributes {rocdl.kernel} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    llvm.br ^header(%c0 : i32)
  ^header(%i: i32):
    %done = llvm.icmp "sge" %i, %n : i32
    llvm.cond_br %done, ^exit, ^body
  ^body:
    %next = llvm.add %i, %c1 : i32
    llvm.br ^header(%next : i32) {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
  ^exit:
    llvm.return
  }
}
