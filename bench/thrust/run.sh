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

source "$here/../common/builds.sh"

case $mode in
build)
  mkdir -p "$dir"
  build_libraries "$here/algorithms.cu" "$dir" libalgo "${3:-mycc}" "${4-nvcc}" "${5-clang++}" \
    --extended-lambda
  "${3:-mycc}" "${opt[@]}" "$here/harness.cpp" -cudart shared -ldl -o "$dir/harness"
  ;;
run)
  mapfile -t builds < <(built_libraries "$dir" libalgo)
  # The libraries find libcudart.so next to the harness's.
  "$dir/harness" --rounds "${3:-30}" --keys "${4:-16777216}" "${builds[@]}"
  ;;
*)
  sed -n '2,16p' "$0" >&2; exit 2
  ;;
esac
