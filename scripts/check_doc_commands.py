#!/usr/bin/env python3
"""Runs the command blocks of README.md and docs/*.md against the built codebias (CTest label docs).

Every fenced block (``` with no language, sh, bash, console) holding a command is either run or,
when it cannot run offline, explicitly marked and checked. A marker is an HTML comment on the line
before the fence:

  <!-- doc-test: check-only REASON -->       not run (needs a model server, builds or installs,
                                             a synopsis with placeholders): each codebias command's
                                             subcommand and flags must exist (`--help`), each
                                             script or program file named must exist
  <!-- doc-test: input NAME=PATH ... -->     the block reads NAME: a link to PATH (relative to the
                                             block's folder, which links the repository's folders)
  <!-- doc-test: answers NAME=RUN ... -->    the block reads NAME: the answered samples of the run
                                             in folder RUN (made by an earlier command of the
                                             block) as score input lines (metadata, id, response)
  <!-- doc-test: before COMMAND -->          runs COMMAND first (a run that a later command reads)

Keys combine with ';'. A block that is not check-only runs as one bash script in a folder of its
own (tests/, examples/, data/ ... link to the repository; `codebias` and `build/codebias` are the
binary under test). Each `codebias run` without --limit or --resume gets `--limit N` (--limit,
default 4), so a documented run is its command with a small slice. A command that looks
unrunnable (an endpoint, [optional] parts, ALL-CAPS placeholders, a build or install) in an
unmarked block fails the check: nothing is skipped silently.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

SHELL_LANGS = {"", "sh", "bash", "console", "shell"}
CODEBIAS = {"codebias", "build/codebias"}
# First words of a line that make it a command (after `$ ` and VAR=value prefixes).
PROGRAMS = CODEBIAS | {"bash", "python3", "cmake", "ctest", "cd", "valgrind", "sudo", "apt-get",
                       "npm", "node", "git", "build/codebias_bench", "build/generation_bench"}
MARKER = re.compile(r"^<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*(\.[a-z]+)?$")  # RUN_DIR, FILE.jsonl, M, URL
FLAG = re.compile(r"^--[a-z0-9][a-z0-9-]*")
HELP_FLAG = re.compile(r"(?:^|[\s,])(--[a-z0-9][a-z0-9-]*)")


class Block:
    def __init__(self, path, line, lines, marker):
        self.path, self.line, self.marker = path, line, marker
        self.commands = logical_commands(lines)
        self.check_only = None  # the reason, when marked
        self.inputs = {}
        self.answers = {}
        self.before = []
        for part in filter(None, (p.strip() for p in marker.split(";"))):
            key, _, value = part.partition(" ")
            if key == "check-only":
                self.check_only = value or "unspecified"
            elif key == "input":
                for pair in value.split():
                    name, _, target = pair.partition("=")
                    self.inputs[name] = target
            elif key == "answers":
                for pair in value.split():
                    name, _, run = pair.partition("=")
                    self.answers[name] = run
            elif key == "before":
                self.before.append(value)
            else:
                raise SystemExit(f"{self.where()}: unknown doc-test key '{key}' in the marker")

    def where(self):
        return f"{self.path}:{self.line}"


def words_of(command):
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return command.split()


def program_of(command):
    words = words_of(command)
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    return words[0] if words else ""


def logical_commands(lines):
    """The block's commands: `\\` continuations joined, indented synopsis lines appended."""
    prompted = any(line.startswith("$ ") for line in lines)
    commands = []
    continuing = False
    for raw in lines:
        line = raw.rstrip()
        if continuing:
            commands[-1] += " " + line.strip().rstrip("\\").strip()
            continuing = line.endswith("\\")
            continue
        if prompted:
            if not line.startswith("$ "):
                continue
            line = line[2:]
        elif commands and raw.startswith(" ") and line.strip().startswith("["):
            commands[-1] += " " + line.strip()  # a synopsis continued on an indented line
            continue
        stripped = line.strip()
        is_assignment = re.match(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$", stripped) is not None
        if not stripped or stripped.startswith("#"):
            continue
        if program_of(stripped) in PROGRAMS or is_assignment:
            commands.append(stripped.rstrip("\\").strip())
            continuing = stripped.endswith("\\")
    return commands


def blocks_of(path, root):
    text = (root / path).read_text(encoding="utf-8").split("\n")
    blocks, inside, start, body, lang = [], False, 0, [], ""
    for number, line in enumerate(text, 1):
        if line.startswith("```"):
            if not inside:
                inside, start, body, lang = True, number, [], line[3:].strip()
                continue
            inside = False
            if lang in SHELL_LANGS:
                previous = next((t for t in reversed(text[: start - 1]) if t.strip()), "")
                found = MARKER.match(previous.strip())
                block = Block(path, start, body, found.group(1) if found else "")
                if block.commands:
                    blocks.append(block)
            continue
        if inside:
            body.append(line)
    return blocks


def unrunnable_reason(command):
    """Why a command cannot run offline as written, or None."""
    program = program_of(command)
    if program not in CODEBIAS:
        return None if program == "" else f"runs {program}"  # "": a variable assignment
    words = words_of(command)
    if "--endpoint" in words:
        return "needs a model server (--endpoint)"
    if any(w.startswith("[") or w.endswith("]") or w == "..." for w in words):
        return "a synopsis ([optional] parts)"
    if any("|" in w and not w.startswith("|") for w in words):
        return "a synopsis (a|b alternatives)"
    if any(PLACEHOLDER.match(w) for w in words[1:]):
        return "a synopsis (ALL-CAPS placeholders)"
    return None


class HelpCache:
    def __init__(self, cli):
        self.cli, self.texts = cli, {}

    def help(self, path):
        key = tuple(path)
        if key not in self.texts:
            done = subprocess.run([self.cli, *path, "--help"], capture_output=True, text=True, timeout=60)
            self.texts[key] = (done.returncode, done.stdout + done.stderr)
        return self.texts[key]

    def subcommands(self, path):
        _, text = self.help(path)
        names, listing = set(), False
        for line in text.split("\n"):
            if line.startswith("Subcommands:"):
                listing = True
            elif listing and re.match(r"^  \S", line):
                names.add(line.split()[0])
            elif listing and line and not line.startswith(" "):
                listing = False
        return names


def check_codebias_flags(command, helps):
    """Problems of one codebias command's subcommand and flags, by its --help."""
    words = words_of(command)
    while words and words[0] not in CODEBIAS:
        words = words[1:]
    path, rest = [], words[1:]
    while rest and rest[0] in helps.subcommands(path):
        path.append(rest.pop(0))
    if not path:
        return [f"no such subcommand in `{command}`"]
    code, text = helps.help(path)
    if code != 0:
        return [f"`codebias {' '.join(path)} --help` exits {code}"]
    known = set(HELP_FLAG.findall(text))
    problems = []
    for word in rest:
        word = word.strip("[]")
        flag = FLAG.match(word)
        if flag and flag.group(0) not in known:
            problems.append(f"`codebias {' '.join(path)}` has no flag {flag.group(0)} (in `{command}`)")
    return problems


def check_files_named(command, root):
    problems = []
    for word in words_of(command):
        if re.match(r"^(scripts|tests|tools|bench|cmake)/\S+\.(sh|py)$", word) and not (root / word).exists():
            problems.append(f"no file {word} (in `{command}`)")
        if word.endswith(".sh") and (root / word).exists():
            syntax = subprocess.run(["bash", "-n", str(root / word)], capture_output=True, text=True)
            if syntax.returncode != 0:
                problems.append(f"{word} does not parse: {syntax.stderr.strip()}")
    return problems


def runnable_form(command, limit):
    """The command without its trailing comment, a `codebias run` with a --limit."""
    words = words_of(command)
    body = command.partition(" #")[0].rstrip()
    is_run = len(words) > 1 and words[0] in CODEBIAS and words[1] == "run"
    if not is_run or "--limit" in words or "--resume" in words:
        return body
    return f"{body} --limit {limit}"


def prepare_folder(block, scratch, root, cli):
    folder = scratch / f"{block.path.replace('/', '_')}_{block.line}"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "bin").mkdir(parents=True)
    (folder / "build").mkdir()
    for entry in root.iterdir():
        if entry.name.startswith(".") or entry.name.startswith("build") or entry.name == "runs":
            continue
        (folder / entry.name).symlink_to(entry)
    (folder / "bin" / "codebias").symlink_to(cli)
    (folder / "build" / "codebias").symlink_to(cli)
    for name, target in block.inputs.items():
        (folder / name).symlink_to(target)
    return folder


