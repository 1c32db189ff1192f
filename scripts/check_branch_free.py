#!/usr/bin/env python3
"""Checks that the field arithmetic compiles without conditional jumps.

The modular additions, subtractions and small multiples (core/field/portable64/) must select
their results with CMOVs or masks: a conditional jump on a borrow is mispredicted about half the
time on field values and makes the time depend on the (possibly secret) values. Once GCC 12
turned `borrow ? t : s` into such a jump. The functions below are made of nothing but those
operations and out-of-line Fp2 products, so any conditional jump in them comes from a kernel.

Run by CTest (branch_free, label unit, release builds) and by hand:
  python3 scripts/check_branch_free.py build/bin/enygma
"""

import re
import subprocess
import sys

FUNCTIONS = [
    "enygma::Fp6::mul(enygma::Fp6 const&) const",
    "enygma::Fp6::mul_by_01(enygma::Fp2 const&, enygma::Fp2 const&) const",
    "enygma::Fp12::cyclotomic_square() const",
    "enygma::Fp12::mul_by_034(enygma::Fp2 const&, enygma::Fp2 const&, enygma::Fp2 const&) const",
]


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    try:
        out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", sys.argv[1]],
                             check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"check_branch_free: objdump failed: {e}", file=sys.stderr)
        return 2
    bodies = {}
    current = None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            current = m.group(1) if m.group(1) in FUNCTIONS else None
            if current:
                bodies[current] = []
            continue
        if current is not None:
            if not line.strip():
                current = None
            else:
                bodies[current].append(line)
    problems = 0
    for name in FUNCTIONS:
        if name not in bodies:
            print(f"check_branch_free: {name} not found in {sys.argv[1]}", file=sys.stderr)
            problems += 1
            continue
        jumps = [l.strip() for l in bodies[name]
                 if re.match(r"^\s*[0-9a-f]+:\s+j(?!mp)[a-z]+\s", l)]
        for j in jumps:
            print(f"check_branch_free: conditional jump in {name}: {j}", file=sys.stderr)
        problems += len(jumps)
        print(f"{name}: {len(bodies[name])} instructions, {len(jumps)} conditional jumps")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
