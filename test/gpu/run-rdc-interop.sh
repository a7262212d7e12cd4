#!/usr/bin/env bash
# Separate compilation across compilers and into a shared library, on the
# GPU: programs built from mycc's and nvcc's relocatable device code in both
# directions (objects, static archives and -r's relocatable links), and a
# shared library with its own device link, each run and checked (PASS lines).
#
#   run-rdc-interop.sh <mycc> <nvcc> [extra flags, e.g. -arch=sm_90]
#
# MYCC_GPU_TESTS_WORKDIR: where to build (default: a temporary directory);
# MYCC_GPU_TESTS_BUILD_ONLY=1: build, do not run; MYCC_GPU_TESTS_PREBUILT=dir:
# run the programs built there. Exits 77 (skipped) without a GPU, unless it
# only builds.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 <mycc> <nvcc> [flags...]" >&2
  exit 2
fi
abs() { case $1 in /*) echo "$1" ;; */*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;; *) command -v "$1" || echo "$1" ;; esac; }
mycc=$(abs "$1")
nvcc=$(abs "$2")
shift 2
flags=("$@")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_only=${MYCC_GPU_TESTS_BUILD_ONLY:-0}
prebuilt=${MYCC_GPU_TESTS_PREBUILT:-}

if [ "$build_only" != 1 ] && [ "${MYCC_GPU_TESTS_FORCE:-0}" != 1 ] &&
   ! { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; }; then
  echo "SKIP rdc interop (no GPU)"
  exit 77
fi

programs=(mycc_links_nvcc_objects nvcc_links_mycc_objects
          mycc_links_nvcc_archive nvcc_links_mycc_archive shared_library_rdc
          mycc_relocatable_link mycc_relocatable_sources nvcc_links_mycc_relocatable
          mycc_links_nvcc_relocatable)

if [ -z "$prebuilt" ]; then
  if ! command -v "$nvcc" >/dev/null 2>&1; then
    echo "SKIP rdc interop (no nvcc)"
    exit 77
  fi
  work=${MYCC_GPU_TESTS_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/mycc-rdc-interop.XXXXXX")}
  mkdir -p "$work" && work=$(cd "$work" && pwd)
  # mycc's objects call its runtime: a link by nvcc names it.
  rt="-L$(cd "$(dirname "$mycc")/../lib64" && pwd) -lmycc_rt"
  log="$work/build.log"
  : >"$log"
  step() { echo "\$ $*" >>"$log"; "$@" >>"$log" 2>&1; }
  cd "$work" || exit 2
  ok=1
  # Objects: a unit from each compiler in one program, linked by each.
  step "$nvcc" "${flags[@]}" -dc "$here/rdc_same_names_b.cu" -o b_nvcc.o || ok=0
  step "$mycc" "${flags[@]}" -dc "$here/rdc_same_names.cu" -o a_mycc.o || ok=0
  step "$mycc" "${flags[@]}" a_mycc.o b_nvcc.o -o mycc_links_nvcc_objects || ok=0
  step "$mycc" "${flags[@]}" -dc "$here/rdc_same_names_b.cu" -o b_mycc.o || ok=0
  step "$nvcc" "${flags[@]}" -dc "$here/rdc_same_names.cu" -o a_nvcc.o || ok=0
  step "$nvcc" "${flags[@]}" a_nvcc.o b_mycc.o $rt -o nvcc_links_mycc_objects || ok=0
  # Static archives of relocatable device code made by the other compiler.
  step "$nvcc" "${flags[@]}" -dc "$here/rdc_library_part.cu" -o part_nvcc.o || ok=0
  step ar rcs libpart_nvcc.a part_nvcc.o || ok=0
  step "$mycc" "${flags[@]}" -rdc=true "$here/rdc_library.cu" -L. -lpart_nvcc -o mycc_links_nvcc_archive || ok=0
  step "$mycc" "${flags[@]}" -dc "$here/rdc_library_part.cu" -o part_mycc.o || ok=0
  step ar rcs libpart_mycc.a part_mycc.o || ok=0
  step "$nvcc" "${flags[@]}" -rdc=true "$here/rdc_library.cu" -L. -lpart_mycc $rt -o nvcc_links_mycc_archive || ok=0
  # -r: one object from a unit of each compiler, the program's device link
  # then by mycc; two sources -r'd by mycc; a source -r'd by mycc, linked by
  # nvcc; nvcc's -r, linked by mycc. (nvlink refuses a unit's extern
  # __shared__ array beside an -r'd object that has one too, nvcc's objects
  # as mycc's: rdc_extern has none.)
  step "$mycc" "${flags[@]}" -r a_mycc.o b_nvcc.o -o ab_r_mycc.o || ok=0
  step "$mycc" "${flags[@]}" ab_r_mycc.o -o mycc_relocatable_link || ok=0
  step "$mycc" "${flags[@]}" -r "$here/rdc_extern.cu" "$here/rdc_extern_b.cu" -o e_r_mycc.o || ok=0
  step "$mycc" "${flags[@]}" e_r_mycc.o -o mycc_relocatable_sources || ok=0
  step "$mycc" "${flags[@]}" -r "$here/rdc_extern_b.cu" -o e_b_r_mycc.o || ok=0
  step "$nvcc" "${flags[@]}" -dc "$here/rdc_extern.cu" -o e_a_nvcc.o || ok=0
  step "$nvcc" "${flags[@]}" e_a_nvcc.o e_b_r_mycc.o $rt -o nvcc_links_mycc_relocatable || ok=0
  step "$nvcc" "${flags[@]}" -dc "$here/rdc_extern_b.cu" -o e_b_nvcc.o || ok=0
  step "$nvcc" "${flags[@]}" -r e_b_nvcc.o -o e_b_r_nvcc.o || ok=0
  step "$mycc" "${flags[@]}" -dc "$here/rdc_extern.cu" -o e_a_mycc.o || ok=0
  step "$mycc" "${flags[@]}" e_a_mycc.o e_b_r_nvcc.o -o mycc_links_nvcc_relocatable || ok=0
  # A shared library with relocatable device code, used by a C++ program.
  step "$mycc" "${flags[@]}" -shared -rdc=true -Xcompiler -fPIC "$here/interop/shlib_a.cu" "$here/interop/shlib_b.cu" -o libshrdc.so || ok=0
  step g++ "$here/interop/shlib_main.cpp" -L. -lshrdc -Wl,-rpath,'$ORIGIN' -o shared_library_rdc || ok=0
  if [ $ok != 1 ]; then
    echo "FAIL rdc interop (build) [log: $log]"
    exit 1
  fi
  [ "$build_only" = 1 ] && { echo "built ${#programs[@]} programs in $work"; exit 0; }
else
  work=$(cd "$prebuilt" && pwd)
fi

passed=0
failed=0
for p in "${programs[@]}"; do
  out=$(cd "$work" && timeout 60 "./$p" 2>&1)
  if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q '^PASS'; then
    echo "PASS $p"
    passed=$((passed + 1))
  else
    echo "FAIL $p"
    printf '%s\n' "$out" | tail -5 | sed 's/^/  /'
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
