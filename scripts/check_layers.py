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
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s+<([^>]+)>', re.M)
# Headers whose only purpose is I/O with files, streams, sockets, processes or the clock.
CORE_FORBIDDEN_HEADERS = {
    "fstream", "iostream", "filesystem", "ctime", "time.h", "unistd.h", "fcntl.h", "dirent.h",
    "netdb.h", "poll.h", "signal.h", "csignal", "sys/socket.h", "sys/stat.h", "sys/mman.h",
    "sys/time.h", "sys/types.h", "sys/wait.h", "netinet/in.h", "arpa/inet.h", "boost/asio.hpp",
    "boost/beast.hpp",
}
CLOCK_HEADERS = {"chrono"}
CLOCK_ALLOWED = {"core/parallel/thread_pool.cpp", "core/groth16/prover.cpp"}
# Calls that do I/O from headers the core does include (<cstdio>, <cstdlib>: snprintf is fine).
CORE_FORBIDDEN_CALLS = re.compile(
    r"(?<![\w.>:])(?:std::)?(fopen|freopen|fread|fwrite|fputs|puts|printf|fprintf|getenv|"
    r"secure_getenv|popen|tmpfile)\s*\(|std::(cout|cerr|clog|cin)\b")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:[^\"\\\n]|\\.)*\"", re.S)


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
                if parts[0] == "core":
                    for inc in SYSTEM_INCLUDE.findall(text):
                        if inc in CORE_FORBIDDEN_HEADERS or (
                                inc in CLOCK_HEADERS and "/".join(parts) not in CLOCK_ALLOWED):
                            problems.append(f"{rel}: core does no file, socket or clock I/O, "
                                            f"but includes <{inc}>")
                    m = CORE_FORBIDDEN_CALLS.search(COMMENT.sub("", text))
                    if m:
                        problems.append(f"{rel}: core does no file, socket or clock I/O, "
                                        f"but calls {m.group(0).rstrip('( ')}")
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
    print(f"check_layers: {len(problems)} include(s) against the layer order or core's no-I/O rule")
    return 1 if problems else 0


def self_test():
    """Plants one offence of each kind in a scratch tree and checks that each is reported."""
    import contextlib
    import io
    import tempfile
    planted = {
        "core/util/a.hpp": '#include "core/field/fp.hpp"\n',               # a higher layer
        "core/field/b.cpp": "#include <fstream>\n",                        # file I/O
        "core/curve/c.cpp": "#include <sys/socket.h>\n",                   # sockets
        "core/msm/d.cpp": "#include <chrono>\n",                           # the clock
        "core/poly/e.cpp": 'void f() { std::cerr << "x"; }\n',             # a stream
        "core/r1cs/f.cpp": 'const char* g() { return getenv("X"); }\n',    # the environment
        "core/r1cs/g.cpp": 'void h() { FILE* f = fopen("x", "r"); }\n',   # a file
    }
    clean = {
        "core/parallel/thread_pool.cpp": "#include <chrono>\n",           # allowed: the poll
        "core/util/h.cpp": '// fopen( in a comment\nconst char* s = "printf(";\n'
                           "int n = snprintf(b, 4, \"%d\", 1);\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in {**planted, **clean}.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = main(root)
    reported = out.getvalue()
    missed = [rel for rel in planted if f"{rel}:" not in reported]
    wrong = [rel for rel in clean if f"{rel}:" in reported]
    for rel in missed:
        print(f"self-test: the offence planted in {rel} was not reported")
    for rel in wrong:
        print(f"self-test: {rel} was reported, but breaks no rule")
    ok = rc == 1 and not missed and not wrong
    print(f"check_layers self-test: {'ok' if ok else 'FAILED'}\n{reported}", end="")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")))
