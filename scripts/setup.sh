#!/usr/bin/env bash
# Installs what codebias needs on Debian 12 (only what is missing), then configures and builds
# Release into build/. Idempotent; a second run only rebuilds what changed.
#
#   bash scripts/setup.sh [--with-execute] [--with-tests]
#
# Packages by job (each list is installed only when asked for):
#   always          the build of the codebias binary: compiler, CMake, the libraries it links,
#                   ccache and lld, python3 (the sandbox's Python), Node.js with npm (tree-sitter's
#                   sources at configure time; JavaScript answers under --execute)
#   --with-execute  what `--execute` runs model-written code with: pandas and scikit-learn (ML
#                   pipelines), a JDK (Java answers)
#   --with-tests    what only the tests and benchmarks need: GoogleTest, Google Benchmark, clang
#                   (the sanitizer and fuzz tree), pylint, Chromium (the HTML report's browser
#                   test); implies --with-execute (the sandbox tests run every runtime) and
#                   configures the tests and benchmarks
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (Release), CODEBIAS_WERROR (OFF),
# JOBS (nproc), NPM_TARBALL_DIR (offline tarballs), SKIP_BUILD=1 (install only),
# BUILD_TARGETS (CMake targets to build, space-separated; default all).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

with_execute=0
with_tests=0
for argument in "$@"; do
  case "$argument" in
    --with-execute) with_execute=1 ;;
    --with-tests) with_tests=1 with_execute=1 ;;
    *) echo "setup: unknown option $argument (options: --with-execute, --with-tests)" >&2; exit 2 ;;
  esac
done

packages=(build-essential cmake pkg-config git nlohmann-json3-dev libsimdjson-dev libcli11-dev
          libcurl4-openssl-dev libsqlite3-dev libyaml-cpp-dev libmimalloc-dev python3
          ccache lld)  # a compiler cache shared by every checkout, a fast linker (cmake/CompilerOptions.cmake)
if ((with_execute)); then
  packages+=(python3-pandas python3-sklearn  # what generated ML pipelines import (tasks/pipelines/pipeline_execution.h)
             openjdk-17-jdk-headless)        # Debian 12's JDK: Java answers (CounterfactualRunner.java)
fi
if ((with_tests)); then
  packages+=(libgtest-dev libgmock-dev libbenchmark-dev pylint clang libclang-rt-14-dev
             chromium)  # headless browser of the HTML report's test (tests/browser/)
fi
# Node.js with npm fetches the tree-sitter sources at configure time, and node runs JavaScript
# answers under --execute (execution/counterfactual_execution.h). Debian's npm package
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
            -DCODEBIAS_WERROR="${CODEBIAS_WERROR:-OFF}"
            -DCODEBIAS_BUILD_TESTS="$( ((with_tests)) && echo ON || echo OFF)"
            -DCODEBIAS_BUILD_BENCH="$( ((with_tests)) && echo ON || echo OFF)"
            -DCODEBIAS_SANITIZE=OFF -DCODEBIAS_FUZZ=OFF)
[ -n "${NPM_TARBALL_DIR:-}" ] && cmake_args+=(-DNPM_TARBALL_DIR="$NPM_TARBALL_DIR")
cmake "${cmake_args[@]}"
targets=()
for target in ${BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" "${targets[@]}"
