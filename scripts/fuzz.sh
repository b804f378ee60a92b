#!/usr/bin/env bash
# Builds the libFuzzer target fuzz_score in the sanitizer tree (scripts/sanitize.sh: clang, ASan +
# UBSan, libFuzzer coverage on the library) and runs it. In CI the tree is already built, so this
# costs a link at most.
#   scripts/fuzz.sh [SECONDS]   (default 60)
# The seed corpus is every response and every raw line of examples/ and tests/golden/; new
# inputs the fuzzer finds stay in build-asan/fuzz-corpus, crashes land in build-asan/fuzz-artifacts/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
build_dir=${SANITIZE_BUILD_DIR:-build-asan}
export SANITIZE_BUILD_DIR=$build_dir

bash scripts/sanitize.sh configure
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" --target fuzz_score

seeds="$build_dir/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build_dir/fuzz-corpus" "$build_dir/fuzz-artifacts"
/usr/bin/python3 -I - "$seeds" examples/*.jsonl tests/golden/*.jsonl <<'PY'
import hashlib, json, pathlib, sys
out = pathlib.Path(sys.argv[1])
def seed(data):
    (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
for name in sys.argv[2:]:
    for raw in pathlib.Path(name).read_bytes().split(b"\n"):
        if not raw.strip():
            continue
        seed(raw)
        try:
            response = json.loads(raw).get("response")
        except Exception:
            continue
        if isinstance(response, str):
            seed(response.encode("utf-8", "surrogatepass"))
PY
echo "fuzz: $(ls "$seeds" | wc -l) seeds, ${seconds}s"
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
log="$build_dir/fuzz.log"
if "$build_dir/fuzz_score" "$build_dir/fuzz-corpus" "$seeds" -max_total_time="$seconds" -max_len=16384 \
     -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build_dir/fuzz-artifacts/" \
     >"$log" 2>&1; then
  grep -E '^(Done|stat::)' "$log" || tail -n 5 "$log"
  echo "fuzz: passed (log: $log)"
else
  status=$?
  tail -n 80 "$log"
  echo "fuzz: FAILED (exit $status); reproducer(s): $(ls "$build_dir"/fuzz-artifacts/ 2>/dev/null | tr '\n' ' ')"
  echo "  rerun one with: $build_dir/fuzz_score $build_dir/fuzz-artifacts/<file>"
  exit "$status"
fi
