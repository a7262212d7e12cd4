#!/usr/bin/env bash
# Builds mycc and runs every test: unit tests (GoogleTest), driver tests
# (lit + FileCheck) and the GPU end-to-end suite, which reports itself
# skipped where no GPU exists.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
cd build
ctest --output-on-failure -j2
