#!/usr/bin/env python3
"""The layout rules of docs/architecture.md that the compiler alone does not hold (issue 34).

Reads `swift package dump-package` (or a JSON file given with --package) and the Swift files under Sources, and
fails when:
  - a target that can import HTTP (directly or through its dependencies) can also import a storage driver,
    the composition root (the `passkeyd` executable) and the test support excepted;
  - the core (`Service`, `Configuration`) can import HTTP;
  - a hand-written target holds more than 25 % of the hand-written lines in Sources;
  - a hand-written Swift file is over 400 lines;
  - a file uses `@_exported import`;
  - docs/architecture.md's "where each rule lives" names a file or folder that Sources does not have.
Generated code (the `Assets` target) is not hand-written. `--self-test` checks that each rule fails when broken.
"""
import argparse
import json
import os
import subprocess
import sys

DRIVERS = {"StorageSQLite", "StoragePostgres", "CSQLite", "CLibPQ"}
HTTP = {"HTTP", "CMicroHTTPD"}
CORE = {"Service", "Configuration"}
COMPOSITION_ROOTS = {"passkeyd"}
# TestSupport drives the router in tests and the load generator drives the server over the network: neither is in
# the server's request path, and TestSupport never imports a driver either (the rule holds for it too).
GENERATED = {"Assets"}
MAX_TARGET_SHARE = 0.25
MAX_FILE_LINES = 400


def dependency_graph(package):
    graph = {}
    for target in package["targets"]:
        names = []
        for dependency in target.get("dependencies", []):
            for value in dependency.values():
                names.append(value[0])
        graph[target["name"]] = {"type": target["type"], "dependencies": names}
    return graph


def closure(graph, name):
    seen, stack = set(), [name]
    while stack:
        for dependency in graph.get(stack.pop(), {}).get("dependencies", []):
            if dependency not in seen:
                seen.add(dependency)
                stack.append(dependency)
    return seen


def import_rules(graph):
    findings = []
    for name, target in graph.items():
        if target["type"] == "test" or name in COMPOSITION_ROOTS:
            continue
        reach = closure(graph, name)
        if reach & HTTP and reach & DRIVERS:
            findings.append(f"{name} can import HTTP and a storage driver ({', '.join(sorted(reach & DRIVERS))}): "
                            "only the composition root may")
        if name in CORE and reach & (HTTP | DRIVERS):
            findings.append(f"{name} is the core and can import {', '.join(sorted(reach & (HTTP | DRIVERS)))}")
    return findings


def size_rules(files):
    """`files`: {path: (target, lines, text)} of the hand-written Swift files."""
    findings = []
    total = sum(lines for _, lines, _ in files.values())
    per_target = {}
    for path, (target, lines, text) in sorted(files.items()):
        per_target[target] = per_target.get(target, 0) + lines
        if lines > MAX_FILE_LINES:
            findings.append(f"{path}: {lines} lines (at most {MAX_FILE_LINES})")
        if "@_exported import" in text:
            findings.append(f"{path}: @_exported import")
    for target, lines in sorted(per_target.items()):
        if total and lines / total > MAX_TARGET_SHARE:
            findings.append(f"target {target}: {lines} of {total} hand-written lines ({100 * lines / total:.1f} %, "
                            f"at most {100 * MAX_TARGET_SHARE:.0f} %)")
    return findings, per_target, total


def architecture_paths(text):
    """The paths in backticks in the "Where each rule lives" section of docs/architecture.md."""
    section = text.split("## Where each rule lives", 1)[-1].split("\n## ", 1)[0]
    paths = []
    for line in section.splitlines():
        if not line.startswith("|"):
            continue
        rule_file = line.rstrip("|").rsplit("|", 1)[-1]
        for part in rule_file.split("`")[1::2]:
            if "/" in part:
                paths.append(part)
    return paths


def documentation_rules(root, text):
    """Each path the table names is under Sources (a folder ends with '/')."""
    return [f"docs/architecture.md names {path}, which Sources does not have"
            for path in architecture_paths(text)
            if not os.path.exists(os.path.join(root, "Sources", path))]


def source_files(root):
    files = {}
    sources = os.path.join(root, "Sources")
    for target in sorted(os.listdir(sources)):
        if target in GENERATED:
            continue
        for directory, _, names in os.walk(os.path.join(sources, target)):
            for name in names:
                if name.endswith(".swift"):
                    path = os.path.join(directory, name)
                    with open(path, encoding="utf-8") as handle:
                        text = handle.read()
                    files[os.path.relpath(path, root)] = (target, text.count("\n"), text)
    return files


def self_test():
    graph = {
        "Service": {"type": "regular", "dependencies": ["Storage"]},
        "Endpoints": {"type": "regular", "dependencies": ["Service", "HTTP"]},
        "HTTP": {"type": "regular", "dependencies": ["CMicroHTTPD"]},
        "Storage": {"type": "regular", "dependencies": []},
        "StorageSQLite": {"type": "regular", "dependencies": ["Storage"]},
        "passkeyd": {"type": "executable", "dependencies": ["Endpoints", "StorageSQLite"]},
    }
    assert import_rules(graph) == [], import_rules(graph)
    graph["Service"]["dependencies"].append("StorageSQLite")  # reached by Endpoints through Service
    assert any(f.startswith("Endpoints can import HTTP and a storage driver") for f in import_rules(graph))
    assert any(f.startswith("Service is the core") for f in import_rules(graph))
    files = {f"Sources/T{i}/a.swift": (f"T{i}", 100, "") for i in range(5)}
    assert size_rules(files)[0] == []
    files["Sources/T0/b.swift"] = ("T0", 401, "@_exported import Foundation\n")
    findings = size_rules(files)[0]
    assert any("401 lines" in f for f in findings), findings
    assert any("@_exported" in f for f in findings), findings
    assert any(f.startswith("target T0") for f in findings), findings
    table = "## Where each rule lives\n| rule | file |\n|---|---|\n| x | `Crypto/Nope.swift`, `JSON/` |\n## Next\n"
    assert architecture_paths(table) == ["Crypto/Nope.swift", "JSON/"], architecture_paths(table)
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    assert documentation_rules(root, table) == ["docs/architecture.md names Crypto/Nope.swift, which Sources does not have"]
    print("layout self-test: ok (each rule fails when broken)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", help="the output of `swift package dump-package` (default: run it)")
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    if arguments.self_test:
        self_test()
        return 0
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    if arguments.package:
        with open(arguments.package, encoding="utf-8") as handle:
            package = json.load(handle)
    else:
        dump = subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True, capture_output=True,
                              text=True)
        package = json.loads(dump.stdout)
    findings = import_rules(dependency_graph(package))
    size_findings, per_target, total = size_rules(source_files(root))
    findings += size_findings
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as handle:
        findings += documentation_rules(root, handle.read())
    largest = max(per_target.items(), key=lambda item: item[1])
    for finding in findings:
        print(f"layout: FAIL {finding}")
    if findings:
        return 1
    print(f"layout: ok ({total} hand-written lines; largest target {largest[0]}, {100 * largest[1] / total:.1f} %; "
          f"HTTP and the drivers meet only in the composition root)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
