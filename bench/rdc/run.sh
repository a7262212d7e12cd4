#!/usr/bin/env bash
# Separate compilation, side by side: mycc -rdc=true (nvcc's format, device
# link = nvlink) and mycc -rdc=true -dlto (device link = LLVM link +
# whole-program optimisation) against nvcc -rdc=true (nvlink) and nvcc
# -rdc=true -dlto (nvcc's link-time optimisation).
#
#   bench/rdc/run.sh build-mycc DIR [mycc]   compile main.cu/physics.cu with -dc,
#                                            time -dlink, link DIR/app.mycc and
#                                            DIR/app.mycc-dlto
#   bench/rdc/run.sh build-nvcc DIR [nvcc]   the same for DIR/app.nvcc and
#                                            DIR/app.nvcc-dlto
#   bench/rdc/run.sh run DIR [ROUNDS]        run the programs interleaved (GPU)
#   bench/rdc/run.sh dlink-thrust DIR [mycc] [nvcc]
#                                            -dc of bench/thrust/algorithms.cu
#                                            (Thrust and CUB) by both, then
#                                            their -dlink times, interleaved
#   bench/rdc/run.sh build-multi DIR [mycc] [nvcc] [UNITS]
#                                            a generated project of UNITS
#                                            units (default 24, gen_multi.py)
#                                            whose device functions call
#                                            across units: -dc by both, their
#                                            -dlink times, interleaved; links
#                                            DIR/multi.mycc and DIR/multi.nvcc
#
# Device-link times are the median of 5 runs of the -dlink command alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 dir=$2
mkdir -p "$dir"
arch=${ARCH:-sm_90}
compute=compute_${arch#sm_}

median_time() { # command... -> median wall seconds of 5 runs (ms resolution)
  local times=()
  for _ in 1 2 3 4 5; do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
    times+=("$(( (t1 - t0) / 1000000 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p | awk '{ printf "%.3f", $1 / 1000 }'
}

# build CC TAG FLAGS...: compiles both units with -dc, times -dlink, links
# DIR/app.TAG.
build() {
  local cc=$1 tag=$2
  shift 2
  "$cc" -dc "$@" "$here/main.cu" -o "$dir/m.$tag.o"
  "$cc" -dc "$@" "$here/physics.cu" -o "$dir/p.$tag.o"
  local link=(-arch=$arch)
  case $tag in *-dlto) link=(-dlto -arch=$arch) ;; esac
  echo "DLINK $tag seconds=$(median_time "$cc" "${link[@]}" -dlink "$dir/m.$tag.o" "$dir/p.$tag.o" -o "$dir/dlink.$tag.o")"
  "$cc" "${link[@]}" "$dir/m.$tag.o" "$dir/p.$tag.o" -o "$dir/app.$tag"
}

case $mode in
build-mycc)
  build "${3:-mycc}" mycc -arch=$arch
  build "${3:-mycc}" mycc-dlto -dlto -arch=$arch
  ;;
build-nvcc)
  build "${3:-nvcc}" nvcc -arch=$arch
  build "${3:-nvcc}" nvcc-dlto -gencode arch=$compute,code=lto_${arch#sm_}
  ;;
dlink-thrust)
  mycc=${3:-mycc} nvcc=${4:-nvcc}
  flags=(-arch=$arch -O3 -std=c++17 --extended-lambda)
  "$mycc" -dc "${flags[@]}" "$here/../thrust/algorithms.cu" -o "$dir/algo.mycc.o"
  "$nvcc" -dc "${flags[@]}" "$here/../thrust/algorithms.cu" -o "$dir/algo.nvcc.o"
  for tag in nvcc mycc nvcc mycc; do
    cc=$nvcc
    [ $tag = mycc ] && cc=$mycc
    echo "DLINK-THRUST $tag seconds=$(median_time "$cc" -arch=$arch -dlink "$dir/algo.$tag.o" -o "$dir/algo_dlink.$tag.o")"
  done
  ;;
build-multi)
  mycc=${3:-mycc} nvcc=${4:-nvcc} units=${5:-24}
  python3 "$here/gen_multi.py" "$dir/multi-src" "$units"
  for tag in mycc nvcc; do
    cc=$nvcc
    [ $tag = mycc ] && cc=$mycc
    objs=()
    t0=$(date +%s%N)
    for k in $(seq 0 $((units - 1))); do
      "$cc" -dc -O3 -arch=$arch "$dir/multi-src/unit_$k.cu" -o "$dir/u$k.$tag.o"
      objs+=("$dir/u$k.$tag.o")
    done
    "$cc" -dc -O3 -arch=$arch "$dir/multi-src/main.cu" -o "$dir/main.$tag.o"
    t1=$(date +%s%N)
    echo "COMPILE-MULTI $tag seconds=$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f", ns / 1e9 }')"
    "$cc" -arch=$arch "$dir/main.$tag.o" "${objs[@]}" -o "$dir/multi.$tag"
  done
  for tag in nvcc mycc nvcc mycc; do
    cc=$nvcc
    [ $tag = mycc ] && cc=$mycc
    objs=("$dir/main.$tag.o")
    for k in $(seq 0 $((units - 1))); do objs+=("$dir/u$k.$tag.o"); done
    echo "DLINK-MULTI $tag seconds=$(median_time "$cc" -arch=$arch -dlink "${objs[@]}" -o "$dir/multi_dlink.$tag.o")"
  done
  ;;
run)
  rounds=${3:-5}
  for r in $(seq "$rounds"); do
    for app in app.nvcc app.mycc app.nvcc-dlto app.mycc-dlto multi.nvcc multi.mycc; do
      [ -x "$dir/$app" ] || continue
      echo "$app $("$dir/$app")"
    done
  done
  ;;
*)
  echo "usage: $0 build-mycc|build-nvcc|build-multi|run|dlink-thrust DIR [...]" >&2
  exit 2
  ;;
esac
