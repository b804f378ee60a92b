#!/usr/bin/env python3
"""Fails when a C++ file of src/ or tools/ is over 1,000 lines or a function body over 150 lines.

Data tables are exempt by name (DATA_TABLES). A function is a brace block opened outside any other
function (at namespace or class level) whose head is not a namespace, class, struct, enum or union;
its length runs from the line of its head's opening brace to the line of its closing brace. Comments,
string and character literals are blanked first, so braces in them do not count. Prints every
violation as FILE:LINE: what, and with --top N the N largest files and functions.

    python3 scripts/check_sizes.py [--root DIR] [--top N]
"""
import argparse
import pathlib
import re
import sys

MAX_FILE_LINES = 1000
MAX_FUNCTION_LINES = 150
SOURCE_SUFFIXES = {".h", ".hpp", ".cc", ".cpp"}
# Generated or data-only sources: tables of data, not code to read.
DATA_TABLES = {"src/analysis/parsing/dense_parse_table.c"}
TYPE_HEAD = re.compile(r"\b(?:namespace|class|struct|enum|union)\b[^()]*$|\bextern\s+\"C\"\s*$")
LITERAL_OR_COMMENT = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blanked(text):
    """The text with comments and literals replaced by spaces (newlines kept, so lines still count)."""
    return LITERAL_OR_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def functions(text):
    """(first line, length in lines) of each top-level function body."""
    code = blanked(text)
    stack = []  # per open brace: "scope" (namespace/type), "function" or "block"
    found = []
    head_start = 0
    line = 1
    for index, char in enumerate(code):
        if char == "\n":
            line += 1
        elif char == "{":
            head = code[head_start:index]
            inside_function = any(kind != "scope" for kind, _ in stack)
            if inside_function:
                stack.append(("block", line))
            elif TYPE_HEAD.search(head.strip().replace("\n", " ")):
                stack.append(("scope", line))
            elif head.strip() and not head.strip().endswith("="):
                stack.append(("function", line))
            else:
                stack.append(("block", line))
            head_start = index + 1
        elif char == "}":
            if stack:
                kind, start = stack.pop()
                if kind == "function":
                    found.append((start, line - start + 1))
            head_start = index + 1
        elif char == ";":
            head_start = index + 1
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent)
    parser.add_argument("--top", type=int, default=0, help="also print the N largest files and functions")
    args = parser.parse_args()
    root = args.root
    problems, file_sizes, function_sizes = [], [], []
    for path in sorted(p for top in ("src", "tools") for p in (root / top).rglob("*") if p.suffix in SOURCE_SUFFIXES):
        relative = path.relative_to(root).as_posix()
        if relative in DATA_TABLES:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.count("\n")
        file_sizes.append((lines, relative))
        if lines > MAX_FILE_LINES:
            problems.append(f"{relative}:1: {lines} lines, over {MAX_FILE_LINES}; split it by concept")
        for start, length in functions(text):
            function_sizes.append((length, f"{relative}:{start}"))
            if length > MAX_FUNCTION_LINES:
                problems.append(f"{relative}:{start}: a function of {length} lines, over {MAX_FUNCTION_LINES}")
    for problem in problems:
        print(problem)
    if args.top:
        print("largest files:", ", ".join(f"{name} ({n})" for n, name in sorted(file_sizes, reverse=True)[:args.top]))
        print("largest functions:", ", ".join(f"{where} ({n})" for n, where in sorted(function_sizes, reverse=True)[:args.top]))
    if problems:
        print(f"{len(problems)} file(s) or function(s) over the size limits", file=sys.stderr)
        return 1
    print(f"sizes: no file over {MAX_FILE_LINES} lines, no function over {MAX_FUNCTION_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
