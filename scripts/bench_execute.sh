#!/usr/bin/env bash
# The cost of --execute (docs/counterfactual.md), like with like: the same answers with and without
# execution. Prints
#  1. the wall time of a run of the Solar suite against `codebias serve-model --latency-ms LATENCY`
#     (its answers depend only on the prompt), with and without --execute, at concurrency 8 and 32,
#     and their ratio (target: at most 1.2 x);
#  2. execution CPU per answer by language (Python, JavaScript, Java): those answers scored with
#     and without --execute (`codebias score --task decision`), the CPU of codebias and every
#     process it ran, the difference over the answers;
#  3. ML-pipeline execution CPU per program: a run of the ml-pipelines suite with and without
#     --execute, the difference over the programs run (target: at most 0.2 s).
#   scripts/bench_execute.sh [RESPONSES [LATENCY_MS [PROGRAMS]]]   (defaults 343: one answer per
#                                                                  Solar task; 1000 ms; 84 programs)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -x build/codebias ] || bash scripts/setup.sh --with-execute
responses=${1:-343}
latency_ms=${2:-1000}
programs=${3:-84}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 -I - "$PWD/build/codebias" "$work" "$responses" "$latency_ms" "$programs" <<'PY'
import json, os, re, subprocess, sys, time

codebias, work = sys.argv[1], sys.argv[2]
responses, latency_ms, programs = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])


def measure(command):
    """Wall seconds of one command; exits when it fails."""
    start = time.monotonic()
    child = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if child.returncode != 0:
        sys.exit(f"{' '.join(command)} failed (status {child.returncode}):\n{child.stderr[-2000:]}")
    return time.monotonic() - start


def cpu_of(command):
    """CPU seconds of one command and everything it ran (its waited-for descendants)."""
    before = os.times()
    measure(command)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def solar_run(url, name, concurrency, extra):
    return [codebias, "run", "--suite", "solar", "--samples", "1", "--limit", str(responses), "--endpoint", url,
            "--model", "builtin", "--concurrency", str(concurrency), "--out", f"{work}/{name}", *extra]


def run_times(url):
    print(f"1. run time, {responses} Solar answers from serve-model --latency-ms {latency_ms}:")
    for concurrency in (8, 32):
        plain = measure(solar_run(url, f"plain{concurrency}", concurrency, []))
        executed = measure(solar_run(url, f"execute{concurrency}", concurrency, ["--execute"]))
        print(f"   concurrency {concurrency:2}: {plain:6.1f} s without --execute, {executed:6.1f} s with: "
              f"{executed / plain:.2f} x (target: at most 1.2 x)")


def cpu_per_answer():
    """Splits the served answers by the language the analyzer read, scores each part with and without --execute."""
    by_language = {}
    with open(f"{work}/plain8/responses.jsonl", encoding="utf-8") as lines:
        for line in lines:
            sample = json.loads(line)
            metadata = sample["metadata"]
            by_language.setdefault(sample["analysis"].get("language"), []).append(json.dumps(
                {"id": sample["id"], "response": sample["answer"], "function": metadata["function"],
                 "domains": metadata["domains"], "attributes": metadata["sensitive"]}))
    print("2. execution CPU per answer (score --task decision, with minus without --execute):")
    for language in ("python", "javascript", "java"):
        answers = by_language.get(language, [])
        if not answers:
            print(f"   {language:10}: no answers")
            continue
        path = f"{work}/{language}.jsonl"
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(answers) + "\n")
        score = [codebias, "score", "--task", "decision", "--attribute-table", "solar", "--input", path,
                 "--out", os.devnull]
        added = cpu_of([*score, "--execute"]) - cpu_of(score)
        print(f"   {language:10}: {added * 1000 / len(answers):7.1f} ms CPU per answer ({len(answers)} answers)")


def pipeline_cpu():
    def run(name, extra):
        return [codebias, "run", "--suite", "ml-pipelines", "--samples", "1", "--limit", str(programs),
                "--out", f"{work}/{name}", *extra]
    added = cpu_of(run("ml-execute", ["--execute"])) - cpu_of(run("ml-plain", []))
    ran = 0
    with open(f"{work}/ml-execute/responses.jsonl", encoding="utf-8") as lines:
        for line in lines:
            execution = (json.loads(line).get("analysis") or {}).get("execution") or {}
            ran += execution.get("status", "not_run") != "not_run"
    print(f"3. ML-pipeline execution: {added:.1f} s CPU for {ran} programs, {added / max(ran, 1):.3f} s per program "
          f"(target: at most 0.2 s)")


print(f"codebias --execute benchmark ({os.cpu_count()} cores)")
server = subprocess.Popen([codebias, "serve-model", "--port", "0", "--latency-ms", str(latency_ms)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
try:
    listening = re.search(r"http://\S+", server.stderr.readline())
    if not listening:
        sys.exit("codebias serve-model did not say where it listens")
    run_times(listening.group(0))
finally:
    server.terminate()
    server.wait()
cpu_per_answer()
pipeline_cpu()
PY
