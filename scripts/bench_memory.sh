#!/usr/bin/env bash
# Peak RSS of a built-in `codebias run` as it grows (issue 32: memory must stay flat): the
# FairCoder suite, all 1,360 prompts (--entities-per-group 1000), against the built-in model at
# each --samples given, with the run's wall and CPU time. Peak RSS is the run process's (wait4's
# ru_maxrss).
#   scripts/bench_memory.sh [SAMPLES...]     (default: 20 74, i.e. 27,200 and 100,640 samples)
#   CODEBIAS=/path/to/codebias scripts/bench_memory.sh ...   (another build, for a before/after)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
codebias=${CODEBIAS:-$PWD/build/codebias}
[ -x "$codebias" ] || bash scripts/setup.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- 20 74
/usr/bin/python3 -I -u - "$codebias" "$work" "$@" <<'PY'
import os, subprocess, sys, time

codebias, work, counts = sys.argv[1], sys.argv[2], [int(n) for n in sys.argv[3:]]
for samples in counts:
    out = f"{work}/run{samples}"
    command = [codebias, "run", "--suite", "faircoder", "--entities-per-group", "1000", "--samples", str(samples),
               "--no-html", "--out", out]
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    if status != 0:
        sys.exit(f"{' '.join(command)} failed (status {status})")
    print(f"{1360 * samples} samples (--samples {samples}): peak RSS {usage.ru_maxrss / 1024:.0f} MiB, "
          f"{seconds:.1f} s wall, {usage.ru_utime + usage.ru_stime:.1f} s CPU (target: under 300 MB at 100k)")
    subprocess.run(["rm", "-rf", out], check=True)
PY
