"""Checks `hk-report --json` output (read from stdin) against the schema
docs/report.md documents, and the invariants of the counts: the category
counts of a loop add up to its instructions, loops and the code outside them
add up to the kernel's code, nested loops lie inside their parent one level
deeper. Prints one summary line per kernel and loop for FileCheck; exits 1
with the reason when a check fails."""
import json
import sys

OBJECT_KEYS = {"path", "chip", "code_object_version", "target", "kernels"}
KERNEL_KEYS = {
    "name", "args", "kernarg_bytes", "vgpr", "agpr", "sgpr", "vgpr_spill",
    "sgpr_spill", "lds_bytes", "scratch_bytes", "max_workgroup_size",
    "waves_per_simd", "occupancy", "code", "loops", "outside_loops",
}
OCCUPANCY_KEYS = {"waves_per_simd", "limited_by", "vgprs", "lds", "waves"}
CATEGORIES = [
    "valu", "salu", "smem", "mfma", "ds_read", "ds_write", "ds_other",
    "buffer_load", "buffer_load_lds", "global_load", "global_load_lds",
    "buffer_store", "global_store", "flat_load", "flat_store", "scratch_load",
    "scratch_store", "vmem_atomic", "vmem_other", "s_barrier", "s_setprio",
    "s_waitcnt", "s_nop", "branch", "other",
]
COUNT_KEYS = set(CATEGORIES) | {"instructions", "s_waitcnt_vmcnt0",
                                "s_waitcnt_lgkmcnt0"}
MIX_KEYS = {"counts", "mfma_flops", "mfma_unknown", "setprio_values",
            "waitcnt_vmcnt", "waitcnt_lgkmcnt", "mnemonics"}
LOOP_KEYS = MIX_KEYS | {"index", "start", "end", "depth", "back_edges",
                        "parent", "nested"}


def check(condition, message):
    if not condition:
        print(f"check_report_json: {message}", file=sys.stderr)
        sys.exit(1)


def check_keys(where, obj, expected):
    check(set(obj) == expected,
          f"{where}: expected keys {sorted(expected)}, found {sorted(obj)}")


def check_mix(where, mix, keys):
    check_keys(where, mix, keys)
    counts = mix["counts"]
    check_keys(f"{where}.counts", counts, COUNT_KEYS)
    total = counts["instructions"]
    check(sum(counts[c] for c in CATEGORIES) == total,
          f"{where}: categories add up to "
          f"{sum(counts[c] for c in CATEGORIES)}, not {total}")
    check(sum(mix["mnemonics"].values()) == total,
          f"{where}: mnemonics add up to {sum(mix['mnemonics'].values())}, "
          f"not {total}")
    for drain in ("s_waitcnt_vmcnt0", "s_waitcnt_lgkmcnt0"):
        check(counts[drain] <= counts["s_waitcnt"],
              f"{where}: more {drain} than s_waitcnt")
    for counter in ("vmcnt", "lgkmcnt"):
        limits = mix["waitcnt_" + counter]
        check(limits.get("0", 0) == counts[f"s_waitcnt_{counter}0"],
              f"{where}: waitcnt_{counter}['0'] differs from the drains")
        check(sum(limits.values()) <= counts["s_waitcnt"],
              f"{where}: more {counter} limits than s_waitcnt")
    check(len(mix["setprio_values"]) <= counts["s_setprio"],
          f"{where}: more priorities than s_setprio")


def summarize(mix):
    counts = mix["counts"]
    return (f"mfma {counts['mfma']} flops {mix['mfma_flops']} "
            f"buffer_load {counts['buffer_load']} "
            f"buffer_load_lds {counts['buffer_load_lds']} "
            f"s_barrier {counts['s_barrier']} "
            f"vmcnt0 {counts['s_waitcnt_vmcnt0']} "
            f"vmcnt {sorted(int(k) for k in mix['waitcnt_vmcnt'])} "
            f"setprio {mix['setprio_values']}")


def check_kernel(kernel):
    name = kernel["name"]
    check_keys(f"kernel {name}", kernel, KERNEL_KEYS)
    occupancy = kernel["occupancy"]
    check_keys(f"kernel {name}.occupancy", occupancy, OCCUPANCY_KEYS)
    check(occupancy["waves_per_simd"] == kernel["waves_per_simd"],
          f"kernel {name}: two different occupancies")
    code = kernel["code"]
    check(code["end"] - code["start"] == code["bytes"],
          f"kernel {name}: code range and size disagree")
    check_mix(f"kernel {name}.outside_loops", kernel["outside_loops"],
              MIX_KEYS)
    loops = {loop["index"]: loop for loop in kernel["loops"]}
    instructions = kernel["outside_loops"]["counts"]["instructions"]
    for index, loop in loops.items():
        where = f"kernel {name} loop {index}"
        check_mix(where, loop, LOOP_KEYS)
        instructions += loop["counts"]["instructions"]
        check(code["start"] <= loop["start"] <= loop["end"] < code["end"],
              f"{where}: range outside the kernel's code")
        check(loop["back_edges"] >= 1, f"{where}: no back edge")
        parent = loop["parent"]
        if parent is None:
            check(loop["depth"] == 1, f"{where}: outermost but depth "
                  f"{loop['depth']}")
        else:
            outer = loops[parent]
            check(outer["start"] < loop["start"] and
                  loop["end"] <= outer["end"], f"{where}: not inside {parent}")
            check(loop["depth"] == outer["depth"] + 1,
                  f"{where}: depth {loop['depth']} under depth "
                  f"{outer['depth']}")
            check(index in outer["nested"], f"{where}: not nested in {parent}")
    check(instructions == code["instructions"],
          f"kernel {name}: loops and outside hold {instructions} "
          f"instructions, the code {code['instructions']}")
    print(f"kernel {name} waves {occupancy['waves_per_simd']} limited by "
          f"{occupancy['limited_by']} loops {len(loops)}")
    for index, loop in loops.items():
        print(f"loop {index} depth {loop['depth']} parent {loop['parent']} "
              f"nested {loop['nested']}: {summarize(loop)}")
    print(f"outside loops: {summarize(kernel['outside_loops'])}")


def main():
    objects = json.load(sys.stdin)
    check(isinstance(objects, list), "expected a list of code objects")
    for obj in objects:
        check_keys("code object", obj, OBJECT_KEYS)
        print(f"{obj['chip']} code object v{obj['code_object_version']}")
        for kernel in obj["kernels"]:
            check_kernel(kernel)
    print("schema ok")


main()
