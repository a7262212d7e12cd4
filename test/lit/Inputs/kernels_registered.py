"""Checks that every kernel a lowered host unit (-cuda) registers is an
.entry of the PTX: the host and device sides agree on each kernel's name.
Usage: kernels_registered.py UNIT.ii X.ptx; prints the count, exit 1 on a
name the PTX lacks."""
import re
import sys

unit = open(sys.argv[1]).read()
ptx = open(sys.argv[2]).read()
# {(const void *)&__mycc_kernel_N, "<device name>"}: the table's entries.
registered = re.findall(
    r'\{\(const void \*\)&__mycc_kernel_\d+, "([^"]+)"\}', unit)
entries = set(re.findall(r"^\.(?:visible )?\.entry (\S+?)\(", ptx, re.M))
missing = [name for name in registered if name not in entries]
for name in missing:
    print("not in the PTX:", name)
print(f"{len(registered)} kernels registered, {len(missing)} missing")
sys.exit(1 if missing or not registered else 0)
