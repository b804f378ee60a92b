#!/usr/bin/env bash
# The cost of --execute (docs/counterfactual.md): the same built-in-model run of the Solar suite
# with and without counterfactual execution, wall time and peak RSS of each, the ratio and the
# time execution adds per response.
#   scripts/bench_execute.sh [RESPONSES]     (default 1000: 343 tasks x 3 samples, first 1000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -x build/codebias ] || bash scripts/setup.sh
responses=${1:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 -I - "$PWD/build/codebias" "$work" "$responses" <<'PY'
import os, subprocess, sys, time

codebias, work, responses = sys.argv[1], sys.argv[2], int(sys.argv[3])
samples = -(-responses // 343)


def measure(name, extra):
    """Wall seconds and peak RSS (MiB, the largest of the run's processes) of one run."""
    command = [codebias, "run", "--suite", "solar", "--samples", str(samples), "--limit", str(responses),
               "--out", f"{work}/{name}", *extra]
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    if status != 0:
        sys.exit(f"{' '.join(command)} failed (status {status})")
    return seconds, usage.ru_maxrss / 1024


plain, plain_rss = measure("plain", [])
executed, executed_rss = measure("execute", ["--execute"])
print(f"{responses} responses (solar, built-in model, {samples} samples per task)")
print(f"without --execute: {plain:.1f} s, peak RSS {plain_rss:.0f} MiB")
print(f"with --execute:    {executed:.1f} s, peak RSS {executed_rss:.0f} MiB (largest process)")
print(f"ratio: {executed / plain:.2f} x (target: at most 3 x)")
print(f"added by --execute: {(executed - plain) * 1000 / responses:.1f} ms per response "
      f"({os.cpu_count()} cores; a run against a real endpoint adds the same)")
PY
