#!/usr/bin/env bash
# The sanitizer build, build-asan/: clang with ASan + UBSan on everything and libFuzzer's coverage
# on the library, so one tree runs the tests under the sanitizers and links the fuzz target
# (scripts/fuzz.sh uses the same tree).
#   scripts/sanitize.sh configure          configure build-asan/
#   scripts/sanitize.sh build              configure, then build the CLI, the tests and fuzz_score
#   scripts/sanitize.sh test [SET ...]     run test sets under the sanitizers (default: all of them)
# Sets: unit, sandbox, e2e, slow (the GoogleTest executables of tests/CMakeLists.txt, each in JOBS
# shards, one process per shard: the sanitized binaries start slowly) and golden (CTest).
# Environment: SANITIZE_BUILD_DIR (build-asan), JOBS (nproc), NPM_TARBALL_DIR, CODEBIAS_WERROR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=${SANITIZE_BUILD_DIR:-build-asan}
jobs=${JOBS:-$(nproc)}

configure() {
  # -O0 with line tables only: compiles fastest, and the sanitizers' reports still name lines.
  local args=(-S . -B "$build_dir" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
              -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-O0 -gline-tables-only"
              "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -gline-tables-only"
              -DCODEBIAS_SANITIZE=ON -DCODEBIAS_FUZZ=ON -DCODEBIAS_BUILD_TESTS=ON
              -DCODEBIAS_BUILD_BENCH=OFF -DCODEBIAS_WERROR="${CODEBIAS_WERROR:-OFF}")
  [ -n "${NPM_TARBALL_DIR:-}" ] && args+=(-DNPM_TARBALL_DIR="$NPM_TARBALL_DIR")
  mkdir -p "$build_dir"
  cmake "${args[@]}" >"$build_dir/configure.log" 2>&1 || { cat "$build_dir/configure.log"; return 1; }
  tail -n 1 "$build_dir/configure.log"
}

build() {
  configure
  cmake --build "$build_dir" -j "$jobs" --target codebias_cli codebias_all_tests fuzz_score
}

executables_of() {
  case "$1" in
    unit) echo unit_core_tests unit_analysis_tests unit_results_tests ;;
    sandbox) echo sandbox_tests ;;
    e2e) echo e2e_tests ;;
    slow) echo e2e_slow_tests ;;
    *) echo "sanitize: unknown test set '$1' (unit, sandbox, e2e, slow, golden)" >&2; return 2 ;;
  esac
}

run_tests() {
  local sets=("$@")
  ((${#sets[@]})) || sets=(unit sandbox e2e golden)
  export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
  local shards=() set exe shard
  for set in "${sets[@]}"; do
    [ "$set" = golden ] && continue
    for exe in $(executables_of "$set"); do
      for ((shard = 0; shard < jobs; shard++)); do shards+=("$exe $shard"); done
    done
  done
  local failed=0
  if ((${#shards[@]})); then
    # Every shard is one process; JOBS of them run at a time, longest executables first.
    printf '%s\n' "${shards[@]}" | BUILD_DIR=$build_dir TOTAL=$jobs xargs -P "$jobs" -L 1 bash -c '
      log="$BUILD_DIR/$0-shard-$1.log"
      if GTEST_TOTAL_SHARDS=$TOTAL GTEST_SHARD_INDEX=$1 "$BUILD_DIR/$0" --gtest_brief=1 >"$log" 2>&1; then
        echo "sanitize: $0 shard $1 of $TOTAL: $(grep -E "^\[  PASSED  \]" "$log" || echo passed)"
      else
        tail -n 200 "$log"
        echo "sanitize: $0 shard $1 of $TOTAL FAILED (log: $log)"
        exit 1
      fi' || failed=1
  fi
  for set in "${sets[@]}"; do
    if [ "$set" = golden ]; then
      (cd "$build_dir" && ctest --output-on-failure -j "$jobs" -L golden) || failed=1
    fi
  done
  return "$failed"
}

case "${1:-}" in
  configure) configure ;;
  build) build ;;
  test) shift; run_tests "$@" ;;
  *) echo "usage: scripts/sanitize.sh configure | build | test [unit|sandbox|e2e|slow|golden ...]" >&2; exit 2 ;;
esac
