#!/usr/bin/env bash
# Builds test/build-systems/cache with CMake and Ninja through ccache
# (CMAKE_CUDA_COMPILER_LAUNCHER=ccache) and checks, step by step, that the
# cache answers as it must for kernel.cu (docs/build-systems.md, "Compiler
# caches"):
#   first build                          miss
#   a fresh build directory, same inputs hit
#   a header only the host side includes miss
#   a header only the device side includes miss  (mycc -E covers every side)
#   another -arch (CUDA_ARCHITECTURES)   miss
#   another -Xcompiler option            miss
#   everything as at first, again        hit
# and that every object, from the cache or not, is byte for byte the object
# mycc compiles without the cache.
#
#   compiler-cache.sh <mycc> <source dir> <cmake>
#
# Exit status: 0 passed, 1 failed, 77 (skipped) when ccache or Ninja is
# missing; with MYCC_REQUIRE_BUILD_SYSTEMS or CI set a missing one fails.
set -u

mycc=${1:?mycc}
src=${2:?source dir}
cmake=${3:?cmake}

. "$(dirname "$0")/common.sh"

command -v ccache >/dev/null 2>&1 || missing "no ccache"
command -v ninja >/dev/null 2>&1 || missing "no ninja"
note "$(ccache --version | head -n1); mycc $mycc"

work=$(mktemp -d "${TMPDIR:-/tmp}/mycc-compiler-cache.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cp -r "$src/test/build-systems/cache" "$work/src"
# The cache's own settings only: nothing of the caller's configuration.
while read -r var; do unset "$var"; done < <(env | sed -n 's/^\(CCACHE_[A-Z_]*\)=.*/\1/p')
export CCACHE_DIR=$work/ccache CCACHE_CONFIGPATH=$work/ccache.conf
: > "$CCACHE_CONFIGPATH"

build=$work/build
object=$build/CMakeFiles/cache_app.dir/kernel.cu.o
arch=80 flags=

configure() {
  "$cmake" -S "$work/src" -B "$build" -G Ninja -DCMAKE_CUDA_COMPILER="$mycc" \
    -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    "-DCMAKE_CUDA_FLAGS=$flags" > "$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configure (arch $arch, flags '$flags')"; }
}

stat() {  # ccache's counter
  ccache --print-stats | awk -v k="$1" '$1 == k {print $2}'
}

# Builds and checks the cache's answer for kernel.cu, then compiles kernel.cu
# again without the cache and compares the objects.
step() {  # what, expected answer (hit|miss)
  local what=$1 expected=$2
  ccache --zero-stats >/dev/null
  "$cmake" --build "$build" > "$work/build.log" 2>&1 ||
    { cat "$work/build.log"; fail "$what: build"; }
  local hits misses
  hits=$(($(stat direct_cache_hit) + $(stat preprocessed_cache_hit)))
  misses=$(stat cache_miss)
  local answer=none
  [ "$hits" = 1 ] && [ "$misses" = 0 ] && answer=hit
  [ "$hits" = 0 ] && [ "$misses" = 1 ] && answer=miss
  [ "$answer" = "$expected" ] ||
    fail "$what: expected a $expected, ccache counted $hits hits and $misses misses"

  # The same compile without the cache, into the same path (the object
  # depends on its name).
  local command dir
  command=$(python3 -c 'import json, sys
for c in json.load(open(sys.argv[1])):
    if c["file"].endswith("kernel.cu"):
        print(c["directory"]); print(c["command"])' "$build/compile_commands.json")
  dir=$(sed -n 1p <<<"$command")
  command=$(sed -n 2p <<<"$command")
  mv "$object" "$work/cached.o"
  (cd "$dir" && CCACHE_DISABLE=1 bash -c "$command") > "$work/direct.log" 2>&1 ||
    { cat "$work/direct.log"; fail "$what: the compile without the cache"; }
  cmp -s "$object" "$work/cached.o" ||
    fail "$what: the object differs from the one compiled without the cache"
  note "$what: $answer, object as without the cache"
}

configure
step "first build" miss
rm -rf "$build"
configure
step "a fresh build directory" hit

sed -i 's/HOST_VALUE 1/HOST_VALUE 2/' "$work/src/host_only.h"
step "a host-only header changed" miss
sed -i 's/DEVICE_VALUE 10/DEVICE_VALUE 20/' "$work/src/device_only.h"
step "a device-only header changed" miss
"$mycc" -E -arch=sm_$arch "$work/src/kernel.cu" | grep -q 'device_only.h' ||
  fail "mycc -E does not list the device-only header"

arch=90
configure
step "-arch changed (CUDA_ARCHITECTURES 90)" miss
flags=-Xcompiler=-O1
configure
step "-Xcompiler changed" miss

sed -i 's/HOST_VALUE 2/HOST_VALUE 1/' "$work/src/host_only.h"
sed -i 's/DEVICE_VALUE 20/DEVICE_VALUE 10/' "$work/src/device_only.h"
arch=80 flags=
configure
rm -f "$object"
step "everything as at first" hit
note "ccache: every step answered as expected"
