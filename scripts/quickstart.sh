#!/usr/bin/env bash
# Fresh Debian 12 to first results: install, build, and score the example responses.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
echo
echo "== build/codebias score --input examples/responses.jsonl --summary"
build/codebias score --input examples/responses.jsonl --summary
