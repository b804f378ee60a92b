#!/usr/bin/env bash
# Start-up and the analyzer's CPU against FairCoder's published scorer (issue 32): the CPU time
# (user + sys, from wait4) of `codebias --version` and `codebias suites`, and of `codebias score`
# with the analyzer and with `--compat faircoder` (the line-based reimplementation of the
# published regex scorer) over the same lines; lines per CPU-second of each, and their ratio
# (target: the analyzer at least 1.25x). Best of REPEAT runs each: the machine may be shared.
#   scripts/bench_startup.sh [CORPUS.jsonl] [REPEAT]     (defaults: examples/responses.jsonl, 5)
#   CODEBIAS=/path/to/codebias scripts/bench_startup.sh ...   (another build, for a before/after)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
codebias=${CODEBIAS:-$PWD/build/codebias}
[ -x "$codebias" ] || bash scripts/setup.sh
/usr/bin/python3 -I -u - "$codebias" "${1:-examples/responses.jsonl}" "${2:-5}" <<'PY'
import os, subprocess, sys

codebias, corpus, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])


def cpu_seconds(arguments):
    """The least CPU time (user + sys) of `repeat` runs of codebias with these arguments."""
    best = None
    for _ in range(repeat):
        child = subprocess.Popen([codebias, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        if status != 0:
            sys.exit(f"codebias {' '.join(arguments)} failed (status {status})")
        seconds = usage.ru_utime + usage.ru_stime
        best = seconds if best is None else min(best, seconds)
    return best


with open(corpus, "rb") as lines:
    count = sum(1 for line in lines if line.strip())
print(f"start-up, CPU per process (best of {repeat}):")
for arguments in (["--version"], ["suites"]):
    print(f"  codebias {' '.join(arguments)}: {cpu_seconds(arguments) * 1000:.1f} ms")
analyzer = cpu_seconds(["score", "--input", corpus, "--out", "/dev/null"])
compat = cpu_seconds(["score", "--compat", "faircoder", "--input", corpus, "--out", "/dev/null"])
print(f"{count} lines of {corpus}, CPU per process (best of {repeat}), start-up included:")
print(f"  analyzer:            {analyzer:.3f} s, {count / analyzer:.0f} lines per CPU-second")
print(f"  --compat faircoder:  {compat:.3f} s, {count / compat:.0f} lines per CPU-second")
print(f"  ratio (analyzer lines per CPU-second / compat's): {compat / analyzer:.2f} x (target: at least 1.25 x)")
PY
