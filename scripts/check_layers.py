#!/usr/bin/env python3
"""Fails when an #include in src/ or tools/ runs up the pipeline order, or a task is told apart by name.

The order is the "Layers:" line of README.md's Layout section (earliest first); a file may include
its own layer and earlier ones. The CLI (tools/) reaches the store only through run/. Two more
rules keep the tasks in their place (issue 31): no code outside src/tasks/ compares a string with
a task name of the registry (src/tasks/registry.cpp) -- it looks the task up instead -- and no
file but base/json_fields.h defines a "string field of a JSON object" helper. Every violation is
printed as FILE:LINE: what is wrong. Python 3 standard library only.

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
# Where task names may be compared: the task folders and the registry.
TASK_CODE = "src/tasks/"
# Task code not yet moved into src/tasks/ (issue 31, item 1: the scripted relayout moves it there):
# a scorer's line reader that checks the line is of its own task.
TASK_CODE_AWAITING_MOVE = {"src/tasks/pipelines/analysis/pipeline_batch.cpp", "src/tasks/testcase/analysis/testcase_batch.cpp"}
# The sub-folders of analysis/, earliest first; "" is analysis/ itself (the entry that joins them;
# counterfactual/ reads a function's inputs with its entry choice).
ANALYSIS_ORDER = ["ir", "response", "parsing", "findings", "front_ends", "decisions", "", "counterfactual"]
# Includes of a task folder from a shared stage that wait for the task's results to be an interface
# of the registry row (issue 31, item 1): (file, included task folder) -> why.
TASK_FOLDER_CROSSINGS = {}
# A registry row's name, in a task folder's row function (`.name = "resume",`).
REGISTRY_ROW = re.compile(r'^\s*(?:return \{)?\.name = "([a-z][a-z0-9-]*)",')
JSON_FIELDS_HELPER = "src/base/json_fields.h"
# A function or lambda taking (a JSON object, a key) and returning a string.
STRING_FIELD_SIGNATURE = re.compile(
    r"(?:std::string\s+\w+|\[[^\]\n]*\])\s*\(\s*const\s+(?:nlohmann::)?(?:ordered_)?json\s*&\s*(\w+)\s*,\s*"
    r"(?:std::string_view|const\s+char\s*\*|const\s+std::string\s*&)\s*(\w+)\s*\)")


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


def task_folder_of(relative):
    """src/tasks/<task>/... -> <task>; anything else -> None (src/tasks/*.h is the shared task stage)."""
    parts = relative.split("/")
    return parts[2] if len(parts) > 3 and parts[:2] == ["src", "tasks"] else None


def analysis_folder_of(relative):
    """src/analysis/<sub>/... -> <sub>; src/analysis/<file> -> ""; elsewhere None."""
    parts = relative.split("/")
    if parts[:2] != ["src", "analysis"]:
        return None
    return parts[2] if len(parts) > 3 else ""


def folder_violations(root):
    """Inside a layer: analysis/ sub-folders point down ANALYSIS_ORDER; a task folder includes no other
    task folder, and no shared stage includes a task folder (only src/tasks/*, the registry, may)."""
    problems = []
    rank = {name: i for i, name in enumerate(ANALYSIS_ORDER)}
    files = sorted(p for top in ("src", "tools") for p in (root / top).rglob("*") if p.suffix in SOURCE_SUFFIXES)
    for path in files:
        relative = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            target_file = included_file(match.group(1), path, root) if match else None
            if target_file is None:
                continue
            target = target_file.relative_to(root.resolve()).as_posix()
            where = f"{relative}:{number}"
            source_sub, target_sub = analysis_folder_of(relative), analysis_folder_of(target)
            if source_sub is not None and target_sub is not None:
                if source_sub not in rank or target_sub not in rank:
                    problems.append(f"{where}: analysis/{source_sub or target_sub} is not in ANALYSIS_ORDER")
                elif rank[target_sub] > rank[source_sub]:
                    problems.append(f"{where}: analysis/{source_sub} includes {match.group(1)} of a later "
                                    f"analysis folder (order: {' -> '.join(n or '(root)' for n in ANALYSIS_ORDER)})")
            source_task, target_task = task_folder_of(relative), task_folder_of(target)
            if target_task is None or source_task == target_task:
                continue
            if source_task is not None:
                problems.append(f"{where}: task folder {source_task} includes {match.group(1)} of task folder "
                                f"{target_task}; move what both use to a shared stage")
            elif relative.startswith("src/") and not relative.startswith(TASK_CODE) \
                    and (relative, target_task) not in TASK_FOLDER_CROSSINGS:
                problems.append(f"{where}: a shared stage includes {match.group(1)} of task folder {target_task}; "
                                f"reach the task through its registry row (src/tasks/task.h)")
    return problems


def task_names(root):
    """The task names of the registry's rows: each task folder's row function (src/tasks/*/*_task.cpp)."""
    return sorted({m.group(1) for row_file in (root / "src" / "tasks").glob("*/*_task.cpp")
                   for line in row_file.read_text(encoding="utf-8").splitlines()
                   if (m := REGISTRY_ROW.match(line))})


def task_name_comparisons(root):
    """Lines outside src/tasks/ that compare a task-ish string with a registry task name."""
    names = "|".join(re.escape(name) for name in task_names(root))
    if not names:
        return [f"{TASK_CODE}*/*_task.cpp: no task rows found"]
    literal = rf'"(?:{names})"'
    # `task == "resume"`, `options.task != "cat"`, `string_or_empty(m, "task") == "decision"`, and reversed.
    subject = r'(?:\b\w*task\w*(?:\(\))?|"task"\))'
    comparison = re.compile(rf"{subject}\s*[!=]=\s*{literal}|{literal}\s*[!=]=\s*{subject}")
    problems = []
    for path in sorted(p for top in ("src", "tools") for p in (root / top).rglob("*") if p.suffix in SOURCE_SUFFIXES):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(TASK_CODE) or relative in TASK_CODE_AWAITING_MOVE:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if comparison.search(line):
                problems.append(f"{relative}:{number}: compares a task name; look the task up in the registry "
                                f"(tasks::find_task) or read the prompt's typed metadata instead")
    return problems


def string_field_helpers(root):
    """Definitions of a second "string field of a JSON object" helper (base/json_fields.h has the one)."""
    problems = []
    for path in sorted(p for top in ("src", "tools") for p in (root / top).rglob("*") if p.suffix in SOURCE_SUFFIXES):
        relative = path.relative_to(root).as_posix()
        if relative == JSON_FIELDS_HELPER:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in STRING_FIELD_SIGNATURE.finditer(text):
            body = text[match.end():match.end() + 400]
            key = re.escape(match.group(2))
            reads_key = re.search(rf"(?:find|contains|at|value)\(\s*{key}\b|\[\s*{key}\s*\]", body)
            yields_string = re.search(
                r'get<std::string>|get_ref<const std::string&>|value\(\s*\w+\s*,\s*(?:""|std::string)', body)
            if reads_key and yields_string:
                number = text.count("\n", 0, match.start()) + 1
                problems.append(f"{relative}:{number}: a string-field helper; use base::string_or_empty "
                                f"({JSON_FIELDS_HELPER})")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent,
                        help="repository root (default: this script's repository)")
    root = parser.parse_args().root
    problems = violations(root) + folder_violations(root)
    for problem in problems:
        print(problem)
    if problems:
        order = " -> ".join(read_order(root / "README.md"))
        print(f"{len(problems)} include(s) against the layer order {order} (README.md, Layout)", file=sys.stderr)
        return 1
    task_problems = task_name_comparisons(root) + string_field_helpers(root)
    for problem in task_problems:
        print(problem)
    if task_problems:
        print(f"{len(task_problems)} task-name comparison(s) or string-field helper(s) outside their place",
              file=sys.stderr)
        return 1
    print(f"layers: every include of src/ and tools/ points down ({' -> '.join(read_order(root / 'README.md'))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