# A run's responses.jsonl as `codebias score` input: each answered sample's metadata, id and answer.
ANSWERS_OF_RUN = ("import json, sys\n"
                  "with open(sys.argv[1] + '/responses.jsonl') as lines, open(sys.argv[2], 'w') as out:\n"
                  "    for line in map(json.loads, lines):\n"
                  "        if line['status'] == 'done':\n"
                  "            out.write(json.dumps({**line['metadata'], 'id': line['id'], 'response': line['answer']}) + '\\n')\n")


def block_script(block, limit):
    commands, made = list(block.before), set()
    for command in block.commands:
        for name, run in block.answers.items():
            if name not in made and name in words_of(command):
                made.add(name)
                commands.append(f"python3 -c {shlex.quote(ANSWERS_OF_RUN)} {shlex.quote(run)} {shlex.quote(name)}")
        commands.append(runnable_form(command, limit))
    lines = ["set -u"]
    for command in commands:
        lines.append(f"{command} || {{ status=$?; echo {shlex.quote('doc-test: failed: ' + command)} >&2; exit $status; }}")
    return "\n".join(lines)


def run_block(block, scratch, root, cli, limit):
    folder = prepare_folder(block, scratch, root, cli)
    env = dict(os.environ, PATH=f"{folder / 'bin'}:{os.environ.get('PATH', '')}")
    started = time.monotonic()
    done = subprocess.run(["bash", "-c", block_script(block, limit)], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=600)
    seconds = time.monotonic() - started
    if done.returncode == 0:
        return [], seconds
    tail = "\n".join((done.stderr or done.stdout).strip().split("\n")[-15:])
    return [f"{block.where()}: exit {done.returncode}\n{tail}"], seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True, help="the codebias binary under test")
    parser.add_argument("--scratch", required=True, help="a folder for the blocks' runs (emptied)")
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--limit", type=int, default=4, help="--limit given to each codebias run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("docs", nargs="*", help="markdown files, relative to --root (default: README.md docs/*.md)")
    args = parser.parse_args()
    root, cli, scratch = Path(args.root).resolve(), str(Path(args.cli).resolve()), Path(args.scratch).resolve()
    docs = args.docs or ["README.md"] + sorted(str(p.relative_to(root)) for p in (root / "docs").glob("*.md"))
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)

    blocks = [block for doc in docs for block in blocks_of(doc, root)]
    helps, problems = HelpCache(cli), []
    runnable = []
    marked = [block for block in blocks if block.check_only is not None]
    for block in blocks:
        unmarked = False
        for command in block.commands:
            reason = unrunnable_reason(command)
            if reason and block.check_only is None:
                unmarked = True
                problems.append(f"{block.where()}: `{command}` {reason}: mark the block "
                                f"<!-- doc-test: check-only REASON --> or make the command runnable")
            if program_of(command) in CODEBIAS:
                problems += [f"{block.where()}: {p}" for p in check_codebias_flags(command, helps)]
            problems += [f"{block.where()}: {p}" for p in check_files_named(command, root)]
        if block.check_only is None and not unmarked:  # never run a build, an install or a server call
            runnable.append(block)

    started = time.monotonic()
    ran = sum(len(b.commands) for b in runnable)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_block, b, scratch, root, cli, args.limit): b for b in runnable}
        for future in concurrent.futures.as_completed(futures):
            block_problems, seconds = future.result()
            problems += block_problems
            print(f"  {futures[future].where()}: {len(futures[future].commands)} commands, {seconds:.1f} s")
    print(f"doc commands: {len(blocks)} blocks in {len(docs)} files; ran {ran} commands in {len(runnable)} blocks "
          f"({time.monotonic() - started:.1f} s); checked {sum(len(b.commands) for b in marked)} commands of "
          f"{len(marked)} check-only blocks for their subcommands, flags and files")
    for problem in problems:
        print(f"FAIL {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
