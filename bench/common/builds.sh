# Sourced by the benchmarks' run.sh: one source built into a shared library
# by each compiler, and the list of those built, for a harness that loads
# them side by side (bench/common/builds.h).

# build_libraries SOURCE DIR STEM MYCC NVCC CLANG [NVCC-STYLE FLAGS...]
#   DIR/STEM.{mycc,nvcc,clang}.so, each with -arch=$arch and $opt (arrays
#   the caller sets); the flags after CLANG go to mycc and nvcc only. A
#   compiler given as "" or not found is left out; mycc is required.
build_libraries() {
  local source=$1 dir=$2 stem=$3 mycc=$4 nvcc=$5 clang=$6
  shift 6
  # -Bsymbolic: a library's references to its own instantiations bind to its
  # own copies, so that two builds in one process never mix.
  local lib=(-arch="$arch" "${opt[@]}" -std=c++17 "$@" -shared -Xcompiler -fPIC -cudart shared
             -Xlinker -Bsymbolic)
  "$mycc" "${lib[@]}" "$source" -o "$dir/$stem.mycc.so"
  if [ -n "$nvcc" ] && command -v "$nvcc" > /dev/null; then
    "$nvcc" "${lib[@]}" "$source" -o "$dir/$stem.nvcc.so"
  else
    echo "run.sh: no nvcc, its build is left out" >&2
  fi
  if [ -n "$clang" ] && command -v "$clang" > /dev/null; then
    local cuda=${CUDA_HOME:-$(cd "$(dirname "$(command -v "$nvcc" || command -v "$mycc")")/.." && pwd)}
    "$clang" -x cuda --cuda-path="$cuda" --cuda-gpu-arch="$arch" -Wno-unknown-cuda-version \
      -Wno-pass-failed -isystem "$cuda/include/cccl" "${opt[@]}" -std=c++17 -fPIC -shared \
      -Wl,-Bsymbolic "$source" -L"$cuda/lib64" -lcudart -o "$dir/$stem.clang.so"
  else
    echo "run.sh: no clang++, its build is left out" >&2
  fi
}

# built_libraries DIR STEM: LABEL=PATH arguments for the builds that exist,
# nvcc's first (the harness's reference), one per line.
built_libraries() {
  local tag
  for tag in nvcc mycc clang; do
    [ -f "$1/$2.$tag.so" ] && echo "$tag=$1/$2.$tag.so"
  done
  return 0
}
