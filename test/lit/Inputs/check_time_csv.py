# Checks a -time table: Python's csv module reads it, it has nvcc's eight
# columns, and one row per job (the count --dryrun printed) plus the
# driver's own row.
import csv
import sys

rows = list(csv.reader(open(sys.argv[1])))
jobs = int(open(sys.argv[2]).read())
header = [c.strip() for c in rows[0]]
expected = ["source file name", "phase name", "phase input files",
            "phase output file", "arch", "tool", "metric", "unit"]
assert header == expected, header
body = rows[1:]
assert all(len(r) == 8 for r in body), body
assert len(body) == jobs + 1, (len(body), jobs)
assert body[-1][1].strip() == "mycc (driver)", body[-1]
for r in body:
    float(r[6])
    assert r[7].strip() == "ms"
print("ok", len(body))
