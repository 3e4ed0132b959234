//===- Passes.td - hk dialect passes -----------------------*- tablegen -*-===//

#ifndef HK_DIALECT_HK_TRANSFORMS_PASSES_TD
#define HK_DIALECT_HK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HKTarget : Pass<"hk-target", "mlir::ModuleOp"> {
  let summary = "Name the chip a module is compiled for";
  let description = [{
    Sets `hk.target = #hk.target<"chip">` on the module so that later passes
    (`hk-check-chip` first) check and use the chip's facts. The `chip`
    option is required. A module that already names a different chip is an
    error; one that names the same chip is left alone.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip: gfx942 or gfx950 (required)">,
  ];
  let dependentDialects = ["::hk::HKDialect"];
}

def HKCheckChip : Pass<"hk-check-chip", "mlir::ModuleOp"> {
  let summary = "Check every op against what the target chip can do";
  let description = [{
    Op verifiers check what an op alone determines; whether the module's
    target chip (its `hk.target`, named by `hk-target`) can run the op is
    checked here, wherever the op sits: every `hk.mma` needs an MFMA of the
    chip for its element types (the pinned `instr`, or one whose shape
    divides the tiles) and fp8 operands in the format the chip's matrix
    cores read (FNUZ on gfx942, OCP on gfx950); every `hk.alloc`, and the
    allocations of a kernel together, must fit the chip's LDS; the swizzle
    of a direct-to-LDS `hk.group_load` must keep the bytes each lane writes
    together. Every illegal op gets its own error. A module without a
    target is an error. `convert-hk-to-amdgpu` makes the same checks before
    lowering.

    ```mlir
    // Rejected on gfx942, which has no bf16 16x16x32 MFMA:
    module attributes {hk.target = #hk.target<"gfx942">} {
      hk.kernel @k() waves(1) {
        ...
        %d = hk.mma ab %a, %b, %c {instr = #hk.mfma_shape<16x16x32>} : ...
      }
    }
    ```
  }];
  let dependentDialects = ["::hk::HKDialect"];
}

