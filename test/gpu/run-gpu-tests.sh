#!/usr/bin/env bash
# GPU end-to-end tests: compile each test program with the given compiler,
# run it on the GPU and check its output.
#
# Usage: run-gpu-tests.sh <compiler> [extra compiler flags...]
#   e.g. test/gpu/run-gpu-tests.sh build/bin/mycc -arch=sm_90
#        test/gpu/run-gpu-tests.sh nvcc -arch=sm_90      (reference run)
#
# For every primary test file NAME.cu in this directory (files containing a
# "// PART-OF:" line are only parts of another test and are skipped):
#   <compiler> <// FLAGS: words> <extra flags> NAME.cu <// MULTI-FILE: files> -o <workdir>/NAME
# then runs <workdir>/NAME with a timeout and requires that
#   - it exits with status 0,
#   - its output contains the line "PASS NAME",
#   - its output contains every "// EXPECT-OUTPUT: <line>" line as a whole line.
# One line is printed per test:
#   PASS NAME
#   FAIL NAME (compile|run|output) [log: PATH]
#   SKIP NAME (no GPU)
# followed by a summary line "N passed, M failed" (", K skipped" appended when
# K > 0).
#
# Exit status:
#   0   no test failed
#   1   at least one test failed
#   2   usage error
#   77  no GPU was found (nvidia-smi -L fails or lists no GPU): every test is
#       reported as skipped and nothing is compiled. 77 is CTest's
#       SKIP_RETURN_CODE for the gpu_e2e test.
#
# Environment:
#   MYCC_GPU_TESTS_FORCE=1      compile and run even when no GPU is detected
#   MYCC_GPU_TESTS_FILTER=REGEX run only tests whose name matches REGEX (grep -E)
#   MYCC_GPU_TESTS_TIMEOUT=SEC  per-test run time limit (default 60)
#   MYCC_GPU_TESTS_WORKDIR=DIR  where binaries and logs go (default: a new
#                               temporary directory, removed when all tests pass)
#   MYCC_GPU_TESTS_BUILD_ONLY=1 compile only (no GPU needed), keeping the
#                               executables in the work directory
#   MYCC_GPU_TESTS_PREBUILT=DIR run executables compiled earlier into DIR with
#                               MYCC_GPU_TESTS_BUILD_ONLY=1 (no compiler is run;
#                               pass - as <compiler>). This is how a GPU machine
#                               without the build tools runs the suite.

set -u

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  echo "usage: $0 <compiler> [extra compiler flags...]" >&2
  exit 2
fi

compiler=$1
shift
extra_flags=("$@")

build_only=${MYCC_GPU_TESTS_BUILD_ONLY:-0}
prebuilt=${MYCC_GPU_TESTS_PREBUILT:-}
if [ -z "$prebuilt" ] && ! command -v "$compiler" >/dev/null 2>&1; then
  echo "error: compiler '$compiler' not found or not executable" >&2
  exit 2
fi

test_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run_timeout=${MYCC_GPU_TESTS_TIMEOUT:-60}
filter=${MYCC_GPU_TESTS_FILTER:-}

