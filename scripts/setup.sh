#!/usr/bin/env bash
# Installs what codebias needs on Debian 12 (only what is missing), then configures and builds
# Release into build/. Idempotent; a second run only rebuilds what changed.
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (Release), CODEBIAS_WERROR (OFF),
# JOBS (nproc), NPM_TARBALL_DIR (offline tarballs), SKIP_BUILD=1 (install only),
# BUILD_TARGETS (CMake targets to build, space-separated; default all: the tool, tests and
# benchmarks). The configuration never depends on BUILD_TARGETS, so one build tree serves the
# quick start (codebias_cli only) and scripts/test.sh (everything) without reconfiguring.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(build-essential cmake pkg-config git nlohmann-json3-dev libsimdjson-dev libcli11-dev libgtest-dev libgmock-dev
          libbenchmark-dev libcurl4-openssl-dev libsqlite3-dev libyaml-cpp-dev libmimalloc-dev pylint clang libclang-rt-14-dev python3
          ccache lld  # the build: a compiler cache shared by every checkout, a fast linker (cmake/CompilerOptions.cmake)
          python3-pandas python3-sklearn  # what generated ML pipelines import (quality/pipeline_execution.h)
          openjdk-17-jdk-headless  # Debian 12's JDK: Java answers under --execute (CounterfactualRunner.java)
          chromium)  # headless browser of the HTML report's test (tests/browser/)
# Node.js with npm fetches the tree-sitter sources at configure time, and node runs JavaScript
# answers under --execute (quality/counterfactual_execution.h). Debian's npm package
# conflicts with a Node.js that already ships npm (e.g. nodesource), so only add it when absent.
if ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

[ "${SKIP_BUILD:-0}" = 1 ] && exit 0

build_dir=${BUILD_DIR:-build}
# Options are passed every time, so a build tree configured differently before is reset.
cmake_args=(-S . -B "$build_dir" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}"
            -DCODEBIAS_WERROR="${CODEBIAS_WERROR:-OFF}" -DCODEBIAS_BUILD_TESTS=ON -DCODEBIAS_BUILD_BENCH=ON
            -DCODEBIAS_SANITIZE=OFF -DCODEBIAS_FUZZ=OFF)
[ -n "${NPM_TARBALL_DIR:-}" ] && cmake_args+=(-DNPM_TARBALL_DIR="$NPM_TARBALL_DIR")
cmake "${cmake_args[@]}"
targets=()
for target in ${BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" "${targets[@]}"
