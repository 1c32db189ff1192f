#!/usr/bin/env python3
"""Checks that no source file includes from a higher layer (the order of
../shared/docs/architecture.md, "The path of a proof is the layout"), and prints each offence.

core/ folders, lowest first; a folder may include itself and any lower layer, never a peer on
the same line nor anything above:
  util < parallel < field < curve < {pairing, poly, msm} < r1cs < groth16 < primitives
       < circuit < {payment, dvp} < {transfer, deposit, withdraw, joinsplit, ownership}
       < registry
(payment: what transfer, deposit and withdraw share; dvp: what join-split and ownership share)
native/: common < server < cli, over core/. wasm/ over core/. core/ includes nothing outside
core/ (no native/, wasm/, tests/, tools/). A core folder missing from the list is an error
too: a new folder must be placed in the order. Exit 0 when clean, 1 otherwise.
"""
import os
import re
import sys

CORE_ORDER = [
    ["util"], ["parallel"], ["field"], ["curve"], ["pairing", "poly", "msm"], ["r1cs"],
    ["groth16"], ["primitives"], ["circuit"], ["payment", "dvp"],
    ["transfer", "deposit", "withdraw", "joinsplit", "ownership"], ["registry"],
]
NATIVE_ORDER = [["common"], ["server"], ["cli"]]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rank_of(order):
    ranks = {}
    for i, group in enumerate(order):
        for name in group:
            ranks[name] = i
    return ranks


def main(root):
    core_rank, native_rank = rank_of(CORE_ORDER), rank_of(NATIVE_ORDER)
    problems = []
    for top in ("core", "native", "wasm"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if not f.endswith((".cpp", ".hpp", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                parts = rel.split(os.sep)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for inc in INCLUDE.findall(text):
                    ip = inc.split("/")
                    if ip[0] not in ("core", "native", "wasm", "tests", "tools", "bench"):
                        continue  # a sibling header or a system one
                    if parts[0] == "core":
                        here = parts[1] if len(parts) > 2 else None
                        if here not in core_rank:
                            problems.append(f"{rel}: core/{here} is not in the layer order")
                            break
                        if ip[0] != "core":
                            problems.append(f"{rel}: core includes {inc}")
                        elif ip[1] not in core_rank:
                            problems.append(f"{rel}: includes {inc}, core/{ip[1]} has no layer")
                        elif ip[1] != here and core_rank[ip[1]] >= core_rank[here]:
                            problems.append(f"{rel}: core/{here} includes the higher or peer "
                                            f"layer {inc}")
                    elif parts[0] == "native":
                        here = parts[1] if len(parts) > 2 else None
                        if here not in native_rank:
                            problems.append(f"{rel}: native/{here} is not in the layer order")
                            break
                        if ip[0] in ("wasm", "tests", "tools", "bench"):
                            problems.append(f"{rel}: native includes {inc}")
                        elif ip[0] == "native" and (
                                ip[1] not in native_rank or
                                (ip[1] != here and native_rank[ip[1]] >= native_rank[here])):
                            problems.append(f"{rel}: native/{here} includes the higher layer {inc}")
                    elif parts[0] == "wasm" and ip[0] not in ("core", "wasm"):
                        problems.append(f"{rel}: wasm includes {inc}")
    for p in problems:
        print(p)
    print(f"check_layers: {len(problems)} include(s) against the layer order")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")))
