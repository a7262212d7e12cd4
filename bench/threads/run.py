#!/usr/bin/env python3
"""Parallel jobs benchmark: -t 1 against -t 0 (mycc's default), and a whole
project built by make -jN with mycc's default (make's jobserver bounds it)
and with -t 1, side by side with nvcc.

Part 1 compiles each program to an object for three targets (sm_80, sm_86,
sm_90 cubins plus compute_90 PTX) with `mycc -t 1`, `mycc -t 0`, `nvcc -t 1`
and `nvcc -t 0`, interleaved, and reports medians.

Part 3 (--split) times -split-compile on large files: one target, so the
split inside the device job is the only parallelism, -split-compile 1
against 0 (one thread per CPU).

Part 2 compiles all programs at once through a generated Makefile with
`make -j<cores>`: mycc default (parallel jobs, bounded by make's jobserver
tokens), mycc -t 1, nvcc (its default is -t 1); then the same through a
generated build.ninja with `ninja -j<cores>` (no jobserver); median wall
time of the whole build.

    bench/threads/run.py [--mycc build/bin/mycc] [--repeat 3]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "compile_time"))
from run import PROGRAMS, NVCC_TARGETS, cuda_path  # noqa: E402


def timed(cmd, **kw):
    start = time.perf_counter()
    result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit("benchmark command failed: %s\n%s" % (" ".join(cmd), result.stderr.decode()))
    return elapsed


def per_file(args, nvcc, tmp):
    variants = {
        "mycc -t 1": [args.mycc, "-t", "1"],
        "mycc -t 0": [args.mycc, "-t", "0"],
        "nvcc -t 1": [nvcc, "-t", "1", "--extended-lambda"],
        "nvcc -t 0": [nvcc, "-t", "0", "--extended-lambda"],
    }
    times = {v: {p: [] for p in PROGRAMS} for v in variants}
    for program in PROGRAMS:
        source = os.path.join(ROOT, program)
        for _ in range(args.repeat):
            for v, cmd in variants.items():
                out = os.path.join(tmp, "x.o")
                times[v][program].append(
                    timed(cmd + ["-c", source, "-o", out, "-std=c++17"] + NVCC_TARGETS))
    names = list(variants)
    lines = ["| program | " + " | ".join(n + " (s)" for n in names) +
             " | mycc -t0/-t1 | mycc -t0 / nvcc -t0 |",
             "|---|" + "---:|" * (len(names) + 2)]
    totals = {v: 0.0 for v in names}
    for program in PROGRAMS:
        med = {v: statistics.median(times[v][program]) for v in names}
        for v in names:
            totals[v] += med[v]
        lines.append("| %s | %s | %.2f | %.2f |" % (
            program, " | ".join("%.2f" % med[v] for v in names),
            med["mycc -t 0"] / med["mycc -t 1"], med["mycc -t 0"] / med["nvcc -t 0"]))
    lines.append("| **total** | %s | **%.2f** | **%.2f** |" % (
        " | ".join("**%.2f**" % totals[v] for v in names),
        totals["mycc -t 0"] / totals["mycc -t 1"], totals["mycc -t 0"] / totals["nvcc -t 0"]))
    return "\n".join(lines)


def project(args, nvcc, tmp, jobs):
    rules = []
    objects = []
    for i, program in enumerate(PROGRAMS):
        obj = "o%d.o" % i
        objects.append(obj)
        rules.append("%s:\n\t+$(CC_CUDA) $(FLAGS) -c %s -o $@\n" % (obj, os.path.join(ROOT, program)))
    makefile = os.path.join(tmp, "Makefile")
    with open(makefile, "w") as f:
        f.write("all: %s\n" % " ".join(objects))
        f.write("".join(rules))
    flags = "-std=c++17 " + " ".join(NVCC_TARGETS).replace("[", "\\[").replace("]", "\\]")
    variants = {
        "mycc (default: -t 0 + jobserver)": (args.mycc, ""),
        "mycc -t 1": (args.mycc, "-t 1"),
        "nvcc (default: -t 1)": (nvcc, "--extended-lambda"),
    }
    times = {v: [] for v in variants}
    for _ in range(args.repeat):
        for v, (cc, extra) in variants.items():
            subprocess.run(["make", "-s", "-C", tmp, "-f", makefile, "clean"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for obj in objects:
                p = os.path.join(tmp, obj)
                if os.path.exists(p):
                    os.remove(p)
            times[v].append(timed(["make", "-C", tmp, "-f", makefile, "-j%d" % jobs,
                                   "CC_CUDA=" + cc, "FLAGS=" + flags + " " + extra]))
    # Ninja offers no jobserver: mycc's default runs its own parallelism
    # inside each of ninja's jobs.
    ninja = shutil.which("ninja")
    if ninja:
        with open(os.path.join(tmp, "build.ninja"), "w") as f:
            f.write("rule cc\n  command = $cc $flags -c $in -o $out\n")
            for i, program in enumerate(PROGRAMS):
                f.write("build n%d.o: cc %s\n" % (i, os.path.join(ROOT, program)))
        ninja_variants = {
            "ninja: mycc (default: -t 0)": (args.mycc, ""),
            "ninja: mycc -t 1": (args.mycc, "-t 1"),
            "ninja: nvcc (default: -t 1)": (nvcc, "--extended-lambda"),
        }
        for v in ninja_variants:
            variants[v] = ninja_variants[v]
            times[v] = []
        for _ in range(args.repeat):
            for v, (cc, extra) in ninja_variants.items():
                with open(os.path.join(tmp, "vars.ninja"), "w") as f:
                    f.write("cc = %s\nflags = %s %s\n" % (cc, flags, extra))
                with open(os.path.join(tmp, "build.ninja")) as f:
                    body = f.read()
                if not body.startswith("include vars.ninja"):
                    with open(os.path.join(tmp, "build.ninja"), "w") as f:
                        f.write("include vars.ninja\n" + body)
                for i in range(len(PROGRAMS)):
                    p = os.path.join(tmp, "n%d.o" % i)
                    if os.path.exists(p):
                        os.remove(p)
                times[v].append(timed([ninja, "-C", tmp, "-j%d" % jobs]))
    lines = ["| -j%d, %d programs | wall (s) | / nvcc |" % (jobs, len(PROGRAMS)),
             "|---|---:|---:|"]
    for v in variants:
        base = statistics.median(times[("ninja: " if v.startswith("ninja") else "") +
                                       "nvcc (default: -t 1)"])
        med = statistics.median(times[v])
        lines.append("| %s | %.2f | %.2f |" % (v if v.startswith("ninja") else "make: " + v,
                                                med, med / base))
    return "\n".join(lines)


SPLIT_PROGRAMS = ["test/gpu/dialect_thrust_cub.cu", "bench/thrust/algorithms.cu"]


def split(args, tmp):
    variants = {"-split-compile 1": ["-split-compile", "1"],
                "-split-compile 0": ["-split-compile", "0"]}
    times = {v: {p: [] for p in SPLIT_PROGRAMS} for v in variants}
    for program in SPLIT_PROGRAMS:
        source = os.path.join(ROOT, program)
        for _ in range(args.repeat):
            for v, flags in variants.items():
                cmd = [args.mycc, "-c", source, "-o", os.path.join(tmp, "s.o"),
                       "-arch=sm_90", "-std=c++17", "--extended-lambda",
                       "-I" + os.path.join(ROOT, "test", "gpu")] + flags
                times[v][program].append(timed(cmd))
    lines = ["| program (-c -arch=sm_90) | -split-compile 1 (s) | -split-compile 0 (s) | 0/1 |",
             "|---|---:|---:|---:|"]
    for program in SPLIT_PROGRAMS:
        one = statistics.median(times["-split-compile 1"][program])
        all_ = statistics.median(times["-split-compile 0"][program])
        lines.append("| %s | %.2f | %.2f | %.2f |" % (program, one, all_, all_ / one))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mycc", default=os.path.join(ROOT, "build", "bin", "mycc"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-per-file", action="store_true")
    parser.add_argument("--split", action="store_true")
    args = parser.parse_args()
    nvcc = os.path.join(cuda_path(), "bin", "nvcc")
    cores = os.cpu_count()
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        if not args.skip_per_file:
            parts.append(per_file(args, nvcc, tmp))
        parts.append(project(args, nvcc, tmp, cores))
        if args.split:
            parts.append(split(args, tmp))
    print("\n\n".join(parts))
    print("\nmedian of %d runs, %d CPU cores, targets: %s" % (
        args.repeat, cores, " ".join(NVCC_TARGETS)))


if __name__ == "__main__":
    main()
