#!/usr/bin/python3
"""Differential random testing of hk-emu against the host with csmith.

Each seed's csmith program is compiled by clang-22 for the host (the
reference: -O0, checked against -O2) and, as a single-lane kernel
(scripts/csmith/kernel.c), for each chip and optimisation level; hk-emu runs
the kernel and its checksum must equal the host's. Prints, per chip and
level, how many programs were generated, compiled, ran, matched and
mismatched, and why the others did not compile or run.

  scripts/csmith-diff.py --seeds=100                  # seeds 1..100
  scripts/csmith-diff.py --seed-list=5,8 --hk-emu=build/bin/hk-emu
  scripts/csmith-diff.py --seeds=2000 --jobs=2 --log=csmith.jsonl  # resumable
  scripts/csmith-diff.py --summarize=csmith.jsonl
  scripts/csmith-diff.py --seeds=2000 --log=c.jsonl --work=W --keep-kernels
  scripts/csmith-diff.py --rerun=c.jsonl --work=W     # a new hk-emu, no compiles

Exit status: 0 when nothing mismatched, 1 otherwise. A mismatch keeps the
program and its kernels in --work for reduction.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = os.path.join(ROOT, "scripts", "csmith")
CSMITH_INCLUDE = "/usr/include/csmith"


def find_clang():
    for path in ("/usr/lib/llvm-22/bin/clang", shutil.which("clang-22")):
        if path and os.path.exists(path):
            return path
    sys.exit("csmith-diff: clang-22 not found (scripts/setup.sh installs it)")


def run(cmd, cpu_seconds, cwd=None):
    """(returncode, output); returncode None when the command used more than
    `cpu_seconds` of CPU time. Limits are CPU time, not wall time, so that
    results do not depend on how busy the machine is; the wall-clock limit
    is only a backstop, and kills the command's whole process group (clang
    runs lld in a child)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    process = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, preexec_fn=limit,
                               start_new_session=True)
    try:
        out, _ = process.communicate(timeout=max(3600, 20 * cpu_seconds))
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return None, ""
    if process.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return None, ""
    return process.returncode, out.decode("utf-8", "replace")


def reason_of(output):
    """A short, seed-independent reason from a tool's error output."""
    if "PLEASE submit a bug report" in output:
        # clang itself crashed (an LLVM bug, not a mismatch): say where.
        signal = re.search(r"unable to execute command: ([A-Za-z ]+)", output)
        stage = ("code generation"
                 if re.search(r"^\d+\.\s+Code generation", output, re.M)
                 else "the optimizer"
                 if re.search(r"^\d+\.\s+Optimizer", output, re.M)
                 else "the front end")
        return "clang crashed (%s) in %s" % (
            signal.group(1).strip() if signal else "fatal error", stage)
    lines = [line for line in output.splitlines() if "error" in line]
    text = lines[0] if lines else (output.strip().splitlines() or ["?"])[-1]
    m = re.search(r"instruction '([^']+)' is not implemented", text)
    if m:
        return "not implemented: " + m.group(1)
    m = re.search(r"'([^']*)' \(encoding [0-9A-F ]+\): (.*)$", text)
    if m:
        mnemonic = m.group(1).split()[0] if m.group(1).split() else "?"
        detail = re.sub(r"in '[^']*'", "", m.group(2)).strip()
        text = mnemonic + ": " + detail
    else:
        text = re.sub(r"^.*?error: ", "", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "ADDR", text)
    text = re.sub(r"\b[sva]\[?\d+(:\d+)?\]?", "REG", text)
    return re.sub(r"\d+", "N", text).strip()


def host_checksum(args, clang, source, work, opt):
    exe = os.path.join(work, "host-%s" % opt)
    code, out = run([clang, "-" + opt, "-w", "-I", CSMITH_INCLUDE, source,
                     "-o", exe], args.compile_timeout)
    if code != 0:
        return None, "host compile " + ("time limit" if code is None else
                                        "failed: " + reason_of(out))
    code, out = run([exe], args.host_timeout)
    m = re.search(r"checksum = ([0-9A-F]+)", out)
    if code != 0 or not m:
        return None, "host run " + ("time limit" if code is None else
                                    "failed (exit %s)" % code)
    return int(m.group(1), 16), None


