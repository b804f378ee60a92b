#!/usr/bin/env bash
# Throughput of the score pipeline: responses/s and peak RSS over a JSONL corpus.
#   scripts/bench.sh [CORPUS.jsonl] [REPEAT]     (default: examples/responses.jsonl, 3)
# Micro-benchmarks of analyze(): build/codebias_bench (Google Benchmark flags apply).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -x build/codebias_bench ] || bash scripts/setup.sh --with-tests
build/codebias_bench --corpus "${1:-examples/responses.jsonl}" --repeat "${2:-3}"
