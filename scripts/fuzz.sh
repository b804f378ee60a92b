#!/usr/bin/env bash
# Builds the libFuzzer target fuzz_score with clang (build-fuzz/) and runs it.
#   scripts/fuzz.sh [SECONDS]   (default 60)
# The seed corpus is every response and every raw line of examples/ and tests/golden/; new
# inputs the fuzzer finds stay in build-fuzz/corpus, crashes land in build-fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}

# -O1 with assertions on: the usual libFuzzer trade-off between speed and compile time.
cmake_args=(-S . -B "$build_dir" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
            -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O1 -DCMAKE_CXX_FLAGS=-O1
            -DCODEBIAS_FUZZ=ON -DCODEBIAS_BUILD_TESTS=OFF -DCODEBIAS_BUILD_BENCH=OFF)
[ -n "${NPM_TARBALL_DIR:-}" ] && cmake_args+=(-DNPM_TARBALL_DIR="$NPM_TARBALL_DIR")
cmake "${cmake_args[@]}"
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" --target fuzz_score

seeds="$build_dir/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build_dir/corpus" "$build_dir/artifacts"
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
if "$build_dir/fuzz_score" "$build_dir/corpus" "$seeds" -max_total_time="$seconds" -max_len=16384 \
     -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build_dir/artifacts/" \
     >"$log" 2>&1; then
  grep -E '^(Done|stat::)' "$log" || tail -n 5 "$log"
  echo "fuzz: passed (log: $log)"
else
  status=$?
  tail -n 80 "$log"
  echo "fuzz: FAILED (exit $status); reproducer(s): $(ls "$build_dir"/artifacts/ 2>/dev/null | tr '\n' ' ')"
  echo "  rerun one with: $build_dir/fuzz_score $build_dir/artifacts/<file>"
  exit "$status"
fi