def device_result(args, clang, source, work, chip, level):
    """One chip and level: {'stage': compiled|ran|matched..., ...}."""
    hsaco = os.path.join(work, "%s-%s.hsaco" % (chip, level))
    start = time.monotonic()
    code, out = run([clang, "--target=amdgcn-amd-amdhsa", "-mcpu=" + chip,
                     "-nogpulib", "-ffreestanding", "-w", "-" + level,
                     "-fno-crash-diagnostics",
                     "-I", RUNTIME, "-I", CSMITH_INCLUDE,
                     '-DCSMITH_PROGRAM="%s"' % source,
                     os.path.join(RUNTIME, "kernel.c"), "-o", hsaco],
                    args.compile_timeout)
    compile_seconds = round(time.monotonic() - start, 2)
    # The driver survives its cc1 child stopped by the CPU limit.
    if code and re.search(r"unable to execute command: (Killed|CPU time)",
                          out):
        code = None
    if code != 0:
        return {"stage": "not compiled", "compile_seconds": compile_seconds,
                "reason": "compile time limit" if code is None
                else reason_of(out)}
    entry = emulate(args, hsaco)
    if entry["stage"] == "ran":
        entry["compile_seconds"] = compile_seconds
    return entry


def emulate(args, hsaco):
    """Runs a kernel: {'stage': 'ran', 'checksum': ...} or why it did not."""
    code, out = run([args.hk_emu, hsaco, "--block=1", "--arg=out:u32:1",
                     "--json", "--watchdog=%d" % args.watchdog,
                     "--host-threads=1"], args.run_timeout)
    if code is None:
        return {"stage": "not run", "reason": "run time limit"}
    if code == 1:
        return {"stage": "not run", "reason": reason_of(out)}
    try:
        result = json.loads(out)
        value = int(result["outputs"][0]["first"][0])
    except (ValueError, KeyError, IndexError):
        return {"stage": "not run", "reason": "unreadable hk-emu output"}
    entry = {"stage": "ran", "checksum": value,
             "run_seconds": round(result["seconds"], 3),
             "instructions": result["counters"]["wave_instructions"]}
    if result["total_reports"]:
        entry["reports"] = [r["message"] for r in result["reports"]]
    return entry


def test_seed(args, clang, seed):
    work = os.path.join(args.work, str(seed))
    os.makedirs(work, exist_ok=True)
    source = os.path.join(work, "csmith-%d.c" % seed)
    record = {"seed": seed}
    code, out = run(["csmith", "--no-argc", "--seed", str(seed), "-o",
                     source], 60)
    if code != 0:
        record["host"] = "csmith failed"
        return record
    reference, problem = host_checksum(args, clang, source, work, "O0")
    if problem is None:
        again, problem = host_checksum(args, clang, source, work, "O2")
        if problem is None and again != reference:
            problem = "host -O0 and -O2 disagree"
    if problem:
        record["host"] = problem
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return record
    record["host"] = "ok"
    record["checksum"] = reference
    mismatch = False
    for chip in args.chips:
        for level in args.levels:
            entry = device_result(args, clang, source, work, chip, level)
            if entry["stage"] == "ran":
                entry["stage"] = ("matched" if entry["checksum"] == reference
                                  else "mismatched")
                mismatch |= entry["stage"] == "mismatched"
            record["%s %s" % (chip, level)] = entry
    if not mismatch and not args.keep:
        if args.keep_kernels:
            for name in os.listdir(work):
                if not name.endswith(".hsaco"):
                    os.remove(os.path.join(work, name))
        else:
            shutil.rmtree(work, ignore_errors=True)
    return record


