#!/usr/bin/env bash
# Thrust and CUB run time, side by side in one process: algorithms.cu built
# by nvcc, mycc and clang++ into shared libraries that harness.cpp loads
# together, alternating between the builds call by call.
#
#   bench/thrust/run.sh build DIR [mycc] [nvcc] [clang++]
#       builds DIR/libalgo.{nvcc,mycc,clang}.so and DIR/harness (a compiler
#       given as "" or not found is left out; mycc is required)
#   bench/thrust/run.sh run DIR [ROUNDS] [KEYS]     (needs a GPU)
#       times every build ROUNDS times (default 30) per phase on KEYS keys
#       (default 16M); ratios are to nvcc's build when it was built
#
# Flags: -arch=$ARCH (default sm_90) and $OPT (default -O3, what a CMake
# Release build passes) for every compiler; $CUDA_HOME is the toolkit
# clang++ uses (default: the one nvcc or mycc comes from).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-} dir=${2:-}
[ -n "$mode" ] && [ -n "$dir" ] || { sed -n '2,16p' "$0" >&2; exit 2; }
arch=${ARCH:-sm_90}
read -r -a opt <<< "${OPT--O3}"

case $mode in
build)
  mkdir -p "$dir"
  mycc=${3:-mycc} nvcc=${4-nvcc} clang=${5-clang++}
  # A shared library whose own references to Thrust's and CUB's
  # instantiations bind to its own copies (-Bsymbolic), so that two builds
  # in one process never call into each other.
  lib=(-arch="$arch" "${opt[@]}" -std=c++17 --extended-lambda -shared -Xcompiler -fPIC
       -cudart shared -Xlinker -Bsymbolic)
  "$mycc" "${lib[@]}" "$here/algorithms.cu" -o "$dir/libalgo.mycc.so"
  "$mycc" "${opt[@]}" "$here/harness.cpp" -cudart shared -ldl -o "$dir/harness"
  if [ -n "$nvcc" ] && command -v "$nvcc" > /dev/null; then
    "$nvcc" "${lib[@]}" "$here/algorithms.cu" -o "$dir/libalgo.nvcc.so"
  else
    echo "run.sh: no nvcc, its build is left out" >&2
  fi
  if [ -n "$clang" ] && command -v "$clang" > /dev/null; then
    cuda=${CUDA_HOME:-$(cd "$(dirname "$(command -v "$nvcc" || command -v "$mycc")")/.." && pwd)}
    "$clang" -x cuda --cuda-path="$cuda" --cuda-gpu-arch="$arch" -Wno-unknown-cuda-version \
      -Wno-pass-failed -isystem "$cuda/include/cccl" "${opt[@]}" -std=c++17 -fPIC -shared \
      -Wl,-Bsymbolic "$here/algorithms.cu" -L"$cuda/lib64" -lcudart -o "$dir/libalgo.clang.so"
  else
    echo "run.sh: no clang++, its build is left out" >&2
  fi
  ;;
run)
  builds=()
  for tag in nvcc mycc clang; do
    [ -f "$dir/libalgo.$tag.so" ] && builds+=("$tag=$dir/libalgo.$tag.so")
  done
  # The libraries find libcudart.so next to the harness's.
  "$dir/harness" --rounds "${3:-30}" --keys "${4:-16777216}" "${builds[@]}"
  ;;
*)
  sed -n '2,16p' "$0" >&2; exit 2
  ;;
esac