def HKMfmaLayout : Pass<"hk-mfma-layout", "mlir::ModuleOp"> {
  let summary = "Choose MFMA instructions and the layout of every register tile";
  let description = [{
    For every `hk.mma` without a pinned `instr`, picks the matrix-core
    instruction from the chip, the element types and the tile shape: the
    candidates are the chip's single-block MFMAs whose shape divides the
    tiles; among them the pass prefers the one that needs the fewest layout
    conversions (user-written layouts are kept), then the deepest K per
    instruction (gfx950's double-rate bf16/f16 shapes, the scaled f8f6f4
    shapes for OCP fp8), then 16x16 over 32x32 blocks. The choice is
    recorded as `instr`.

    On a chip with transposing LDS reads (gfx950's ds_read_b64_tr_b16), a
    shared tile written only by transposing `hk.group_load`s and read
    (without a written layout) only as the B operand of `hk.mma abt` is
    first kept untransposed: its loads lose `transpose`, its reads take
    the transposed block (indices swapped) and the MFMAs become `ab`. The
    copy can then go direct to LDS, where a transposing one is staged
    through registers and waits for its loads at once. A tile read in a
    loop that none of its loads is in (copied once, read every iteration)
    stays transposed: a transposing read moves half the bytes of a plain
    one, a cost paid on every read.

    Then every register tile without a layout gets one. Values that must
    share a layout (operands and results of elementwise ops, conversions,
    loop-carried values, an accumulator and the product it becomes) form one
    class; a class takes the MFMA operand layout of its first use by an
    `hk.mma`, or `row` when no MFMA reads it. Where a user-written layout
    disagrees with what the instruction reads, an `hk.convert_layout` is
    inserted.
  }];
  let dependentDialects = ["::hk::HKDialect"];
}

def HKDoubleBuffer : Pass<"hk-double-buffer", "mlir::ModuleOp"> {
  let summary = "Software-pipeline the plain main loop of each scheduled kernel";
  let description = [{
    Works on the main loop of every kernel with a `schedule`: the loop that
    names one (`hk.schedule`), or else its one top-level `scf.for` holding
    `hk.mma` ops. A plain loop (synchronous `hk.group_load`s into shared
    tiles, `hk.load`s from them, computation on registers, barriers
    anywhere) is software-pipelined: every loaded shared tile gets a spare
    buffer, the first tile is loaded before the loop, and iteration k
    prefetches tile k+1 into the spare buffers with asynchronous group
    loads while it computes on tile k; the buffers swap through the loop's
    iter_args, and the iteration ends by waiting for the prefetch and a
    barrier. A loop whose doubled tiles exceed the chip's LDS is rejected.
    With `#hk.interleave<waves = 4, stages = 3>` every loaded tile gets two
    spare buffers: tiles 0 and 1 are loaded before the loop, iteration k
    prefetches tile k+2 into the buffers tile k-1 used (with its edge path
    when it is not wholly inside; past the last tile, where only the tokens
    matter, the last tile inside again, branch-free) and ends waiting for
    tile k+1's tokens only, and the three buffers rotate through the
    iter_args; everything is waited for after the loop. The shared-tile
    reads an iteration starts with come before its prefetch there, so that
    its first MFMAs wait for their fragments only.

    A register tile or vector the loop reads that was loaded from global
    memory before it (attention's Q) is waited for (`hk.wait`) before the
    prologue's group loads. LLVM's wait insertion cannot see that the
    prologue's own waits, past its edge versions, retired that load, and
    would otherwise wait for it again before its first use in the loop:
    on every iteration, behind the prefetch then in flight.

    The body becomes `hk.cluster`s shaped for the schedule, which
    `hk-ping-pong` or `hk-interleave` then realises. `#hk.pingpong`:
    alternating memory clusters (runs of shared-tile reads; the first then
    issues the prefetch, from wave group 0 only, in a nested cluster that
    keeps it after the reads) and compute clusters (runs of register
    computation), the wait after the last compute cluster.
    For both schedules, a flag computed once before the loop says whether
    every iteration's tiles lie inside their views (each load's indices must grow
    with the induction variable: sums, differences with a loop-invariant
    subtrahend, products with a non-negative constant, signed minima and
    maxima of such values (a tile index clamped to the first or the last
    tile); then the first and
    the last iteration's tiles bound all others); where it holds, the
    prefetch is an `inbounds` group load of tile min(k+1, last), without
    bounds arithmetic or edge path, behind one uniform branch on the flag.
    `#hk.interleave`: one compute cluster; where the flag holds and every
    read of the body goes before the prefetch (a GEMM), the prefetch of
    tile min(k+1, last) as above; otherwise, per iteration,
    when the next tiles exist and lie wholly inside their views
    (`hk.in_bounds`) a branch-free `inbounds` group load, else the guarded
    prefetch with its edge path, all after the body's first reads. When every read of
    the body goes before the prefetch (a GEMM), only the prefetch is
    versioned (`scf.if`s in the cluster), so that the accumulators do
    not merge at the end of a branch (LLVM copied them back every
    iteration); otherwise (attention's V reads) the whole cluster is.
    hk-interleave, given vector-memory groups, and hk-buffer-loads, for a
    prefetch staged through registers, version such a cluster whole again:
    both need the loads in the MFMAs' basic block. Where every
    load's indices grow with the induction variable, the last iteration
    whose tiles lie inside (the last one, the one before it when the last
    tile is ragged, or none) is computed once before the loop, and an
    iteration compares its next k with it instead of checking each tile.

    A loop already made of `hk.cluster`s keeps its own buffers and waits.

    How many memory/compute cluster pairs a ping-pong iteration has is
    chosen by a cost function, unless the kernel's
    `#hk.pingpong<waves = 8, clusters = N>` fixes it: consecutive runs of
    reads are joined into one memory cluster (the reads move up past the
    computation between them) and their computation into one compute
    cluster. Each pair costs two barriers, at which the groups wait for
    each other; a larger memory cluster holds more fragments in registers
    at once. The cost is the iteration's predicted cycles, its barrier
    intervals each as long as the slower of the two clusters in it (LDS
    reads of the group's four waves and the last one's latency, and in
    group 0's first memory cluster an L2 hit's latency when the prefetch
    is staged through registers: transposed, or on a chip without
    direct-to-LDS loads; MFMA
    cycles and about one vector instruction per register of each computed
    value, an exponential per element of a softmax) plus the barrier's
    round trip, with the timing model's figures for the chip. Every
    grouping is tried up to 8 runs of reads (past that, all joined or as
    written; `clusters` must then be 1 or the run count). A grouping is a
    candidate when its VGPR estimate (carried and loop-invariant
    tiles, the largest memory cluster's fragments, the largest other
    computed value, and a reserve of 64) fits the wave's share of the
    SIMD; when none fits the loop stays as written (its vector work where
    that costs less, below).

    Each grouping is also costed with the vector work of every compute
    cluster that needs none of its pair's reads, MFMAs or layout
    conversions (attention's mask and softmax on the previous pair's
    scores, the rescale of its output and sums, P's conversion; not ops
    that use no value of the iteration, such as a zeroed accumulator)
    moved into the memory cluster before it, after its reads and
    prefetch: it then runs beside the other group's MFMAs instead of
    holding up its own, and that memory cluster lasts as long as the
    longer of its reads and that work. Ties keep the work in place; the
    kernel's `#hk.pingpong<vector_in_memory = true|false>` decides instead.
    `remarks=true` reports the choice, its cost and that of the loop as
    written (the work in place).
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report each ping-pong loop's cluster pairs, their predicted "
           "cycles and VGPR estimate as a remark">,
  ];
  let dependentDialects = ["::hk::HKDialect", "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def HKPingPong : Pass<"hk-ping-pong", "mlir::ModuleOp"> {
  let summary = "Realise the 8-wave ping-pong schedule on cluster loops";
  let description = [{
    Works on the main loop of every `#hk.pingpong<waves = 8>` kernel, a
    loop of alternating `hk.cluster memory` and `hk.cluster compute` ops,
    starting with memory and ending with compute (written so, or made so by
    `hk-double-buffer`); `hk.wait`s may follow a cluster. Waves [0, 4) and
    [4, 8) form two groups, one wave of each per SIMD. Every cluster is
    closed by a barrier (after its waits), compute clusters may run at
    `priority 1` (`s_setprio`, below), and group 1 runs one extra barrier before
    the loop (`hk.barrier group 1`), so it runs one cluster behind group 0
    and the groups take turns on the matrix cores; group 0 runs one after
    the loop to balance. Run after `hk-mfma-layout`.

    A barrier normally waits for the wave's LDS accesses. The barrier that
    closes a memory cluster leaves its reads in flight (`hk.barrier
    reads_in_flight`) when no other wave can overwrite what they read
    before the reading wave uses it: the cluster writes no LDS that an
    `hk.load` of the loop reads (a prefetch into the spare buffer is
    fine), and the cluster two on, which the other group runs meanwhile
    (past the loop's end, the next iteration's first one, whose spare
    buffers are this iteration's current ones), writes no LDS at all. The
    compute cluster after it then waits
    for each MFMA's own fragments (LLVM's exact `lgkmcnt`) instead of the
    whole cluster's reads.

    A loop whose shared buffers trade places every iteration through its
    iter_args (as `hk-double-buffer`'s current and spare tiles do), and
    whose final buffers nothing reads, is unrolled by two: each half then
    reads and fills fixed buffers, whose LDS addresses become constants
    (immediate offsets of the reads) instead of values carried and re-added
    every iteration. The second half is skipped, by a uniform branch, when
    its iteration does not exist.

    Group 0 runs the epilogue's first part, up to its first barrier (or
    its end), while group 1 runs its last MFMAs, where the loop is done
    with LDS as group 0 leaves it: the barrier closing the last memory
    cluster drains its reads, the last compute cluster touches no memory,
    and group 0 issues every asynchronous load of the loop. Its balancing
    barrier moves down to the end of that part and leaves its LDS writes
    in flight (the next barrier waits for them). An epilogue that reuses
    the loop's LDS starts with a token-less `hk.wait` and a block-wide
    `hk.barrier`, which would hold group 0 until group 1 is done: the
    barrier goes and the wait becomes `hk.wait fence`, directly after the
    loop, and the first part is what follows up to the next barrier.
    Where the kernel sets no priorities, both groups run at priority 1
    until they leave the loop (`hk.priority`), so that group 1's last
    MFMAs outrank group 0's epilogue (the older wave).

    Whether the compute clusters run at `priority 1` is the kernel's
    `#hk.pingpong<setprio = true|false>`, else the `setprio` option's
    (`true` or `false`), else (`auto`, the default) a cost function's,
    which needs the target chip: a SIMD issues one instruction per port
    (vector ALU, shared by VALU and MFMA; LDS; ...) per slot, oldest wave
    first among equal priorities, and group 0's waves are the older. So
    without the priority, group 0's memory cluster may take the slots of
    group 1's compute cluster on a port both use (its VALU work against
    the MFMAs, its LDS reads against a layout conversion's round trip);
    with it, every compute cluster issues two `s_setprio` in line with its
    MFMAs. The cost function predicts an iteration both ways from the
    clusters' work (LDS instructions, MFMAs, about one VALU instruction
    per register of each value made) and the timing model's figures for
    the chip, each interval between barriers as long as its longer
    cluster, a contended slot counted as lost, and raises the priority
    where that is faster. Memory clusters that only read LDS beside
    compute clusters that only multiply (the GEMMs) give it nothing to
    win. A `priority` written on a cluster is always kept. `remarks=true`
    reports the choice and both predictions.
  }];
  let options = [
    Option<"setprio", "setprio", "::hk::PriorityMode",
           /*default=*/"::hk::PriorityMode::Auto",
           "Run compute clusters at priority 1 (s_setprio): auto (where "
           "the cost function predicts it pays), true or false",
           [{HK_PRIORITY_MODE_VALUES}]>,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report each ping-pong loop's priority choice and its costs as "
           "a remark">,
  ];
  let dependentDialects = ["::hk::HKDialect", "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def HKInterleave : Pass<"hk-interleave", "mlir::ModuleOp"> {
  let summary = "Realise the 4-wave interleave schedule on cluster loops";
  let description = [{
    Works on the main loop of every `#hk.interleave<waves = 4>` kernel, a
    loop of `hk.cluster`s (written so, or made so by `hk-double-buffer`).
    At the end of each compute cluster it adds `sched_group_barrier`s that
    make LLVM interleave groups of `mfma-per-group` MFMAs,
    `ds-reads-per-group` LDS reads and `vmem-per-group` vector-memory reads
    (0 leaves a class out), as many groups as the cluster's MFMAs fill. The
    kernel's `#hk.interleave<waves = 4, mfma = 2, ds_reads = 1, vmem = 0>`
    overrides the options. A size neither gives (-1, the default) is chosen
    per compute cluster by a cost function: a small in-order issue model of
    the cluster's MFMAs, LDS reads and prefetch reads on one wave, with the
    timing model's figures for the chip (MFMA cycles, issue cadence, LDS
    cycles and latency, L2 latency); it needs the target chip (`hk-target`).
    `remarks=true` reports each choice, its cost and that of 1/1/1. Where
    the cluster's prefetch is versioned alone (a GEMM body) and the sizes,
    chosen by the cost function, claim neither its reads nor its loads,
    leading groups place each LDS read ahead of the prefetch, with its
    share of the prefetch's loads, before the MFMA groups: once
    `hk-unswitch-loops` folds the steady state's branch, all of them share
    the MFMAs' basic block, and LLVM would otherwise move the reads down to
    their MFMAs.

    A compute cluster that holds both MFMAs and an `hk.softmax` also gets
    issue priorities (`hk.priority`): 1 from its start, 0 from the first
    operation after the MFMAs that precede each softmax, 1 again before
    the next MFMA, and 0 after the loop. A SIMD issues one vector
    instruction, VALU or MFMA, per sequencer cycle to its highest-priority
    ready wave: raised, a wave with an MFMA to issue takes the slot
    whenever the matrix pipe frees, and the other waves' softmax fills the
    slots in between. A kernel that sets any `hk.priority` itself keeps
    its own, and `priorities=false` leaves them out. A loop
    whose shared buffers trade places every iteration (hk-double-buffer's)
    is then unrolled by two, as `hk-ping-pong` does, and one whose buffers
    rotate in rings of three (`stages = 3`) by three, so that each copy
    reads fixed buffers at immediate LDS offsets. Run after
    `hk-mfma-layout`.
  }];
  let options = [
    Option<"mfmaPerGroup", "mfma-per-group", "int", /*default=*/"-1",
           "MFMAs per scheduling group (-1: the cost function's choice)">,
    Option<"dsReadsPerGroup", "ds-reads-per-group", "int",
           /*default=*/"-1",
           "LDS reads after each MFMA group (-1: the cost function's "
           "choice)">,
    Option<"vmemPerGroup", "vmem-per-group", "int", /*default=*/"-1",
           "Vector-memory reads after each MFMA group (-1: the cost "
           "function's choice)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report each compute cluster's group sizes and their cost as a "
           "remark">,
    Option<"priorities", "priorities", "bool", /*default=*/"true",
           "Run the MFMAs of clusters holding a softmax at issue priority 1 "
           "and the softmax at 0">,
  ];
  let dependentDialects = ["::hk::HKDialect", "mlir::ROCDL::ROCDLDialect"];
}

def HKBufferLoads : Pass<"hk-buffer-loads", "mlir::ModuleOp"> {
  let summary = "Move global tile traffic through buffer and direct-to-LDS loads";
  let description = [{
    Gives every global-memory access without a `path` one: register-tile
    loads and stores and group stores go through buffer instructions
    (`#hk.path<buffer>`) on a wave-uniform resource spanning the view, so
    edges read zeros instead of faulting. Group loads become direct-to-LDS
    buffer loads (`#hk.path<direct>`) or buffer loads staged through
    registers: an asynchronous group load (a prefetch) goes direct on every
    chip that has such loads, however narrow (4 bytes per lane on gfx942),
    since a staged prefetch writes LDS right after its own loads and so
    waits for them instead of overlapping the computation; a synchronous
    one goes direct where the chip moves 16 bytes per lane that way
    (gfx950), since narrower direct loads take more instructions and the
    load waits for its data either way.

    `direct=always` makes group loads direct on every chip (4 bytes per lane
    on gfx942), `direct=never` stages them through registers everywhere.
    A staged prefetch that hk-double-buffer versioned alone in a compute
    cluster gets the cluster versioned whole, so that the lowering can
    defer its LDS writes behind the MFMAs.
    Run before `hk-lds-layout`, which keeps the bytes of each direct lane
    together.
  }];
  let options = [
    Option<"direct", "direct", "::hk::DirectMode",
           /*default=*/"::hk::DirectMode::Auto",
           "Direct-to-LDS group loads: auto, always or never",
           [{HK_DIRECT_MODE_VALUES}]>,
  ];
  let dependentDialects = ["::hk::HKDialect"];
}

def HKGridSwizzle : Pass<"hk-grid-swizzle", "mlir::ModuleOp"> {
  let summary = "Reorder the grid's blocks for L2 locality";
  let description = [{
    Replaces every `hk.block_id` of a kernel with a bijective remapping of
    the grid, so that blocks which share operand tiles run close together.

    With `chunk=c > 0`, an XCD remap of each z slice: the hardware hands
    the grid's blocks to its XCDs in turn (8 on gfx942 and gfx950), in
    linear order, x fastest, then y, then z, so the blocks of one slice
    with the same `pid % xcds` (`pid = y * gx + x`, the id in the slice)
    share an XCD. The pass renumbers each slice's blocks so that each XCD
    receives `c` consecutive logical blocks in turn, and so shares L2 with
    its neighbours: within every run of `xcds * c` blocks of the slice,
    `new = (local / c) * xcds * c + (pid % xcds) * c + local % c` where
    `local = pid / xcds`. Blocks past the slice's last whole run keep their
    id, so any grid is covered exactly once; `z` is kept, which spares a
    division by the slice's size at every block's start.

    With `group=g > 0`, grouped ordering of each z slice: logical ids walk
    down `g` block rows (`x`) before moving to the next column (`y`), the
    last group taking the rows that remain, so a band of A tiles stays in
    cache while B tiles stream past it.

    The remapped ids are the same in every lane, and each goes through
    `rocdl.readfirstlane` to say so: the divisions by grid sizes use vector
    instructions, and without it the backend may keep the ids, and every
    address derived from them, in vector registers (a buffer load whose
    scalar offset lives in a vector register becomes a loop over lanes).

    A kernel's own `hk.grid_order` attribute (`#hk.grid_order<chunk = 4,
    group = 8>`) takes the options' place for that kernel and is consumed.
    A kernel records what it received in a `hk.grid_swizzle` attribute and
    is not swizzled twice. `chunk=0 group=0` (the default) changes nothing
    in kernels that ask for no order.
  }];
  let options = [
    Option<"chunk", "chunk", "unsigned", /*default=*/"0",
           "Consecutive blocks per XCD (0: no XCD remap) in kernels "
           "without an hk.grid_order">,
    Option<"group", "group", "unsigned", /*default=*/"0",
           "Block rows per group (0: row-major order) in kernels without "
           "an hk.grid_order">,
  ];
  let dependentDialects = ["::hk::HKDialect", "mlir::arith::ArithDialect",
                           "mlir::ROCDL::ROCDLDialect"];
}

def HKLdsLayout : Pass<"hk-lds-layout", "mlir::ModuleOp"> {
  let summary = "Choose a bank-conflict-free swizzle for every shared tile";
  let description = [{
    For every shared tile without a swizzle, simulates the LDS instructions
    the lowering will emit for each of its writes and reads (register-tile
    loads and stores at every subtile position, the chunks of group copies
    per wave and round), with every lane's byte address, and costs them
    under the chip's LDS bank model: the lanes are served in phases whose
    size depends on the access width, and a phase lasts as many cycles as
    the most distinct dwords one bank holds. Among XOR swizzles
    (`#hk.swizzle<vec, per_phase, max_phase>`) the pass picks the one with
    the fewest LDS cycles, preferring fewer instructions and then simpler
    swizzles on ties, and records it on the tile's type, so every access
    uses it.

    A user-written swizzle is kept, but must keep together the bytes each
    lane of a direct-to-LDS group load writes. With `swizzle=false`, tiles
    get `#hk.swizzle<none>` (for comparing bank conflicts).
  }];
  let options = [
    Option<"swizzle", "swizzle", "bool", /*default=*/"true",
           "Choose swizzles (false: leave tiles unswizzled)">,
  ];
  let dependentDialects = ["::hk::HKDialect"];
}

#endif // HK_DIALECT_HK_TRANSFORMS_PASSES_TD
