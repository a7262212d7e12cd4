#!/usr/bin/env bash
# Builds mycc, compiles the bundled example for two GPU generations, shows
# what went into the binary, and runs it when a GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
out=build/examples
mkdir -p "$out"
set -x
build/bin/mycc examples/vector_add.cu \
  -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90,code=[sm_90,compute_90] \
  -o "$out/vector_add" --keep --keep-dir "$out/keep"
{ set +x; } 2>/dev/null
echo "== intermediate files (--keep):"
ls -l "$out/keep"
echo "== kernels in the PTX:"
grep -h -E '^\.(target|version)|\.entry' "$out"/keep/vector_add.compute_*.ptx
echo "== fat binary sections in the executable:"
readelf -S -W "$out/vector_add" | grep -E 'nv_fatbin|nvFatBinSegment'
echo "== its images, and which one each GPU generation would run:"
build/bin/mycc-objdump --list "$out/vector_add"
build/bin/mycc-objdump --matrix "$out/vector_add"
if nvidia-smi -L >/dev/null 2>&1; then
  echo "== running on: $(nvidia-smi -L | head -n1)"
  MYCC_LOG=select "$out/vector_add"
else
  echo "== no GPU here: not running $out/vector_add"
fi
