#!/usr/bin/env bash
# The cost of --execute (docs/counterfactual.md): the same run of the Solar suite with and without
# counterfactual execution, wall time and peak RSS of each, the ratio and the time execution adds
# per response. Twice: against the built-in model, which answers at once, and against the same
# model served with a model's latency (codebias serve-model --latency-ms), as a real endpoint is.
#   scripts/bench_execute.sh [RESPONSES [LATENCY_MS]]   (defaults 1000: 343 tasks x 3 samples, first
#                                                        1000; 1000 ms per answer, 64 in flight)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -x build/codebias ] || bash scripts/setup.sh --with-execute
responses=${1:-1000}
latency_ms=${2:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 -I - "$PWD/build/codebias" "$work" "$responses" "$latency_ms" <<'PY'
import os, re, subprocess, sys, time

codebias, work, responses, latency_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
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


def compare(title, extra):
    plain, plain_rss = measure(f"plain{len(extra)}", extra)
    executed, executed_rss = measure(f"execute{len(extra)}", [*extra, "--execute"])
    print(title)
    print(f"  without --execute: {plain:.1f} s, peak RSS {plain_rss:.0f} MiB")
    print(f"  with --execute:    {executed:.1f} s, peak RSS {executed_rss:.0f} MiB (largest process)")
    print(f"  ratio: {executed / plain:.2f} x (target: at most 3 x)")
    print(f"  added by --execute: {(executed - plain) * 1000 / responses:.1f} ms per response ({os.cpu_count()} cores)")


print(f"{responses} responses (solar, {samples} samples per task)")
compare("built-in model (answers at once):", [])
server = subprocess.Popen([codebias, "serve-model", "--port", "0", "--latency-ms", str(latency_ms)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
try:
    listening = re.search(r"http://\S+", server.stderr.readline())
    if not listening:
        sys.exit("codebias serve-model did not say where it listens")
    compare(f"the same model served with {latency_ms} ms per answer, 64 requests in flight:",
            ["--endpoint", listening.group(0), "--model", "builtin"])
finally:
    server.terminate()
    server.wait()
PY
