#!/usr/bin/env bash
# Dependent atomicCAS chains, nvcc's build beside mycc's (bench/atomics/cas.cu).
#
#   bench/atomics/run.sh build DIR MYCC [NVCC]   builds DIR/cas.mycc, DIR/cas.nvcc
#   bench/atomics/run.sh run DIR [ROUNDS]        runs them interleaved, 5 times
#                                                each (GPU), with the ratios
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 dir=$2
arch=${ARCH:-sm_90}
case $mode in
build)
  mkdir -p "$dir"
  "$3" -O3 -arch=$arch "$here/cas.cu" -o "$dir/cas.mycc"
  "${4:-nvcc}" -O3 -arch=$arch "$here/cas.cu" -o "$dir/cas.nvcc"
  ;;
run)
  rounds=${3:-50}
  for i in 1 2 3 4 5; do
    for tag in nvcc mycc; do
      echo "$tag $("$dir/cas.$tag" "$rounds")"
    done
  done | awk '
    { split($2, d, "="); split($3, c, "="); n[$1]++;
      dist[$1, n[$1]] = d[2]; cont[$1, n[$1]] = c[2]; print }
    function med(a, tag, k,   i, j, t, v) {
      for (i = 1; i <= k; i++) v[i] = a[tag, i]
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
        if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      return v[int((k + 1) / 2)]
    }
    END {
      dm = med(dist, "mycc", n["mycc"]); dn = med(dist, "nvcc", n["nvcc"])
      cm = med(cont, "mycc", n["mycc"]); cn = med(cont, "nvcc", n["nvcc"])
      printf "median of runs: distinct nvcc %.4f ms, mycc %.4f ms (%.2fx); contended nvcc %.4f ms, mycc %.4f ms (%.2fx)\n",
        dn, dm, dm / dn, cn, cm, cm / cn
    }'
  ;;
*)
  echo "usage: $0 build DIR MYCC [NVCC] | run DIR [ROUNDS]" >&2
  exit 2
  ;;
esac
