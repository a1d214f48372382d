#!/usr/bin/env python3
"""Finds closures that Swift 6.3.1 compiles under one name (optional; about 8 min for every test target).

Within a closure (the body given to `stopping`, `withDaemon`, a task group), a closure written in
a `#expect`/`#require` argument gets the discriminator of the next closure that is not in a macro
argument. When both have one type they get one symbol, and the second runs the first's body
(PresenceDaemonTests' resume test rejoined with the wrong key). This dumps each test file's type-checked
AST with the compiler command SwiftPM uses and reports closures of one context with one
discriminator and one type at two places. Exit status 1 when it finds any.

Usage: python3 .ci/closure-collisions.py [TARGET ...]   (default: every directory under Tests/)
"""
import os
import re
import shlex
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONTEXT = re.compile(
    r"^\s*\((closure_expr|autoclosure_expr|func_decl|accessor_decl|constructor_decl|top_level_code_decl|macro_expansion_expr)\b(.*)$")
PARENTS = {"closure_expr", "autoclosure_expr", "func_decl", "accessor_decl", "constructor_decl", "top_level_code_decl"}
DROPPED = {"-o", "-emit-dependencies-path", "-emit-reference-dependencies-path", "-primary-file", "-index-store-path",
           "-serialize-diagnostics-path", "-emit-const-values-path"}


def compile_commands(targets):
    """The frontend command SwiftPM runs for one file of each target (after touching it)."""
    for target in targets:
        first = sorted(f for f in os.listdir(os.path.join(ROOT, "Tests", target)) if f.endswith(".swift"))[0]
        os.utime(os.path.join(ROOT, "Tests", target, first))
    log = subprocess.run(["swift", "build", "--build-tests", "-v"], cwd=ROOT, capture_output=True, text=True).stdout
    commands = {}
    for line in log.splitlines():
        match = re.search(r"-primary-file \S*/Tests/([^/ ]+)/", line)
        if "swift-frontend" in line and match and match.group(1) in targets:
            commands.setdefault(match.group(1), shlex.split(line))
    return commands


def ast(command, path):
    """`-dump-ast` of `path` with the target's command."""
    args, i = [], 0
    while i < len(command):
        if command[i] == "-c":
            args.append("-dump-ast")
        elif command[i] in DROPPED:
            if command[i] == "-primary-file":
                args += ["-primary-file", path]
            i += 1
        else:
            args.append(command[i])
        i += 1
    result = subprocess.run(args, capture_output=True, text=True)
    return (result.stdout + result.stderr).splitlines()


def collisions(lines):
    """Closures of one context with one kind, discriminator and type at two source places."""
    stack, seen = [], defaultdict(list)
    for number, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if line.strip():
            while stack and stack[-1][0] >= indent:
                stack.pop()
        match = CONTEXT.match(line)
        if not match:
            continue
        kind, rest = match.groups()
        if kind in ("closure_expr", "autoclosure_expr"):
            discriminator = re.search(r"discriminator=(\d+)", rest)
            closure_type = re.search(r'type="([^"]*)"', rest)
            location = re.search(r"location=(\S+)", rest)
            parent = next((entry for entry in reversed(stack) if entry[1] in PARENTS), None)
            # A closure in a macro's argument is not compiled (its copy in the expansion is).
            argument = location and not location.group(1).startswith("@__swiftmacro") and any(
                entry[1] == "macro_expansion_expr" for entry in stack)
            if discriminator and closure_type and location and parent and not argument:
                seen[(parent[2], kind, discriminator.group(1), closure_type.group(1))].append(location.group(1))
        stack.append((indent, kind, number))
    return [(key, sorted(set(places))) for key, places in seen.items() if len(set(places)) > 1]


def main():
    targets = sys.argv[1:] or sorted(
        d for d in os.listdir(os.path.join(ROOT, "Tests"))
        if any(f.endswith(".swift") for f in os.listdir(os.path.join(ROOT, "Tests", d))))
    commands = compile_commands(targets)
    found = 0
    for target in targets:
        if target not in commands:
            print(f"{target}: no compiler command found (not a test target?)")
            continue
        for directory, _, files in os.walk(os.path.join(ROOT, "Tests", target)):
            for name in sorted(f for f in files if f.endswith(".swift")):
                for (_, kind, discriminator, closure_type), places in collisions(ast(commands[target], os.path.join(directory, name))):
                    found += 1
                    print(f"{name}: {kind} #{discriminator} {closure_type} at " + ", ".join(p.split("/")[-1] for p in places))
    print(f"{found} closure name collisions")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
