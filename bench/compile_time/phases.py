#!/usr/bin/env python3
"""Where the CPU time of a real file's compile goes: mycc's jobs, nvcc's
steps and clang++'s host and device halves, side by side.

The files and flags are real.py's. Each compiler runs one step at a time,
so a step's time is its CPU time on an otherwise idle core (`-time` reports
elapsed time: run it on an idle machine; clang++'s are CPU times):

- mycc `-t 1 -time`: its jobs one after another (preprocess-host,
  lower-host, compile-device per target, ptxas, bundle, compile-host, ...);
- nvcc `-time` (its default, one step at a time);
- clang++ three times: `--cuda-host-only`, `--cuda-device-only` (its
  front end, optimiser and code generation, and ptxas, for each target) and
  the whole compile (the two and the fat binary; its total below).

The steps are grouped by what they do, the same for each compiler:

| group | mycc | nvcc |
|---|---|---|
| host preprocess | preprocess-host (g++ -E) | gcc (preprocessing 4) |
| host front end | lower-host | cudafe++ |
| host compile | compile-host (g++ -c) | gcc (compiling) |
| device compile | compile-device | gcc (preprocessing 1), cicc |
| ptxas | ptxas | ptxas |
| other | bundle, embed-device-code, driver | fatbinary, driver |

Prints the medians over the rounds, in seconds, as a Markdown table.

    bench/compile_time/phases.py --source ggml=DIR --source cccl=DIR \\
        --source cutlass=DIR [--mycc build/bin/mycc] [--repeat 3] [--only NAME] \\
        [--targets one|three|both]
"""
import argparse
import csv
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real import TARGETS, chosen_files, commands, file_arguments, measure  # noqa: E402

GROUPS = ["host preprocess", "host front end", "host compile", "device compile",
          "ptxas", "other"]
STEP_GROUP = {
    "preprocess-host": "host preprocess", "gcc (preprocessing 4)": "host preprocess",
    "lower-host": "host front end", "cudafe++": "host front end",
    "compile-host": "host compile", "gcc (compiling)": "host compile",
    "compile-device": "device compile", "gcc (preprocessing 1)": "device compile",
    "cicc": "device compile",
    "ptxas": "ptxas",
}


def timed_steps(cmd, csv_path):
    """Seconds per group from a compiler's -time file (one run)."""
    if os.path.exists(csv_path):
        os.remove(csv_path)
    measure(cmd)
    groups = dict.fromkeys(GROUPS, 0.0)
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    header = [h.strip() for h in rows[0]]
    phase, metric, unit = header.index("phase name"), header.index("metric"), header.index("unit")
    for row in rows[1:]:
        if len(row) <= unit or row[unit].strip() != "ms":
            continue
        step = row[phase].strip()
        groups[STEP_GROUP.get(step, "other")] += float(row[metric]) / 1000.0
    return groups


def with_time(cmd, csv_path, extra):
    """The command with `extra` and `-time csv_path` after the compiler."""
    return [cmd[0]] + extra + ["-time", csv_path] + cmd[1:]


def main():
    parser = argparse.ArgumentParser()
    file_arguments(parser)
    args = parser.parse_args()
    names, sets = chosen_files(args)

    results = {}  # (name, set, compiler) -> [groups dict]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.o")
        times = os.path.join(tmp, "time.csv")
        for r in range(args.repeat):
            for name in names:
                for tset in sets:
                    cmds = commands(args, name, TARGETS[tset], out)
                    runs = {
                        "mycc": timed_steps(with_time(cmds["mycc"], times, ["-t", "1"]), times),
                        "nvcc": timed_steps(with_time(cmds["nvcc"], times, []), times),
                    }
                    clang = cmds["clang"]
                    at = clang.index("-o")
                    # Device only: an object per target, named by clang++ in
                    # the working directory (it takes no -o for several).
                    device = clang[:at] + clang[at + 2:] + ["--cuda-device-only"]
                    runs["clang"] = {"host half": measure(clang + ["--cuda-host-only"])[1],
                                     "device half": measure(device, cwd=tmp)[1],
                                     "whole": measure(clang)[1]}
                    for c, groups in runs.items():
                        results.setdefault((name, tset, c), []).append(groups)
                        print("round %d %s %s %s: %s" % (r + 1, name, tset, c, ", ".join(
                            "%s %.1f" % kv for kv in groups.items())), file=sys.stderr, flush=True)

    def med(key, group):
        return statistics.median(g[group] for g in results[key])

    def halves(key):
        if key[2] == "clang":
            return med(key, "host half"), med(key, "device half")
        host = sum(med(key, g) for g in ["host preprocess", "host front end", "host compile"])
        return host, sum(med(key, g) for g in ["device compile", "ptxas"])

    cols = GROUPS + ["host half", "device half", "total"]
    print("| file | targets | compiler | " + " | ".join(cols) + " |")
    print("|---|---|---|" + "---:|" * len(cols))
    for name in names:
        for tset in sets:
            for c in ["mycc", "nvcc", "clang"]:
                key = (name, tset, c)
                host, device = halves(key)
                total = (med(key, "whole") if c == "clang"
                         else host + device + med(key, "other"))
                cells = ["–" if c == "clang" else "%.1f" % med(key, g) for g in GROUPS]
                cells += ["%.1f" % host, "%.1f" % device, "%.1f" % total]
                print("| %s | %s | %s | %s |" % (name, tset, c, " | ".join(cells)))
    print("\nCPU seconds, median of %d rounds; mycc -t 1 and nvcc run one step at a time; "
          "clang++'s halves are its --cuda-host-only and --cuda-device-only compiles, "
          "its total the whole compile" % args.repeat)


if __name__ == "__main__":
    main()
