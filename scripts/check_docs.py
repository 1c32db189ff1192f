#!/usr/bin/env python3
"""Checks that the commands the documents show exist as shown:
- every `enygma <command> ...` (and `build/bin/enygma ...`, `enygma-load ...`) in README.md and
  docs/*.md names a command the program has, and every --option it shows is one that command
  accepts (read from its --help, which lists every option);
- every `make <target>` shown is a target of the Makefile;
- every scripts/... or e2e/... path shown exists.
Run by CTest (test `docs`); prints each offence, exit 0 when clean.
  scripts/check_docs.py ROOT ENYGMA ENYGMA_LOAD
"""
import os
import re
import subprocess
import sys

root, enygma, enygma_load = sys.argv[1], sys.argv[2], sys.argv[3]
docs = [os.path.join(root, "README.md")] + sorted(
    os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
problems = []
helps = {}


def help_of(program, command):
    key = (program, command)
    if key not in helps:
        args = [program] + ([command] if command else []) + ["--help"]
        r = subprocess.run(args, capture_output=True, text=True, timeout=30)
        helps[key] = (r.returncode, r.stdout + r.stderr)
    return helps[key]


makefile = open(os.path.join(root, "Makefile")).read()
make_targets = set(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", makefile, re.M))
commands = set()
rc, usage = help_of(enygma, None)
for m in re.finditer(r"^  ([a-z][a-z-]+)\s", usage, re.M):
    commands.add(m.group(1))

# Code spans and code-block lines: where commands are shown.
code = re.compile(r"`([^`\n]+)`")
for doc in docs:
    rel = os.path.relpath(doc, root)
    text = open(doc).read()
    pieces = [m.group(1) for m in code.finditer(text)]
    in_block = False
    for line in text.split("\n"):
        if line.startswith("```"):
            in_block = not in_block
            continue
        if in_block or line.startswith("    "):
            pieces.append(line)
    for piece in pieces:
        for m in re.finditer(r"(?:^|[\s;(])(?:build/bin/)?(enygma(?:-load)?) ?([a-z][a-z-]*)?((?: +[^\s#|]+)*)", piece):
            program, command, rest = m.group(1), m.group(2), m.group(3) or ""
            if program == "enygma-load":
                rc, text_help = help_of(enygma_load, None)
                options = re.findall(r"--([a-z][a-z-]*)", (command or "") + rest)
            else:
                if not command or command not in commands:
                    if command and re.match(r"^[a-z]+-?[a-z]*$", command) and command not in (
                            "prover", "module", "wasm", "serve"):
                        # prose such as "enygma with 2 threads": only flag words that look like
                        # commands followed by an option
                        if rest.strip().startswith("--"):
                            problems.append(f"{rel}: `enygma {command}` is not a command")
                    continue
                rc, text_help = help_of(enygma, command)
                options = re.findall(r"(?<![\w-])--([a-z][a-z0-9-]*)", rest)
            for option in options:
                if option == "help":
                    continue
                if not re.search(r"--" + re.escape(option) + r"(?![a-z0-9-])", text_help):
                    problems.append(f"{rel}: `{program} {command or ''}` shows --{option}, "
                                    f"which its --help does not list")
        for m in re.finditer(r"(?:^|\s)make ([a-z][\w-]*)", piece):
            if m.group(1) not in make_targets:
                problems.append(f"{rel}: `make {m.group(1)}` is not a Makefile target")
        for m in re.finditer(r"(?<![\w/.])((?:scripts|e2e|tools|deploy)/[\w./-]*\w)", piece):
            path = m.group(1)
            if path.startswith("e2e/artifacts/"):
                continue  # what the tests and benchmarks write
            if not os.path.exists(os.path.join(root, path)):
                problems.append(f"{rel}: {path} does not exist")

for p in sorted(set(problems)):
    print(p)
print(f"check_docs: {len(set(problems))} problem(s) in {len(docs)} documents")
sys.exit(1 if problems else 0)
