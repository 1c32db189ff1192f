#!/usr/bin/env python3
"""Regenerates every generated source file and compares it with the committed one.

Run by CTest (generated_files_test, label unit) and by hand:
  python3 scripts/gen_check.py [--shared DIR]           fail (exit 1) on any difference
  python3 scripts/gen_check.py [--shared DIR] --write   rewrite the files instead
DIR is the shared/ folder beside the repository (default: ../shared), which holds the inputs of
some generators.
"""

import argparse
import difflib
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# (output file, generator, its arguments); "{shared}" is replaced by the shared folder.
GENERATED = [
    ("core/field/adx/mont_mul.hpp", "scripts/gen_mont_mul_adx.py", []),
    ("core/primitives/poseidon_constants.cpp", "scripts/gen_poseidon_constants.py",
     ["{shared}/vectors/poseidon-constants.json"]),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    parser.add_argument("--write", action="store_true", help="rewrite the generated files")
    args = parser.parse_args()

    failures = 0
    for output, generator, gen_args in GENERATED:
        argv = [sys.executable, os.path.join(ROOT, generator)]
        argv += [a.replace("{shared}", os.path.abspath(args.shared)) for a in gen_args]
        run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{generator}: failed (exit {run.returncode})\n{run.stderr}", file=sys.stderr)
            failures += 1
            continue
        fresh = run.stdout
        if not fresh.endswith("\n"):
            fresh += "\n"  # print() output, as redirected into the committed file
        path = os.path.join(ROOT, output)
        with open(path) as f:
            committed = f.read()
        if fresh == committed:
            print(f"{output}: up to date")
            continue
        if args.write:
            with open(path, "w") as f:
                f.write(fresh)
            print(f"{output}: rewritten")
            continue
        failures += 1
        diff = difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                    f"{output} (committed)", f"{output} (from {generator})", n=2)
        sys.stdout.writelines(list(diff)[:60])
        print(f"{output}: differs from {generator}'s output; regenerate it with "
              f"python3 scripts/gen_check.py --write", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
