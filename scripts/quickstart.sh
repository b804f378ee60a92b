#!/usr/bin/env bash
# Fresh Debian 12 to first results: install, build the codebias binary (not the tests), score the
# example responses, then run the FairCoder function suite's default slice end to end against the
# built-in simulated model.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
#   bash scripts/quickstart.sh [--with-execute]   (--with-execute: also the runtimes --execute uses)
# Only the codebias binary and what it needs: the tests, benchmarks and their packages are
# scripts/test.sh's.
BUILD_TARGETS=codebias_cli bash scripts/setup.sh "$@"
echo
echo "== build/codebias score --input examples/responses.jsonl --summary"
build/codebias score --input examples/responses.jsonl --summary
run_dir=build/quickstart-run
rm -rf "$run_dir"
echo
echo "== build/codebias run --out $run_dir   (no --endpoint: the built-in simulated model answers)"
build/codebias run --out "$run_dir"
echo
sed -n '/^## FairCoder metrics/,/^## How to read this/p' "$run_dir/report.md" | sed '$d'
echo "Files: $run_dir/{report.md,summary.json,responses.jsonl,metrics.csv,samples.csv,run.sqlite}"