def rerun(args, records):
    """Runs the kernels a campaign kept (--keep-kernels) in hk-emu again:
    a new emulator checked against every kernel in minutes, no compiling."""
    def one(record):
        if record["host"] != "ok":
            return record
        record = dict(record)
        for chip in args.chips:
            for level in args.levels:
                key = "%s %s" % (chip, level)
                hsaco = os.path.join(args.work, str(record["seed"]),
                                     "%s-%s.hsaco" % (chip, level))
                if key not in record or not os.path.exists(hsaco):
                    continue
                entry = emulate(args, hsaco)
                if entry["stage"] == "ran":
                    entry["stage"] = ("matched"
                                      if entry["checksum"] == record["checksum"]
                                      else "mismatched")
                record[key] = entry
        return record
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        return list(pool.map(one, records))


# Mismatches traced to clang-22 miscompiling the kernel, not to hk-emu: the
# pass found with -mllvm -opt-bisect-limit on the device compile, and the
# instructions it emits that hk-emu then executes as the ISA says (both
# chips give the same wrong checksum). docs/emulator.md, "Validation".
KNOWN_MISCOMPILES = {
    (872, "O1"): "clang-22 si-shrink-instructions drops an "
                 "'s_and_b64 vcc, exec, vcc' whose SCC the next "
                 "s_cselect_b32 reads",
    (884, "O1"): "clang-22 folds a frame index into s_cselect_b32 "
                 "(si-fold-operands) and materialises it with an s_add_i32, "
                 "which overwrites SCC, between the s_cmp and the select",
    (1628, "O1"): "clang-22 si-fold-operands folds 'v_or_b32 x, "
                  "(v_not_b32 0)' to x instead of -1: the high word of an "
                  "int64 |= ~zext(cmp) is stored unchanged ('v_mov_b32 v5, "
                  "v5')",
    (2291, "O1"): "clang-22 folds a frame index into s_cselect_b32 "
                  "(si-fold-operands) and materialises it with an s_add_i32, "
                  "which overwrites SCC, between the s_cmp and the select",
}


