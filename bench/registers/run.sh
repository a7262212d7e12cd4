#!/usr/bin/env bash
# Registers per kernel (ptxas -v) of bench/registers/algorithms.cu, side by
# side for two compilers, for example mycc and an older mycc, or nvcc:
#   bench/registers/run.sh build/bin/mycc ../before/build/bin/mycc [-arch=sm_90]
# Prints the kernels whose counts differ ("A -> B name") and a summary line.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 COMPILER_A COMPILER_B [flags...]" >&2; exit 2; }
a=$1 b=$2; shift 2
flags=("$@"); [ ${#flags[@]} -gt 0 ] || flags=(-arch=sm_90)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for side in a b; do
  cc=$a; [ $side = b ] && cc=$b
  "$cc" "${flags[@]}" --extended-lambda -std=c++17 -c "$here/algorithms.cu" \
    -o "$work/$side.o" -Xptxas -v > "$work/$side.log" 2>&1 ||
    { cat "$work/$side.log" >&2; exit 1; }
done
python3 - "$work/a.log" "$work/b.log" <<'PY'
import re, sys
def regs(path):
    out, name = {}, None
    for line in open(path):
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m: name = m.group(1)
        m = re.search(r'Used (\d+) registers', line)
        if m and name: out[name] = int(m.group(1)); name = None
    return out
a, b = regs(sys.argv[1]), regs(sys.argv[2])
common = sorted(set(a) & set(b))
up = down = 0
for k in common:
    if a[k] != b[k]:
        print(f'{a[k]:4d} -> {b[k]:4d}  {k}')
        up += b[k] > a[k]; down += b[k] < a[k]
print(f'{len(common)} kernels in both, {len(a) - len(common)} only in A, {len(b) - len(common)} only in B; {down} fewer registers in B, {up} more')
PY
