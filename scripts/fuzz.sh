#!/usr/bin/env bash
# Builds the libFuzzer targets (test/fuzz, with clang++-22 and
# -fsanitize=fuzzer,address,undefined) and runs each for SECONDS (default
# 60) from its seed corpus (test/fuzz/corpus/<target>, copied: the runs do
# not change the project's corpus). A finding (crash, leak, timeout, memory
# over 2 GB) fails the run; the input that found it is written to
# build-fuzz/findings/. CI runs it bounded; docs/reliability.md records
# longer runs.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# MYCC_FUZZ_JOBS=N runs N processes per target sharing one corpus (libFuzzer's
# -jobs/-workers) and reports their executions together.
# MYCC_FUZZ_NO_BUILD=1 runs the binaries already in the build directory (on
# a machine without Clang).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(fatbin_fuzz options_fuzz jit_cache_fuzz runtime_module_fuzz objdump_fuzz)
cxx=${MYCC_FUZZ_CXX:-clang++-22}
command -v "$cxx" >/dev/null || cxx=/usr/lib/llvm-22/bin/clang++
build=${MYCC_FUZZ_BUILD:-build-fuzz}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ -z "${MYCC_FUZZ_NO_BUILD:-}" ]; then
  cmake -S test/fuzz -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
  cmake --build "$build" --target "${targets[@]}" >/dev/null
fi
jobs=${MYCC_FUZZ_JOBS:-1}
mkdir -p "$build/findings"
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/${target%_fuzz}"
  rm -rf "$corpus" && mkdir -p "$corpus"
  cp test/fuzz/corpus/"${target%_fuzz}"/* "$corpus"/
  log="$build/$target.log"
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
  rm -f fuzz-*.log
  if "$build/$target" "$corpus" "${parallel[@]}" -max_total_time="$seconds" \
       -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/findings/$target-" >"$log" 2>&1 &&
     ! ls "$build/findings/$target-"* >/dev/null 2>&1; then
    if [ "$jobs" -gt 1 ]; then # each job's statistics are in its own log
      runs=$(cat fuzz-*.log | sed -n 's/^stat::number_of_executed_units: *//p' |
             awk '{ n += $1 } END { print n + 0 }')
    else
      runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    fi
    echo "PASS $target: $runs executions in ${seconds}s x $jobs, no finding"
  else
    echo "FAIL $target: a finding (log: $log)"
    grep -hE "ERROR|SUMMARY|artifact" "$log" fuzz-*.log 2>/dev/null | head -5
    status=1
  fi
  [ "$jobs" -gt 1 ] && mv fuzz-*.log "$build/" 2>/dev/null
done
exit $status
