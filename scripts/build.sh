#!/usr/bin/env bash
# Configures and builds mycc into build/ (the driver lands in build/bin/mycc).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
