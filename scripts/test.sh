#!/usr/bin/env bash
# Install + build (scripts/setup.sh), then run every test: unit tests and golden CLI cases.
# Extra arguments go to ctest (e.g. -R CliScore, -L golden).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "${JOBS:-2}" "$@"
