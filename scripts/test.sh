#!/usr/bin/env bash
# Install (with the test packages) + build (scripts/setup.sh --with-tests), then run every test: unit tests and golden CLI cases.
# Extra arguments go to ctest (e.g. -R CliScore, -L golden).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh --with-tests
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "${JOBS:-2}" "$@"
