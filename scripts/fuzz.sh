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
cmake -S test/fuzz -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build "$build" --target "${targets[@]}" >/dev/null
mkdir -p "$build/findings"
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/${target%_fuzz}"
  rm -rf "$corpus" && mkdir -p "$corpus"
  cp test/fuzz/corpus/"${target%_fuzz}"/* "$corpus"/
  log="$build/$target.log"
  if "$build/$target" "$corpus" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/findings/$target-" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "PASS $target: $runs executions in ${seconds}s, no finding"
  else
    echo "FAIL $target: a finding (log: $log)"
    grep -E "ERROR|SUMMARY|artifact" "$log" | head -5
    status=1
  fi
done
exit $status
