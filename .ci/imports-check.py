#!/usr/bin/env python3
"""Checks that every Swift `import X` names a module its target declares (about 1 s).

SwiftPM lets a target import any module that one of its dependencies depends on, so an import
the target never declared builds today and breaks when that other dependency changes (issue 26:
Server -> Redis, Cluster -> Model). For every target in `swift package dump-package`, each
`import X` in a Swift file of the target's directory (less its excluded paths) must name a target
or product in the target's dependencies, the target's own system library shims, or a module
of the toolchain (TOOLCHAIN below). Exit status 1 with one line per undeclared import.

Usage: python3 .ci/imports-check.py
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Modules that come with Swift or the platform, never declared in Package.swift.
TOOLCHAIN = {
    "Foundation", "FoundationNetworking", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Darwin",
    "Android", "WinSDK", "Synchronization", "Testing", "XCTest", "os", "PackageDescription", "Combine",
}
# Declared only when an environment variable asks for them (see the end of Package.swift).
OPTIONAL = {"RiveRuntime"}
MULTILINE_STRING = re.compile(r'#*""".*?"""#*', re.S)
IMPORT = re.compile(r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)


def dependency_names(target):
    names = set()
    for dependency in target["dependencies"]:
        for kind, value in dependency.items():
            # byName and target carry [name, condition]; product carries [name, package, ...].
            names.add(value[0])
    return names


def main():
    dump = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True)
    package = json.loads(dump.stdout)
    problems = []
    for target in package["targets"]:
        if target["type"] == "system":
            continue
        default = "Tests" if target["type"] == "test" else "Sources"
        directory = os.path.join(ROOT, target.get("path") or os.path.join(default, target["name"]))
        excluded = [os.path.join(directory, path) for path in target.get("exclude", [])]
        allowed = dependency_names(target) | TOOLCHAIN | OPTIONAL | {target["name"]}
        for base, folders, files in os.walk(directory):
            folders[:] = [f for f in folders if os.path.join(base, f) not in excluded]
            for name in sorted(files):
                path = os.path.join(base, name)
                if not name.endswith(".swift") or path in excluded:
                    continue
                with open(path, encoding="utf-8") as source:
                    # Multi-line string literals (Python scripts in tests) blanked, lines kept.
                    text = MULTILINE_STRING.sub(lambda m: "\n" * m.group(0).count("\n"), source.read())
                for match in IMPORT.finditer(text):
                    if match.group(1) not in allowed:
                        line = text.count("\n", 0, match.start()) + 1
                        relative = os.path.relpath(path, ROOT)
                        problems.append(f"{relative}:{line}: {target['name']} imports {match.group(1)}, not in its dependencies")
    for problem in problems:
        print(problem)
    if problems:
        print(f"imports-check: {len(problems)} undeclared import(s); declare them in Package.swift", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
