#!/usr/bin/env bash
# Builds the build-system examples (examples/cmake, examples/make,
# examples/meson) with mycc, each into a fresh temporary directory, and checks
# what the build system saw (docs/build-systems.md).
#
#   run.sh cmake   <mycc> <source dir> <toolkit> <cmake> [min version]
#       configures and builds examples/cmake with Ninja and with Unix
#       Makefiles; checks CMake's identification of mycc (NVIDIA, the
#       toolkit's version) and the outputs
#   run.sh install <mycc> <source dir> <toolkit> <cmake> <mycc build dir>
#       `cmake --install` into a temporary prefix; checks the toolkit-shaped
#       layout and that the installed mycc compiles and links
#   run.sh make    <mycc> <source dir> <toolkit>
#   run.sh meson   <mycc> <source dir> <toolkit>
#
# Exit status: 0 passed, 1 failed, 77 (skipped) when the build system is not
# installed; with MYCC_REQUIRE_BUILD_SYSTEMS (scripts/test.sh sets it) or CI set in
# the environment a missing build system fails.
# Programs are run (and must pass) only where a GPU is present.
set -u

mode=${1:?mode}
mycc=${2:?mycc}
src=${3:?source dir}
toolkit=${4:?toolkit}
shift 4

. "$(dirname "$0")/common.sh"

[ -x "$mycc" ] || fail "no mycc at $mycc"
prefix=$(cd "$(dirname "$mycc")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mycc-build-systems.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

have_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU [0-9]'
}

# The toolkit's nvcc version, read without mycc: version.json's cuda_nvcc
# entry, else the toolkit's own nvcc.
toolkit_version() {
  if [ -f "$toolkit/version.json" ]; then
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cuda_nvcc"]["version"])' \
      "$toolkit/version.json" && return
  fi
  if [ -x "$toolkit/bin/nvcc" ]; then
    "$toolkit/bin/nvcc" --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p' | tail -n1
    return
  fi
  fail "cannot read the version of the toolkit at $toolkit"
}
version=$(toolkit_version)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "toolkit version '$version'"
note "toolkit $toolkit, nvcc $version; mycc $mycc (prefix $prefix)"

# A fresh unit to probe what mycc accepts.
probe=$work/probe
mkdir -p "$probe"
printf '__global__ void probe_kernel(int *p) { *p = 1; }\n' > "$probe/probe.cu"
accepts() { (cd "$probe" && "$mycc" "$@" >/dev/null 2>&1); }

expect_files() {  # dir files...
  local dir=$1 f
  shift
  for f in "$@"; do
    [ -f "$dir/$f" ] || fail "$dir/$f was not built"
  done
}

# Checks `set(VAR "value")` in CMakeCUDACompiler.cmake.
expect_var() {  # file var value
  local got
  got=$(sed -n "s/^set($2 \"\(.*\)\")\$/\1/p" "$1")
  [ "$got" = "$3" ] || fail "$2 is '$got', expected '$3' ($1)"
}

