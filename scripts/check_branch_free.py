#!/usr/bin/env python3
"""Checks that the field arithmetic compiles without conditional jumps.

The modular additions, subtractions and small multiples (core/field/portable64/) must select
their results with CMOVs or masks: a conditional jump on a borrow is mispredicted about half the
time on field values and makes the time depend on the (possibly secret) values. Once GCC 12
turned `borrow ? t : s` into such a jump. The functions below are made of nothing but those
operations, Fp2 products and the groups of Fp2 products (fp2_mul_many), so any conditional jump
in them comes from a kernel, except two kinds that depend on no value and are allowed: a jump on
a kernel switch (its flags set by a compare that reads g_use_adx or g_use_ifma) and a loop's
back edge (a backward jump on a CMP: the loops over a group's products). A branch on a borrow
is a forward jump after SUB/SBB/TEST.

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


def flag_setter(body, i):
    """The nearest instruction before body[i] that can write the flags (moves, LEA and NOPs
    do not)."""
    for line in reversed(body[:i]):
        parts = line.split("\t")
        mnemonic = parts[1].split()[0] if len(parts) > 1 and parts[1].split() else ""
        if not re.match(r"^(v?mov|lea|nop)", mnemonic):
            return line
    return ""


def allowed(body, i):
    """A jump on a kernel switch, or a counted loop's back edge (see the module's text)."""
    setter = flag_setter(body, i)
    if re.search(r"\b(cmp|test)[bwlq]?\s.*<enygma::g_use_(adx|ifma)>", setter):
        return True
    m = re.match(r"^\s*([0-9a-f]+):\s+j[a-z]+\s+([0-9a-f]+)\s", body[i])
    backward = m is not None and int(m.group(2), 16) < int(m.group(1), 16)
    return backward and re.search(r"\tcmp[lq]?\s", setter) is not None


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
        body = bodies[name]
        jumps = [l.strip() for i, l in enumerate(body)
                 if re.match(r"^\s*[0-9a-f]+:\s+j(?!mp)[a-z]+\s", l) and not allowed(body, i)]
        for j in jumps:
            print(f"check_branch_free: conditional jump in {name}: {j}", file=sys.stderr)
        problems += len(jumps)
        print(f"{name}: {len(bodies[name])} instructions, {len(jumps)} conditional jumps")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
