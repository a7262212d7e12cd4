"""Runs N copies of one compile into the same output at once, as build
systems may (two targets sharing an object, retries), and reports how many
succeeded and whether the output is a valid object:
    parallel_same_output.py N OUTPUT command...   (command writes OUTPUT)"""
import subprocess
import sys

n, output, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
procs = [subprocess.Popen(command, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE) for _ in range(n)]
ok = 0
for p in procs:
    _, err = p.communicate()
    if p.returncode == 0:
        ok += 1
    else:
        sys.stderr.write(err.decode(errors="replace"))
with open(output, "rb") as f:
    elf = f.read(4) == b"\x7fELF"
print(f"{ok}/{n} succeeded, output {'is an ELF object' if elf else 'is not an object'}")
