"""Sorts the LDS bank conflicts of hk-run --json cases by instruction.

Reads hk-run's JSON on stdin and prints, per case, one line for every LDS
instruction that conflicted: its mnemonic and how many ways its worst phase
was split (conflict cycles over phases, plus one). With --allow=MNEMONIC:WAYS
(repeatable) the instructions within that allowance print as "allowed";
every other conflict prints as "CONFLICT", which the test rejects. A case
without conflicts prints "case ...: none".
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--allow", action="append", default=[],
                        help="MNEMONIC:WAYS, a conflict the caller accepts")
    args = parser.parse_args()
    allowed = {}
    for item in args.allow:
        mnemonic, ways = item.rsplit(":", 1)
        allowed[mnemonic] = int(ways)

    cases = json.load(sys.stdin)
    if isinstance(cases, dict):
        cases = [cases]
    for case in cases:
        name = f"{case['kernel']} {case['chip']} {case['case']}"
        conflicted = [i for i in case["counters"]["lds_instructions"]
                      if i["conflict_cycles"]]
        if not conflicted:
            print(f"case {name}: none")
            continue
        for inst in conflicted:
            # Every phase of the instruction is split the same way in the
            # kernels this checks; the mean tells the ways.
            ways = 1 + inst["conflict_cycles"] / inst["phases"]
            verdict = ("allowed" if ways <= allowed.get(inst["mnemonic"], 1)
                       else "CONFLICT")
            print(f"case {name}: {verdict} {inst['mnemonic']} "
                  f"{ways:g}-way at {inst['pc']}")


if __name__ == "__main__":
    main()
