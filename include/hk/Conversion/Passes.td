//===- Passes.td - hk conversion passes --------------------*- tablegen -*-===//

#ifndef HK_CONVERSION_PASSES_TD
#define HK_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertHKToAMDGPU : Pass<"convert-hk-to-amdgpu", "mlir::ModuleOp"> {
  let summary = "Lower hk tile programs to per-lane vectors, amdgpu and rocdl";
  let description = [{
    Every `hk.kernel` becomes an `llvm.func` AMDGPU kernel with the compact
    kernel ABI (pointers, then 32-bit sizes, then 32-bit strides, then
    scalars). Register tiles become one vector per lane, laid out by their
    layout attribute; tile ops become vector, arith, math, amdgpu and rocdl
    operations that the upstream conversions take to LLVM.

    Global tile accesses take a vector path when the whole tile lies inside
    the view and a per-element masked path otherwise (a wave-uniform
    choice), so any shape is computed correctly.

    `hk.wait` without tokens drains every memory counter. With tokens of
    direct-to-LDS group loads it waits for `vmcnt` to fall to the number of
    direct-to-LDS instructions every path issues after the awaited loads
    (across loop back edges too), fenced by scheduling barriers; tokens of
    loads staged through registers need no wait. `exact-waits=false` drains
    `vmcnt` to zero instead, for comparison.

    Layout conversions that move data go through a per-wave LDS scratch
    tile whose swizzle is chosen for the pair of layouts with the cost model
    of `hk-lds-layout`; `scratch-swizzle=false` leaves it unswizzled, for
    comparison.

    Every register tile must have a layout (run `hk-mfma-layout` first).
  }];
  let options = [
    Option<"exactWaits", "exact-waits", "bool", /*default=*/"true",
           "Wait for the exact vmcnt a token needs instead of draining">,
    Option<"scratchSwizzle", "scratch-swizzle", "bool", /*default=*/"true",
           "Swizzle the scratch of layout conversions against bank "
           "conflicts">,
  ];
  let dependentDialects = [
    "mlir::LLVM::LLVMDialect",
    "mlir::ROCDL::ROCDLDialect",
    "mlir::amdgpu::AMDGPUDialect",
    "mlir::arith::ArithDialect",
    "mlir::math::MathDialect",
    "mlir::scf::SCFDialect",
    "mlir::vector::VectorDialect",
  ];
}

def HKHoistLoopSetup : Pass<"hk-hoist-loop-setup", "mlir::ModuleOp"> {
  let summary = "Compute a loop's invariants while its prologue's loads fly";
  let description = [{
    A software-pipelined loop follows its prologue: loads, then a wait for
    them (and usually a barrier). LLVM hoists the loop's invariant
    arithmetic, such as the lane addresses of the prefetch, to the loop's
    preheader, after that wait, where it runs while nothing is in flight.
    On lowered code (after `convert-hk-to-amdgpu`), this pass moves that
    work above the wait instead, so that it overlaps the loads:

    - the pure ops between the wait and the loop, and
    - the loop's invariant, speculatable ops, also those inside `scf.if`
      ops of its body (LLVM would hoist them as well),

    when their operands are available before the wait. Only `arith` and
    `vector` ops, lane and workgroup ids and `rocdl.make.buffer.rsrc`
    move: other ops may depend on the lanes that run them
    (`rocdl.readfirstlane`) or on memory. The wait is the run of
    synchronization ops right before the loop (`amdgpu.memory_counter_wait`,
    `rocdl.s.waitcnt`, `rocdl.s.barrier`, `rocdl.sched.barrier`, compiler
    fences, and `scf.if` ops holding only those); a loop with no wait
    there is left alone.
  }];
}

def HKUnswitchLoops : Pass<"hk-unswitch-loops", "mlir::ModuleOp"> {
  let summary = "Version a kernel's loops on their loop-invariant branches";
  let description = [{
    On lowered code (after `convert-hk-to-amdgpu`), a loop at the top level
    of a kernel whose body branches on a condition the loop does not
    change (an `scf.if` at the top level of the body whose condition is
    defined before the loop) pays for that branch every iteration: the
    double-buffered ping-pong loop chooses between its steady-state
    prefetch and the guarded one, and between the wave group that
    prefetches and the one that does not. This pass versions the last such
    loop of each function instead: the loop and everything after it up to
    the end of the function body are placed in both regions of one
    `scf.if` on the condition, each copy with the condition known, and the
    copies' branches on it folded away. The steady state then runs without
    the branch, and edge tiles run a loop of their own. Each copy is
    versioned again on the next such condition it still branches on,
    while the copies number at most `max-copies`.

    The rest of the function is copied along with the loop so that no
    value merges the copies' results, and the copies begin at an earlier
    op that computes a register vector the loop starts from (an
    accumulator an earlier loop computed), with the condition's
    computation moved above it where it may run earlier: a merged or
    shared accumulator made LLVM's register allocator spill it. Only
    conditions every lane of a wave shares are taken (built from a
    kernel's arguments, constants, workgroup ids and sizes and
    `rocdl.readfirstlane` by `arith` and `index` ops): a wave then runs
    exactly one copy, and executes the same barriers as before. In the
    copies, `rocdl.readfirstlane` ops of invariant values at the top level
    of the body (the buffer resources' bases) move before the loop, which
    LLVM does not do.
  }];
  let options = [
    Option<"maxCopies", "max-copies", "unsigned", /*default=*/"4",
           "The most copies of one loop (0 or 1 leaves every loop as it is)">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::scf::SCFDialect",
  ];
}

def HKPeelZeroStart : Pass<"hk-peel-zero-start", "mlir::ModuleOp"> {
  let summary = "Run the first iteration of loops whose MFMA accumulators "
                "start at zero on its own";
  let description = [{
    On lowered code (after `convert-hk-to-amdgpu`), a loop that carries an
    MFMA accumulator from zero receives it in registers zeroed before the
    loop: a `v_mov` per register, 128 per wave in the 256x256 ping-pong
    GEMMs, issued between the prologue's barrier and the first MFMA, where
    the wave group that computes first waits for them. This pass peels the
    first iteration of each such loop into an `scf.if` on the loop running
    at all. In that copy the accumulators are the zero constant, which
    every MFMA reads as an inline operand, and the loop starts one step
    later from the copy's results; the zeros are materialised only on the
    branch where the loop does not run.

    A loop is peeled when one of its initial values is a zero splat that
    reaches an MFMA's accumulator operand in the body through element moves
    alone (strided slices and inserts, extracts, shuffles, casts), and when
    its body holds no loop of its own. A value that passes through
    arithmetic first (attention's rescaled output) would still have its
    zeros computed on. A nested loop is an edge tile's element-by-element
    path in a loop copy of `hk-unswitch-loops` run on few tiles: copying
    it grows the code most and, in three of the example GEMMs, made LLVM
    spill registers. The body is copied once per peeled loop, so the
    code grows by one iteration of each steady-state loop copy.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::scf::SCFDialect",
  ];
}

#endif // HK_CONVERSION_PASSES_TD
