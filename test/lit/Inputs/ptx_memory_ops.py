"""Compares the memory operations with ordering or cache semantics of two PTX
files, kernel by kernel: atom, red, fence and membar, and ld/st with a memory
order (.relaxed, .acquire, .release, .volatile) or a cache operator (.ca, .cg,
.cs, .lu, .cv, .wb, .wt). Only the instruction names are compared, in order.
Usage: ptx_memory_ops.py MYCC.ptx NVCC.ptx; prints each kernel that differs
and exits 1 if any does (or if no kernel has such an operation)."""
import re
import sys

SEMANTIC = re.compile(
    r"^(atom|red|fence|membar)\b|^(ld|st)\.(\S*\.)?"
    r"(relaxed|acquire|release|volatile|ca|cg|cs|lu|cv|wb|wt)\b")


def kernels(path):
    ops, name = {}, None
    for line in open(path):
        m = re.match(r"^\.(?:visible |weak )?\.entry (\S+?)\(", line)
        if m:
            name = m.group(1)
            ops[name] = []
            continue
        text = line.strip()
        if name and SEMANTIC.match(text):
            ops[name].append(text.split()[0].rstrip(";"))
    return ops


mine, theirs = kernels(sys.argv[1]), kernels(sys.argv[2])
differ = 0
for name in sorted(set(mine) | set(theirs)):
    a, b = mine.get(name), theirs.get(name)
    if a != b:
        differ += 1
        print(f"{name}:\n  mycc: {a}\n  nvcc: {b}")
count = sum(len(v) for v in mine.values())
print(f"{len(mine)} kernels, {count} operations, {differ} differ")
sys.exit(1 if differ or not count else 0)
