#!/usr/bin/env bash
# Builds mycc and runs every test: unit tests (GoogleTest), driver tests
# (lit + FileCheck) and the GPU end-to-end suite, which reports itself
# skipped where no GPU exists. scripts/build.sh installs every build system
# the build_systems tests use, so here a missing one fails instead of being
# reported skipped.
set -euo pipefail
export MYCC_REQUIRE_BUILD_SYSTEMS=${MYCC_REQUIRE_BUILD_SYSTEMS:-1}
cd "$(dirname "$0")/.."
scripts/build.sh
cd build
ctest --output-on-failure -j2
