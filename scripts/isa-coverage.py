#!/usr/bin/python3
"""Per-family coverage of the emulator's instruction table by the
per-instruction tests (unittests/Emulator/Instructions).

Every instruction the table lists is one the emulator executes (each .def
line names its semantics); a listed instruction is tested when some case of
HKInstructionTests runs it on a chip that has it. The figures come from the
test binary itself (its coverage test writes the listing), so they are the
cases that exist in the build, not a guess from file names.

    scripts/isa-coverage.py [--build=build] [--missing]
        [--against-llvm [--llvm-mc=PATH]]

prints one line per encoding family (family, executed, tested, percent,
the chips the cases ran on) and a total; --missing also lists the untested
mnemonics of each family. Exits 1 when the listing cannot be produced.

--against-llvm measures the table against the chips themselves: it runs
every opcode of every encoding family through LLVM's disassembler for
gfx942 and gfx950 and prints, per chip, how many mnemonics LLVM decodes
and how many of them the emulator executes (with --missing, the others).
Encoding variants (_e32, _e64, _sdwa, _dpp) count as one mnemonic.
"""

import argparse
import collections
import os
import shutil
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


def encoding_candidates():
    """One instruction word (hex bytes) per opcode of each encoding family
    of CDNA3/CDNA4 (GCN 5 encodings), operands fixed to valid registers."""
    words = []

    def add(word, high=None):
        data = word.to_bytes(4, "little")
        if high is not None:
            data += high.to_bytes(4, "little")
        words.append(" ".join("0x%02x" % b for b in data))

    for op in range(128):  # SOP2 (and the SOPK/SOP1/SOPC/SOPP prefixes)
        add((0b10 << 30) | (op << 23) | 0x7F)
    for op in range(32):  # SOPK
        add((0b1011 << 28) | (op << 23))
    for op in range(256):  # SOP1
        add((0b101111101 << 23) | (op << 8))
    for op in range(128):  # SOPC
        add((0b101111110 << 23) | (op << 16))
    for op in range(128):  # SOPP
        add((0b101111111 << 23) | (op << 16))
    for op in range(256):  # SMEM
        add((0b110000 << 26) | (op << 18), 0)
    for op in range(64):  # VOP2
        add((op << 25) | (1 << 9) | 0x80)
    for op in range(256):  # VOP1
        add((0b0111111 << 25) | (op << 9) | 0x80)
    for op in range(256):  # VOPC
        add((0b0111110 << 25) | (op << 17) | (1 << 9) | 0x80)
    for op in range(1024):  # VOP3 (also VOP3 forms of VOP1/VOP2/VOPC)
        add((0b110100 << 26) | (op << 16), 0x80 | (0x80 << 9) | (0x80 << 18))
    for op in range(128):  # VOP3P and MAI
        add((0b110100111 << 23) | (op << 16), 0x100 | (1 << 9) | (1 << 18))
    for op in range(256):  # DS
        add((0b110110 << 26) | (op << 17), 0)
    for op in range(128):  # MUBUF
        add((0b111000 << 26) | (op << 18), 0)
    for seg in range(3):  # FLAT, SCRATCH, GLOBAL
        for op in range(128):
            add((0b110111 << 26) | (op << 18) | (seg << 14),
                0x007F0000 if seg else 0)
    for op in range(16):  # MTBUF
        add((0b111010 << 26) | (op << 15), 0)
    return words


def llvm_mnemonics(llvm_mc, chip):
    """The mnemonics LLVM's disassembler decodes for `chip`."""
    proc = subprocess.run(
        [llvm_mc, "--disassemble", "-triple=amdgcn-amd-amdhsa",
         "-mcpu=" + chip],
        input="\n".join(encoding_candidates()) + "\n",
        capture_output=True, text=True, check=False)
    names = set()
    for line in proc.stdout.splitlines():
        line = line.strip()
        if not line or line.startswith("."):
            continue
        name = line.split()[0]
        stripped = True
        while stripped:
            stripped = False
            for suffix in ("_e32", "_e64", "_sdwa", "_dpp"):
                if name.endswith(suffix):
                    name = name[: -len(suffix)]
                    stripped = True
        names.add(name)
    return names


def against_llvm(rows, llvm_mc, show_missing):
    if not shutil.which(llvm_mc) and not os.access(llvm_mc, os.X_OK):
        print(f"isa-coverage: no llvm-mc at {llvm_mc}", file=sys.stderr)
        return 1
    executed = {mnemonic for mnemonic, _, _ in rows}
    print("chip decoded executed percent")
    for chip in ("gfx942", "gfx950"):
        decoded = llvm_mnemonics(llvm_mc, chip)
        if not decoded:
            print(f"isa-coverage: {llvm_mc} decoded nothing for {chip}",
                  file=sys.stderr)
            return 1
        done = decoded & executed
        print(f"{chip} {len(decoded)} {len(done)} "
              f"{100.0 * len(done) / len(decoded):.1f}%")
        if show_missing:
            print(f"not executed on {chip}: " +
                  " ".join(sorted(decoded - executed)))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="the build directory")
    parser.add_argument(
        "--missing", action="store_true", help="list the untested mnemonics"
    )
    parser.add_argument(
        "--against-llvm", action="store_true",
        help="count the mnemonics LLVM decodes per chip that the emulator "
        "executes")
    parser.add_argument("--llvm-mc", default="/usr/lib/llvm-22/bin/llvm-mc",
                        help="llvm-mc for --against-llvm")
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

    if args.against_llvm:
        return against_llvm(rows, args.llvm_mc, args.missing)

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
