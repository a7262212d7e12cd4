"""Compares two PTX files kernel by kernel, on one class of instructions:
  memory  operations with ordering or cache semantics: atom, red, fence and
          membar, and ld/st with a memory order (.relaxed, .acquire, .release,
          .volatile) or a cache operator (.ca, .cg, .cs, .lu, .cv, .wb, .wt),
          compared in order;
  float   the floating-point operations whose precision nvcc's -ftz,
          -prec-div, -prec-sqrt and -use_fast_math choose (div, rcp, sqrt,
          rsqrt, sin, cos, ex2, lg2, tanh with their .approx/.full/.rn/.ftz
          qualifiers), compared as multisets (schedules differ).
Only the instruction names are compared.
Usage: ptx_ops.py memory|float MYCC.ptx NVCC.ptx; prints each kernel that
differs and exits 1 if any does (or if no kernel has such an operation)."""
import re
import sys

CLASSES = {
    "memory": (re.compile(
        r"^(atom|red|fence|membar)\b|^(ld|st)\.(\S*\.)?"
        r"(relaxed|acquire|release|volatile|ca|cg|cs|lu|cv|wb|wt)\b"), False),
    "float": (re.compile(
        r"^(div|rcp|sqrt|rsqrt|sin|cos|ex2|lg2|tanh)\.\S*f(32|64)\b"), True),
}


def kernels(path, pattern, unordered):
    ops, name = {}, None
    for line in open(path):
        m = re.match(r"^\.(?:visible |weak )?\.entry (\S+?)\(", line)
        if m:
            name = m.group(1)
            ops[name] = []
            continue
        text = line.strip()
        if name and pattern.match(text):
            ops[name].append(text.split()[0].rstrip(";"))
    if unordered:
        for name in ops:
            ops[name].sort()
    return ops


pattern, unordered = CLASSES[sys.argv[1]]
mine = kernels(sys.argv[2], pattern, unordered)
theirs = kernels(sys.argv[3], pattern, unordered)
differ = 0
for name in sorted(set(mine) | set(theirs)):
    a, b = mine.get(name), theirs.get(name)
    if a != b:
        differ += 1
        print(f"{name}:\n  mycc: {a}\n  nvcc: {b}")
count = sum(len(v) for v in mine.values())
print(f"{len(mine)} kernels, {count} operations, {differ} differ")
sys.exit(1 if differ or not count else 0)
