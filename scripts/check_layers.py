#!/usr/bin/env python3
"""Fails when an #include in src/ or tools/ runs up the pipeline order.

The order is the "Layers:" line of README.md's Layout section (earliest first); a file may include
its own layer and earlier ones. The CLI (tools/) reaches the store only through run/. Every
violation is printed as FILE:LINE: what includes what. Python 3 standard library only.

    python3 scripts/check_layers.py [--root DIR]
"""
import argparse
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = {".h", ".hpp", ".c", ".cc", ".cpp"}
# Edges the order allows that the layout still forbids: (from, to) -> why.
FORBIDDEN = {("tools", "store"): "the CLI reaches the store only through run/"}


def read_order(readme):
    """The layer names of README.md's "Layers:" line, earliest first."""
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("Layers:"):
            names = re.findall(r"`([^`]+)`", line)
            if names:
                return [name.strip("/") for name in names]
    sys.exit(f"{readme}: no 'Layers:' line naming the layers in backticks")


def layer_of(path, root):
    """src/<layer>/... -> layer; tools/... -> tools."""
    parts = path.relative_to(root).parts
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    return "tools" if parts[0] == "tools" else None


def included_file(include, including, root):
    """The file an include names: under src/ (the library's include root) or next to the includer."""
    for candidate in (root / "src" / include, including.parent / include):
        if candidate.is_file():
            return candidate.resolve()
    return None  # a system or third-party header


def violations(root):
    order = read_order(root / "README.md")
    rank = {name: i for i, name in enumerate(order)}
    problems = []
    files = sorted(p for top in ("src", "tools") for p in (root / top).rglob("*") if p.suffix in SOURCE_SUFFIXES)
    for path in files:
        source = layer_of(path, root)
        if source not in rank:
            problems.append(f"{path.relative_to(root)}: layer '{source}' is not in README.md's Layers line")
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target_file = included_file(match.group(1), path, root)
            if target_file is None:
                continue
            target = layer_of(target_file, root.resolve())
            where = f"{path.relative_to(root)}:{number}"
            if target not in rank:
                problems.append(f"{where}: includes {match.group(1)} of layer '{target}', not in the Layers line")
            elif rank[target] > rank[source]:
                problems.append(f"{where}: {source} includes {match.group(1)} of {target}, a later layer")
            elif (source, target) in FORBIDDEN:
                problems.append(f"{where}: {source} includes {match.group(1)}: {FORBIDDEN[(source, target)]}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent,
                        help="repository root (default: this script's repository)")
    root = parser.parse_args().root
    problems = violations(root)
    for problem in problems:
        print(problem)
    if problems:
        order = " -> ".join(read_order(root / "README.md"))
        print(f"{len(problems)} include(s) against the layer order {order} (README.md, Layout)", file=sys.stderr)
        return 1
    print(f"layers: every include of src/ and tools/ points down ({' -> '.join(read_order(root / 'README.md'))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
