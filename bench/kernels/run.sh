#!/usr/bin/env bash
# Kernel speed, side by side in one process: kernels.cu (WMMA GEMMs in five
# types, a float4 copy, a reduction, a stencil, transcendentals, a binomial
# option pricer in double precision, CUB's radix sort and scan) built by
# nvcc, mycc and clang++ into shared libraries that harness.cpp loads
# together and times alternately; every build's results are checked against
# the host.
#
#   bench/kernels/run.sh build DIR [mycc] [nvcc] [clang++]
#       builds DIR/libkernels.{nvcc,mycc,clang}.so and DIR/harness (a
#       compiler given as "" or not found is left out; mycc is required)
#   bench/kernels/run.sh run DIR [ROUNDS] [LAUNCHES]     (needs a GPU)
#       times every case ROUNDS times (default 15) of LAUNCHES launches
#       (default 10) per build; ratios are to nvcc's build when it was built
#
# Flags: -arch=$ARCH (default sm_90) and $OPT (default -O3) for every
# compiler; $CUDA_HOME is the toolkit clang++ uses (default: the one nvcc or
# mycc comes from).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-} dir=${2:-}
[ -n "$mode" ] && [ -n "$dir" ] || { sed -n '2,18p' "$0" >&2; exit 2; }
arch=${ARCH:-sm_90}
read -r -a opt <<< "${OPT--O3}"

source "$here/../common/builds.sh"

case $mode in
build)
  mkdir -p "$dir"
  build_libraries "$here/kernels.cu" "$dir" libkernels "${3:-mycc}" "${4-nvcc}" "${5-clang++}"
  "${3:-mycc}" "${opt[@]}" -std=c++17 "$here/harness.cpp" -cudart shared -ldl -o "$dir/harness"
  ;;
run)
  mapfile -t builds < <(built_libraries "$dir" libkernels)
  # The libraries find libcudart.so next to the harness's.
  "$dir/harness" --rounds "${3:-15}" --launches "${4:-10}" "${builds[@]}"
  ;;
*)
  sed -n '2,18p' "$0" >&2; exit 2
  ;;
esac
