#!/usr/bin/python3
"""Per-family coverage of the emulator's instruction table by the
per-instruction tests (unittests/Emulator/Instructions).

Every instruction the table lists is one the emulator executes (each .def
line names its semantics); a listed instruction is tested when some case of
HKInstructionTests runs it on a chip that has it. The figures come from the
test binary itself (its coverage test writes the listing), so they are the
cases that exist in the build, not a guess from file names.

    scripts/isa-coverage.py [--build=build] [--missing]

prints one line per encoding family (family, executed, tested, percent,
the chips the cases ran on) and a total; --missing also lists the untested
mnemonics of each family. Exits 1 when the listing cannot be produced.
"""

import argparse
import collections
import os
import subprocess
import sys
import tempfile


def read_listing(binary):
    """(mnemonic, family, chips) for every listed instruction."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "listing.txt")
        env = dict(os.environ, HK_ISA_COVERAGE_LISTING=path)
        # The coverage test fails while some instruction has no case; the
        # listing is written either way.
        subprocess.run(
            [binary, "--gtest_filter=InstructionCoverage.*"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        if not os.path.exists(path):
            return None
        rows = []
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) == 3:
                    rows.append(tuple(fields))
        return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="the build directory")
    parser.add_argument(
        "--missing", action="store_true", help="list the untested mnemonics"
    )
    args = parser.parse_args()

    binary = os.path.join(args.build, "unittests", "HKInstructionTests")
    if not os.access(binary, os.X_OK):
        print(f"isa-coverage: no test binary {binary} (build it first)",
              file=sys.stderr)
        return 1
    rows = read_listing(binary)
    if not rows:
        print(f"isa-coverage: {binary} wrote no coverage listing",
              file=sys.stderr)
        return 1

    executed = collections.OrderedDict()
    tested = collections.Counter()
    missing = collections.defaultdict(list)
    chips = collections.defaultdict(set)
    for mnemonic, family, on in rows:
        executed[family] = executed.get(family, 0) + 1
        if on == "-":
            missing[family].append(mnemonic)
            continue
        tested[family] += 1
        chips[family].update(on.split(","))

    print("family executed tested percent chips")
    for family, count in executed.items():
        percent = 100.0 * tested[family] / count
        on = ",".join(sorted(chips[family])) or "-"
        print(f"{family} {count} {tested[family]} {percent:.1f}% {on}")
    total = sum(executed.values())
    done = sum(tested.values())
    print(f"total {total} {done} {100.0 * done / total:.1f}%")
    if args.missing:
        for family in executed:
            if missing[family]:
                print(f"untested {family}: " + " ".join(missing[family]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