run_cmake() {
  local cmake=${1:?cmake} min=${2:-3.25}
  [ -x "$cmake" ] || missing "no CMake at '$cmake'"
  local cmake_version
  cmake_version=$("$cmake" --version | sed -n 's/^cmake version \([0-9.]*\).*/\1/p')
  printf '%s\n%s\n' "$min" "$cmake_version" | sort -V -C ||
    missing "CMake $cmake_version at $cmake is older than $min"
  note "CMake $cmake_version ($cmake)"

  local extra=()
  local programs=(main_app host_app mixed_app rdc_app)

  local generator
  for generator in Ninja "Unix Makefiles"; do
    local dir="$work/cmake-${cmake_version}-${generator// /-}"
    local start=$SECONDS
    "$cmake" -S "$src/examples/cmake" -B "$dir" -G "$generator" \
      -DCMAKE_CUDA_COMPILER="$mycc" "${extra[@]}" > "$dir.configure.log" 2>&1 ||
      { cat "$dir.configure.log"; fail "CMake $cmake_version ($generator) configure"; }
    # The identification, as CMake prints it.
    local line
    line=$(grep -m1 'The CUDA compiler identification is' "$dir.configure.log")
    echo "$line"
    [[ $line == "-- The CUDA compiler identification is NVIDIA $version"* ]] ||
      fail "CMake $cmake_version identified mycc as: $line"
    local info
    info=$(ls "$dir"/CMakeFiles/*/CMakeCUDACompiler.cmake) || fail "no CMakeCUDACompiler.cmake"
    expect_var "$info" CMAKE_CUDA_COMPILER_ID NVIDIA
    expect_var "$info" CMAKE_CUDA_COMPILER_VERSION "$version"
    expect_var "$info" CMAKE_CUDA_COMPILER_TOOLKIT_VERSION "$version"
    expect_var "$info" CMAKE_CUDA_COMPILER_TOOLKIT_ROOT "$prefix"
    grep -q '^set(CMAKE_CUDA_HOST_IMPLICIT_LINK_LIBRARIES "mycc_rt")$' "$info" ||
      fail "CMake does not link mycc's runtime: $(grep HOST_IMPLICIT_LINK_LIBRARIES "$info")"
    grep -q '^set(CMAKE_CUDA_RUNTIME_LIBRARY_DEFAULT "STATIC")$' "$info" ||
      fail "CUDA runtime default: $(grep RUNTIME_LIBRARY_DEFAULT "$info")"
    grep -q '^-- CUDA compiler: NVIDIA .*toolkit '"$version"' in '"$prefix"'/bin' "$dir.configure.log" ||
      fail "FindCUDAToolkit: $(grep -- '-- CUDA compiler:' "$dir.configure.log")"

    "$cmake" --build "$dir" --parallel 2 > "$dir.build.log" 2>&1 ||
      { cat "$dir.build.log"; fail "CMake $cmake_version ($generator) build"; }
    expect_files "$dir" "${programs[@]}" libscale_static.a libreduce_shared.so
    if have_gpu; then
      "$(dirname "$cmake")/ctest" --test-dir "$dir" --output-on-failure ||
        fail "CMake $cmake_version ($generator): the programs failed"
    fi
    note "CMake $cmake_version, $generator: configured and built in $((SECONDS - start)) s"
  done
}

run_install() {
  local cmake=${1:?cmake} build=${2:?build dir}
  local inst=$work/install
  "$cmake" --install "$build" --prefix "$inst" > "$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "cmake --install"; }
  local f
  for f in bin/mycc bin/nvcc include/mycc/prelude.h include/cuda_runtime.h \
           lib64/libmycc_rt.a lib64/libcudart_static.a lib64/libcudadevrt.a \
           lib64/libcudart.so version.json; do
    [ -e "$inst/$f" ] || fail "the install has no $f"
  done
  [ -d "$inst/nvvm/libdevice" ] || fail "the install has no nvvm/libdevice"
  [ "$(readlink "$inst/bin/nvcc")" = mycc ] || fail "bin/nvcc is not a link to mycc"
  "$inst/bin/nvcc" --version | tail -n1 | grep -qx "Cuda compilation tools, release ${version%.*}, V$version" ||
    fail "installed --version: $("$inst/bin/nvcc" --version | tail -n1)"
  "$inst/bin/mycc" -v __cmake_determine_cuda 2>&1 | grep -qx "#\$ TOP=$inst" ||
    fail "installed -v: $("$inst/bin/mycc" -v __cmake_determine_cuda 2>&1 | head -n1)"
  (cd "$probe" && printf 'int main() { int *p = 0; probe_kernel<<<1, 1>>>(p); return 0; }\n' >> probe.cu &&
   "$inst/bin/mycc" probe.cu -o probe_installed) || fail "the installed mycc cannot build a program"
  note "install: toolkit-shaped prefix at $inst; its mycc builds programs"
}

run_make() {
  command -v make >/dev/null || missing "make is not installed"
  local out=$work/make start=$SECONDS
  make -C "$src/examples/make" NVCC="$mycc" OUT="$out" -j2 > "$work/make.log" 2>&1 ||
    { cat "$work/make.log"; fail "make"; }
  expect_files "$out" main host_main libscale.a libreduce.so
  if have_gpu; then
    make -C "$src/examples/make" NVCC="$mycc" OUT="$out" check || fail "make check"
  fi
  note "Make: built in $((SECONDS - start)) s"
}

run_meson() {
  command -v meson >/dev/null || missing "meson is not installed"
  command -v ninja >/dev/null || missing "ninja is not installed"
  local dir=$work/meson start=$SECONDS
  # The native file names `mycc`: the prefix's bin/ goes first on PATH.
  PATH="$prefix/bin:$PATH" meson setup --native-file "$src/examples/meson/mycc.ini" \
    "$dir" "$src/examples/meson" > "$work/meson.log" 2>&1 ||
    { cat "$work/meson.log"; fail "meson setup"; }
  local line
  line=$(grep -m1 'Cuda compiler for the host machine' "$work/meson.log")
  echo "$line"
  [ "$line" = "Cuda compiler for the host machine: mycc (nvcc $version)" ] ||
    fail "Meson saw: $line"
  PATH="$prefix/bin:$PATH" meson compile -C "$dir" > "$work/meson-build.log" 2>&1 ||
    { cat "$work/meson-build.log"; fail "meson compile"; }
  expect_files "$dir" main host_main libscale.a libreduce.so
  if have_gpu; then
    PATH="$prefix/bin:$PATH" meson test -C "$dir" --print-errorlogs || fail "meson test"
  fi
  note "Meson $(meson --version): configured and built in $((SECONDS - start)) s"
}

case $mode in
  cmake) run_cmake "$@" ;;
  install) run_install "$@" ;;
  make) run_make ;;
  meson) run_meson ;;
  *) fail "unknown mode '$mode'" ;;
esac
echo PASS