# Collect primary tests (sorted, stable order).
tests=()
for f in "$test_dir"/*.cu; do
  [ -e "$f" ] || continue
  if grep -q '^// PART-OF:' "$f"; then
    continue
  fi
  name=$(basename "$f" .cu)
  if [ -n "$filter" ] && ! printf '%s\n' "$name" | grep -Eq -- "$filter"; then
    continue
  fi
  tests+=("$name")
done

summary() {  # passed failed skipped
  local line="$1 passed, $2 failed"
  if [ "$3" -gt 0 ]; then
    line="$line, $3 skipped"
  fi
  echo "$line"
}

have_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 || return 1
  local out
  out=$(nvidia-smi -L 2>/dev/null) || return 1
  printf '%s\n' "$out" | grep -q '^GPU [0-9]'
}

if [ "${MYCC_GPU_TESTS_FORCE:-0}" != "1" ] && [ "$build_only" != 1 ] && ! have_gpu; then
  for name in ${tests[@]+"${tests[@]}"}; do
    echo "SKIP $name (no GPU)"
  done
  summary 0 0 "${#tests[@]}"
  exit 77
fi

if [ -n "${MYCC_GPU_TESTS_WORKDIR:-}" ]; then
  workdir=$MYCC_GPU_TESTS_WORKDIR
  mkdir -p "$workdir" || exit 2
  workdir=$(cd "$workdir" && pwd) || exit 2
  keep_workdir=1
else
  workdir=$(mktemp -d "${TMPDIR:-/tmp}/mycc-gpu-tests.XXXXXX") || exit 2
  keep_workdir=0
fi

# Prints the text after "// KEY:" for every such line of a file, one per line.
directive() {  # file key
  sed -n "s|^// $2:[[:space:]]*||p" "$1" | sed 's/[[:space:]]*$//'
}

passed=0
failed=0
for name in ${tests[@]+"${tests[@]}"}; do
  src="$test_dir/$name.cu"
  bin="$workdir/$name"
  [ -z "$prebuilt" ] || bin="$(cd "$prebuilt" && pwd)/$name"
  compile_log="$workdir/$name.compile.log"
  run_log="$workdir/$name.run.log"

  flags=()
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    read -r -a words <<<"$line"
    flags+=("${words[@]}")
  done < <(directive "$src" FLAGS)

  files=("$src")
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    read -r -a words <<<"$line"
    for w in "${words[@]}"; do
      files+=("$test_dir/$w")
    done
  done < <(directive "$src" MULTI-FILE)

  # STATIC-LIB: each file compiled with -dc (relocatable device code) into
  # lib<name>.a, which is linked after the other files.
  libs=()
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    read -r -a words <<<"$line"
    libs+=("${words[@]}")
  done < <(directive "$src" STATIC-LIB)

  if [ -n "$prebuilt" ]; then
    if [ ! -x "$bin" ]; then
      echo "FAIL $name (compile) [no prebuilt executable $bin]"
      failed=$((failed + 1))
      continue
    fi
  else
  : >"$compile_log"
  rm -f "$bin"
  if [ ${#libs[@]} -gt 0 ]; then
    archive="$workdir/lib$name.a"
    objects=()
    rm -f "$archive"
    lib_ok=1
    for part in "${libs[@]}"; do
      obj="$workdir/$(basename "$part" .cu).o"
      printf '$ %q -dc ... %q -o %q\n' "$compiler" "$part" "$obj" >>"$compile_log"
      "$compiler" ${extra_flags[@]+"${extra_flags[@]}"} -dc "$test_dir/$part" \
        -o "$obj" >>"$compile_log" 2>&1 || lib_ok=0
      objects+=("$obj")
    done
    [ $lib_ok = 1 ] && ar rcs "$archive" "${objects[@]}" >>"$compile_log" 2>&1 || lib_ok=0
    if [ $lib_ok != 1 ]; then
      echo "FAIL $name (compile) [log: $compile_log]"
      failed=$((failed + 1))
      continue
    fi
    files+=("$archive")
  fi
  {
    printf '$'
    printf ' %q' "$compiler" ${flags[@]+"${flags[@]}"} ${extra_flags[@]+"${extra_flags[@]}"} \
      "${files[@]}" -o "$bin"
    printf '\n'
  } >>"$compile_log"
  "$compiler" ${flags[@]+"${flags[@]}"} ${extra_flags[@]+"${extra_flags[@]}"} "${files[@]}" \
    -o "$bin" >>"$compile_log" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || [ ! -x "$bin" ]; then
    [ $rc -ne 0 ] || echo "(compiler exited 0 but produced no executable)" >>"$compile_log"
    echo "FAIL $name (compile) [log: $compile_log]"
    failed=$((failed + 1))
    continue
  fi
  if [ "$build_only" = 1 ]; then
    echo "BUILT $name"
    passed=$((passed + 1))
    continue
  fi
  fi

  if command -v timeout >/dev/null 2>&1; then
    (cd "$workdir" && timeout "$run_timeout" "$bin") >"$run_log" 2>&1
  else
    (cd "$workdir" && "$bin") >"$run_log" 2>&1
  fi
  rc=$?
  if [ $rc -ne 0 ]; then
    if [ $rc -eq 124 ]; then
      echo "(timed out after ${run_timeout}s)" >>"$run_log"
    else
      echo "(exit status $rc)" >>"$run_log"
    fi
    echo "FAIL $name (run) [log: $run_log]"
    failed=$((failed + 1))
    continue
  fi

  missing=()
  grep -Fxq -- "PASS $name" "$run_log" || missing+=("PASS $name")
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    grep -Fxq -- "$line" "$run_log" || missing+=("$line")
  done < <(directive "$src" EXPECT-OUTPUT)
  if [ ${#missing[@]} -gt 0 ]; then
    for line in "${missing[@]}"; do
      echo "(missing output line: $line)" >>"$run_log"
    done
    echo "FAIL $name (output) [log: $run_log]"
    failed=$((failed + 1))
    continue
  fi

  echo "PASS $name"
  passed=$((passed + 1))
  [ -n "$prebuilt" ] || rm -f "$bin"
done

summary "$passed" "$failed" 0
if [ "$failed" -gt 0 ]; then
  exit 1
fi
if [ "$keep_workdir" = 0 ] && [ "$build_only" != 1 ]; then
  rm -rf "$workdir"
fi
exit 0