def summarize(records, chips, levels, out):
    hosts = collections.Counter(r["host"] for r in records)
    generated = hosts["ok"]
    out.write("csmith: %d programs, %d with a host reference (%s)\n" %
              (len(records), generated,
               ", ".join("%s %d" % kv for kv in sorted(hosts.items())
                         if kv[0] != "ok") or "all"))
    out.write("%-8s %-5s %9s %9s %9s %9s %10s\n" %
              ("chip", "level", "generated", "compiled", "ran", "matched",
               "mismatched"))
    reasons = collections.Counter()
    mismatches = []
    for chip in chips:
        for level in levels:
            key = "%s %s" % (chip, level)
            stages = collections.Counter()
            for r in records:
                entry = r.get(key)
                if not entry:
                    continue
                stages[entry["stage"]] += 1
                if "reason" in entry:
                    reason = entry["reason"]
                    # Logs from before crashes were named kept clang's
                    # stack dump.
                    if "Program arguments:" in reason:
                        reason = "clang crashed"
                    reasons[(entry["stage"], reason, key)] += 1
                if entry["stage"] == "mismatched":
                    mismatches.append((r["seed"], key))
            ran = stages["matched"] + stages["mismatched"]
            compiled = ran + stages["not run"]
            out.write("%-8s %-5s %9d %9d %9d %9d %10d\n" %
                      (chip, "-" + level, generated, compiled, ran,
                       stages["matched"], stages["mismatched"]))
    if reasons:
        out.write("did not compile or run (count, chip and level, reason):\n")
        for (stage, reason, key), count in sorted(
                reasons.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0])):
            out.write("  %5d  %-12s %-13s %s\n" % (count, key, stage, reason))
    unexplained = []
    for seed, key in mismatches:
        known = KNOWN_MISCOMPILES.get((seed, key.split()[1]))
        if known:
            out.write("explained mismatch: seed %d on %s: %s\n" %
                      (seed, key, known))
        else:
            out.write("MISMATCH: seed %d on %s\n" % (seed, key))
            unexplained.append((seed, key))
    return not unexplained


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=10,
                        help="run seeds FIRST..FIRST+N-1")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--seed-list", help="comma-separated seeds instead")
    parser.add_argument("--chips", default="gfx942,gfx950")
    parser.add_argument("--levels", default="O0,O1,O2")
    parser.add_argument("--hk-emu", default=os.path.join(ROOT, "build", "bin",
                                                         "hk-emu"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--work", help="directory for programs and kernels "
                        "(default: a temporary one)")
    parser.add_argument("--keep", action="store_true",
                        help="keep every program, not only mismatches")
    parser.add_argument("--keep-kernels", action="store_true",
                        help="keep every seed's kernels (WORK/SEED/CHIP-LEVEL"
                        ".hsaco) for --rerun")
    parser.add_argument("--rerun", metavar="LOG",
                        help="run the kernels a logged campaign kept in "
                        "--work again (a new hk-emu against them all)")
    parser.add_argument("--log", help="append one JSON line per seed here; "
                        "seeds already logged are not run again")
    parser.add_argument("--summarize", metavar="LOG",
                        help="only print the summary of a log")
    parser.add_argument("--compile-timeout", type=int, default=10,
                        help="CPU seconds per compile")
    parser.add_argument("--host-timeout", type=int, default=10,
                        help="CPU seconds per host run")
    parser.add_argument("--run-timeout", type=int, default=300,
                        help="CPU seconds per hk-emu run")
    parser.add_argument("--watchdog", type=int, default=500_000_000,
                        help="wave-instructions before hk-emu calls a run "
                        "a hang")
    args = parser.parse_args()
    args.chips = args.chips.split(",")
    args.levels = [level.lstrip("-") for level in args.levels.split(",")]

    if args.summarize:
        with open(args.summarize) as f:
            records = [json.loads(line) for line in f if line.strip()]
        return 0 if summarize(records, args.chips, args.levels,
                              sys.stdout) else 1
    if args.rerun:
        if not args.work or not os.access(args.hk_emu, os.X_OK):
            sys.exit("csmith-diff: --rerun needs --work and a built hk-emu")
        with open(args.rerun) as f:
            records = [json.loads(line) for line in f if line.strip()]
        records = rerun(args, sorted(records, key=lambda r: r["seed"]))
        return 0 if summarize(records, args.chips, args.levels,
                              sys.stdout) else 1

    for tool, hint in (("csmith", "apt-get install csmith"),):
        if not shutil.which(tool):
            sys.exit("csmith-diff: %s not found (%s)" % (tool, hint))
    if not os.path.exists(os.path.join(CSMITH_INCLUDE, "safe_math.h")):
        sys.exit("csmith-diff: %s/safe_math.h not found (apt-get install "
                 "libcsmith-dev)" % CSMITH_INCLUDE)
    if not os.access(args.hk_emu, os.X_OK):
        sys.exit("csmith-diff: %s not found; build first" % args.hk_emu)
    clang = find_clang()

    if args.seed_list:
        seeds = [int(s) for s in args.seed_list.split(",")]
    else:
        seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    records = []
    if args.log and os.path.exists(args.log):
        with open(args.log) as f:
            records = [json.loads(line) for line in f if line.strip()]
        done = {r["seed"] for r in records}
        records = [r for r in records if r["seed"] in set(seeds)]
        seeds = [s for s in seeds if s not in done]
    temporary = None
    if not args.work:
        temporary = tempfile.mkdtemp(prefix="csmith-diff-")
        args.work = temporary
    log = open(args.log, "a") if args.log else None
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for record in pool.map(lambda s: test_seed(args, clang, s),
                                   seeds):
                records.append(record)
                if log:
                    log.write(json.dumps(record) + "\n")
                    log.flush()
    finally:
        if log:
            log.close()
    records.sort(key=lambda r: r["seed"])
    clean = summarize(records, args.chips, args.levels, sys.stdout)
    if temporary and clean:
        shutil.rmtree(temporary, ignore_errors=True)
    elif not clean:
        sys.stdout.write("programs of mismatches kept in %s\n" % args.work)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
